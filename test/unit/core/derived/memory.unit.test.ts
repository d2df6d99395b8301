// Memory follows the screen: over many sessions the store, the health book and the request,
// file and ledger books hold whole plans and states for a bounded few (counts, not timings);
// the reader, the store and the health and needs-you books keep one shared record per
// session; a session held as a summary shows its whole plan, history, signals and place in
// the needs-you queue when opened.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HealthBook } from '../../../../src/core/derived/healthBook';
import { FileBook } from '../../../../src/core/derived/itemFiles';
import { LedgerBook } from '../../../../src/core/derived/ledgerBook';
import { NeedsYouBook } from '../../../../src/core/derived/needsYouBook';
import { countItems, type PlanItem, type Todo } from '../../../../src/core/plan/plan';
import { RequestBook } from '../../../../src/core/derived/requests';
import { BOOK_SESSIONS_KEPT } from '../../../../src/core/derived/sessionBook';
import { hashIdentity } from '../../../../src/core/log/sessionKey';
import { SessionLog } from '../../../../src/core/log/sessionLog';
import { FULL_PLANS_KEPT, PlanStore, SummaryEvent, TITLES_KEPT } from '../../../../src/core/store/store';
import { nodeFileSystem } from '../../../../src/node/nodeFileSystem';
import { useTempDir } from '../../../lib/temp';

const START = Date.UTC(2025, 0, 1);

/** Counts the store's reads of a file's tail from now on. */
function countTailReads(store: PlanStore): () => number {
  const log = (store as unknown as { log: SessionLog }).log;
  const tailNow = log.tailNow.bind(log);
  let reads = 0;
  log.tailNow = (session) => {
    reads++;
    return tailNow(session);
  };
  return () => reads;
}

function items(session: number, step: number): PlanItem[] {
  return [0, 1, 2].map((index) => ({ content: `task ${index} of ${session}`, status: index < step ? 'completed' : index === step ? 'in_progress' : 'pending' }));
}

function line(key: string, ts: number, todos: PlanItem[]): string {
  return JSON.stringify({ v: 1, type: 'todo/write', ts: new Date(ts).toISOString(), session: key, todos, counts: countItems(todos) }) + '\n';
}

/** `count` session logs of two versions each, the later ones newer; returns their keys. */
function writeSessions(dir: string, count: number): string[] {
  fs.mkdirSync(dir, { recursive: true });
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const key = hashIdentity(`memory ${i}`);
    const file = path.join(dir, `${key}.jsonl`);
    fs.writeFileSync(file, line(key, START + i * 1000, items(i, 0)) + line(key, START + i * 1000 + 500, items(i, 1)));
    const time = new Date(START + i * 1000);
    fs.utimesSync(file, time, time);
    keys.push(key);
  }
  return keys;
}

function build(dir: string) {
  const log = new SessionLog(dir, nodeFileSystem);
  const store = new PlanStore(log);
  const health = new HealthBook(log);
  const requests = new RequestBook(log);
  const files = new FileBook(log);
  const ledgers = new LedgerBook(log);
  const needsYou = new NeedsYouBook(log, health);
  const included = health.include(requests);
  const dispose = () => {
    included.dispose();
    needsYou.dispose();
    ledgers.dispose();
    files.dispose();
    requests.dispose();
    health.dispose();
    store.dispose();
  };
  return { log, store, health, requests, files, ledgers, needsYou, dispose };
}

describe('memory follows the screen', () => {
  const tmp = useTempDir();

  it('10,000 sessions: whole plans and states are held for a bounded few, whatever is opened', async function () {
    this.timeout(120_000);
    const dir = path.join(tmp.path, 'sessions');
    const keys = writeSessions(dir, 10_000);
    const { log, store, health, requests, files, ledgers, needsYou, dispose } = build(dir);
    try {
      await store.load();
      assert.equal(store.size, 10_000);
      // One record per session, whatever follows the reader.
      assert.equal(log.records.size, 10_000);
      // Every session stopped with an item in progress long ago: each waits on the user.
      assert.equal(needsYou.size, 10_000);
      assert.ok(store.fullPlans <= FULL_PLANS_KEPT, `${store.fullPlans} whole plans after the load`);
      // What the Sessions view lists: summaries, with what a row shows.
      const listed = store.list();
      assert.equal(listed.length, 10_000);
      assert.equal(listed.filter((event) => !(event instanceof SummaryEvent)).length, store.fullPlans);
      for (const event of listed.slice(0, 50)) health.signals(event.session);
      // Opening 200 sessions one after another, as a user going down the list does.
      for (const key of keys.slice(0, 200)) {
        assert.equal(store.get(key)?.todos.length, 3);
        await requests.list(key);
        await files.get(key);
        await ledgers.get(key);
        health.signals(key);
      }
      assert.ok(store.fullPlans <= FULL_PLANS_KEPT, `${store.fullPlans} whole plans after opening 200`);
      assert.ok(files.size <= BOOK_SESSIONS_KEPT, `${files.size} file states after opening 200`);
      assert.ok(ledgers.size <= BOOK_SESSIONS_KEPT, `${ledgers.size} ledgers after opening 200`);
      assert.equal(log.records.size, 10_000);
      // Only what a clock may change keeps its state: none of these old sessions.
      assert.equal(health.statesInMemory, 0);
    } finally {
      dispose();
    }
  });

  it("a session met at a first look keeps no title text: a row reads its first item back once, then from a bounded cache", async function () {
    this.timeout(60_000);
    const dir = path.join(tmp.path, 'sessions');
    const keys = writeSessions(dir, TITLES_KEPT + FULL_PLANS_KEPT + 8);
    const { store, dispose } = build(dir);
    try {
      await store.load();
      const reads = countTailReads(store);
      const oldest = keys[0] as string;
      const summary = store.summary(oldest);
      assert.ok(summary instanceof SummaryEvent);
      assert.ok(!Object.values(summary).includes('task 0 of 0'), 'the summary holds no title text');
      assert.equal(summary.firstItem, 'task 0 of 0', 'read back when asked');
      assert.equal(summary.firstItem, 'task 0 of 0');
      assert.equal(reads(), 1, 'read once, then kept');
      // Every title asked once: the cache keeps the most recently asked TITLES_KEPT, no more.
      // What a row's title reads (present.ts): a summary's first item, a whole plan's first item.
      const first = (key: string): string | undefined => {
        const event = store.summary(key);
        return event instanceof SummaryEvent ? event.firstItem : event?.todos[0]?.content;
      };
      for (const key of keys) assert.equal(first(key), `task 0 of ${keys.indexOf(key)}`);
      const titles = (store as unknown as { titles: Map<string, unknown> }).titles;
      assert.ok(titles.size <= TITLES_KEPT, 'bounded');
      const before = reads();
      assert.ok(before <= keys.length, 'at most one read a session (whole plans in memory need none)');
      assert.equal(first(keys[keys.length - 1] as string), `task 0 of ${keys.length - 1}`);
      assert.equal(reads(), before, 'the last asked is still kept');
      assert.equal(first(oldest), 'task 0 of 0');
      assert.equal(reads(), before + 1, 'the first asked was let go: read again');
    } finally {
      dispose();
    }
  });

  it('a session held as a summary, opened: its whole plan, its history and its signals', async function () {
    this.timeout(60_000);
    const dir = path.join(tmp.path, 'sessions');
    const keys = writeSessions(dir, FULL_PLANS_KEPT * 3);
    const { log, store, health, needsYou, dispose } = build(dir);
    try {
      await store.load();
      // The oldest session: read at the end of the load, never kept whole.
      const oldest = keys[0] as string;
      const summary = store.list().find((event) => event.session === oldest);
      assert.ok(summary instanceof SummaryEvent, 'the oldest session is a summary');
      assert.equal(summary.counts.completed, 1);
      assert.equal(summary.firstItem, 'task 0 of 0');
      // Its signal was computed once at the load: stalled (an item in progress, long ago).
      assert.deepEqual(
        health.signals(oldest).map((signal) => signal.kind),
        ['stalled'],
      );
      // First in the needs-you queue: stalled, and stalled the longest.
      assert.equal(needsYou.queue()[0]?.session, oldest);
      assert.equal(needsYou.get(oldest)?.signal.kind, 'stalled');
      assert.equal(needsYou.size, keys.length);
      // Opened: the whole plan, read back from the file's tail.
      assert.deepEqual(store.get(oldest)?.todos, items(0, 1));
      assert.deepEqual(summary.todos, items(0, 1));
      assert.deepEqual(
        (await store.history(oldest)).map((event) => event.todos),
        [items(0, 0), items(0, 1)],
      );
      // A new version that drops an item is compared with the plan read back: dropped.
      await log.append(oldest, items(0, 1).slice(0, 2) as Todo[]);
      assert.ok(
        health.signals(oldest).some((signal) => signal.kind === 'dropped' && signal.items?.includes('task 2 of 0')),
        JSON.stringify(health.signals(oldest)),
      );
      // Every item done: it no longer waits on the user.
      await log.append(oldest, items(0, 3) as Todo[]);
      assert.equal(needsYou.get(oldest), undefined);
      assert.equal(needsYou.size, keys.length - 1);
      assert.ok(!needsYou.queue().some((entry) => entry.session === oldest));
    } finally {
      dispose();
    }
  });

  it('a second store and health book on the same reader keep their own entries, and each sees every session', async function () {
    this.timeout(60_000);
    const dir = path.join(tmp.path, 'sessions');
    const keys = writeSessions(dir, 40);
    const { log, store, health, dispose } = build(dir);
    const second = new PlanStore(log);
    const secondHealth = new HealthBook(log);
    try {
      await store.load();
      await second.load();
      assert.equal(store.size, keys.length);
      assert.equal(second.size, keys.length);
      assert.equal(log.records.size, keys.length);
      const key = keys[5] as string;
      assert.deepEqual(second.get(key)?.todos, store.get(key)?.todos);
      assert.deepEqual(secondHealth.signals(key), health.signals(key));
      // A session removed leaves both, and its record.
      await store.remove(key);
      assert.equal(store.get(key), undefined);
      assert.equal(second.get(key), undefined);
      assert.deepEqual(health.signals(key), []);
      assert.equal(log.records.size, keys.length - 1);
    } finally {
      secondHealth.dispose();
      second.dispose();
      dispose();
    }
  });

  it('rows read as summaries leave the plan on screen whole, even when its file cannot be read back', async function () {
    this.timeout(60_000);
    const dir = path.join(tmp.path, 'sessions');
    const keys = writeSessions(dir, FULL_PLANS_KEPT * 3);
    const { store, dispose } = build(dir);
    try {
      await store.load();
      // The plan on screen, opened: whole, in memory.
      const shown = keys[0] as string;
      const whole = store.get(shown);
      assert.ok(whole && !(whole instanceof SummaryEvent));
      // Its file becomes unreadable (a directory of the same name).
      const file = path.join(dir, `${shown}.jsonl`);
      fs.rmSync(file);
      fs.mkdirSync(file);
      // Every session's row is drawn, more of them than the store keeps whole.
      const fullBefore = store.fullPlans;
      for (const key of keys) {
        const row = store.summary(key);
        assert.ok(row, key);
        assert.equal(row.counts.completed, 1);
      }
      assert.equal(store.fullPlans, fullBefore, 'drawing rows keeps no more and no fewer whole plans');
      assert.equal(store.get(shown), whole, 'the plan on screen is still the whole one in memory');
      assert.deepEqual(store.get(shown)?.todos, items(0, 1));
      // Opening every session instead (`get`, which reads items back) pushes it out of memory.
      for (const key of keys.slice(1)) store.get(key);
      assert.notEqual(store.get(shown), whole);
    } finally {
      dispose();
    }
  });
});

// The log engine's defects, each reproduced with real files: a write during load, read
// errors, "latest" by this machine's order, a stale version count, deletions and re-creations.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DisplayState } from '../../../../src/core/store/display';
import { type HistoryPage, SessionLog } from '../../../../src/core/log/sessionLog';
import { PlanStore } from '../../../../src/core/store/store';
import { nodeFileSystem } from '../../../../src/node/nodeFileSystem';
import { CountingFileSystem, KEY_A, KEY_B } from '../../helpers';
import { useTempDir } from '../../../lib/temp';
import { sleep, waitFor } from '../../../lib/wait';

const item = (content: string) => [{ content, status: 'pending' as const }];

/** Holds reads of one file until released, to put a write in the middle of a load. */
class GatedFileSystem extends CountingFileSystem {
  private release: (() => void) | undefined;
  private readonly gate: Promise<void>;
  hit = false;
  readsOfOther = 0;
  constructor(
    private readonly gated: string,
    private readonly other: string,
  ) {
    super();
    this.gate = new Promise((resolve) => (this.release = resolve));
  }
  override async readRange(p: string, start: number, length: number): Promise<Uint8Array> {
    if (p === this.gated) {
      this.hit = true;
      await this.gate;
    }
    const bytes = await super.readRange(p, start, length);
    if (p === this.other) this.readsOfOther++;
    return bytes;
  }
  open(): void {
    this.release?.();
  }
}

describe('the log engine', () => {
  const tmp = useTempDir();
  const dir = () => path.join(tmp.path, 'sessions');

  it('a write that lands while load() reads is not replaced by the older plan', async () => {
    const seed = new SessionLog(dir(), nodeFileSystem);
    await seed.append(KEY_A, item('old'));
    await seed.append(KEY_B, item('b'));
    // A is the newer file, so load reads it first and then waits on B.
    fs.utimesSync(seed.fileFor(KEY_B), new Date(1_000_000), new Date(1_000_000));
    const gated = new GatedFileSystem(seed.fileFor(KEY_B), seed.fileFor(KEY_A));
    const store = new PlanStore(new SessionLog(dir(), gated));
    const loading = store.load();
    // A's tail is read, B's is held: now the tool writes to A.
    await waitFor(() => gated.hit && gated.readsOfOther > 0, 'load() to hold its read of B', 1000, 2);
    await sleep(10);
    await store.write(KEY_A, item('new'));
    gated.open();
    await loading;
    assert.equal(store.get(KEY_A)?.todos[0]?.content, 'new');
    assert.equal(store.latest()?.session, KEY_A);
  });

  it('an unreadable log folder makes load() reject with the reason (activation logs it)', async () => {
    fs.writeFileSync(dir(), 'not a folder');
    const store = new PlanStore(new SessionLog(dir(), nodeFileSystem));
    await assert.rejects(store.load(), /not a directory|ENOTDIR/);
  });

  it('"latest" is this machine’s order of writes, not the writer’s clock; both lists agree', async () => {
    const log = new SessionLog(dir(), nodeFileSystem);
    const store = new PlanStore(log);
    await store.write(KEY_A, item('a'));
    // Another program appends to B with a clock far in the future...
    const future = { v: 1, type: 'todo/write', ts: '2099-01-01T00:00:00.000Z', session: KEY_B, todos: item('b'), counts: { pending: 1, inProgress: 0, completed: 0 } };
    fs.appendFileSync(log.fileFor(KEY_B), JSON.stringify(future) + '\n');
    fs.utimesSync(log.fileFor(KEY_B), new Date(Date.now() - 5000), new Date(Date.now() - 5000));
    await store.ingest(KEY_B);
    assert.equal(store.latest()?.session, KEY_B);
    // ...then A writes again: A is the latest, whatever B's clock says.
    await sleep(5);
    await store.write(KEY_A, item('a2'));
    assert.equal(store.latest()?.session, KEY_A);
    assert.deepEqual(store.list().map((e) => e.session), [KEY_A, KEY_B]);
    const fresh = new PlanStore(new SessionLog(dir(), nodeFileSystem));
    await fresh.load();
    assert.deepEqual(fresh.list().map((e) => e.session), [KEY_A, KEY_B]);
    assert.deepEqual((await new SessionLog(dir(), nodeFileSystem).sessions()).map((s) => s.key), [KEY_A, KEY_B]);
  });

  it('an older version on screen counts the versions that arrive while it is shown', async () => {
    const store = new PlanStore(new SessionLog(dir(), nodeFileSystem));
    const display = new DisplayState(store, true);
    await store.write(KEY_A, item('v1'));
    await store.write(KEY_A, item('v2'));
    const older = (await store.page(KEY_A, 2)).versions[1]!;
    display.showVersion({ session: KEY_A, behind: 1, ...older });
    await store.write(KEY_A, item('v3'));
    assert.equal(display.shownVersion?.behind, 2);
    assert.equal(display.shownVersion?.event.todos[0]?.content, 'v1');
  });

  it('a deleted file is seen through the log; re-created with the same write, it does not fire again', async () => {
    const log = new SessionLog(dir(), nodeFileSystem);
    const store = new PlanStore(log);
    await store.write(KEY_A, item('x'));
    const file = log.fileFor(KEY_A);
    const saved = fs.readFileSync(file);
    const fired: string[] = [];
    store.onDidWrite((event) => fired.push(event.todos[0]?.content ?? ''));
    fs.rmSync(file);
    await store.ingest(KEY_A);
    assert.equal(store.get(KEY_A), undefined);
    fs.writeFileSync(file, saved);
    await store.ingest(KEY_A);
    assert.equal(store.get(KEY_A)?.todos[0]?.content, 'x');
    assert.deepEqual(fired, [], 'the old write is not announced again');
    fs.appendFileSync(file, JSON.stringify({ v: 1, type: 'todo/write', ts: new Date().toISOString(), session: KEY_A, todos: item('y'), counts: { pending: 1, inProgress: 0, completed: 0 } }) + '\n');
    await store.ingest(KEY_A);
    assert.deepEqual(fired, ['y']);
  });
});

describe('the log engine: paging backwards and loading what is shown first', () => {
  const tmp = useTempDir();

  it('page(n) pages back through the history reading only what it returns; versionAt reads one version by its address', async () => {
    const counting = new CountingFileSystem();
    const log = new SessionLog(tmp.path, counting);
    const line = (i: number) =>
      JSON.stringify({ v: 1, type: 'todo/write', ts: '2026-01-01T00:00:00.000Z', session: KEY_A, todos: item(`v${i}`), counts: { pending: 1, inProgress: 0, completed: 0 } });
    fs.writeFileSync(log.fileFor(KEY_A), Array.from({ length: 3000 }, (_, i) => line(i) + '\n').join(''));
    const fileBytes = fs.statSync(log.fileFor(KEY_A)).size;
    const contents = (page: HistoryPage) => page.versions.map((v) => v.event.todos[0]?.content);
    let readBefore = counting.bytesRead;
    const page = await log.page(KEY_A, 10);
    assert.deepEqual(contents(page), Array.from({ length: 10 }, (_, i) => `v${2999 - i}`));
    assert.equal(page.more, true);
    assert.ok(counting.bytesRead - readBefore <= 64 * 1024, `read ${counting.bytesRead - readBefore} of ${fileBytes} bytes`);
    const older = await log.page(KEY_A, 10, page.versions[9]!.at);
    assert.deepEqual(contents(older), Array.from({ length: 10 }, (_, i) => `v${2989 - i}`));
    const all = await log.page(KEY_A, 5000);
    assert.equal(all.versions.length, 3000);
    assert.equal(all.more, false);
    assert.deepEqual((await log.page(KEY_A, 3000)).more, false, 'exactly all: nothing more');
    assert.deepEqual((await log.page(KEY_A, 2999)).more, true);

    readBefore = counting.bytesRead;
    const middle = all.versions[1500]!;
    assert.deepEqual(await log.versionAt(KEY_A, middle.at), middle.event);
    assert.ok(counting.bytesRead - readBefore <= 64 * 1024 + 1, `versionAt read ${counting.bytesRead - readBefore} bytes`);
    assert.equal(await log.versionAt(KEY_A, middle.at + 1), undefined, 'not the start of a line');
    assert.equal(await log.versionAt(KEY_A, fileBytes), undefined, 'past the end');
    assert.equal(await log.versionAt(KEY_A, -1), undefined);
    assert.equal(await log.versionAt(KEY_B, 0), undefined, 'no such log');
  });

  /** 30 sessions of one write each, written one second apart (by their modification times), oldest first. */
  async function seedSessions(fill: string): Promise<string[]> {
    const seed = new SessionLog(tmp.path, nodeFileSystem);
    const keys = Array.from({ length: 30 }, (_, i) => `${i.toString(16).padStart(2, '0')}${fill.repeat(30)}`);
    for (const [i, key] of keys.entries()) {
      await seed.append(key, item(key));
      fs.utimesSync(seed.fileFor(key), new Date(1_000_000 + i * 1000), new Date(1_000_000 + i * 1000));
    }
    return keys;
  }

  it('load() reads the most recently written files first and paints once the newest is in', async () => {
    const keys = await seedSessions('0');
    const store = new PlanStore(new SessionLog(tmp.path, nodeFileSystem));
    const seenAtChange: Array<string | undefined> = [];
    store.onDidChange(() => seenAtChange.push(store.latest()?.session));
    await store.load();
    assert.equal(seenAtChange[0], keys[29], 'the first paint already shows the newest session');
    assert.equal(seenAtChange.length, 2, 'one paint early, one when all are in');
    assert.deepEqual(store.list().map((e) => e.session), [...keys].reverse());
  });

  it('load({ first }) paints the session shown last before it lists the folder, then the newest, then the rest', async () => {
    const keys = await seedSessions('1');
    class ListingCounter extends CountingFileSystem {
      listings = 0;
      override readdir(dir: string): Promise<string[]> {
        this.listings++;
        return super.readdir(dir);
      }
    }
    for (const [first, paints] of [
      [keys[5]!, [keys[5], keys[29], keys[29]]],
      [keys[29]!, [keys[29], keys[29]]],
    ] as const) {
      const counting = new ListingCounter();
      const store = new PlanStore(new SessionLog(tmp.path, counting));
      const seen: Array<{ latest: string | undefined; listings: number; sessions: number }> = [];
      store.onDidChange(() => seen.push({ latest: store.latest()?.session, listings: counting.listings, sessions: store.list().length }));
      await store.load({ first });
      assert.deepEqual(seen.map((paint) => paint.latest), paints, `paints with ${first} remembered`);
      assert.deepEqual(seen[0], { latest: first, listings: 0, sessions: 1 }, 'the first paint comes before the folder is listed');
      assert.equal(seen[seen.length - 1]?.sessions, 30);
      assert.deepEqual(store.list().map((e) => e.session), [...keys].reverse(), 'the order is the files\' order, whatever was read first');
    }
    const store = new PlanStore(new SessionLog(tmp.path, nodeFileSystem));
    await store.load({ first: '0'.repeat(32) });
    assert.equal(store.list().length, 30, 'a remembered session whose log is gone changes nothing');
  });
});

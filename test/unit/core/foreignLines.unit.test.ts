// Plans followed from other agents in the log: the foreign rules for `todo/write` lines with
// `source`, session/info records, and what the store and the presentation make of them.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { parseLogRecord, type SessionInfoRecord } from '../../../src/core/log/logRecord';
import { countItems } from '../../../src/core/plan/plan';
import { formatOnly, openCount, planMarkdown, progressText, sessionTitle, truncateText } from '../../../src/core/plan/present';
import { SessionLog } from '../../../src/core/log/sessionLog';
import { PlanStore } from '../../../src/core/store/store';
import { nodeFileSystem } from '../../../src/node/nodeFileSystem';
import type { PlanSource } from '../../../src/core/foreign';
import { KEY_A } from '../helpers';
import { useTempDir } from '../../lib/temp';

const SOURCE: PlanSource = { agent: 'claude-code', tool: 'TodoWrite', session: 's-1', call: 'toolu_1', turn: 2 };

function foreignLine(todos: Array<{ content: string; status: string }>, extra: Record<string, unknown> = {}): string {
  const counts = countItems(todos as never);
  return JSON.stringify({ v: 1, type: 'todo/write', ts: '2026-01-01T00:00:00.000Z', session: KEY_A, todos, counts, source: SOURCE, ...extra }) + '\n';
}

function infoLine(fields: Record<string, unknown>): string {
  return JSON.stringify({ v: 1, type: 'session/info', ts: '2026-01-01T00:00:01.000Z', session: KEY_A, source: { agent: 'claude-code', session: 's-1' }, ...fields }) + '\n';
}

describe('foreign plans in the log', () => {
  const tmp = useTempDir();
  const open = () => {
    const skipped: string[] = [];
    const log = new SessionLog(tmp.path, nodeFileSystem, { onCorrupt: (_file, detail) => skipped.push(detail) });
    return { log, store: new PlanStore(log), skipped };
  };

  it('a line with `source` keeps repeats, empty texts and the five statuses; content is trimmed; nothing dropped', async () => {
    const { log, skipped } = open();
    const todos = [
      { content: ' same ', status: 'completed' },
      { content: 'same', status: 'cancelled' },
      { content: '', status: 'blocked' },
      { content: 'next', status: 'pending' },
    ];
    fs.writeFileSync(log.fileFor(KEY_A), foreignLine(todos, { counts: { pending: 1, inProgress: 0, completed: 1, cancelled: 1, blocked: 1 } }));
    const event = await log.current(KEY_A);
    assert.deepEqual(skipped, []);
    assert.deepEqual(event?.todos, [
      { content: 'same', status: 'completed' },
      { content: 'same', status: 'cancelled' },
      { content: '', status: 'blocked' },
      { content: 'next', status: 'pending' },
    ]);
    assert.deepEqual(event?.counts, { pending: 1, inProgress: 0, completed: 1, cancelled: 1, blocked: 1 });
    assert.deepEqual(event?.source, SOURCE);
  });

  it('a line without `source` keeps todo_write’s strict rules', () => {
    const counts = { pending: 0, inProgress: 0, completed: 0, cancelled: 1, blocked: 0 };
    const line = { v: 1, type: 'todo/write', ts: '2026-01-01T00:00:00.000Z', session: KEY_A, todos: [{ content: 'x', status: 'cancelled' }], counts };
    assert.match(String(parseLogRecord(line, KEY_A)), /^invalid todos/);
    const dup = { ...line, todos: [{ content: 'a', status: 'pending' }, { content: 'a', status: 'pending' }], counts: { pending: 2, inProgress: 0, completed: 0 } };
    assert.match(String(parseLogRecord(dup, KEY_A)), /duplicate content "a"/);
    assert.equal(typeof parseLogRecord({ ...dup, source: SOURCE }, KEY_A), 'object');
  });

  it('rejects (and reports) a foreign line with a bad source, status, item key or counts', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ source: { ...SOURCE, agent: 'vim' } }, /unknown agent "vim"/],
      [{ source: { ...SOURCE, call: '' } }, /source\.call/],
      [{ source: { ...SOURCE, turn: -1 } }, /source\.turn/],
      [{ todos: [{ content: 'x', status: 'done' }], counts: { pending: 0, inProgress: 0, completed: 0 } }, /unknown status "done"/],
      [{ todos: [{ content: 'x', status: 'pending', id: 1 }], counts: { pending: 1, inProgress: 0, completed: 0 } }, /unknown key "id"/],
      [{ counts: { pending: 9, inProgress: 0, completed: 0 } }, /counts/],
    ];
    for (const [extra, expected] of cases) {
      const value = JSON.parse(foreignLine([{ content: 'x', status: 'pending' }], extra)) as unknown;
      assert.match(String(parseLogRecord(value, KEY_A)), expected);
    }
    const { log, skipped } = open();
    fs.writeFileSync(log.fileFor(KEY_A), foreignLine([{ content: 'ok', status: 'pending' }]) + foreignLine([{ content: 'x', status: 'done' }]));
    assert.equal((await log.current(KEY_A))?.todos[0]?.content, 'ok');
    assert.equal(skipped.length, 1);
  });

  it('the current-plan tail read skips session/info lines; the store exposes agent, title and an earlier turn', async () => {
    const { log, store } = open();
    fs.writeFileSync(
      log.fileFor(KEY_A),
      infoLine({ title: 'Old title' }) + foreignLine([{ content: 'plan', status: 'in_progress' }]) + infoLine({ title: 'Fix the build', latestTurn: { index: 3, planned: false } }),
    );
    assert.equal((await log.current(KEY_A))?.todos[0]?.content, 'plan');
    await store.load();
    assert.equal(store.get(KEY_A)?.todos[0]?.content, 'plan');
    assert.deepEqual(store.details(KEY_A), { agent: 'claude-code', title: 'Fix the build', request: undefined, chat: undefined, earlierTurn: true, parent: undefined, running: false });
    // A newer turn that made a plan call: not stale.
    fs.appendFileSync(log.fileFor(KEY_A), infoLine({ title: 'Fix the build', latestTurn: { index: 3, planned: true } }));
    await store.ingest(KEY_A);
    assert.equal(store.details(KEY_A).earlierTurn, false);
    // The plan's own turn: not stale either.
    fs.appendFileSync(log.fileFor(KEY_A), infoLine({ latestTurn: { index: 2, planned: false } }));
    await store.ingest(KEY_A);
    assert.equal(store.details(KEY_A).earlierTurn, false);
  });

  it('a newer turn still running is not yet an earlier turn: only one that ended without a plan call is', async () => {
    const { log, store } = open();
    await store.write(KEY_A, [{ content: 'mine', status: 'in_progress' }]);
    fs.appendFileSync(log.fileFor(KEY_A), infoLine({ latestTurn: { index: 4, planned: false }, turn: { index: 4, state: 'running', since: '2026-01-01T00:00:01.000Z' } }));
    await store.ingest(KEY_A);
    assert.deepEqual([store.details(KEY_A).earlierTurn, store.details(KEY_A).running], [false, true], 'it may still write its plan');
    fs.appendFileSync(log.fileFor(KEY_A), infoLine({ latestTurn: { index: 4, planned: false }, turn: { index: 4, state: 'ended', since: '2026-01-01T00:00:02.000Z' } }));
    await store.ingest(KEY_A);
    assert.deepEqual([store.details(KEY_A).earlierTurn, store.details(KEY_A).running], [true, false], 'it ended without writing it');
  });

  it('a todo_write session has no agent and no title', async () => {
    const { log, store } = open();
    await store.write(KEY_A, [{ content: 'mine', status: 'pending' }]);
    assert.deepEqual(store.details(KEY_A), { agent: undefined, title: undefined, request: undefined, chat: undefined, earlierTurn: false, parent: undefined, running: false });
    assert.equal((await log.current(KEY_A))?.source, undefined);
  });

  it('a todo_write plan is from an earlier turn when an info line after it names a newer turn without a plan call', async () => {
    const { log, store } = open();
    await store.write(KEY_A, [{ content: 'mine', status: 'in_progress' }]);
    fs.appendFileSync(log.fileFor(KEY_A), infoLine({ latestTurn: { index: 4, planned: false } }));
    await store.ingest(KEY_A);
    assert.equal(store.details(KEY_A).earlierTurn, true);
    // Read again from the file's tail, as after a reload: the same answer.
    const reloaded = open().store;
    await reloaded.load();
    assert.equal(reloaded.details(KEY_A).earlierTurn, true);
    // The model writes in that turn: the plan is the turn's own.
    await store.write(KEY_A, [{ content: 'mine', status: 'completed' }]);
    assert.equal(store.details(KEY_A).earlierTurn, false);
    const again = open().store;
    await again.load();
    assert.equal(again.details(KEY_A).earlierTurn, false, 'an info line before the plan says nothing about it');
  });

  it('rejects a session/info line in a wrong shape', () => {
    const base = JSON.parse(infoLine({})) as Record<string, unknown>;
    assert.match(String(parseLogRecord({ ...base, source: { agent: 'x', session: 's' } }, KEY_A)), /source/);
    assert.match(String(parseLogRecord({ ...base, title: 5 }, KEY_A)), /title/);
    assert.match(String(parseLogRecord({ ...base, latestTurn: { index: 1.5, planned: true } }, KEY_A)), /latestTurn/);
    for (const participant of ['', 7, 'x'.repeat(257)]) {
      assert.equal(parseLogRecord({ ...base, participant }, KEY_A), '`participant` must be a string of 1 to 256 characters');
    }
    assert.equal((parseLogRecord({ ...base, participant: 'GitHub.copilot-chat' }, KEY_A) as SessionInfoRecord).participant, 'GitHub.copilot-chat');
    assert.deepEqual(parseLogRecord({ ...base, title: 'T', latestTurn: { index: 1, planned: true }, extra: 1 }, KEY_A), {
      ...base,
      title: 'T',
      latestTurn: { index: 1, planned: true },
    });
  });
});

describe('presenting cancelled and blocked items', () => {
  const t = formatOnly;
  const items = [
    { content: 'done', status: 'completed' as const },
    { content: 'dropped', status: 'cancelled' as const },
    { content: 'stuck', status: 'blocked' as const },
    { content: 'doing', status: 'in_progress' as const },
    { content: 'later', status: 'pending' as const },
  ];

  it('neither counts as done nor in progress: progress, badge (open items) and Markdown', () => {
    const counts = countItems(items);
    assert.deepEqual(counts, { pending: 1, inProgress: 1, completed: 1, cancelled: 1, blocked: 1 });
    assert.equal(progressText(counts, t), '1/5 done · 1 in progress · 1 blocked · 1 cancelled');
    assert.equal(openCount(counts), 3);
    assert.equal(
      planMarkdown(items),
      '- [x] done\n- [ ] ~~dropped~~ *(cancelled)*\n- [ ] stuck *(blocked)*\n- [ ] doing *(in progress)*\n- [ ] later\n',
    );
  });

  it('todo_write counts stay the three documented keys', () => {
    assert.deepEqual(countItems([{ content: 'a', status: 'pending' }]), { pending: 1, inProgress: 0, completed: 0 });
  });

  it('the session label is the chat title when known, else the first item, with a placeholder for an empty one', () => {
    const event = { v: 1, type: 'todo/write', ts: '2026-01-01T00:00:00.000Z', session: KEY_A, todos: [{ content: '', status: 'pending' }], counts: countItems([]) } as const;
    assert.equal(sessionTitle({ ...event, todos: [...event.todos] }, t), '(item without text)');
    assert.equal(sessionTitle({ ...event, todos: [...event.todos] }, t, { title: ' Fix the build\n' }), 'Fix the build');
  });

  it('truncation never cuts a grapheme in half', () => {
    const family = '👨‍👩‍👧‍👦';
    const text = 'a'.repeat(38) + family + 'tail';
    const cut = truncateText(text, 40);
    assert.equal(cut, 'a'.repeat(38) + family + '…');
    assert.equal(truncateText('short', 40), 'short');
    // What slice() did: half a surrogate pair at the cut.
    assert.notEqual(text.slice(0, 39) + '…', cut);
  });
});

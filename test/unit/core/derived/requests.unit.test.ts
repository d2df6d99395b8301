import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HealthBook } from '../../../../src/core/derived/healthBook';
import { parseLogRecord, userRequestRecord } from '../../../../src/core/log/logRecord';
import { RequestBook, SessionRequests, planHolds } from '../../../../src/core/derived/requests';
import { SessionLog } from '../../../../src/core/log/sessionLog';
import { PlanStore } from '../../../../src/core/store/store';
import { nodeFileSystem } from '../../../../src/node/nodeFileSystem';
import { KEY_A, KEY_B } from '../../helpers';
import { useTempDir } from '../../../lib/temp';

const info = (index: number, state: 'running' | 'ended', since: string) =>
  ({ v: 1, type: 'session/info', ts: since, session: KEY_A, source: { agent: 'copilot', session: 'chat' }, turn: { index, state, since } }) as const;
const plan = (...items: Array<[string, 'pending' | 'in_progress' | 'completed']>) =>
  ({ v: 1, type: 'todo/write', ts: '2026-12-03T10:00:00.000Z', session: KEY_A, todos: items.map(([content, status]) => ({ content, status })), counts: { pending: 0, inProgress: 0, completed: 0 } }) as const;

describe('user requests: the rule', () => {
  it('a plan holds a request when an item’s trimmed text contains it, case-insensitively', () => {
    assert.ok(planHolds([{ content: '  Also UPDATE the changelog now ', status: 'pending' }], 'update the changelog'));
    assert.ok(!planHolds([{ content: 'Update the change log', status: 'pending' }], 'update the changelog'));
    assert.ok(!planHolds([], 'x'));
  });

  it('open until a later version holds it; a turn that ends without it makes it not taken; a later version still takes it', () => {
    const state = new SessionRequests();
    state.feed(info(1, 'ended', '2026-12-03T09:00:00.000Z'));
    state.feed(userRequestRecord(KEY_A, '2026-12-03T10:00:00.000Z', 'r1', 'Update the changelog'));
    assert.deepEqual(state.list(), [{ id: 'r1', text: 'Update the changelog', ts: '2026-12-03T10:00:00.000Z' }]);
    // The same ended turn repeated (an activity change) is not a new end.
    state.feed(info(1, 'ended', '2026-12-03T09:00:00.000Z'));
    assert.deepEqual(state.signals(), []);
    state.feed(info(2, 'running', '2026-12-03T10:01:00.000Z'));
    state.feed(plan(['Fix the bug', 'in_progress']));
    state.feed(info(2, 'ended', '2026-12-03T10:02:00.000Z'));
    assert.deepEqual(state.signals(), [{ kind: 'request-open', since: '2026-12-03T10:02:00.000Z', items: ['Update the changelog'] }]);
    state.feed(plan(['Fix the bug', 'completed'], ['Then update the CHANGELOG', 'pending']));
    assert.deepEqual(state.list(), []);
    assert.deepEqual(state.signals(), []);
  });

  it('a request made while a turn runs is not taken when that turn ends without it', () => {
    const state = new SessionRequests();
    state.feed(info(3, 'running', '2026-12-03T10:00:00.000Z'));
    state.feed(userRequestRecord(KEY_A, '2026-12-03T10:00:10.000Z', 'r1', 'Add a test'));
    state.feed(info(3, 'ended', '2026-12-03T10:01:00.000Z'));
    assert.equal(state.signals()[0]?.kind, 'request-open');
  });

  it('a withdrawn request goes; a session without turns never shows request-open', () => {
    const state = new SessionRequests();
    state.feed(userRequestRecord(KEY_A, '2026-12-03T10:00:00.000Z', 'r1', 'Add a test'));
    state.feed(plan(['Something else', 'pending']));
    assert.equal(state.list().length, 1);
    assert.deepEqual(state.signals(), []);
    state.feed(userRequestRecord(KEY_A, '2026-12-03T10:00:05.000Z', 'r1', 'Add a test', true));
    assert.deepEqual(state.list(), []);
  });
});

describe('user requests: the log line', () => {
  it('validates the record: id, one-line text, withdrawn', () => {
    const line = (extra: Record<string, unknown>) => parseLogRecord({ v: 1, type: 'user/request', ts: '2026-12-03T10:00:00.000Z', session: KEY_A, id: 'r1', text: 'Add a test', ...extra }, KEY_A);
    assert.deepEqual(line({}), { v: 1, type: 'user/request', ts: '2026-12-03T10:00:00.000Z', session: KEY_A, id: 'r1', text: 'Add a test' });
    assert.deepEqual(line({ withdrawn: true, extra: 1 }), { v: 1, type: 'user/request', ts: '2026-12-03T10:00:00.000Z', session: KEY_A, id: 'r1', text: 'Add a test', withdrawn: true });
    assert.equal(line({ id: 'a b' }), '`id` of a user/request must be 1 to 64 of A-Z, a-z, 0-9, _ and -');
    assert.equal(line({ text: '  ' }), 'the request is empty');
    assert.equal(line({ text: 'one\ntwo' }), 'the request must be one line');
    assert.equal(line({ text: 'x'.repeat(501) }), 'the request is longer than 500 characters');
    assert.equal(line({ text: 3 }), '`text` of a user/request must be a string');
    assert.equal(line({ withdrawn: false }), '`withdrawn` of a user/request must be true when present');
  });

  describe('in a session’s log', () => {
    const tmp = useTempDir();

    it('is recorded, read back after a reload, and changes neither the plan, its history nor the health', async () => {
      const folder = path.join(tmp.path, 'sessions');
      const corrupt: string[] = [];
      const log = new SessionLog(folder, nodeFileSystem, { onCorrupt: (_file, detail) => corrupt.push(detail) });
      const store = new PlanStore(log);
      const health = new HealthBook(log);
      const book = new RequestBook(log);
      await store.load();
      await log.append(KEY_A, [{ content: 'Fix the bug', status: 'in_progress' }]);
      const added = await book.add(KEY_A, '  Update the changelog ');
      assert.equal(added.text, 'Update the changelog');
      await assert.rejects(book.add(KEY_A, 'two\nlines'), /the request must be one line/);
      assert.deepEqual((await book.list(KEY_A)).map((r) => r.text), ['Update the changelog']);
      assert.deepEqual(store.get(KEY_A)?.todos, [{ content: 'Fix the bug', status: 'in_progress' }]);
      assert.equal(store.details(KEY_A).earlierTurn, false);
      assert.equal((await store.page(KEY_A, 10)).versions.length, 1);
      assert.deepEqual(health.signals(KEY_A), []);
      const lines = fs.readFileSync(log.fileFor(KEY_A), 'utf8').trim().split('\n');
      assert.equal(lines.length, 2);
      assert.match(lines[1]!, /^\{"v":1,"type":"user\/request","ts":"[^"]+","session":"a{32}","id":"[^"]+","text":"Update the changelog"\}$/);

      // A plan that holds it takes it, live.
      const changes: string[] = [];
      const taken: Array<{ session: string; texts: string[] }> = [];
      book.onDidChange((session) => changes.push(session));
      book.onDidTake((take) => taken.push(take));
      await log.append(KEY_A, [{ content: 'Fix the bug', status: 'completed' }, { content: 'Update the CHANGELOG entry', status: 'pending' }]);
      assert.deepEqual(await book.list(KEY_A), []);
      assert.deepEqual(changes, [KEY_A]);
      assert.deepEqual(taken, [{ session: KEY_A, texts: ['Update the changelog'] }]);

      // After a reload: a new request and its withdrawal are read from the log's past.
      const second = await book.add(KEY_A, 'Add a test');
      assert.ok(await book.withdraw(KEY_A, second.id));
      assert.equal(await book.withdraw(KEY_A, second.id), false);
      const third = await book.add(KEY_A, 'Run the linter');
      for (const disposable of [book, health, store]) disposable.dispose();
      const reloaded = new SessionLog(folder, nodeFileSystem);
      const store2 = new PlanStore(reloaded);
      const book2 = new RequestBook(reloaded);
      await store2.load();
      assert.deepEqual(store2.get(KEY_A)?.todos.map((todo) => todo.content), ['Fix the bug', 'Update the CHANGELOG entry']);
      assert.deepEqual(await book2.list(KEY_A), [{ id: third.id, text: 'Run the linter', ts: third.ts }]);
      assert.deepEqual(corrupt, []);
    });

    it('records a hand-off link in both logs, read back after a reload; the plans are not touched', async () => {
      const folder = path.join(tmp.path, 'links');
      const corrupt: string[] = [];
      const log = new SessionLog(folder, nodeFileSystem, { onCorrupt: (_file, detail) => corrupt.push(detail) });
      const store = new PlanStore(log);
      const book = new RequestBook(log);
      await store.load();
      await log.append(KEY_A, [{ content: 'Port the parser', status: 'in_progress' }]);
      await log.append(KEY_B, [{ content: 'Port the parser', status: 'in_progress' }]);
      await book.list(KEY_A);
      await book.list(KEY_B);
      await book.link(KEY_A, KEY_B);
      assert.deepEqual(book.links(KEY_B), { from: KEY_A, to: [] });
      assert.deepEqual(book.links(KEY_A), { from: undefined, to: [KEY_B] });
      assert.match(fs.readFileSync(log.fileFor(KEY_B), 'utf8'), new RegExp(`\\{"v":1,"type":"session/link","ts":"[^"]+","session":"${KEY_B}","from":"${KEY_A}"\\}\\n$`));
      const reloaded = new SessionLog(folder, nodeFileSystem);
      const store2 = new PlanStore(reloaded);
      const book2 = new RequestBook(reloaded);
      await store2.load();
      assert.equal(store2.get(KEY_B)?.todos[0]?.content, 'Port the parser');
      await book2.list(KEY_B);
      await book2.list(KEY_A);
      assert.deepEqual(book2.links(KEY_B), { from: KEY_A, to: [] });
      assert.deepEqual(book2.links(KEY_A), { from: undefined, to: [KEY_B] });
      assert.deepEqual(corrupt, []);
      const parse = (extra: Record<string, unknown>) => parseLogRecord({ v: 1, type: 'session/link', ts: '2026-12-03T10:00:00.000Z', session: KEY_A, ...extra }, KEY_A);
      assert.equal(parse({}), 'a session/link has exactly one of `from` and `to`');
      assert.equal(parse({ from: KEY_B, to: KEY_B }), 'a session/link has exactly one of `from` and `to`');
      assert.equal(parse({ from: KEY_A }), 'the session of a session/link must be another session key (32 lowercase hex)');
      assert.equal(parse({ to: '../x' }), 'the session of a session/link must be another session key (32 lowercase hex)');
    });
  });
});

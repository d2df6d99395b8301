import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HEALTH_BACKFILL_VERSIONS, HealthBook, type HealthChange } from '../../../../src/core/derived/healthBook';
import { LogPlanSink, sessionKeyForForeign } from '../../../../src/core/log/planSink';
import { SessionLog } from '../../../../src/core/log/sessionLog';
import { PlanStore } from '../../../../src/core/store/store';
import { sessionKeyFromToken } from '../../../../src/core/log/sessionKey';
import { nodeFileSystem } from '../../../../src/node/nodeFileSystem';
import type { ForeignPlan } from '../../../../src/core/foreign';
import { CountingFileSystem } from '../../helpers';
import { useTempDir } from '../../../lib/temp';

const T0 = Date.UTC(2026, 11, 3, 10, 0, 0);

describe('health book: the log’s reader to each session’s signals', () => {
  const tmp = useTempDir();
  const clock = { now: T0 };
  const date = () => new Date(clock.now);
  beforeEach(() => {
    clock.now = T0;
  });
  const open = (fs = nodeFileSystem) => {
    const log = new SessionLog(path.join(tmp.path, 'sessions'), fs, { now: date });
    const book = new HealthBook(log, { now: () => clock.now });
    const changes: HealthChange[] = [];
    book.onDidChange((change) => changes.push(change));
    return { log, book, changes, sink: new LogPlanSink(log, { now: date }) };
  };
  const key = sessionKeyFromToken({ sessionId: 'health' })!;
  const plan = (call: string, items: Array<[string, 'pending' | 'in_progress' | 'completed']>): ForeignPlan => ({
    source: { agent: 'codex', tool: 'update_plan', session: 'thread-1', call },
    items: items.map(([content, status]) => ({ content, status })),
  });
  const codexKey = sessionKeyForForeign('codex', 'thread-1');

  it('a drop written by todo_write shows with the byte offset of the version that dropped it; a dismissal clears it', async () => {
    const { log, book, changes } = open();
    await log.append(key, [
      { content: 'a', status: 'in_progress' },
      { content: 'b', status: 'pending' },
    ]);
    const second = fs.statSync(log.fileFor(key)).size;
    clock.now += 1000;
    await log.append(key, [{ content: 'a', status: 'in_progress' }]);
    const [dropped] = book.signals(key);
    assert.equal(dropped?.kind, 'dropped');
    assert.deepEqual(dropped?.items, ['b']);
    assert.equal(dropped?.at, second, 'the address of the line that dropped it');
    assert.deepEqual(changes, [{ session: key, live: true }]);
    // A rescan (Refresh, the watcher's poll) repeats the file's state: what the lines said stands.
    await log.sessions();
    assert.deepEqual(book.signals(key), [dropped]);
    assert.equal(changes.length, 1);
    book.dismiss(key, ['b']);
    assert.deepEqual(book.signals(key), []);
    assert.equal(changes.length, 2);
  });

  it('only real changes are told; a first look at a file is no news, and the same after a reload', async () => {
    const first = open();
    await first.sink.importPlans([plan('c1', [['a', 'in_progress'], ['b', 'pending']])]);
    await first.sink.updateSession({ agent: 'codex', session: 'thread-1', turn: { index: 0, state: 'running' }, calls: 3 });
    assert.deepEqual(first.book.signals(codexKey), []);
    assert.deepEqual(first.changes, [], 'no signal yet: nothing told');
    clock.now += 5000;
    await first.sink.updateSession({ agent: 'codex', session: 'thread-1', turn: { index: 0, state: 'ended' }, calls: 3 });
    const stopped = first.book.signals(codexKey);
    assert.deepEqual(stopped.map((s) => [s.kind, s.how, s.since]), [['stopped-open', 'ended', new Date(T0 + 5000).toISOString()]]);
    assert.deepEqual(first.changes, [{ session: codexKey, live: true }]);

    const again = open();
    const store = new PlanStore(again.log);
    await store.load();
    assert.deepEqual(again.book.signals(codexKey).map((s) => ({ ...s, at: undefined })), stopped.map((s) => ({ ...s, at: undefined })));
    assert.deepEqual(again.changes, [], 'found at activation: not news (the store’s own change repaints the views)');
    await store.load();
    assert.deepEqual(again.changes, [], 'a rescan that repeats the file tells nothing');
    // A line read later is news, and compares with what the first look found.
    clock.now += 1000;
    await again.sink.updateSession({ agent: 'codex', session: 'thread-1', turn: { index: 1, state: 'running' }, calls: 0 });
    assert.deepEqual(again.book.signals(codexKey), []);
    assert.deepEqual(again.changes, [{ session: codexKey, live: true }]);
    store.dispose();
  });

  it('a new turn clears the stop; a superseded list never becomes the plan', async () => {
    const { book, sink } = open();
    await sink.importPlans([plan('c1', [['a', 'in_progress']])]);
    clock.now += 1000;
    await sink.updateSession({ agent: 'codex', session: 'thread-1', turn: { index: 0, state: 'cancelled' } });
    assert.deepEqual(book.signals(codexKey).map((s) => [s.kind, s.how]), [['stopped-open', 'cancelled']]);
    clock.now += 1000;
    await sink.updateSession({ agent: 'codex', session: 'thread-1', turn: { index: 1, state: 'running' } });
    assert.deepEqual(book.signals(codexKey), []);
    const superseded = plan('c0', []);
    superseded.source.superseded = true;
    await sink.importPlans([superseded]);
    assert.deepEqual(book.signals(codexKey), [], 'an empty superseded list drops nothing');
  });

  it('stalled by the clock: nextCheck says when, check tells it; settings move the thresholds', async () => {
    const { book, sink, changes } = open();
    await sink.updateSession({ agent: 'codex', session: 'thread-1', turn: { index: 0, state: 'running' } });
    await sink.importPlans([plan('c1', [['a', 'in_progress']])]);
    await sink.updateSession({ agent: 'codex', session: 'thread-1', turn: { index: 0, state: 'running' }, calls: 4 });
    const next = book.nextCheck();
    assert.equal(next, T0 + 10 * 60_000);
    clock.now = next!;
    book.check();
    assert.deepEqual(book.signals(codexKey).map((s) => [s.kind, s.stall?.reason]), [['stalled', 'time']]);
    assert.deepEqual(changes.at(-1), { session: codexKey, live: true });
    assert.equal(book.nextCheck(), undefined, 'nothing left to wait for');
    clock.now = T0;
    book.configure({ stallCalls: 3, stallMinutes: 10, waitSeconds: 30 });
    assert.deepEqual(book.signals(codexKey).map((s) => [s.kind, s.stall?.reason, s.stall?.calls]), [['stalled', 'calls', 4]]);
  });

  it('a session found running at activation is on the clock without being asked; one that is over waits to be asked', async () => {
    const first = open();
    await first.sink.updateSession({ agent: 'codex', session: 'thread-1', turn: { index: 0, state: 'running' } });
    await first.sink.importPlans([plan('c1', [['a', 'in_progress']])]);
    await first.sink.updateSession({ agent: 'codex', session: 'thread-1', turn: { index: 0, state: 'running' }, calls: 1 });
    const again = open();
    await again.log.sessions();
    assert.equal(again.book.nextCheck(), T0 + 10 * 60_000, 'the stall check is scheduled from the first look');
    clock.now = T0 + 10 * 60_000;
    again.book.check();
    assert.deepEqual(again.changes, [{ session: codexKey, live: true }], 'a stall that starts in this window is news');
  });

  it('a call found waiting at activation: one check at its deadline, waiting then, and no clock once the call completes', async () => {
    const first = open();
    await first.sink.importPlans([plan('c1', [['a', 'completed']])]);
    await first.sink.updateSession({ agent: 'codex', session: 'thread-1', turn: { index: 0, state: 'running' }, calls: 1, pending: { tool: 'exec_command', call: 'x1', approval: true } });
    assert.equal(first.book.nextCheck(), T0 + 30_000, 'nothing else is on the clock (the plan is done): the wait deadline');
    const again = open();
    await again.log.sessions();
    assert.equal(again.book.nextCheck(), T0 + 30_000, 'the same from the first look');
    clock.now = T0 + 30_000;
    again.book.check();
    assert.deepEqual(again.book.signals(codexKey)[0]?.wait, { tool: 'exec_command', approval: true });
    assert.equal(again.book.nextCheck(), undefined);
    clock.now += 1000;
    await again.sink.updateSession({ agent: 'codex', session: 'thread-1', turn: { index: 0, state: 'running' }, calls: 1, pending: null });
    assert.deepEqual(again.book.signals(codexKey).map((s) => s.kind), ['done']);
    assert.equal(again.book.nextCheck(), undefined, 'no call waits: no clock');
  });

  it('a deleted log leaves no health behind', async () => {
    const { log, book, changes } = open(new CountingFileSystem());
    await log.append(key, [{ content: 'a', status: 'in_progress' }]);
    await log.append(key, []);
    assert.equal(book.signals(key)[0]?.kind, 'dropped');
    await log.remove(key);
    assert.deepEqual(book.signals(key), []);
    assert.deepEqual(changes.at(-1), { session: key, live: true });
  });
});

describe('health book after a reload: the shown session’s past, read once', () => {
  const tmp = useTempDir();
  const key = sessionKeyFromToken({ sessionId: 'reload' })!;

  it('backfill finds the dropped and reopened items again (less a dismissed one), bounded, without news', async () => {
    const dir = path.join(tmp.path, 'sessions');
    let clock = T0;
    const first = new SessionLog(dir, nodeFileSystem, { now: () => new Date((clock += 1000)) });
    let remembered: Record<string, string[]> = {};
    const book = new HealthBook(first, { now: () => clock, onDismissed: (dismissed) => (remembered = dismissed) });
    await first.append(key, [
      { content: 'a', status: 'completed' },
      { content: 'b', status: 'pending' },
      { content: 'c', status: 'pending' },
    ]);
    await first.append(key, [
      { content: 'a', status: 'completed' },
      { content: 'b', status: 'pending' },
    ]);
    await first.append(key, [{ content: 'a', status: 'in_progress' }]);
    const before = book.signals(key);
    assert.deepEqual(before.map((s) => [s.kind, s.items]), [['dropped', ['c']], ['dropped', ['b']], ['reopened', ['a']]]);
    book.dismiss(key, ['c']);
    assert.deepEqual(Object.keys(remembered), [key]);

    // A reload: a new reader and book, what the tail read finds, then the past once shown.
    const counting = new CountingFileSystem();
    const log = new SessionLog(dir, counting);
    const again = new HealthBook(log, { now: () => clock, dismissed: remembered });
    const changes: HealthChange[] = [];
    again.onDidChange((change) => changes.push(change));
    await log.sessions();
    assert.deepEqual(again.signals(key), [], 'a first look compares no versions');
    await again.backfill(key);
    assert.deepEqual(again.signals(key), before.filter((s) => !(s.kind === 'dropped' && s.items?.[0] === 'c')));
    assert.ok(changes.every((change) => !change.live), 'the past is no news');
    const reads = counting.reads;
    await again.backfill(key);
    assert.equal(counting.reads, reads, 'read once');
  });

  it('reads at most HEALTH_BACKFILL_VERSIONS versions back', async () => {
    const dir = path.join(tmp.path, 'sessions');
    const log = new SessionLog(dir, nodeFileSystem);
    // An item dropped long ago, then many versions: beyond the bound it is not found again.
    await log.append(key, [
      { content: 'old', status: 'pending' },
      { content: 'a', status: 'in_progress' },
    ]);
    for (let i = 0; i < HEALTH_BACKFILL_VERSIONS + 5; i++) await log.append(key, [{ content: 'a', status: i % 2 === 0 ? 'in_progress' : 'pending' }]);
    const visited: number[] = [];
    const reader = new SessionLog(dir, nodeFileSystem);
    const book = new HealthBook({
      onDidRead: reader.onDidRead,
      readBackward: (session, visit, before) => reader.readBackward(session, (event, at) => (visited.push(at), visit(event, at)), before),
    });
    await reader.sessions();
    await book.backfill(key);
    assert.equal(visited.length, HEALTH_BACKFILL_VERSIONS);
    assert.deepEqual(book.signals(key), []);
  });
});

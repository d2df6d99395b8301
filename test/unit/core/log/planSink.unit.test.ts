// The log's import side for followers of other agents' files, over real files.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { LogPlanSink, sessionKeyForForeign } from '../../../../src/core/log/planSink';
import { copilotSessionKey, foreignSessionKey } from '../../../../src/core/log/sessionKey';
import { SessionLocks } from '../../../../src/core/log/sessionLock';
import { SessionLog } from '../../../../src/core/log/sessionLog';
import { PlanStore } from '../../../../src/core/store/store';
import type { ForeignPlan } from '../../../../src/core/foreign';
import { NodeFileSystem } from '../../../../src/node/nodeFileSystem';
import { CountingFileSystem } from '../../helpers';
import { useTempDir } from '../../../lib/temp';

function plan(call: string, items: ForeignPlan['items'], session = 'chat-1', agent: ForeignPlan['source']['agent'] = 'copilot', turn?: number): ForeignPlan {
  return { source: { agent, tool: 'manage_todo_list', session, call, ...(turn === undefined ? {} : { turn }) }, items };
}

const lines = (file: string): Array<Record<string, unknown>> =>
  fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>) : [];

describe('plan sink', () => {
  const tmp = useTempDir();
  const open = (fsImpl = new CountingFileSystem()) => {
    const log = new SessionLog(tmp.path, fsImpl);
    const store = new PlanStore(log);
    return { log, store, sink: new LogPlanSink(log), fsImpl };
  };

  it('maps a Copilot chat to copilotSessionKey and a terminal agent to foreignSessionKey', () => {
    assert.equal(sessionKeyForForeign('copilot', 'u-1'), copilotSessionKey('u-1'));
    assert.equal(sessionKeyForForeign('codex', 't-1'), foreignSessionKey('codex', 't-1'));
  });

  it('appends each new plan once, in order, marked with its source; the store and listeners see them', async () => {
    const { log, store, sink } = open();
    const written: string[] = [];
    store.onDidWrite((event) => written.push(event.source?.call ?? 'tool'));
    const key = copilotSessionKey('chat-1');
    await sink.importPlans([plan('c1', [{ content: 'a', status: 'in_progress' }], 'chat-1', 'copilot', 0), plan('c2', [{ content: 'a', status: 'completed' }, { content: 'a', status: 'cancelled' }])]);
    await sink.importPlans([plan('c1', [{ content: 'a', status: 'in_progress' }]), plan('c2', []), plan('c3', [{ content: ' b ', status: 'blocked' }])]);
    const saved = lines(log.fileFor(key));
    assert.deepEqual(saved.map((line) => (line['source'] as { call: string }).call), ['c1', 'c2', 'c3']);
    assert.deepEqual(saved[0]?.['source'], { agent: 'copilot', tool: 'manage_todo_list', session: 'chat-1', call: 'c1', turn: 0 });
    assert.deepEqual(saved[2]?.['todos'], [{ content: 'b', status: 'blocked' }]);
    assert.deepEqual(written, ['c1', 'c2', 'c3']);
    assert.deepEqual(store.get(key)?.todos, [{ content: 'b', status: 'blocked' }]);
    assert.equal(store.details(key).agent, 'copilot');
  });

  it('a superseded foreign plan joins the history but the later todo_write stays the current plan, now and after a reload', async () => {
    const { log, store, sink } = open();
    const key = copilotSessionKey('chat-1');
    await store.write(key, [{ content: 'a', status: 'completed' }]);
    const late = plan('c1', [{ content: 'a', status: 'in_progress' }], 'chat-1', 'copilot', 0);
    late.source.superseded = true;
    await sink.importPlans([late]);
    assert.deepEqual(lines(log.fileFor(key)).map((line) => (line['source'] as { superseded?: boolean } | undefined)?.superseded ?? false), [false, true]);
    assert.deepEqual(store.get(key)?.todos, [{ content: 'a', status: 'completed' }]);
    assert.equal((await store.history(key)).length, 2);
    const reloaded = open();
    await reloaded.store.load();
    assert.deepEqual(reloaded.store.get(key)?.todos, [{ content: 'a', status: 'completed' }]);
  });

  it('a followed list read after a todo_write saved once its request had run joins the history superseded, in this window, another, and after a reload', async () => {
    let clock = Date.parse('2026-12-07T10:00:00.000Z');
    const at = (ms: number) => new Date(ms).toISOString();
    const opened = () => {
      const log = new SessionLog(tmp.path, new NodeFileSystem(), { now: () => new Date(clock) });
      return { log, store: new PlanStore(log), sink: new LogPlanSink(log) };
    };
    const { log, store, sink } = opened();
    const key = copilotSessionKey('chat-1');
    const sources = () => lines(log.fileFor(key)).map((line) => (line['source'] as { call: string; superseded?: boolean } | undefined) ?? 'own');
    // Request 0 ends at 10:00:05; request 1's todo_write is saved at 10:00:07, before the file shows request 0's list.
    await store.write(key, [{ content: 'a', status: 'in_progress' }]);
    const endOf0 = clock + 5000;
    clock += 7000;
    await store.write(key, [{ content: 'a', status: 'completed' }, { content: 'b', status: 'in_progress' }]);
    await sink.importPlans([{ ...plan('c0', [{ content: 'a', status: 'completed' }], 'chat-1', 'copilot', 0), ranBy: at(endOf0) }]);
    assert.deepEqual(sources().slice(2), [{ agent: 'copilot', tool: 'manage_todo_list', session: 'chat-1', call: 'c0', turn: 0, superseded: true }]);
    assert.deepEqual(store.get(key)?.todos, [{ content: 'a', status: 'completed' }, { content: 'b', status: 'in_progress' }], 'the todo_write stays the plan');
    // A list of request 1, which had run by 10:00:09 (after that todo_write): the plan. A list that says nothing: the plan too.
    await sink.importPlans([{ ...plan('c1', [{ content: 'b', status: 'completed' }], 'chat-1', 'copilot', 1), ranBy: at(clock + 2000) }]);
    assert.deepEqual(store.get(key)?.todos, [{ content: 'b', status: 'completed' }]);
    await sink.importPlans([plan('c2', [{ content: 'c', status: 'pending' }], 'chat-1', 'copilot', 1)]);
    assert.deepEqual(store.get(key)?.todos, [{ content: 'c', status: 'pending' }]);
    // Another window's sink, built from the log (backward read), and the first one after a todo_write it did not save itself.
    const other = opened();
    clock += 10_000;
    await other.store.write(key, [{ content: 'd', status: 'in_progress' }]);
    await other.sink.importPlans([{ ...plan('c3', [{ content: 'c', status: 'completed' }], 'chat-1', 'copilot', 2), ranBy: at(clock - 1) }]);
    await sink.importPlans([{ ...plan('c4', [{ content: 'c', status: 'completed' }], 'chat-1', 'copilot', 2), ranBy: at(clock - 1) }]);
    assert.deepEqual(sources().slice(-2).map((source) => typeof source === 'object' && source.superseded === true), [true, true]);
    const reloaded = opened();
    await reloaded.store.load();
    assert.deepEqual(reloaded.store.get(key)?.todos, [{ content: 'd', status: 'in_progress' }], 'after a reload the todo_write is still the plan');
    // A time the sink cannot read is a follower's bug: a TypeError, nothing written.
    const count = sources().length;
    await assert.rejects(reloaded.sink.importPlans([{ ...plan('c5', []), ranBy: 'soon' }]), /`ranBy` must be an ISO 8601 time/);
    assert.equal(sources().length, count);
  });

  it('recognizes what is already imported from the log itself (a new instance, after a restart)', async () => {
    const first = open();
    await first.sink.importPlans([plan('c1', [{ content: 'a', status: 'pending' }], 'run-1', 'claude-code')]);
    const second = open();
    await second.sink.importPlans([plan('c1', [{ content: 'a', status: 'pending' }], 'run-1', 'claude-code'), plan('c2', [], 'run-1', 'claude-code')]);
    assert.deepEqual(lines(second.log.fileFor(foreignSessionKey('claude-code', 'run-1'))).map((line) => (line['source'] as { call: string }).call), ['c1', 'c2']);
  });

  it('reads a session’s history once, not on every call; lines appended by others join the index', async () => {
    const { log, sink, fsImpl } = open();
    const key = copilotSessionKey('chat-1');
    for (let i = 0; i < 50; i++) await sink.importPlans([plan(`c${i}`, [{ content: `item ${i}`, status: 'pending' }])]);
    const before = fsImpl.bytesRead;
    for (let i = 0; i < 50; i++) await sink.importPlans([plan(`c${i}`, [{ content: `item ${i}`, status: 'pending' }])]);
    assert.equal(fsImpl.bytesRead, before, 'known calls are skipped without reading the log');
    // Another process (a second window) imports c50; our reader meets it, and we skip it.
    const other = open();
    await other.sink.importPlans([plan('c50', [{ content: 'from elsewhere', status: 'pending' }])]);
    await log.readNew(key);
    await sink.importPlans([plan('c50', [{ content: 'from elsewhere', status: 'pending' }])]);
    assert.equal(lines(log.fileFor(key)).length, 51);
  });

  it('concurrent imports of the same plan write it once', async () => {
    const { log, sink } = open();
    const p = plan('c1', [{ content: 'a', status: 'pending' }]);
    await Promise.all([sink.importPlans([p]), sink.importPlans([p]), sink.importPlans([p])]);
    assert.equal(lines(log.fileFor(copilotSessionKey('chat-1'))).length, 1);
  });

  it('a plan in a wrong shape rejects the call with a TypeError and writes nothing', async () => {
    const { log, sink } = open();
    const bad = { source: { agent: 'copilot', tool: 't', session: 'chat-1', call: 'c2' }, items: [{ content: 'x', status: 'done' }] } as unknown as ForeignPlan;
    await assert.rejects(sink.importPlans([plan('c1', []), bad]), TypeError);
    assert.deepEqual(lines(log.fileFor(copilotSessionKey('chat-1'))), []);
  });

  it('updateSession appends a session/info line only when something changed, keeping what it knew', async () => {
    const { log, store, sink } = open();
    const key = copilotSessionKey('chat-1');
    await sink.importPlans([plan('c1', [{ content: 'a', status: 'pending' }], 'chat-1', 'copilot', 0)]);
    await sink.updateSession({ agent: 'copilot', session: 'chat-1', title: 'Fix the build' });
    await sink.updateSession({ agent: 'copilot', session: 'chat-1', title: 'Fix the build' });
    await sink.updateSession({ agent: 'copilot', session: 'chat-1', latestTurn: { index: 1, planned: false } });
    await sink.updateSession({ agent: 'copilot', session: 'chat-1', title: 'Fix the build', latestTurn: { index: 1, planned: false } });
    const infos = lines(log.fileFor(key)).filter((line) => line['type'] === 'session/info');
    assert.deepEqual(
      infos.map((line) => [line['title'], line['latestTurn']]),
      [
        ['Fix the build', undefined],
        ['Fix the build', { index: 1, planned: false }],
      ],
    );
    assert.deepEqual(store.details(key), { agent: 'copilot', title: 'Fix the build', request: undefined, chat: 'chat-1', earlierTurn: true, parent: undefined, running: false });
    // A new instance knows the last info from the log and writes nothing for the same facts.
    const second = open();
    await second.sink.updateSession({ agent: 'copilot', session: 'chat-1', title: 'Fix the build', latestTurn: { index: 1, planned: false } });
    assert.equal(lines(log.fileFor(key)).filter((line) => line['type'] === 'session/info').length, 2);
  });

  it('keeps the folder a session ran in (its worktree): written once, kept when a later fact leaves it out, read back after a reload', async () => {
    const { log, store, sink } = open();
    const key = foreignSessionKey('codex', 't-9');
    await sink.importPlans([plan('c1', [{ content: 'a', status: 'pending' }], 't-9', 'codex', 0)]);
    await sink.updateSession({ agent: 'codex', session: 't-9', cwd: '/work/app-feature' });
    await sink.updateSession({ agent: 'codex', session: 't-9', cwd: '/work/app-feature' });
    await sink.updateSession({ agent: 'codex', session: 't-9', title: 'Add a dark mode toggle' });
    const infos = lines(log.fileFor(key)).filter((line) => line['type'] === 'session/info');
    assert.deepEqual(infos.map((line) => [line['cwd'], line['title']]), [
      ['/work/app-feature', undefined],
      ['/work/app-feature', 'Add a dark mode toggle'],
    ]);
    assert.equal(store.folderOf(key), '/work/app-feature');
    const second = open();
    await second.store.load();
    assert.equal(second.store.folderOf(key), '/work/app-feature');
    assert.equal(second.store.folderOf(foreignSessionKey('codex', 'other')), undefined);
  });

  it('the first request names a session: written once as one bounded line, never replaced by a later one, read back after a reload', async () => {
    const { log, store, sink } = open();
    const key = copilotSessionKey('chat-3');
    await store.write(key, [{ content: 'Audit the hard-coded colors in src/styles.css', status: 'pending' }]);
    await sink.updateSession({ agent: 'copilot', session: 'chat-3', request: '  Add a dark mode toggle\n to Brewlog ' });
    await sink.updateSession({ agent: 'copilot', session: 'chat-3', request: 'Add a dark mode toggle to Brewlog' });
    await sink.updateSession({ agent: 'copilot', session: 'chat-3', request: 'Now the CSV export' });
    const infos = lines(log.fileFor(key)).filter((line) => line['type'] === 'session/info');
    assert.deepEqual(infos.map((line) => line['request']), ['Add a dark mode toggle to Brewlog'], 'one line: the same text again, or a later request, writes nothing');
    assert.equal(store.details(key).request, 'Add a dark mode toggle to Brewlog');
    // A title, once the chat has one, comes first; the request stays.
    await sink.updateSession({ agent: 'copilot', session: 'chat-3', title: 'Dark mode' });
    const second = open();
    await second.store.load();
    assert.deepEqual([second.store.details(key).title, second.store.details(key).request], ['Dark mode', 'Add a dark mode toggle to Brewlog']);
  });

  it('a VS Code chat answered by another extension\'s participant is no Copilot chat: no agent, but its title and chat', async () => {
    const { log, store, sink } = open();
    const key = copilotSessionKey('chat-2');
    await store.write(key, [{ content: 'mine', status: 'pending' }]);
    await sink.updateSession({ agent: 'copilot', session: 'chat-2', title: 'Demo chat', participant: 'agent-plan.demo' });
    assert.deepEqual(store.details(key), { agent: undefined, title: 'Demo chat', request: undefined, chat: 'chat-2', earlierTurn: false, parent: undefined, running: false });
    // The same facts again write nothing; a newer request answered by Copilot makes it a Copilot chat.
    await sink.updateSession({ agent: 'copilot', session: 'chat-2', title: 'Demo chat', participant: 'agent-plan.demo' });
    await sink.updateSession({ agent: 'copilot', session: 'chat-2', participant: 'GitHub.copilot-chat' });
    assert.deepEqual(
      lines(log.fileFor(key)).filter((line) => line['type'] === 'session/info').map((line) => [line['title'], line['participant']]),
      [
        ['Demo chat', 'agent-plan.demo'],
        ['Demo chat', 'GitHub.copilot-chat'],
      ],
    );
    assert.equal(store.details(key).agent, 'copilot');
  });

  describe('two windows on one storage folder (two logs, two sinks, the locks between them)', () => {
    const host = (pid: number) => {
      const fileSystem = new NodeFileSystem();
      const log = new SessionLog(tmp.path, fileSystem);
      const locks = new SessionLocks(fileSystem, `${tmp.path}/.locks`, { pid, host: 'here', isAlive: () => true });
      return { log, sink: new LogPlanSink(log, { locks }) };
    };

    it('each call lands once and each session/info update once, whichever window imports first', async () => {
      const a = host(1);
      const b = host(2);
      const key = copilotSessionKey('chat-1');
      for (let call = 0; call < 30; call++) {
        const batch = [plan(`c${call}`, [{ content: `step ${call}`, status: 'in_progress' }])];
        const info = { agent: 'copilot' as const, session: 'chat-1', title: `Title ${call}` };
        await Promise.all([
          a.sink.importPlans(batch).then(() => a.sink.updateSession(info)),
          b.sink.importPlans(batch).then(() => b.sink.updateSession(info)),
        ]);
      }
      const saved = lines(a.log.fileFor(key));
      assert.deepEqual(
        saved.filter((line) => line['type'] === 'todo/write').map((line) => (line['source'] as { call: string }).call),
        Array.from({ length: 30 }, (_, call) => `c${call}`),
      );
      assert.deepEqual(
        saved.filter((line) => line['type'] === 'session/info').map((line) => line['title']),
        Array.from({ length: 30 }, (_, call) => `Title ${call}`),
      );
    });

    it('a window that lags behind does not write its older facts over the newer ones another window wrote', async () => {
      const ahead = host(1);
      const behind = host(2);
      const key = copilotSessionKey('chat-1');
      await ahead.sink.importPlans([plan('c1', []), plan('c2', [])]);
      await ahead.sink.updateSession({ agent: 'copilot', session: 'chat-1', title: 'Newer', latestTurn: { index: 2, planned: true } });
      // The lagging window has read only as far as the first call.
      await behind.sink.importPlans([plan('c1', [])]);
      await behind.sink.updateSession({ agent: 'copilot', session: 'chat-1', title: 'Older', latestTurn: { index: 1, planned: true } });
      const titles = lines(ahead.log.fileFor(key)).filter((line) => line['type'] === 'session/info').map((line) => line['title']);
      assert.deepEqual(titles, ['Newer']);
      // Once it has caught up, what it reads is what the log says: nothing more is written.
      await behind.sink.importPlans([plan('c2', [])]);
      await behind.sink.updateSession({ agent: 'copilot', session: 'chat-1', title: 'Newer', latestTurn: { index: 2, planned: true } });
      assert.equal(lines(ahead.log.fileFor(key)).length, 3);
    });
  });
});

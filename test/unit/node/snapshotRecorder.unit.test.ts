// When snapshots are taken: the trigger's rules, and the recorder with a real log, a real
// repository and real git.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SnapshotTrigger, inProgressKey } from '../../../src/core/derived/snapshotTrigger';
import { SessionRecords } from '../../../src/core/log/sessionRecords';
import { planEvent, type LogRecord } from '../../../src/core/log/logRecord';
import { LogPlanSink } from '../../../src/core/log/planSink';
import { SessionLocks } from '../../../src/core/log/sessionLock';
import { SessionLog, type LogRead } from '../../../src/core/log/sessionLog';
import { snapshotRecord, type SnapshotRecord } from '../../../src/core/log/snapshotRecord';
import { PlanStore } from '../../../src/core/store/store';
import type { ItemStatus } from '../../../src/core/plan/plan';
import { GitSnapshots } from '../../../src/node/gitSnapshots';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { SnapshotRecorder } from '../../../src/node/snapshotRecorder';
import { ItemChangesReader } from '../../../src/node/itemChangesReader';
import { committedRepo, KEY_A } from '../helpers';
import { useTempDir } from '../../lib/temp';

const NOW = Date.parse('2026-12-03T10:00:00.000Z');
const plan = (ts: string, ...items: Array<[string, ItemStatus]>) => planEvent(KEY_A, ts, items.map(([content, status]) => ({ content, status })));
const read = (records: LogRecord[], offsets: number[], extra: Partial<LogRead> = {}): LogRead => ({ session: KEY_A, records, offsets, ...extra });
const TS = new Date(NOW).toISOString();

describe('SnapshotTrigger', () => {
  it('the first version met live, then only versions that change the in-progress set', () => {
    const trigger = new SnapshotTrigger(() => NOW);
    assert.deepEqual(trigger.take(read([plan(TS, ['a', 'pending'], ['b', 'pending'])], [0])), { session: KEY_A, plan: 0, items: [] }, 'a snapshot before the first item starts');
    assert.equal(trigger.take(read([plan(TS, ['a', 'pending'], ['b', 'pending'])], [100])), undefined);
    assert.deepEqual(trigger.take(read([plan(TS, ['a', 'in_progress'], ['b', 'pending'])], [200])), { session: KEY_A, plan: 200, items: ['a'] });
    let taken = 0;
    for (let v = 0; v < 500; v++) if (trigger.take(read([plan(TS, ['a', 'in_progress'], ['b', 'pending'], [`note ${v}`, 'pending'])], [300 + v]))) taken++;
    assert.equal(taken, 0, '500 versions with the same in-progress set take no snapshot');
    assert.deepEqual(trigger.take(read([plan(TS, ['a', 'in_progress'], ['b', 'in_progress'])], [900])), { session: KEY_A, plan: 900, items: ['a', 'b'] });
  });

  it('a first look (the past after a reload) takes none; what changes after it does', () => {
    const trigger = new SnapshotTrigger(() => NOW);
    const current = plan(TS, ['a', 'in_progress']);
    const sync = { current, info: undefined, infoAfterPlan: false, modifiedMs: NOW, announce: false, reset: false, end: 10 };
    assert.equal(trigger.take(read([], [], { sync })), undefined);
    assert.equal(trigger.take(read([plan(TS, ['a', 'in_progress'])], [10])), undefined);
    assert.deepEqual(trigger.take(read([plan(TS, ['a', 'completed'])], [20])), { session: KEY_A, plan: 20, items: [] });
  });

  it('a version the agent wrote long ago (a follower catching up) takes none; of several in one read, only the newest', () => {
    const trigger = new SnapshotTrigger(() => NOW);
    const old = planEvent(KEY_A, TS, [{ content: 'a', status: 'in_progress' }], { agent: 'claude-code', tool: 'TodoWrite', session: 's', call: 'c1' }, '2026-12-03T09:00:00.000Z');
    assert.equal(trigger.take(read([old], [0])), undefined);
    assert.deepEqual(trigger.take(read([plan(TS, ['a', 'completed'], ['b', 'in_progress']), plan(TS, ['a', 'completed'], ['b', 'in_progress'], ['c', 'pending'])], [50, 90])), { session: KEY_A, plan: 90, items: ['b'] });
  });

  it("a session's state between versions is one small number in the reader's shared record, the same set in any order alike", () => {
    const records = new SessionRecords();
    const trigger = new SnapshotTrigger(() => NOW, records);
    const current = plan(TS, ['a', 'in_progress'], ['b', 'in_progress'], ['c', 'pending']);
    const sync = { current, info: undefined, infoAfterPlan: false, modifiedMs: NOW, announce: false, reset: false, end: 10 };
    assert.equal(trigger.take(read([], [], { sync })), undefined);
    assert.equal(records.size, 1, 'one record for the session, shared with the other books');
    assert.equal(inProgressKey(['b', 'a', 'a']), inProgressKey(['a', 'b']));
    assert.ok(Number.isInteger(inProgressKey(['a', 'b'])) && inProgressKey(['a', 'b']) >= 0 && inProgressKey(['a', 'b']) < 2 ** 30);
    assert.notEqual(inProgressKey(['a', 'b']), inProgressKey(['ab']));
    assert.equal(trigger.take(read([plan(TS, ['b', 'in_progress'], ['a', 'in_progress'], ['c', 'pending'])], [10])), undefined, 'the same set, reordered');
    assert.deepEqual(trigger.take(read([plan(TS, ['a', 'completed'], ['b', 'in_progress'], ['c', 'pending'])], [20])), { session: KEY_A, plan: 20, items: ['b'] });
    trigger.take(read([], [], { gone: true }));
    assert.equal(records.size, 0, 'a deleted session keeps nothing');
  });

  it('a snapshot line already read for the version (another window) is not taken again', () => {
    const trigger = new SnapshotTrigger(() => NOW);
    const line: SnapshotRecord = snapshotRecord(KEY_A, TS, { tree: 'a'.repeat(40), folder: '/w', items: [], plan: 0 });
    assert.equal(trigger.take(read([plan(TS, ['a', 'pending']), line], [0, 40])), undefined);
    assert.equal(trigger.has(KEY_A, 0), true);
  });
});

describe('SnapshotRecorder (real log, real git)', function () {
  this.timeout(60_000);
  const tmp = useTempDir();

  const makeRepo = (): string => committedRepo(path.join(tmp.path, 'repo'), { 'a.txt': '1\n' });

  const snapshotLines = (file: string): SnapshotRecord[] =>
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.includes('"tree/snapshot"'))
      .map((line) => JSON.parse(line) as SnapshotRecord);

  function window(pid: number, folder: string | undefined | (() => string | undefined), enabled = true) {
    const fileSystem = new NodeFileSystem();
    const log = new SessionLog(path.join(tmp.path, 'sessions'), fileSystem);
    const store = new PlanStore(log);
    const locks = new SessionLocks(fileSystem, path.join(tmp.path, 'sessions', '.locks'), { pid, host: 'here', isAlive: () => true });
    const sink = new LogPlanSink(log, { locks });
    const infos: string[] = [];
    const recorder = new SnapshotRecorder(log, sink, new GitSnapshots(path.join(tmp.path, 'store')), {
      folderOf: () => (typeof folder === 'function' ? folder() : folder),
      maxBytes: () => 0,
      enabled: () => enabled,
      info: (message) => infos.push(message),
      error: (message, error) => assert.fail(`${message}: ${String(error)}`),
    });
    return { log, store, recorder, infos, reader: new ItemChangesReader(log, new GitSnapshots(path.join(tmp.path, 'store'))) };
  }

  it('todo_write versions: a snapshot at the first and at each change of the in-progress set, each the working tree then', async () => {
    const repo = makeRepo();
    const { log, store, recorder } = window(1, repo);
    await store.load();
    await store.write(KEY_A, [{ content: 'a', status: 'pending' }]);
    await recorder.idle();
    await store.write(KEY_A, [{ content: 'a', status: 'in_progress' }]);
    await recorder.idle();
    fs.writeFileSync(path.join(repo, 'a.txt'), '2\n');
    for (let i = 0; i < 20; i++) await store.write(KEY_A, [{ content: 'a', status: 'in_progress' }, { content: `n${i}`, status: 'pending' }]);
    await recorder.idle();
    await store.write(KEY_A, [{ content: 'a', status: 'completed' }]);
    await recorder.idle();
    await log.catchUp(KEY_A);
    const lines = snapshotLines(log.fileFor(KEY_A));
    assert.deepEqual(
      lines.map((line) => line.items),
      [[], ['a'], []],
    );
    assert.equal(lines[0]?.tree, lines[1]?.tree, 'nothing changed before the item started');
    assert.notEqual(lines[1]?.tree, lines[2]?.tree);
    assert.equal(lines[2]?.folder, fs.realpathSync(repo));
  });

  it('a version read before its session says where it works (a follower\'s first plan line) is snapshotted once the folder is known', async () => {
    const repo = makeRepo();
    let known: string | undefined;
    const { log, store, recorder } = window(1, () => known);
    await store.load();
    await store.write(KEY_A, [{ content: 'a', status: 'in_progress' }, { content: 'b', status: 'pending' }]);
    await recorder.idle();
    assert.equal(snapshotLines(log.fileFor(KEY_A)).length, 0, 'no folder yet: nothing taken');
    // The session's folder becomes known (its session/info line); the next line read of it takes the snapshot due.
    known = repo;
    await store.write(KEY_A, [{ content: 'a', status: 'in_progress' }, { content: 'b', status: 'pending' }, { content: 'c', status: 'pending' }]);
    await recorder.idle();
    await log.catchUp(KEY_A);
    const lines = snapshotLines(log.fileFor(KEY_A));
    assert.deepEqual(lines.map((line) => [line.items, line.plan]), [[['a'], 0]], 'the first version\'s snapshot, taken late, once');
    fs.writeFileSync(path.join(repo, 'a.txt'), '2\n');
    await store.write(KEY_A, [{ content: 'a', status: 'completed' }, { content: 'b', status: 'in_progress' }]);
    await recorder.idle();
    assert.equal(snapshotLines(log.fileFor(KEY_A)).length, 2);
  });

  it('a folder that is not a git working tree takes none, said once', async () => {
    const plain = path.join(tmp.path, 'plain');
    fs.mkdirSync(plain);
    const { log, store, recorder, infos, reader } = window(1, plain);
    await store.load();
    await store.write(KEY_A, [{ content: 'a', status: 'in_progress' }, { content: 'b', status: 'pending' }]);
    await recorder.idle();
    await store.write(KEY_A, [{ content: 'a', status: 'completed' }, { content: 'b', status: 'pending' }]);
    await recorder.idle();
    assert.equal(snapshotLines(log.fileFor(KEY_A)).length, 0);
    assert.equal(infos.length, 1);
    assert.match(infos[0] ?? '', /not-git/);
    const changes = await reader.read(KEY_A, ['a', 'b'], { now: true });
    assert.deepEqual(
      changes.items.map((item) => [item.content, item.recorded, item.files]),
      [
        ['a', 'none', []],
        ['b', 'all', []],
      ],
      'the item worked on says not recorded; nothing invented',
    );
    assert.deepEqual(changes.session, []);
  });

  it('a restart: versions from before it have no snapshot and say not recorded; what changes after it is recorded', async () => {
    const repo = makeRepo();
    const before = window(1, repo, false);
    await before.store.load();
    await before.store.write(KEY_A, [{ content: 'A', status: 'in_progress' }, { content: 'B', status: 'pending' }, { content: 'C', status: 'pending' }]);
    fs.writeFileSync(path.join(repo, 'a.txt'), 'by A\n');
    await before.store.write(KEY_A, [{ content: 'A', status: 'completed' }, { content: 'B', status: 'in_progress' }, { content: 'C', status: 'pending' }]);
    fs.writeFileSync(path.join(repo, 'b.txt'), 'by B\n');
    await before.recorder.idle();
    before.recorder.dispose();
    // The window reloads: the session's past is read at a first look, and the working tree is no longer what it was then.
    const after = window(2, repo);
    await after.store.load();
    await after.recorder.idle();
    assert.equal(snapshotLines(after.log.fileFor(KEY_A)).length, 0, 'no snapshot of the past');
    await after.store.write(KEY_A, [{ content: 'A', status: 'completed' }, { content: 'B', status: 'completed' }, { content: 'C', status: 'in_progress' }]);
    await after.recorder.idle();
    fs.writeFileSync(path.join(repo, 'c.txt'), 'by C\n');
    await after.store.write(KEY_A, [{ content: 'A', status: 'completed' }, { content: 'B', status: 'completed' }, { content: 'C', status: 'completed' }]);
    await after.recorder.idle();
    const changes = await after.reader.read(KEY_A, ['A', 'B', 'C']);
    assert.deepEqual(
      changes.items.map((item) => [item.content, item.recorded, item.files.map((f) => f.path)]),
      [
        ['A', 'none', []],
        ['B', 'none', []],
        ['C', 'all', ['c.txt']],
      ],
    );
    assert.deepEqual(changes.session.map((f) => f.path), ['c.txt'], 'the session’s diff starts at its first snapshot');
  });

  it('two windows that read the same versions write one snapshot line each', async () => {
    const repo = makeRepo();
    const a = window(1, repo);
    const b = window(2, repo);
    await Promise.all([a.store.load(), b.store.load()]);
    for (const status of ['pending', 'in_progress', 'completed'] as const) {
      await a.store.write(KEY_A, [{ content: 'a', status }]);
      await b.log.catchUp(KEY_A);
      await Promise.all([a.recorder.idle(), b.recorder.idle()]);
    }
    await Promise.all([a.log.catchUp(KEY_A), b.log.catchUp(KEY_A)]);
    assert.deepEqual(
      snapshotLines(a.log.fileFor(KEY_A)).map((line) => line.plan !== undefined),
      [true, true, true],
    );
  });

  it('log → recorder → reader: each item’s files, its open stretch to now, and the session’s; the same after a reload', async () => {
    const repo = makeRepo();
    const { store, recorder, reader } = window(1, repo);
    await store.load();
    const plan = (a: 'pending' | 'in_progress' | 'completed', b: 'pending' | 'in_progress' | 'completed') => store.write(KEY_A, [{ content: 'A', status: a }, { content: 'B', status: b }]);
    await plan('in_progress', 'pending');
    await recorder.idle();
    fs.writeFileSync(path.join(repo, 'a.txt'), '1\n2\n3\n');
    await plan('completed', 'in_progress');
    await recorder.idle();
    fs.writeFileSync(path.join(repo, 'b.txt'), 'b\n');
    const live = await reader.read(KEY_A, ['A', 'B'], { now: true });
    assert.deepEqual(
      live.items.map((item) => [item.content, item.recorded, item.files.map((f) => [f.path, f.added, f.removed, f.meanwhile ?? false])]),
      [
        ['A', 'all', [['a.txt', 2, 0, true]]],
        ['B', 'all', [['b.txt', 1, 0, true]]],
      ],
      'todo_write names no files: every change is “meanwhile”',
    );
    assert.deepEqual(live.session.map((f) => f.path).sort(), ['a.txt', 'b.txt']);
    // A reload: a new window reads the same log and the same store.
    const again = window(2, repo);
    await again.store.load();
    const reloaded = await again.reader.read(KEY_A, ['A', 'B']);
    assert.deepEqual(reloaded.items[0]?.files.map((f) => f.path), ['a.txt']);
    assert.deepEqual(reloaded.items[1]?.files, [], 'without `now`, the open stretch shows up to the newest snapshot');
    const dropped = await again.reader.read(KEY_A, ['B'], { worked: true });
    assert.deepEqual(
      dropped.items.map((item) => [item.content, item.files.map((f) => f.path)]),
      [
        ['B', []],
        ['A', ['a.txt']],
      ],
      'an item the plan no longer holds (dropped) is read too, after the plan’s',
    );
    // Since a version: the first (A started), then the second (B started), each to now.
    const versions = (await again.store.page(KEY_A, 10)).versions;
    const sinceFirst = await again.reader.since(KEY_A, versions[1]?.at ?? -1, { now: true });
    assert.deepEqual(sinceFirst?.files.map((f) => [f.path, f.added, f.removed]).sort(), [
      ['a.txt', 2, 0],
      ['b.txt', 1, 0],
    ]);
    assert.equal(sinceFirst?.exact, true);
    const sinceSecond = await again.reader.since(KEY_A, versions[0]?.at ?? -1, { now: true });
    assert.deepEqual(sinceSecond?.files.map((f) => f.path), ['b.txt']);
    assert.deepEqual((await again.reader.since(KEY_A, versions[0]?.at ?? -1))?.files, [], 'without `now`: up to the newest snapshot, which is that version’s');
  });
});

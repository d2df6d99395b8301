import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DisplayState } from '../../../../src/core/store/display';
import { SessionLog } from '../../../../src/core/log/sessionLog';
import { PlanStore, STATUS_WALK_LIMIT } from '../../../../src/core/store/store';
import { runTodoWrite } from '../../../../src/core/store/todoWrite';
import { NO_SESSION_TEXT, countItems, type Todo } from '../../../../src/core/plan/plan';
import { sessionKeyFromToken } from '../../../../src/core/log/sessionKey';
import { nodeFileSystem } from '../../../../src/node/nodeFileSystem';
import { CountingFileSystem } from '../../helpers';
import { useTempDir } from '../../../lib/temp';

const A = { sessionId: 'session-a' };
const B = { sessionId: 'session-b' };
const keyA = sessionKeyFromToken(A)!;
const keyB = sessionKeyFromToken(B)!;
const list = (...items: string[]) => ({ todos: items.map((content) => ({ content, status: 'pending' })) });

describe('store, display state and one tool call', () => {
  const tmp = useTempDir();
  let clock = 0;
  const open = () => {
    const log = new SessionLog(path.join(tmp.path, 'sessions'), nodeFileSystem, { now: () => new Date(Date.UTC(2026, 0, 1, 0, 0, clock++)) });
    return new PlanStore(log);
  };

  it('a saved call fires one write and one change event, a rejected one none', async () => {
    const store = open();
    const writes: string[] = [];
    let changes = 0;
    store.onDidWrite((event) => writes.push(event.session));
    store.onDidChange(() => changes++);
    const saved = await runTodoWrite(store, A, list('one'));
    assert.equal(saved.kind, 'saved');
    assert.equal(saved.text, 'Updated todo list: 1 pending, 0 in progress, 0 completed.');
    assert.deepEqual(writes, [keyA]);
    assert.equal(changes, 1);
    const rejected = await runTodoWrite(store, undefined, list('two'));
    assert.deepEqual(rejected, { kind: 'rejected', text: NO_SESSION_TEXT, reason: 'no-session' });
    const invalid = await runTodoWrite(store, A, { todos: [{ content: 'x', status: 'done' }] });
    assert.equal(invalid.kind, 'rejected');
    assert.deepEqual(writes, [keyA]);
    assert.equal(changes, 1);
  });

  it('a failed save says why, fires nothing and keeps the previous plan', async () => {
    const store = open();
    await runTodoWrite(store, A, list('kept'));
    const file = store.log.fileFor(keyA);
    fs.rmSync(file);
    fs.mkdirSync(file);
    let events = 0;
    store.onDidWrite(() => events++);
    const outcome = await runTodoWrite(store, A, list('lost'));
    assert.equal(outcome.kind, 'failed');
    assert.equal(outcome.text, `Error: could not save the todo list: ${file} is a directory`);
    assert.equal(events, 0);
    assert.equal(store.get(keyA)?.todos[0]?.content, 'kept');
  });

  it('a listener that throws is reported and does not stop the others', async () => {
    const reported: unknown[] = [];
    const log = new SessionLog(path.join(tmp.path, 'sessions'), nodeFileSystem);
    const store = new PlanStore(log, (error) => reported.push(error));
    let reached = false;
    store.onDidWrite(() => {
      throw new Error('listener bug');
    });
    store.onDidWrite(() => {
      reached = true;
    });
    const outcome = await runTodoWrite(store, A, list('x'));
    assert.equal(outcome.kind, 'saved');
    assert.equal(reached, true);
    assert.equal(reported.length, 1);
  });

  it('loads every session again from the logs, newest first', async () => {
    const first = open();
    await runTodoWrite(first, A, list('a1'));
    await runTodoWrite(first, B, list('b1'));
    await runTodoWrite(first, A, list('a2'));
    const second = open();
    await second.load();
    assert.deepEqual(second.list().map((e) => [e.session, e.todos[0]?.content]), [[keyA, 'a2'], [keyB, 'b1']]);
  });

  it('ingests what another process appended, once', async () => {
    const store = open();
    await runTodoWrite(store, A, list('mine'));
    const other = new SessionLog(path.join(tmp.path, 'sessions'), nodeFileSystem);
    await other.append(keyA, [{ content: 'theirs', status: 'in_progress' }]);
    const seen: string[] = [];
    store.onDidWrite((event) => seen.push(event.todos[0]!.content));
    await store.ingest(keyA);
    await store.ingest(keyA);
    assert.deepEqual(seen, ['theirs']);
    assert.equal(store.get(keyA)?.todos[0]?.content, 'theirs');
  });

  it('the display follows the latest writer, stays pinned, and comes back on Follow Latest', async () => {
    const store = open();
    const display = new DisplayState(store, true);
    await runTodoWrite(store, A, list('a'));
    assert.equal(display.session, keyA);
    await runTodoWrite(store, B, list('b'));
    assert.equal(display.session, keyB);
    display.select(keyA);
    await runTodoWrite(store, B, list('b2'));
    assert.equal(display.session, keyA);
    assert.equal(display.followingLatest, false);
    display.followLatest();
    assert.equal(display.session, keyB);
    assert.equal(display.event?.todos[0]?.content, 'b2');
  });

  it('shows an older version until the latest is asked for, and unpins a deleted session', async () => {
    const store = open();
    const display = new DisplayState(store, true);
    await runTodoWrite(store, A, list('v1'));
    await runTodoWrite(store, A, list('v2'));
    const older = (await store.page(keyA, 2)).versions[1]!;
    display.showVersion({ session: keyA, behind: 1, ...older });
    assert.equal(display.event?.todos[0]?.content, 'v1');
    display.showLatestVersion();
    assert.equal(display.event?.todos[0]?.content, 'v2');
    await runTodoWrite(store, B, list('b'));
    display.select(keyA);
    await store.remove(keyA);
    assert.equal(display.session, keyB);
  });

  it('with followLatest off, stays on the session shown first', async () => {
    const store = open();
    const display = new DisplayState(store, false);
    await runTodoWrite(store, A, list('a'));
    await runTodoWrite(store, B, list('b'));
    assert.equal(display.session, keyA);
  });
});

describe('reading a session backwards', () => {
  const tmp = useTempDir();

  it('visits events newest first and stops when asked, reading only the tail', async () => {
    const counting = new CountingFileSystem(nodeFileSystem);
    const log = new SessionLog(path.join(tmp.path, 'sessions'), counting);
    const lines: string[] = [];
    for (let i = 0; i < 5000; i++) {
      const todos = [{ content: 'steady', status: i < 4990 ? 'pending' : 'in_progress' }, { content: `step ${i}`, status: 'pending' }];
      lines.push(JSON.stringify({ v: 1, type: 'todo/write', ts: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), session: keyA, todos, counts: { pending: i < 4990 ? 2 : 1, inProgress: i < 4990 ? 0 : 1, completed: 0 } }));
    }
    fs.mkdirSync(path.join(tmp.path, 'sessions'));
    fs.writeFileSync(log.fileFor(keyA), lines.join('\n') + '\n');
    const seen: string[] = [];
    await log.readBackward(keyA, (event) => {
      if (event.todos[0]?.status !== 'in_progress') return true;
      seen.push(event.todos[1]!.content);
      return false;
    });
    assert.deepEqual(seen, ['step 4999', 'step 4998', 'step 4997', 'step 4996', 'step 4995', 'step 4994', 'step 4993', 'step 4992', 'step 4991', 'step 4990']);
    assert.ok(counting.bytesRead < 128 * 1024, `read ${counting.bytesRead} bytes of ${fs.statSync(log.fileFor(keyA)).size}`);
  });

  it('finds since when an item has held its status, from the current plan or an older version', async () => {
    const store = new PlanStore(new SessionLog(path.join(tmp.path, 'since'), nodeFileSystem));
    const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 10, minute)).toISOString();
    const write = async (minute: number, todos: Todo[]) => {
      const file = store.log.fileFor(keyA);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.appendFileSync(file, JSON.stringify({ v: 1, type: 'todo/write', ts: at(minute), session: keyA, todos, counts: countItems(todos) }) + '\n');
      await store.ingest(keyA);
    };
    await write(0, [{ content: 'x', status: 'pending' }]);
    await write(5, [{ content: 'x', status: 'in_progress' }]);
    await write(7, [{ content: 'x', status: 'in_progress' }, { content: 'y', status: 'pending' }]);
    await write(9, [{ content: 'x', status: 'completed' }, { content: 'y', status: 'pending' }]);
    assert.deepEqual(await store.statusSince(keyA, 'x'), { since: at(9), atLeast: false });
    assert.deepEqual(await store.statusSince(keyA, 'y'), { since: at(7), atLeast: false });
    assert.equal(await store.statusSince(keyA, 'gone'), undefined);
    const [, shown] = (await store.page(keyA, 2)).versions;
    assert.deepEqual(await store.statusSince(keyA, 'x', shown), { since: at(5), atLeast: false }, 'from the older version back');
    assert.equal(await store.statusSince(keyB, 'x'), undefined);
  });

  it('looks back at most STATUS_WALK_LIMIT versions, and then says the status is older still', async () => {
    const dir = path.join(tmp.path, 'walk');
    fs.mkdirSync(dir);
    const counting = new CountingFileSystem(nodeFileSystem);
    const store = new PlanStore(new SessionLog(dir, counting));
    const todos: Todo[] = [{ content: 'waiting', status: 'pending' }];
    const lines = Array.from({ length: STATUS_WALK_LIMIT * 3 }, (_, i) =>
      JSON.stringify({ v: 1, type: 'todo/write', ts: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(), session: keyA, todos, counts: countItems(todos) }),
    );
    fs.writeFileSync(store.log.fileFor(keyA), lines.join('\n') + '\n');
    await store.load();
    const before = counting.bytesRead;
    const held = await store.statusSince(keyA, 'waiting');
    assert.equal(held?.atLeast, true);
    assert.equal(held?.since, new Date(Date.UTC(2026, 0, 1) + (STATUS_WALK_LIMIT * 2) * 1000).toISOString());
    assert.ok(counting.bytesRead - before < fs.statSync(store.log.fileFor(keyA)).size / 2, 'the walk stopped early');
  });
});

// A log that holds a foreign call twice (an older version racing in two windows, or a
// crash between check and append) replays with each call once: the current plan, the
// history, its pages, the live reader and a reload agree.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { BackwardRepeats, REPEAT_WINDOW, RecentImports } from '../../../../src/core/log/logRepeats';
import { planEvent, type LogRecord } from '../../../../src/core/log/logRecord';
import { copilotSessionKey } from '../../../../src/core/log/sessionKey';
import { SessionLog } from '../../../../src/core/log/sessionLog';
import { PlanStore } from '../../../../src/core/store/store';
import { nodeFileSystem } from '../../../../src/node/nodeFileSystem';
import type { PlanSource } from '../../../../src/core/foreign';
import { useTempDir } from '../../../lib/temp';

const KEY = copilotSessionKey('chat-r');
const source = (call: string): PlanSource => ({ agent: 'copilot', tool: 'manage_todo_list', session: 'chat-r', call });
const foreign = (call: string): LogRecord => planEvent(KEY, '2026-12-03T10:00:00.000Z', [{ content: call, status: 'in_progress' }], source(call));
const own = (text: string): LogRecord => planEvent(KEY, '2026-12-03T10:00:00.000Z', [{ content: text, status: 'pending' }]);
const label = (record: LogRecord): string => (record.type === 'todo/write' ? (record.source?.call ?? record.todos[0]?.content ?? '') : 'info');

/** Which records a forward read keeps. */
function forward(records: readonly LogRecord[]): string[] {
  const recent = new RecentImports();
  return records.filter((record) => !recent.isRepeat(record)).map(label);
}

/** Which records a backward read keeps, turned back to file order. */
function backward(records: readonly LogRecord[]): string[] {
  const repeats = new BackwardRepeats<number>();
  const out: string[] = [];
  for (let i = records.length - 1; i >= 0; i--) for (const decided of repeats.push(records[i] as LogRecord, i)) out.push(label(decided.record));
  for (const decided of repeats.flush()) out.push(label(decided.record));
  return out.reverse();
}

describe('repeated imports in a log', () => {
  const tmp = useTempDir();

  it('forwards and backwards agree: a call within the window after its first line is a repeat, one further away is not', () => {
    const records = [foreign('a'), foreign('b'), foreign('a'), own('t'), foreign('b'), foreign('c'), foreign('c')];
    assert.deepEqual(forward(records), ['a', 'b', 't', 'c']);
    assert.deepEqual(backward(records), ['a', 'b', 't', 'c']);
    const far = [foreign('x'), ...Array.from({ length: REPEAT_WINDOW }, (_, i) => own(`t${i}`)), foreign('x')];
    assert.equal(forward(far).filter((l) => l === 'x').length, 2);
    assert.equal(backward(far).filter((l) => l === 'x').length, 2);
    const near = [foreign('x'), ...Array.from({ length: REPEAT_WINDOW - 1 }, (_, i) => own(`t${i}`)), foreign('x')];
    assert.equal(forward(near).filter((l) => l === 'x').length, 1);
    assert.equal(backward(near).filter((l) => l === 'x').length, 1);
  });

  it('forwards and backwards agree on random logs with repeats', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 50; round++) {
      const records: LogRecord[] = [];
      for (let i = 0; i < 300; i++) {
        const pick = random();
        records.push(pick < 0.1 ? own(`t${i}`) : foreign(`c${Math.floor(random() * 40)}`));
      }
      assert.deepEqual(backward(records), forward(records), `round ${round}`);
    }
  });

  it('a log with repeated calls reads each call once: history, pages, the current plan, a reload', async () => {
    const writer = new SessionLog(tmp.path, nodeFileSystem);
    // Two windows of an older version: b imported twice, then c; a late repeat of c's predecessor b; then c again at the end.
    for (const call of ['a', 'b', 'b', 'c', 'b', 'c']) await writer.appendForeign(KEY, [{ content: call, status: 'in_progress' }], source(call));
    assert.equal(fs.readFileSync(writer.fileFor(KEY), 'utf8').trim().split('\n').length, 6);

    const log = new SessionLog(tmp.path, nodeFileSystem);
    assert.deepEqual((await log.history(KEY)).map((event) => event.source?.call), ['a', 'b', 'c']);
    const page = await log.page(KEY, 2);
    assert.deepEqual(page.versions.map((version) => version.event.source?.call), ['c', 'b']);
    assert.equal(page.more, true);
    const older = await log.page(KEY, 2, page.versions[1]?.at);
    assert.deepEqual(older.versions.map((version) => version.event.source?.call), ['a']);
    assert.equal(older.more, false);
    assert.equal((await log.current(KEY))?.source?.call, 'c', 'the last line repeats c: c stays current');

    const store = new PlanStore(log);
    await store.load();
    assert.equal(store.get(KEY)?.source?.call, 'c');
    assert.equal((await store.history(KEY)).length, 3);
  });

  it('a repeat that ends the file does not make an older call current again', async () => {
    const log = new SessionLog(tmp.path, nodeFileSystem);
    for (const call of ['a', 'b', 'a']) await log.appendForeign(KEY, [{ content: call, status: 'in_progress' }], source(call));
    const fresh = new SessionLog(tmp.path, nodeFileSystem);
    assert.equal((await fresh.current(KEY))?.source?.call, 'b');
    assert.deepEqual((await fresh.history(KEY)).map((event) => event.source?.call), ['a', 'b']);
  });

  it('the live reader announces a repeat another process appended as nothing new', async () => {
    const reader = new SessionLog(tmp.path, nodeFileSystem);
    const store = new PlanStore(reader);
    const other = new SessionLog(tmp.path, nodeFileSystem);
    await other.appendForeign(KEY, [{ content: 'a', status: 'in_progress' }], source('a'));
    await store.load();
    const written: string[] = [];
    store.onDidWrite((event) => written.push(event.source?.call ?? 'tool'));
    for (const call of ['b', 'a', 'b', 'c']) await other.appendForeign(KEY, [{ content: call, status: 'in_progress' }], source(call));
    await store.ingest(KEY);
    assert.deepEqual(written, ['b', 'c']);
    assert.equal(store.get(KEY)?.source?.call, 'c');
  });
});

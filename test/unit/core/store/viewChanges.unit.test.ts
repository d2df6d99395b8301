// What the tree views redraw per change: the events of one log line fold into one redraw,
// naming the session; a list whose rows did not move redraws only the changed rows.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { DisplayState } from '../../../../src/core/store/display';
import { HealthBook } from '../../../../src/core/derived/healthBook';
import { SessionLog } from '../../../../src/core/log/sessionLog';
import { PlanStore } from '../../../../src/core/store/store';
import { runTodoWrite } from '../../../../src/core/store/todoWrite';
import { sessionKeyFromToken } from '../../../../src/core/log/sessionKey';
import { ChangeFold, rowsInPlace, rowsToRefresh, type FoldedChange, type RowsLayout } from '../../../../src/core/store/viewChanges';
import { nodeFileSystem } from '../../../../src/node/nodeFileSystem';
import { useTempDir } from '../../../lib/temp';

const A = { sessionId: 'fold-a' };
const B = { sessionId: 'fold-b' };
const keyA = sessionKeyFromToken(A)!;
const keyB = sessionKeyFromToken(B)!;
const list = (...items: Array<[string, 'pending' | 'in_progress' | 'completed']>) => ({ todos: items.map(([content, status]) => ({ content, status })) });
const sorted = (rows: 'root' | string[]) => (rows === 'root' ? rows : [...rows].sort());
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('view changes: one redraw per change, of what changed', () => {
  const tmp = useTempDir();

  it('the store’s, display’s and health’s events of one todo_write fold into one redraw naming its session', async () => {
    const log = new SessionLog(path.join(tmp.path, 'sessions'), nodeFileSystem);
    const store = new PlanStore(log);
    const health = new HealthBook(log);
    const display = new DisplayState(store, true);
    await store.load();
    const flushes: FoldedChange[] = [];
    let events = 0;
    const fold = new ChangeFold((change) => flushes.push(change), queueMicrotask);
    display.onDidChange((session) => (events++, fold.add(session)));
    health.onDidChange(({ session }) => (events++, fold.add(session)));
    flushes.length = 0;

    await runTodoWrite(store, A, list(['plan', 'in_progress'], ['build', 'pending']));
    await turn();
    assert.equal(flushes.length, 1);
    assert.deepEqual([...flushes[0]!.sessions], [keyA]);
    assert.equal(flushes[0]!.all, false);

    // An item dropped: a health signal of the same line, still one redraw.
    events = 0;
    await runTodoWrite(store, A, list(['plan', 'completed']));
    await turn();
    assert.ok(events >= 2, `the write raised ${events} events`);
    assert.equal(flushes.length, 2);
    assert.deepEqual([...flushes[1]!.sessions], [keyA]);
    assert.ok(health.signals(keyA).length > 0, 'the dropped item is a signal');

    await runTodoWrite(store, B, list(['other', 'pending']));
    await turn();
    assert.equal(flushes.length, 3);
    assert.deepEqual([...flushes[2]!.sessions], [keyB]);

    // Showing another session is not one session's change: every row may differ.
    display.select(keyA);
    await turn();
    assert.equal(flushes.length, 4);
    assert.equal(flushes[3]!.all, true);
    health.dispose();
    store.dispose();
    display.dispose();
  });

  const layout = (rows: Array<[string, string?]>, more = 0): RowsLayout => ({
    key: [...rows.map(([session, parent]) => `${parent === undefined ? 's' : 'c'}:${session}`), `more:${more}`].join('\n'),
    parents: new Map(rows.map(([session, parent]) => [session, parent])),
  });
  const change = (sessions: string[], all = false): FoldedChange => ({ all, sessions: new Set(sessions) });

  it('rows that did not move: only the changed sessions’ rows, and the parent that counts a changed subagent', () => {
    const before = layout([['a'], ['b'], ['c', 'b']]);
    const after = layout([['a'], ['b'], ['c', 'b']]);
    assert.deepEqual(rowsToRefresh(before, after, change(['a'])), ['a']);
    assert.deepEqual(sorted(rowsToRefresh(before, after, change(['c']))), ['b', 'c']);
    // A session that is not listed (older than the page) redraws nothing.
    assert.deepEqual(rowsToRefresh(before, after, change(['z'])), []);
    // The row that loses the "shown" mark and the one that gains it.
    assert.deepEqual(sorted(rowsToRefresh(before, after, change([]), ['a', 'b'])), ['a', 'b']);
  });

  it('rows that moved, came or went, or a change of any session: the whole list', () => {
    const before = layout([['a'], ['b']]);
    assert.equal(rowsToRefresh(before, layout([['b'], ['a']]), change(['b'])), 'root');
    assert.equal(rowsToRefresh(before, layout([['a'], ['b'], ['c', 'b']]), change(['c'])), 'root');
    assert.equal(rowsToRefresh(before, layout([['a'], ['b']], 1), change(['a'])), 'root');
    assert.equal(rowsToRefresh(before, layout([['a'], ['b']]), change(['a'], true)), 'root');
    assert.equal(rowsToRefresh(undefined, layout([['a'], ['b']]), change(['a'])), 'root');
  });

  it('a plan whose rows keep their places redraws only the rows whose look changed; any other change, the whole list', () => {
    const rows = (shapes: string[], looks: string[]) => ({ shapes, looks });
    const before = rows(['signal', 'todo 0', 'todo 1'], ['', 'A pending', 'B pending']);
    // An item done, another reworded in place: those two rows.
    assert.deepEqual(rowsInPlace(before, rows(['signal', 'todo 0', 'todo 1'], ['', 'A completed', 'B2 in_progress'])), [1, 2]);
    assert.deepEqual(rowsInPlace(before, rows(['signal', 'todo 0', 'todo 1'], ['', 'A pending', 'B pending'])), []);
    // An item added or removed, a row that now opens to files, a signal that came or went.
    assert.equal(rowsInPlace(before, rows(['signal', 'todo 0', 'todo 1', 'todo 2'], ['', 'A pending', 'B pending', 'C pending'])), 'root');
    assert.equal(rowsInPlace(before, rows(['signal', 'todo 0 files', 'todo 1'], ['', 'A pending', 'B pending'])), 'root');
    assert.equal(rowsInPlace(before, rows(['todo 0', 'todo 1'], ['A pending', 'B pending'])), 'root');
    assert.equal(rowsInPlace(undefined, before), 'root');
  });
});

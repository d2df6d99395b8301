import * as assert from 'node:assert/strict';
import { parseLogEvent, parseLogRecord } from '../../../../src/core/log/logRecord';
import { snapshotProblem } from '../../../../src/core/log/snapshotRecord';

const SESSION = '9a8b7c6d5e4f30211203948576abcdef';
const TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
const line = (extra: Record<string, unknown>): unknown => ({ v: 1, type: 'tree/snapshot', ts: '2026-12-03T11:02:44.120Z', session: SESSION, tree: TREE, folder: '/home/me/app', items: ['A'], ...extra });

describe('tree/snapshot records', () => {
  it('a valid line is read back whole, unknown fields dropped', () => {
    assert.deepEqual(parseLogRecord(line({ plan: 12, extra: 1 }), SESSION), { v: 1, type: 'tree/snapshot', ts: '2026-12-03T11:02:44.120Z', session: SESSION, tree: TREE, folder: '/home/me/app', items: ['A'], plan: 12 });
    assert.equal(typeof parseLogRecord(line({ tree: 'f'.repeat(64) }), SESSION), 'object', 'a SHA-256 id');
  });

  it('a damaged line says what is wrong', () => {
    assert.match(parseLogRecord(line({ tree: 'HEAD' }), SESSION) as string, /`tree`/);
    assert.match(parseLogRecord(line({ folder: '' }), SESSION) as string, /`folder`/);
    assert.match(parseLogRecord(line({ folder: 'a\nb' }), SESSION) as string, /`folder`/);
    assert.match(parseLogRecord(line({ items: [1] }), SESSION) as string, /`items`/);
    assert.match(parseLogRecord(line({ items: Array.from({ length: 33 }, (_, i) => `${i}`) }), SESSION) as string, /`items`/);
    assert.match(parseLogRecord(line({ plan: -1 }), SESSION) as string, /`plan`/);
    assert.equal(snapshotProblem({ tree: TREE, folder: '/x', items: [] }), undefined);
  });

  it('plan readers skip it (as any reader skips a type it does not know)', () => {
    assert.match(parseLogEvent(line({}), SESSION) as string, /unknown event type "tree\/snapshot"/);
  });
});

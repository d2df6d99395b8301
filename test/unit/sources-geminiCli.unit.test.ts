// Gemini CLI chat logs: write_todos calls; duplicate records per id; $set patches.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createGeminiCliParser } from '../../src/sources/geminiCli';

const SESSION = '3f2a9c10-0000-4000-8000-000000000001';
const WS = '/work/ws';
const header = JSON.stringify({ sessionId: SESSION, projectHash: createHash('sha256').update(WS).digest('hex'), startTime: '2026-12-02T10:00:00.000Z' });
function turn(id: string, calls?: unknown[]): string {
  return JSON.stringify({ id, timestamp: '2026-12-02T10:00:03.000Z', type: 'gemini', content: '', ...(calls ? { toolCalls: calls } : {}) });
}
function writeTodos(callId: string, todos: unknown[], status = 'success') {
  return { id: callId, name: 'write_todos', args: { todos }, status, resultDisplay: { todos } };
}

describe('geminiCli parser', () => {
  it('maps write_todos once per call across the duplicate records of a turn, all five statuses as they are', () => {
    const todos = [
      { description: ' Plan ', status: 'completed' },
      { description: 'Build', status: 'in_progress' },
      { description: 'Ship', status: 'pending' },
      { description: 'Old idea', status: 'cancelled' },
      { description: 'Waits on review', status: 'blocked' },
    ];
    const out = createGeminiCliParser({ workspaceFolders: [WS] }).push([
      header,
      turn('m1'),
      turn('m1', [writeTodos('write_todos-1', todos)]),
      turn('m1', [writeTodos('write_todos-1', todos)]),
      JSON.stringify({ $set: { lastUpdated: '2026-12-02T10:00:04.000Z' } }),
    ]);
    assert.equal(out.plans.length, 1);
    assert.deepEqual(out.plans[0]?.source, { agent: 'gemini-cli', tool: 'write_todos', session: SESSION, call: 'write_todos-1' });
    assert.deepEqual(out.plans[0]?.items.map((i) => [i.content, i.status]), [
      ['Plan', 'completed'], ['Build', 'in_progress'], ['Ship', 'pending'], ['Old idea', 'cancelled'], ['Waits on review', 'blocked'],
    ]);
    assert.deepEqual(out.info, { agent: 'gemini-cli', session: SESSION, cwd: WS });
    assert.deepEqual(out.unknown, []);
  });

  it('counts a call only once its record says it succeeded', () => {
    const todos = [{ description: 'x', status: 'pending' }];
    const parser = createGeminiCliParser();
    assert.deepEqual(parser.push([header, turn('m1', [writeTodos('w1', todos, 'scheduled')])]).plans, []);
    assert.equal(parser.push([turn('m1', [writeTodos('w1', todos)])]).plans.length, 1);
    assert.deepEqual(parser.push([turn('m2', [writeTodos('w2', todos, 'error')])]).plans, []);
  });

  it('reports an unknown status once and keeps going', () => {
    const out = createGeminiCliParser().push([
      header,
      turn('m1', [writeTodos('w1', [{ description: 'x', status: 'done' }])]),
      turn('m2', [writeTodos('w2', [{ description: 'x', status: 'done' }])]),
      turn('m3', [writeTodos('w3', [{ description: 'y', status: 'pending' }])]),
    ]);
    assert.deepEqual(out.unknown, [{ line: 2, detail: 'write_todos status "done"' }]);
    assert.deepEqual(out.plans.map((p) => p.source.call), ['w3']);
  });

  it('takes a summary from a $set patch as the title', () => {
    const out = createGeminiCliParser().push([header, JSON.stringify({ $set: { summary: 'Dark mode' } })]);
    assert.equal(out.info?.title, 'Dark mode');
  });
});

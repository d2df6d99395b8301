// Claude Code transcripts: TodoWrite lists, and TaskCreate/TaskUpdate folded into whole lists.
// These lines follow the shapes observed from the real CLI (see the recorded fixtures too).
import * as assert from 'node:assert/strict';
import { createClaudeCodeParser } from '../../src/sources/claudeCode';
import type { ForeignPlan, SessionParser } from '../../src/sources/types';

const SESSION = '5b1f3c52-0000-4000-8000-000000000001';
const CWD = '/work/ws';

function assistantUse(id: string, name: string, input: unknown, messageId = `msg_${id}`): string {
  return JSON.stringify({
    type: 'assistant', sessionId: SESSION, cwd: CWD, timestamp: '2026-12-02T10:00:00.000Z',
    message: { id: messageId, role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
  });
}
function userResult(id: string, toolUseResult: unknown, isError = false): string {
  return JSON.stringify({
    type: 'user', sessionId: SESSION, cwd: CWD, timestamp: '2026-12-02T10:00:01.000Z',
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok', ...(isError ? { is_error: true } : {}) }] },
    toolUseResult,
  });
}
function items(plan: ForeignPlan | undefined): [string, string][] {
  return (plan?.items ?? []).map((item) => [item.content, item.status]);
}
function parse(lines: string[], parser: SessionParser = createClaudeCodeParser({ workspaceFolders: [CWD] })) {
  return parser.push(lines);
}

describe('claudeCode parser', () => {
  it('TodoWrite: the whole list, trimmed, activeForm left out, once its result is in', () => {
    const todos = [
      { content: '  Read the spec ', status: 'completed', activeForm: 'Reading the spec' },
      { content: 'Write code', status: 'in_progress', activeForm: 'Writing code' },
    ];
    const use = assistantUse('toolu_1', 'TodoWrite', { todos });
    const before = parse([use]);
    assert.deepEqual(before.plans, [], 'not before the result says it was applied');
    const parser = createClaudeCodeParser({ workspaceFolders: [CWD] });
    const out = parse([use, userResult('toolu_1', { oldTodos: [], newTodos: todos })], parser);
    assert.equal(out.plans.length, 1);
    assert.deepEqual(out.plans[0]?.source, { agent: 'claude-code', tool: 'TodoWrite', session: SESSION, call: 'toolu_1' });
    assert.deepEqual(items(out.plans[0]), [['Read the spec', 'completed'], ['Write code', 'in_progress']]);
    assert.deepEqual(out.info, { agent: 'claude-code', session: SESSION, cwd: CWD });
    assert.deepEqual(out.unknown, []);
  });

  it('TodoWrite rejected by Claude Code (an error result) is no plan', () => {
    const out = parse([
      assistantUse('toolu_1', 'TodoWrite', { todos: [{ content: 'x', status: 'pending' }] }),
      userResult('toolu_1', 'Error: InputValidationError', true),
    ]);
    assert.deepEqual(out.plans, []);
  });

  it('Task tools: parallel creates sharing a message id, results out of order, ids from the results', () => {
    const out = parse([
      assistantUse('toolu_a', 'TaskCreate', { subject: 'Plan', description: 'not content', activeForm: 'Planning' }, 'msg_1'),
      assistantUse('toolu_b', 'TaskCreate', { subject: 'Build', description: 'd' }, 'msg_1'),
      assistantUse('toolu_c', 'TaskCreate', { subject: 'Test', description: 'd' }, 'msg_1'),
      userResult('toolu_c', { task: { id: '3', subject: 'Test', description: 'd' } }),
      userResult('toolu_a', { task: { id: '1', subject: 'Plan', description: 'not content' } }),
      userResult('toolu_b', { task: { id: '2', subject: 'Build', description: 'd' } }),
      assistantUse('toolu_d', 'TaskUpdate', { taskId: '1', status: 'in_progress' }),
      userResult('toolu_d', { success: true, taskId: '1', updatedFields: ['status'], statusChange: { from: 'pending', to: 'in_progress' } }),
      assistantUse('toolu_e', 'TaskUpdate', { taskId: '2', status: 'deleted' }),
      userResult('toolu_e', { success: true, taskId: '2', updatedFields: ['status'] }),
      assistantUse('toolu_f', 'TaskUpdate', { taskId: '1', status: 'completed', subject: ' Plan it ' }),
      userResult('toolu_f', { success: true, taskId: '1', updatedFields: ['status', 'subject'] }),
    ]);
    assert.deepEqual(
      out.plans.map((p) => [p.source.tool, p.source.call]),
      [['TaskCreate', 'toolu_c'], ['TaskCreate', 'toolu_a'], ['TaskCreate', 'toolu_b'], ['TaskUpdate', 'toolu_d'], ['TaskUpdate', 'toolu_e'], ['TaskUpdate', 'toolu_f']],
    );
    assert.deepEqual(items(out.plans[0]), [['Test', 'pending']]);
    assert.deepEqual(items(out.plans[2]), [['Plan', 'pending'], ['Build', 'pending'], ['Test', 'pending']], 'in task id order');
    assert.deepEqual(items(out.plans[3]), [['Plan', 'in_progress'], ['Build', 'pending'], ['Test', 'pending']]);
    assert.deepEqual(items(out.plans[4]), [['Plan', 'in_progress'], ['Test', 'pending']], 'deleted leaves the list');
    assert.deepEqual(items(out.plans[5]), [['Plan it', 'completed'], ['Test', 'pending']]);
    assert.deepEqual(out.unknown, []);
  });

  it('a result before its call still pairs up', () => {
    const out = parse([
      userResult('toolu_a', { task: { id: '1', subject: 'Plan', description: '' } }),
      assistantUse('toolu_a', 'TaskCreate', { subject: 'Plan', description: '' }),
    ]);
    assert.deepEqual(items(out.plans[0]), [['Plan', 'pending']]);
  });

  it('a repeated line emits nothing new', () => {
    const todos = [{ content: 'x', status: 'pending', activeForm: 'x' }];
    const lines = [assistantUse('toolu_1', 'TodoWrite', { todos }), userResult('toolu_1', { oldTodos: [], newTodos: todos })];
    const out = parse([...lines, ...lines]);
    assert.equal(out.plans.length, 1);
  });

  it('matches structure, not text: other lines naming the tools are ignored', () => {
    const out = parse([
      JSON.stringify({ type: 'attachment', sessionId: SESSION, cwd: CWD, attachment: { type: 'deferred_tools', names: ['TodoWrite', 'TaskCreate'] } }),
      JSON.stringify({ type: 'system', subtype: 'tools-used', content: 'TodoWrite TaskCreate', sessionId: SESSION }),
      JSON.stringify({ type: 'user', sessionId: SESSION, cwd: CWD, message: { role: 'user', content: 'please use TodoWrite' } }),
    ]);
    assert.deepEqual(out.plans, []);
    assert.deepEqual(out.unknown, []);
  });

  it('an unknown status or list shape is reported once and the rest still counts', () => {
    const bad = [{ content: 'x', status: 'done' }];
    const good = [{ content: 'y', status: 'pending' }];
    const out = parse([
      assistantUse('toolu_1', 'TodoWrite', { todos: bad }), userResult('toolu_1', { newTodos: bad }),
      assistantUse('toolu_2', 'TodoWrite', { todos: bad }), userResult('toolu_2', { newTodos: bad }),
      assistantUse('toolu_3', 'TodoWrite', { todos: good }), userResult('toolu_3', { newTodos: good }),
    ]);
    assert.deepEqual(out.unknown, [{ line: 1, detail: 'TodoWrite status "done"' }]);
    assert.deepEqual(out.plans.map((p) => p.source.call), ['toolu_3']);
  });

  it('a session whose cwd is outside the workspace yields nothing (folder names are lossy)', () => {
    const todos = [{ content: 'x', status: 'pending' }];
    const other = (line: string) => line.replaceAll(`"cwd":"${CWD}"`, '"cwd":"/work-ws"');
    const out = parse([other(assistantUse('toolu_1', 'TodoWrite', { todos })), other(userResult('toolu_1', { newTodos: todos }))]);
    assert.deepEqual(out.plans, []);
    assert.equal(out.info, undefined);
  });

  it('takes a summary line as the title', () => {
    const out = parse([
      assistantUse('toolu_1', 'TaskList', {}),
      JSON.stringify({ type: 'summary', summary: ' Dark mode toggle ', leafUuid: 'u' }),
    ]);
    assert.equal(out.info?.title, 'Dark mode toggle');
  });
});

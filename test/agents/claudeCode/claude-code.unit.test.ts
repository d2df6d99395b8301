// Claude Code transcripts recorded from the real CLI: TodoWrite lists, and TaskCreate /
// TaskUpdate folded into whole lists. Variants (results out of order, a repeated line, an
// unknown status) are made from the recorded lines, so every shape here is one the CLI wrote.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createClaudeCodeParser } from '../../../src/agents/claudeCode';
import type { ForeignPlan, ParseOutput } from '../../../src/core/foreign';
import { findLine, recordedLines, recording } from '../../unit/agentRecordings';

type Row = [string, string];
function rows(plan: ForeignPlan | undefined): Row[] {
  return (plan?.items ?? []).map((item) => [item.content, item.status]);
}
function parseAll(lines: readonly string[], workspace: string): ParseOutput {
  return createClaudeCodeParser({ workspaceFolders: [workspace] }).push(lines);
}
/** The ids of the calls of one tool in a transcript, found by structure, in file order. */
function callIds(lines: readonly string[], name: string): string[] {
  return lines.flatMap((line) => {
    const value = JSON.parse(line) as { type?: unknown; message?: { content?: unknown } };
    const content = value.type === 'assistant' && Array.isArray(value.message?.content) ? (value.message.content as Record<string, unknown>[]) : [];
    return content.filter((b) => b['type'] === 'tool_use' && b['name'] === name).map((b) => String(b['id']));
  });
}

/** The tool_use / tool_result line of a call, by tool_use id. */
function lineOf(lines: readonly string[], kind: 'tool_use' | 'tool_result', id: string): number {
  return findLine(lines, (v) => {
    const message = v['message'] as { content?: unknown } | undefined;
    const content = Array.isArray(message?.content) ? (message.content as Record<string, unknown>[]) : [];
    return content.some((b) => b['type'] === kind && (b['id'] === id || b['tool_use_id'] === id)) && (v['type'] === 'assistant' || v['type'] === 'user');
  });
}

describe('claudeCode parser, over recordings of the real CLI', () => {
  const tasks = recording('claude-code', 'tasks');
  const tasksLines = recordedLines(tasks);
  const session = path.basename(tasks.sessionFiles[0] ?? '', '.jsonl');

  it('Task tools: three parallel creates, then updates, folded into whole lists; deleted leaves it', () => {
    const out = parseAll(tasksLines, tasks.workspace);
    assert.deepEqual(out.unknown, []);
    assert.deepEqual(
      out.plans.map((p) => p.source.tool),
      ['TaskCreate', 'TaskCreate', 'TaskCreate', 'TaskUpdate', 'TaskUpdate', 'TaskUpdate', 'TaskUpdate', 'TaskUpdate'],
    );
    for (const plan of out.plans) assert.equal(plan.source.session, session);
    assert.equal(new Set(out.plans.map((p) => p.source.call)).size, out.plans.length);
    const [read, fix, test] = ['Read the parser', 'Fix the off-by-one', 'Write a regression test'];
    assert.deepEqual(out.plans.map(rows), [
      [[read, 'pending']],
      [[read, 'pending'], [fix, 'pending']],
      [[read, 'pending'], [fix, 'pending'], [test, 'pending']],
      [[read, 'in_progress'], [fix, 'pending'], [test, 'pending']],
      [[read, 'completed'], [fix, 'pending'], [test, 'pending']],
      [[read, 'completed'], [fix, 'in_progress'], [test, 'pending']],
      [[read, 'completed'], [fix, 'in_progress']],
      [[read, 'completed'], [fix, 'completed']],
    ]);
    assert.ok(out.plans.every((p) => typeof p.at === 'string'));
    assert.deepEqual(out.info, { agent: 'claude-code', session, cwd: tasks.workspace, request: tasks.prompt, turn: { index: 0, state: 'ended' }, calls: 0, pending: null });
  });

  /** A task folder as a list: `<id>.json` files (Claude's `.lock` and `.highwatermark` aside), by id. */
  function taskFolder(folder: string): Row[] {
    const files = fs.readdirSync(folder).filter((name) => /^\d+\.json$/.test(name));
    files.sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
    return files.map((name) => {
      const task = JSON.parse(fs.readFileSync(path.join(folder, name), 'utf8')) as { subject: string; status: string };
      return [task.subject, task.status] as Row;
    });
  }

  it('the folded list is what Claude Code left in its own task files', () => {
    const out = parseAll(tasksLines, tasks.workspace);
    assert.deepEqual(rows(out.plans.at(-1)), taskFolder(path.join(tasks.agentDir, 'tasks', session)));
  });

  it('every state Claude Code\'s task files went through is one of the folded lists', () => {
    const lists = parseAll(tasksLines, tasks.workspace).plans.map((plan) => JSON.stringify(rows(plan)));
    const snapshots = path.join(tasks.dir, 'task-snapshots');
    const states = fs.readdirSync(snapshots).sort().map((n) => taskFolder(path.join(snapshots, n, session)));
    assert.ok(states.length >= 4, 'the recording has snapshots');
    for (const state of states) assert.ok(lists.includes(JSON.stringify(state)), `a list Claude Code had: ${JSON.stringify(state)}`);
  });

  it('results of parallel calls in another order give the same lists, in the order the results came', () => {
    const ids = callIds(tasksLines, 'TaskCreate');
    assert.equal(ids.length, 3);
    const resultLines = ids.map((id) => lineOf(tasksLines, 'tool_result', id));
    const reordered = [...tasksLines];
    // The third result first, then the first, then the second.
    const [a, b, c] = resultLines.map((i) => tasksLines[i] as string);
    [reordered[resultLines[0] as number], reordered[resultLines[1] as number], reordered[resultLines[2] as number]] = [c as string, a as string, b as string];
    const out = parseAll(reordered, tasks.workspace);
    assert.deepEqual(out.plans.slice(0, 3).map((p) => p.source.call), [ids[2], ids[0], ids[1]]);
    assert.deepEqual(rows(out.plans[0]), [['Write a regression test', 'pending']]);
    assert.deepEqual(rows(out.plans[2]), rows(parseAll(tasksLines, tasks.workspace).plans[2]), 'ordered by task id');
    assert.deepEqual(rows(out.plans.at(-1)), [['Read the parser', 'completed'], ['Fix the off-by-one', 'completed']]);
  });

  it('results of parallel creates on one line (no toolUseResult to pair) still give the task ids', () => {
    const ids = callIds(tasksLines, 'TaskCreate');
    assert.equal(ids.length, 3);
    const at = ids.map((id) => lineOf(tasksLines, 'tool_result', id));
    const first = JSON.parse(tasksLines[at[0] as number] as string) as { message: { content: unknown[] }; toolUseResult?: unknown };
    first.message.content = at.flatMap((i) => (JSON.parse(tasksLines[i] as string) as { message: { content: unknown[] } }).message.content);
    delete first.toolUseResult;
    const merged = tasksLines.filter((_, i) => !at.includes(i));
    merged.splice(at[0] as number, 0, JSON.stringify(first));
    const out = parseAll(merged, tasks.workspace);
    assert.deepEqual(out.unknown, []);
    assert.deepEqual(out.plans.map(rows), parseAll(tasksLines, tasks.workspace).plans.map(rows));
  });

  it('a result written before its call still pairs up', () => {
    const [created] = callIds(tasksLines, 'TaskCreate');
    const use = lineOf(tasksLines, 'tool_use', created ?? '');
    const result = lineOf(tasksLines, 'tool_result', created ?? '');
    const moved = [...tasksLines];
    [moved[use], moved[result]] = [tasksLines[result] as string, tasksLines[use] as string];
    assert.deepEqual(parseAll(moved, tasks.workspace).plans.map(rows), parseAll(tasksLines, tasks.workspace).plans.map(rows));
  });

  it('read twice (or resumed from its state at any line), no call is emitted again', () => {
    const once = parseAll(tasksLines, tasks.workspace).plans;
    const parser = createClaudeCodeParser({ workspaceFolders: [tasks.workspace] });
    parser.push(tasksLines);
    assert.deepEqual(parser.push(tasksLines).plans, []);
    for (let cut = 0; cut <= tasksLines.length; cut += 7) {
      const head = createClaudeCodeParser({ workspaceFolders: [tasks.workspace] });
      const first = head.push(tasksLines.slice(0, cut)).plans;
      const resumed = createClaudeCodeParser({ workspaceFolders: [tasks.workspace] }, JSON.parse(JSON.stringify(head.state())));
      assert.deepEqual([...first, ...resumed.push(tasksLines.slice(cut)).plans], once, `cut at line ${cut}`);
    }
  });

  it('TodoWrite: the whole list each call, trimmed, activeForm left out', () => {
    const rec = recording('claude-code', 'todowrite');
    const out = parseAll(recordedLines(rec), rec.workspace);
    assert.deepEqual(out.unknown, []);
    assert.deepEqual(out.plans.map((p) => [p.source.tool, p.source.call]), callIds(recordedLines(rec), 'TodoWrite').map((id) => ['TodoWrite', id]));
    assert.equal(out.plans.length, 2);
    assert.deepEqual(out.plans.map(rows), [
      [['Read the parser', 'in_progress'], ['Fix the off-by-one', 'pending'], ['Write a regression test', 'pending']],
      [['Read the parser', 'completed'], ['Fix the off-by-one', 'in_progress'], ['Write a regression test', 'pending']],
    ]);
    for (const plan of out.plans) for (const item of plan.items) assert.deepEqual(Object.keys(item), ['content', 'status']);
    const lines = recordedLines(rec);
    const use = lineOf(lines, 'tool_use', callIds(lines, 'TodoWrite')[0] ?? '');
    const padded = lines[use]?.replace('"content":"Read the parser"', '"content":"  Read the parser \\n"') ?? '';
    assert.notEqual(padded, lines[use]);
    const trimmed = parseAll([...lines.slice(0, use), padded, ...lines.slice(use + 1)], rec.workspace);
    assert.equal(trimmed.plans[0]?.items[0]?.content, 'Read the parser');
  });

  it('TodoWrite counts only once its result is in, and not when the result is an error', () => {
    const rec = recording('claude-code', 'todowrite');
    const lines = recordedLines(rec);
    const [firstCall] = callIds(lines, 'TodoWrite');
    const use = lineOf(lines, 'tool_use', firstCall ?? '');
    const result = lineOf(lines, 'tool_result', firstCall ?? '');
    assert.deepEqual(parseAll(lines.slice(0, use + 1), rec.workspace).plans, []);
    const failed = JSON.parse(lines[result] as string) as { message: { content: Record<string, unknown>[] }; toolUseResult: unknown };
    (failed.message.content[0] as Record<string, unknown>)['is_error'] = true;
    failed.toolUseResult = 'Error: InputValidationError';
    const out = parseAll([...lines.slice(0, result), JSON.stringify(failed)], rec.workspace);
    assert.deepEqual(out.plans, []);
  });

  it('an unknown status is reported once; the other calls still count', () => {
    const rec = recording('claude-code', 'todowrite');
    const lines = recordedLines(rec);
    const [firstCall, secondCall] = callIds(lines, 'TodoWrite');
    const use = lineOf(lines, 'tool_use', firstCall ?? '');
    const changed = lines[use]?.replace('"status":"in_progress"', '"status":"doing"') ?? '';
    assert.notEqual(changed, lines[use]);
    const out = parseAll([...lines.slice(0, use), changed, ...lines.slice(use + 1)], rec.workspace);
    assert.deepEqual(out.unknown, [{ line: use + 1, detail: 'TodoWrite status "doing"' }]);
    assert.deepEqual(out.plans.map((p) => p.source.call), [secondCall]);
  });

  it('lines that only mention the tools (attachments, api requests, tools-used) are not plans', () => {
    const other = tasksLines.filter((line) => {
      const type = (JSON.parse(line) as { type?: unknown }).type;
      return type !== 'assistant' && type !== 'user';
    });
    assert.ok(other.some((line) => line.includes('TaskCreate')), 'the recording has such lines');
    const out = parseAll(other, tasks.workspace);
    assert.deepEqual(out.plans, []);
    assert.deepEqual(out.unknown, []);
  });

  it('a session whose cwd is outside the workspace yields nothing (folder names are lossy)', () => {
    const out = parseAll(tasksLines, `${tasks.workspace}-other`);
    assert.deepEqual(out.plans, []);
    assert.equal(out.info, undefined);
    const inner = parseAll(tasksLines, path.dirname(tasks.workspace));
    assert.equal(inner.plans.length, 8, 'a session in a subfolder of the workspace counts');
  });

  it('a session that never planned: its info, no plans, nothing unknown', () => {
    const rec = recording('claude-code', 'no-plan');
    const out = parseAll(recordedLines(rec), rec.workspace);
    assert.deepEqual(out.plans, []);
    assert.deepEqual(out.unknown, []);
    assert.equal(out.info?.cwd, rec.workspace);
    assert.equal(out.info?.session, path.basename(rec.sessionFiles[0] ?? '', '.jsonl'));
  });

  it('a torn or foreign line is reported once and the rest still shows', () => {
    const out = parseAll(['{"type":"assistant","message"', 'plain text', ...tasksLines], tasks.workspace);
    assert.deepEqual(out.unknown, [{ line: 1, detail: 'a line that is not JSON' }]);
    assert.equal(out.plans.length, 8);
  });

  it('titles: one the user set wins over the one Claude Code made, which wins over a summary', () => {
    // Title lines in the shapes Claude Code 2.1.332 writes them (`{type, customTitle|aiTitle, sessionId}`);
    // a print-mode run (as recorded) makes none.
    const title = (type: string, field: string, text: string) => JSON.stringify({ type, [field]: text, sessionId: session });
    const parser = createClaudeCodeParser({ workspaceFolders: [tasks.workspace] });
    parser.push(tasksLines);
    assert.equal(parser.push([title('summary', 'summary', 'Parser fix')]).info?.title, 'Parser fix');
    assert.equal(parser.push([title('ai-title', 'aiTitle', ' Fix the parser ')]).info?.title, 'Fix the parser');
    assert.equal(parser.push([title('custom-title', 'customTitle', 'Off-by-one')]).info?.title, 'Off-by-one');
    const resumed = createClaudeCodeParser({ workspaceFolders: [tasks.workspace] }, JSON.parse(JSON.stringify(parser.state())));
    assert.equal(resumed.push([title('ai-title', 'aiTitle', 'Later AI title')]).info, undefined, 'the user title still wins');
  });
});

describe('claudeCode parser: plans written through an MCP server\'s todo_write (recordings of the real CLI)', () => {
  const MCP_TOOL = 'mcp__agentplan__todo_write';
  const mcp = recording('claude-code', 'mcp');
  const lines = recordedLines(mcp);
  const session = path.basename(mcp.sessionFiles[0] ?? '', '.jsonl');
  const [a, b] = ['Add the separator constant', 'Use it in the parser'];
  /** The recorded lines with each MCP call's input changed by `change` (the first call's only, when `first`). */
  function withInput(change: (input: { todos: Record<string, unknown>[] }) => void, first = false): string[] {
    let done = false;
    return lines.map((line) => {
      const value = JSON.parse(line) as { type?: string; message?: { content?: Record<string, unknown>[] } };
      const block = value.type === 'assistant' ? value.message?.content?.find((c) => c['type'] === 'tool_use' && c['name'] === MCP_TOOL) : undefined;
      if (block === undefined || (first && done)) return line;
      done = true;
      change(block['input'] as { todos: Record<string, unknown>[] });
      return JSON.stringify(value);
    });
  }

  it('each call is a version of the session\'s own plan, and the Write between them goes under the item in progress', () => {
    const out = parseAll(lines, mcp.workspace);
    assert.deepEqual(out.unknown, []);
    assert.deepEqual(out.plans.map((p) => p.source), callIds(lines, MCP_TOOL).map((call) => ({ agent: 'claude-code', tool: MCP_TOOL, session, call })));
    assert.deepEqual(out.plans.map(rows), [
      [[a, 'in_progress'], [b, 'pending']],
      [[a, 'completed'], [b, 'in_progress']],
    ]);
    const [write] = callIds(lines, 'Write');
    assert.deepEqual(out.writes?.map((w) => [w.source.call, w.files, w.plansBefore]), [[write, [path.join(mcp.workspace, 'src', 'tokens.ts')], 1]]);
    assert.deepEqual(out.info?.turn, { index: 0, state: 'ended' });
    assert.equal(out.info?.calls, 0, 'the MCP call resets the count of calls since the last plan');
  });

  it('any server name counts; read twice or resumed at any line, no call is emitted again', () => {
    const renamed = lines.map((line) => line.split(MCP_TOOL).join('mcp__my-plans__todo_write'));
    assert.deepEqual(parseAll(renamed, mcp.workspace).plans.map((p) => p.source.tool), ['mcp__my-plans__todo_write', 'mcp__my-plans__todo_write']);
    const whole = parseAll(lines, mcp.workspace).plans.map((p) => p.source.call);
    for (let cut = 0; cut <= lines.length; cut++) {
      const first = createClaudeCodeParser({ workspaceFolders: [mcp.workspace] });
      const before = first.push(lines.slice(0, cut)).plans;
      const after = createClaudeCodeParser({ workspaceFolders: [mcp.workspace] }, JSON.parse(JSON.stringify(first.state()))).push(lines.slice(cut)).plans;
      assert.deepEqual([...before, ...after].map((p) => p.source.call), whole, `cut at ${cut}`);
    }
  });

  it('an input outside Agent Plan\'s contract (another status, another key) is no plan: reported once, the other call still counts', () => {
    for (const change of [
      (input: { todos: Record<string, unknown>[] }) => (input.todos[1]!['status'] = 'blocked'),
      (input: { todos: Record<string, unknown>[] }) => (input.todos[0]!['activeForm'] = 'Adding it'),
    ]) {
      const out = parseAll(withInput(change, true), mcp.workspace);
      assert.deepEqual(out.plans.map(rows), [[[a, 'completed'], [b, 'in_progress']]]);
      assert.deepEqual(out.unknown.map((u) => u.detail), ['an MCP todo_write call whose input is not a todo_write list']);
      assert.equal(out.writes?.[0]?.plansBefore, 0);
    }
    const both = parseAll(withInput((input) => (input.todos[0]!['status'] = 'cancelled')), mcp.workspace);
    assert.deepEqual([both.plans.length, both.unknown.length], [0, 1], 'reported once per file');
  });

  it('a call Claude Code refused (no permission: its tool_result is an error) is not a plan', () => {
    const refused = recording('claude-code', 'mcp-refused');
    const refusedLines = recordedLines(refused);
    const [call] = callIds(refusedLines, MCP_TOOL);
    assert.match(refusedLines[lineOf(refusedLines, 'tool_result', call ?? '')] ?? '', /"is_error":true.*requested permissions to use mcp__agentplan__todo_write/);
    const out = parseAll(refusedLines, refused.workspace);
    assert.deepEqual([out.plans, out.unknown], [[], []]);
    assert.equal(out.info?.session, path.basename(refused.sessionFiles[0] ?? '', '.jsonl'));
  });
});

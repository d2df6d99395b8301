// What every terminal-agent parser promises, whatever the agent: it never throws on any
// input, its state survives JSON and resumes where it stopped, each plan call is emitted
// once, and each unknown shape is reported once per file.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { createClaudeCodeParser } from '../../../src/agents/claudeCode';
import { createCodexParser } from '../../../src/agents/codex';
import { createGeminiCliParser } from '../../../src/agents/geminiCli';
import { createCopilotCliParser } from '../../../src/agents/copilotCli/parser';
import { createQwenCodeParser } from '../../../src/agents/qwenCode/parser';
import type { ForeignPlan, ParseOutput, SessionParser } from '../../../src/core/foreign';
import { recordedLines, recording } from '../agentRecordings';

const claudeWorkspace = recording('claude-code', 'tasks').workspace;
const geminiWorkspace = recording('gemini-cli', 'write-todos').workspace;
const qwenWorkspace = recording('qwen-code', 'todo-write').workspace;
/** Each parser with the files its agent really wrote, to edit at random. */
const factories: [string, (state?: unknown) => SessionParser, string[][]][] = [
  [
    'claude-code',
    (state) => createClaudeCodeParser({ workspaceFolders: [claudeWorkspace] }, state),
    [recordedLines(recording('claude-code', 'tasks')), recordedLines(recording('claude-code', 'todowrite'))],
  ],
  ['codex', (state) => createCodexParser(state), [recordedLines(recording('codex', 'update-plan'))]],
  [
    'gemini-cli',
    (state) => createGeminiCliParser({ workspaceFolders: [geminiWorkspace] }, state),
    [recordedLines(recording('gemini-cli', 'write-todos'))],
  ],
  [
    'qwen-code',
    (state) => createQwenCodeParser({ workspaceFolders: [qwenWorkspace] }, state),
    [recordedLines(recording('qwen-code', 'todo-write'))],
  ],
  ['copilot-cli', (state) => createCopilotCliParser(state), [recordedLines(recording('copilot-cli', 'sql-todos'))]],
];

/** JSON-ish lines that reach into the fields the parsers look at. */
const fieldNames = fc.constantFrom(
  'type', 'message', 'content', 'id', 'name', 'input', 'todos', 'toolUseResult', 'tool_use_id', 'task',
  'sessionId', 'cwd', 'payload', 'arguments', 'call_id', 'plan', 'toolCalls', 'args', 'status', '$set',
  'projectHash', 'summary', 'subject', 'taskId', 'success', 'is_error', 'step', 'description',
  'parts', 'functionCall', 'toolCallResult', 'callId',
);
const leafValues = fc.oneof(
  fc.constantFrom('assistant', 'user', 'tool_use', 'tool_result', 'TodoWrite', 'TaskCreate', 'TaskUpdate',
    'session_meta', 'response_item', 'function_call', 'update_plan', 'write_todos', 'success', 'pending',
    'in_progress', 'completed', 'deleted', 'blocked', '1', '{"plan":[]}', 'summary', 'todo_write'),
  fc.string(), fc.integer(), fc.boolean(), fc.constant(null),
);
const jsonish: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leafValues, tie('object'), fc.array(tie('value'), { maxLength: 3 })),
  object: fc.dictionary(fieldNames, tie('value'), { maxKeys: 5 }),
})).value;

/** Every object inside a parsed line, so a mutation can land anywhere in it. */
function objectsIn(value: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(value)) for (const v of value) objectsIn(v, out);
  else if (typeof value === 'object' && value !== null) {
    out.push(value as Record<string, unknown>);
    for (const v of Object.values(value)) objectsIn(v, out);
  }
  return out;
}

/** One edit of a recorded file: a field replaced, a line torn, dropped, repeated, moved, or noise added. */
type Edit = { kind: 'field' | 'tear' | 'drop' | 'repeat' | 'swap' | 'noise'; at: number; other: number; value: unknown; noise: string };
const editArb: fc.Arbitrary<Edit> = fc.record({
  kind: fc.constantFrom('field', 'field', 'tear', 'drop', 'repeat', 'swap', 'noise'),
  at: fc.nat(),
  other: fc.nat(),
  value: jsonish,
  noise: fc.oneof(fc.string(), jsonish.map((v) => JSON.stringify(v))),
});

function applyEdits(file: readonly string[], edits: readonly Edit[]): string[] {
  const lines = [...file];
  for (const edit of edits) {
    if (lines.length === 0) break;
    const i = edit.at % lines.length;
    const j = edit.other % lines.length;
    const text = lines[i] as string;
    switch (edit.kind) {
      case 'field': {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          break; // a line an earlier edit tore
        }
        const nodes = objectsIn(parsed);
        const node = nodes[edit.other % nodes.length];
        const keys = node ? Object.keys(node) : [];
        if (node && keys.length > 0) node[keys[edit.other % keys.length] as string] = edit.value;
        lines[i] = JSON.stringify(parsed);
        break;
      }
      case 'tear':
        lines[i] = text.slice(0, edit.other % (text.length + 1));
        break;
      case 'drop':
        lines.splice(i, 1);
        break;
      case 'repeat':
        lines.splice(j, 0, text);
        break;
      case 'swap':
        [lines[i], lines[j]] = [lines[j] as string, text];
        break;
      case 'noise':
        lines.splice(i, 0, edit.noise);
        break;
    }
  }
  return lines;
}

function feed(parser: SessionParser, lines: readonly string[]): ParseOutput {
  return parser.push(lines);
}

describe('terminal-agent parsers: the shared promises', () => {
  for (const [agent, make, recorded] of factories) {
    it(`${agent}: never throws on any input, and its state is JSON that resumes`, () => {
      const input = fc
        .tuple(fc.constantFrom(...recorded), fc.array(editArb, { maxLength: 8 }))
        .map(([file, edits]) => applyEdits(file, edits));
      let planned = 0;
      fc.assert(
        fc.property(input, fc.nat(80), (lines, cut) => {
          const whole = make();
          const all = feed(whole, lines);
          const first = make();
          const head = feed(first, lines.slice(0, cut));
          const resumed = make(JSON.parse(JSON.stringify(first.state())));
          const tail = feed(resumed, lines.slice(cut));
          const plans: ForeignPlan[] = [...head.plans, ...tail.plans];
          assert.deepEqual(plans, all.plans, 'split and resumed = read at once');
          assert.deepEqual([...head.unknown, ...tail.unknown], all.unknown);
          const details = all.unknown.map((u) => u.detail);
          assert.equal(new Set(details).size, details.length, 'each shape reported once');
          const calls = all.plans.map((p) => p.source.call);
          assert.equal(new Set(calls).size, calls.length, 'each call emitted once');
          for (const plan of all.plans) for (const item of plan.items) assert.equal(item.content, item.content.trim());
          if (all.plans.length > 0) planned++;
        }),
        { numRuns: 200 },
      );
      // The runs must reach the plan paths, or this property proves little.
      assert.ok(planned > 20, `only ${planned} of 200 runs found a plan`);
    });

    it(`${agent}: a broken state starts fresh instead of failing`, () => {
      for (const state of [null, 42, 'x', [], { lines: -1, reported: 'no', emitted: [1, 2] }, { tasks: [{}], uses: [] }]) {
        const parser = make(state);
        assert.deepEqual(parser.push(['not json']).unknown, [{ line: 1, detail: 'a line that is not JSON' }]);
      }
    });
  }
});

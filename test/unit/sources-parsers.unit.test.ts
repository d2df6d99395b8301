// What every terminal-agent parser promises, whatever the agent: it never throws on any
// input, its state survives JSON and resumes where it stopped, each plan call is emitted
// once, and each unknown shape is reported once per file.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { createClaudeCodeParser } from '../../src/sources/claudeCode';
import { createCodexParser } from '../../src/sources/codex';
import { createGeminiCliParser } from '../../src/sources/geminiCli';
import type { ForeignPlan, ParseOutput, SessionParser } from '../../src/sources/types';

const factories: [string, (state?: unknown) => SessionParser][] = [
  ['claude-code', (state) => createClaudeCodeParser({ workspaceFolders: ['/work/ws'] }, state)],
  ['codex', (state) => createCodexParser(state)],
  ['gemini-cli', (state) => createGeminiCliParser({ workspaceFolders: ['/work/ws'] }, state)],
];

/** JSON-ish lines that reach into the fields the parsers look at. */
const fieldNames = fc.constantFrom(
  'type', 'message', 'content', 'id', 'name', 'input', 'todos', 'toolUseResult', 'tool_use_id', 'task',
  'sessionId', 'cwd', 'payload', 'arguments', 'call_id', 'plan', 'toolCalls', 'args', 'status', '$set',
  'projectHash', 'summary', 'subject', 'taskId', 'success', 'is_error', 'step', 'description',
);
const leafValues = fc.oneof(
  fc.constantFrom('assistant', 'user', 'tool_use', 'tool_result', 'TodoWrite', 'TaskCreate', 'TaskUpdate',
    'session_meta', 'response_item', 'function_call', 'update_plan', 'write_todos', 'success', 'pending',
    'in_progress', 'completed', 'deleted', 'blocked', '1', '{"plan":[]}', 'summary'),
  fc.string(), fc.integer(), fc.boolean(), fc.constant(null),
);
const jsonish: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leafValues, tie('object'), fc.array(tie('value'), { maxLength: 3 })),
  object: fc.dictionary(fieldNames, tie('value'), { maxKeys: 5 }),
})).value;
const lineArb = fc.oneof(fc.string(), jsonish.map((v) => JSON.stringify(v)));

function feed(parser: SessionParser, lines: readonly string[]): ParseOutput {
  return parser.push(lines);
}

describe('terminal-agent parsers: the shared promises', () => {
  for (const [agent, make] of factories) {
    it(`${agent}: never throws on any input, and its state is JSON that resumes`, () => {
      fc.assert(
        fc.property(fc.array(lineArb, { maxLength: 12 }), fc.nat(12), (lines, cut) => {
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
        }),
        { numRuns: 300 },
      );
    });

    it(`${agent}: a broken state starts fresh instead of failing`, () => {
      for (const state of [null, 42, 'x', [], { lines: -1, reported: 'no', emitted: [1, 2] }, { tasks: [{}], uses: [] }]) {
        const parser = make(state);
        assert.deepEqual(parser.push(['not json']).unknown, [{ line: 1, detail: 'a line that is not JSON' }]);
      }
    });
  }
});

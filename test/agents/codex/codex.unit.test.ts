// Codex rollouts recorded from the real CLI: update_plan calls (arguments as a JSON string)
// as whole lists. Variants are made from the recorded lines.
import * as assert from 'node:assert/strict';
import { createCodexParser } from '../../../src/agents/codex';
import type { ForeignPlan } from '../../../src/core/foreign';
import { findLine, recordedLines, recording } from '../../unit/agentRecordings';

function rows(plan: ForeignPlan | undefined): [string, string][] {
  return (plan?.items ?? []).map((item) => [item.content, item.status]);
}
const isPlanCall = (v: Record<string, unknown>) =>
  v['type'] === 'response_item' && (v['payload'] as Record<string, unknown> | undefined)?.['name'] === 'update_plan';

describe('codex parser, over recordings of the real CLI', () => {
  const rec = recording('codex', 'update-plan');
  const lines = recordedLines(rec);
  const thread = /rollout-.*?-([0-9a-f]{8}-[0-9a-f-]+)\.jsonl$/.exec(rec.sessionFiles[0] ?? '')?.[1];

  it('each update_plan call is a whole list; explanation is not content; session and cwd from session_meta', () => {
    const out = createCodexParser().push(lines);
    assert.deepEqual(out.unknown, []);
    const calls = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter(isPlanCall)
      .map((v) => (v['payload'] as { call_id: string }).call_id);
    assert.equal(calls.length, 2);
    assert.deepEqual(out.plans.map((p) => p.source), calls.map((call) => ({ agent: 'codex', tool: 'update_plan', session: thread, call })));
    assert.deepEqual(out.plans.map(rows), [
      [['Read the parser', 'in_progress'], ['Fix the off-by-one', 'pending'], ['Write a regression test', 'pending']],
      [['Read the parser', 'completed'], ['Fix the off-by-one', 'in_progress'], ['Write a regression test', 'pending']],
    ]);
    assert.ok(!JSON.stringify(out.plans).includes('fixing the loop next'), 'the explanation is left out');
    assert.deepEqual(out.info, { agent: 'codex', session: thread, cwd: rec.workspace, request: rec.prompt, turn: { index: 0, state: 'ended' }, calls: 0, pending: null });
  });

  it('a repeated line, or a resumed state, emits no call twice', () => {
    const parser = createCodexParser();
    const once = parser.push(lines).plans;
    assert.deepEqual(createCodexParser(JSON.parse(JSON.stringify(parser.state()))).push(lines).plans, []);
    for (let cut = 0; cut <= lines.length; cut++) {
      const head = createCodexParser();
      const first = head.push(lines.slice(0, cut)).plans;
      const rest = createCodexParser(JSON.parse(JSON.stringify(head.state()))).push(lines.slice(cut)).plans;
      assert.deepEqual([...first, ...rest], once, `cut at line ${cut}`);
    }
  });

  it('step text is trimmed; arguments that are not JSON or an unknown status are reported once each', () => {
    const at = findLine(lines, isPlanCall);
    const swap = (text: string) => [...lines.slice(0, at), text, ...lines.slice(at + 1)];
    const line = lines[at] ?? '';
    const padded = line.replace('\\"step\\":\\"Read the parser\\"', '\\"step\\":\\" Read the parser  \\"');
    assert.notEqual(padded, line);
    assert.equal(createCodexParser().push(swap(padded)).plans[0]?.items[0]?.content, 'Read the parser');

    const torn = line.replace('"arguments":"{', '"arguments":"{{');
    const out = createCodexParser().push(swap(torn));
    assert.deepEqual(out.unknown, [{ line: at + 1, detail: 'update_plan arguments that are not JSON' }]);
    assert.deepEqual(out.plans.map((p) => p.source.call), [createCodexParser().push(lines).plans[1]?.source.call]);

    const odd = line.replace('\\"status\\":\\"in_progress\\"', '\\"status\\":\\"started\\"');
    assert.notEqual(odd, line);
    assert.deepEqual(createCodexParser().push(swap(odd)).unknown, [{ line: at + 1, detail: 'update_plan status "started"' }]);
  });

  it('a rollout without its session_meta line cannot name its session: reported, not guessed', () => {
    const out = createCodexParser().push(lines.slice(1));
    assert.deepEqual(out.plans, []);
    assert.deepEqual(out.unknown.map((u) => u.detail), ['an update_plan call before session_meta']);
  });

  it('a session that never planned: its info, no plans, nothing unknown', () => {
    const none = recording('codex', 'no-plan');
    const out = createCodexParser().push(recordedLines(none));
    assert.deepEqual(out.plans, []);
    assert.deepEqual(out.unknown, []);
    assert.equal(out.info?.cwd, none.workspace);
  });
});

describe('codex parser: plans written through an MCP server\'s todo_write (recordings of the real CLI)', () => {
  const mcp = recording('codex', 'mcp');
  const lines = recordedLines(mcp);
  const threadOf = (file: string | undefined) => /rollout-.*?-([0-9a-f]{8}-[0-9a-f-]+)\.jsonl$/.exec(file ?? '')?.[1];
  const [a, b] = ['Add the separator constant', 'Use it in the parser'];
  const payloads = (input: readonly string[]) => input.map((line) => (JSON.parse(line) as { payload?: Record<string, unknown> }).payload ?? {});
  const mcpCalls = (input: readonly string[]) => payloads(input).filter((p) => p['type'] === 'function_call' && p['namespace'] === 'mcp__agentplan' && p['name'] === 'todo_write').map((p) => String(p['call_id']));

  it('each call (namespace mcp__<server>, name todo_write) is a version of the rollout\'s plan, once it completed; the patch between goes under the item in progress', () => {
    const out = createCodexParser().push(lines);
    assert.deepEqual(out.unknown, []);
    const calls = mcpCalls(lines);
    assert.equal(calls.length, 2);
    assert.deepEqual(out.plans.map((p) => p.source), calls.map((call) => ({ agent: 'codex', tool: 'mcp__agentplan__todo_write', session: threadOf(mcp.sessionFiles[0]), call })));
    assert.deepEqual(out.plans.map(rows), [
      [[a, 'in_progress'], [b, 'pending']],
      [[a, 'completed'], [b, 'in_progress']],
    ]);
    assert.deepEqual(out.writes?.map((w) => [w.files, w.plansBefore]), [[['src/tokens.ts'], 1]]);
    assert.deepEqual([out.info?.turn, out.info?.calls], [{ index: 0, state: 'ended' }, 0]);
  });

  it('the call is held until its outcome: cut between the call and its item_completed, resumed, it comes once', () => {
    const all = createCodexParser().push(lines);
    const whole = all.plans.map((p) => p.source.call);
    const completed = findLine(lines, (v) => (v['payload'] as { type?: string; item?: { type?: string } } | undefined)?.item?.type === 'McpToolCall');
    assert.deepEqual(createCodexParser().push(lines.slice(0, completed)).plans, [], 'not before its outcome');
    for (let cut = 0; cut <= lines.length; cut++) {
      const first = createCodexParser();
      const before = first.push(lines.slice(0, cut));
      const after = createCodexParser(JSON.parse(JSON.stringify(first.state()))).push(lines.slice(cut));
      assert.deepEqual([...before.plans, ...after.plans].map((p) => p.source.call), whole, `cut at ${cut}`);
      assert.deepEqual([...(before.writes ?? []), ...(after.writes ?? [])].map((w) => w.plansBefore), all.writes?.map((w) => w.plansBefore), `the patch's plans before it, cut at ${cut}`);
    }
  });

  it('any server name counts; an input outside Agent Plan\'s contract is no plan, reported once', () => {
    const renamed = lines.map((line) => line.split('"namespace":"mcp__agentplan"').join('"namespace":"mcp__team_plans"'));
    assert.deepEqual(createCodexParser().push(renamed).plans.map((p) => p.source.tool), ['mcp__team_plans__todo_write', 'mcp__team_plans__todo_write']);
    const [first] = mcpCalls(lines);
    const blocked = lines.map((line) => {
      const value = JSON.parse(line) as { payload?: Record<string, unknown> };
      if (value.payload?.['type'] !== 'function_call' || value.payload['call_id'] !== first) return line;
      value.payload['arguments'] = String(value.payload['arguments']).replace('"pending"', '"blocked"');
      return JSON.stringify(value);
    });
    const out = createCodexParser().push(blocked);
    assert.deepEqual(out.plans.map(rows), [[[a, 'completed'], [b, 'in_progress']]]);
    assert.deepEqual(out.unknown.map((u) => u.detail), ['an MCP todo_write call whose input is not a todo_write list']);
  });

  it('a call Codex refused (its McpToolCall item "failed": the tool asks, and codex exec cannot) is not a plan', () => {
    const refused = recording('codex', 'mcp-refused');
    const refusedLines = recordedLines(refused);
    assert.equal(mcpCalls(refusedLines).length, 1);
    const item = payloads(refusedLines).map((p) => p['item'] as Record<string, unknown> | undefined).find((i) => i?.['type'] === 'McpToolCall');
    assert.deepEqual([item?.['status'], (item?.['error'] as { message?: string } | undefined)?.message], ['failed', 'MCP tool call requires approval, but approval policy is never']);
    const out = createCodexParser().push(refusedLines);
    assert.deepEqual([out.plans, out.unknown], [[], []]);
    assert.equal(out.info?.session, threadOf(refused.sessionFiles[0]));
  });
});

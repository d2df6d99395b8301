// Codex rollouts recorded from the real CLI: update_plan calls (arguments as a JSON string)
// as whole lists. Variants are made from the recorded lines.
import * as assert from 'node:assert/strict';
import { createCodexParser } from '../../../src/agents/codex';
import type { ForeignPlan } from '../../../src/core/foreign';
import { findLine, recordedLines, recording } from '../agentRecordings';

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

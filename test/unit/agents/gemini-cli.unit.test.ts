// Gemini CLI chat logs recorded from the real CLI: write_todos calls, each turn written
// twice under one id, `$set` patches. Variants are made from the recorded lines.
import * as assert from 'node:assert/strict';
import { createGeminiCliParser } from '../../../src/agents/geminiCli';
import { geminiProjectHash } from '../../../src/agents/geminiCli/locations';
import type { ForeignPlan } from '../../../src/core/foreign';
import { findLine, recordedLines, recording } from '../agentRecordings';

function rows(plan: ForeignPlan | undefined): [string, string][] {
  return (plan?.items ?? []).map((item) => [item.content, item.status]);
}
const hasTodos = (v: Record<string, unknown>) => Array.isArray(v['toolCalls']);

describe('geminiCli parser, over recordings of the real CLI', () => {
  const rec = recording('gemini-cli', 'write-todos');
  const lines = recordedLines(rec);
  const parse = (input: readonly string[]) => createGeminiCliParser({ workspaceFolders: [rec.workspace] }).push(input);
  const session = (JSON.parse(lines[0] ?? '{}') as { sessionId?: string }).sessionId;

  it('each successful write_todos is a whole list, once, with all five statuses kept as they are', () => {
    const out = parse(lines);
    assert.deepEqual(out.unknown, []);
    assert.deepEqual(out.plans.map((p) => [p.source.tool, p.source.session]), [['write_todos', session], ['write_todos', session]]);
    assert.deepEqual(out.plans.map(rows), [
      [['Read the parser', 'in_progress'], ['Fix the off-by-one', 'pending'], ['Write a regression test', 'pending'], ['Update the changelog', 'pending']],
      [['Read the parser', 'completed'], ['Fix the off-by-one', 'in_progress'], ['Write a regression test', 'blocked'], ['Update the changelog', 'cancelled']],
    ]);
    assert.equal(geminiProjectHash(rec.workspace), (JSON.parse(lines[0] ?? '{}') as { projectHash?: string }).projectHash);
    assert.deepEqual(out.info, { agent: 'gemini-cli', session, cwd: rec.workspace, request: rec.prompt });
  });

  it('a turn written again under its id adds nothing; nor does a resumed state', () => {
    const at = findLine(lines, hasTodos);
    const doubled = [...lines.slice(0, at + 1), lines[at] as string, ...lines.slice(at + 1)];
    assert.deepEqual(parse(doubled).plans, parse(lines).plans);
    const once = parse(lines).plans;
    for (let cut = 0; cut <= lines.length; cut++) {
      const head = createGeminiCliParser({ workspaceFolders: [rec.workspace] });
      const first = head.push(lines.slice(0, cut)).plans;
      const rest = createGeminiCliParser({ workspaceFolders: [rec.workspace] }, JSON.parse(JSON.stringify(head.state()))).push(lines.slice(cut)).plans;
      assert.deepEqual([...first, ...rest], once, `cut at line ${cut}`);
    }
  });

  it('a call counts only once its record says it succeeded (the last record per id wins)', () => {
    const at = findLine(lines, hasTodos);
    const line = lines[at] ?? '';
    const scheduled = line.replace('"status":"success"', '"status":"scheduled"');
    assert.notEqual(scheduled, line);
    const before = parse([...lines.slice(0, at), scheduled]);
    assert.deepEqual(before.plans, []);
    const after = parse([...lines.slice(0, at), scheduled, line]);
    assert.equal(after.plans.length, 1);
    assert.deepEqual(parse([...lines.slice(0, at), line.replace('"status":"success"', '"status":"error"')]).plans, []);
  });

  it('a write_todos call inside a $set of the whole message list counts too, once', () => {
    const at = findLine(lines, hasTodos);
    const record = JSON.parse(lines[at] ?? '{}') as unknown;
    const patch = JSON.stringify({ $set: { messages: [record] } });
    const out = parse([lines[0] as string, patch, ...lines.slice(1)]);
    assert.deepEqual(out.plans.map(rows), parse(lines).plans.map(rows));
  });

  it('description text is trimmed; an unknown status is reported once and the rest still shows', () => {
    const at = findLine(lines, hasTodos);
    const line = lines[at] ?? '';
    const padded = line.replace('{"description":"Read the parser"', '{"description":"\\tRead the parser "');
    assert.notEqual(padded, line);
    assert.equal(parse([...lines.slice(0, at), padded, ...lines.slice(at + 1)]).plans[0]?.items[0]?.content, 'Read the parser');
    const odd = line.replaceAll('"status":"in_progress"', '"status":"paused"');
    const out = parse([...lines.slice(0, at), odd, ...lines.slice(at + 1)]);
    assert.deepEqual(out.unknown, [{ line: at + 1, detail: 'write_todos status "paused"' }]);
    assert.equal(out.plans.length, 1);
  });

  it('a session that never planned: its info, no plans, nothing unknown', () => {
    const none = recording('gemini-cli', 'no-plan');
    const out = createGeminiCliParser({ workspaceFolders: [none.workspace] }).push(recordedLines(none));
    assert.deepEqual(out.plans, []);
    assert.deepEqual(out.unknown, []);
    assert.equal(out.info?.cwd, none.workspace);
  });
});

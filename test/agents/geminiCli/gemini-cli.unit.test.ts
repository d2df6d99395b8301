// Gemini CLI chat logs recorded from the real CLI: write_todos calls, each turn written
// twice under one id, `$set` patches. Variants are made from the recorded lines.
import * as assert from 'node:assert/strict';
import { createGeminiCliParser } from '../../../src/agents/geminiCli';
import { geminiProjectHash } from '../../../src/agents/geminiCli/locations';
import type { ForeignPlan } from '../../../src/core/foreign';
import { findLine, recordedLines, recording } from '../../unit/agentRecordings';

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

describe('geminiCli parser: plans written through an MCP server\'s todo_write (recordings of the real CLI)', () => {
  const MCP_TOOL = 'mcp_agentplan_todo_write';
  const mcp = recording('gemini-cli', 'mcp');
  const lines = recordedLines(mcp);
  const parse = (input: readonly string[], workspace = mcp.workspace) => createGeminiCliParser({ workspaceFolders: [workspace] }).push(input);
  const sessionOf = (input: readonly string[]) => (JSON.parse(input[0] ?? '{}') as { sessionId?: string }).sessionId;
  const [a, b] = ['Add the separator constant', 'Use it in the parser'];

  it('each successful call is a version of the chat\'s plan, once; the file written between goes under the item in progress', () => {
    const out = parse(lines);
    assert.deepEqual(out.unknown, []);
    assert.deepEqual(out.plans.map((p) => [p.source.tool, p.source.session]), [[MCP_TOOL, sessionOf(lines)], [MCP_TOOL, sessionOf(lines)]]);
    assert.match(out.plans[0]?.source.call ?? '', /^mcp_agentplan_todo_write__/);
    assert.deepEqual(out.plans.map(rows), [
      [[a, 'in_progress'], [b, 'pending']],
      [[a, 'completed'], [b, 'in_progress']],
    ]);
    assert.deepEqual(out.writes?.map((w) => [w.files, w.plansBefore]), [[[`${mcp.workspace}/src/tokens.ts`], 1]]);
  });

  it('any server name counts; an input outside Agent Plan\'s contract is no plan, reported once', () => {
    const renamed = lines.map((line) => line.split(MCP_TOOL).join('mcp_my-plans_todo_write'));
    assert.deepEqual(parse(renamed).plans.map((p) => p.source.tool), ['mcp_my-plans_todo_write', 'mcp_my-plans_todo_write']);
    // Its write_todos shape (`description`) is not Agent Plan's.
    const foreign = lines.map((line) => line.split('"content":"Use it in the parser"').join('"description":"Use it in the parser"'));
    const out = parse(foreign);
    assert.deepEqual(out.plans, []);
    assert.deepEqual(out.unknown.map((u) => u.detail), ['an MCP todo_write call whose input is not a todo_write list']);
  });

  it('a call Gemini CLI did not run (an untrusted server outside yolo mode: the tool is not offered) is not a plan', () => {
    const refused = recording('gemini-cli', 'mcp-refused');
    const refusedLines = recordedLines(refused);
    const index = findLine(refusedLines, (v) => Array.isArray(v['toolCalls']) && (v['toolCalls'] as { name?: string }[]).some((c) => c.name === MCP_TOOL));
    assert.match(refusedLines[index] ?? '', /"status":"error"/);
    const out = parse(refusedLines, refused.workspace);
    assert.deepEqual([out.plans, out.unknown], [[], []]);
  });
});

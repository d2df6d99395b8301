// Qwen Code chats recorded from the real CLI (0.24.4): todo_write calls, counted once their
// tool_result says success; the todos file Qwen Code rewrites agrees with the newest call.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkedSink, qwenChatFolders, qwenCode } from '../../../src/agents/qwenCode';
import { createQwenCodeParser, qwenTodosFileItems } from '../../../src/agents/qwenCode/parser';
import type { ForeignPlan } from '../../../src/core/foreign';
import { findLine, recordedLines, recording } from '../../unit/agentRecordings';
import { MemorySink } from '../../unit/helpers';
import { useTempDir } from '../../lib/temp';

function rows(plan: ForeignPlan | undefined): [string, string][] {
  return (plan?.items ?? []).map((item) => [item.content, item.status]);
}

describe('qwenCode parser, over recordings of the real CLI', () => {
  const rec = recording('qwen-code', 'todo-write');
  const lines = recordedLines(rec);
  const parse = (input: readonly string[], folders = [rec.workspace]) => createQwenCodeParser({ workspaceFolders: folders }).push(input);
  const session = path.basename(rec.sessionFiles[0] ?? '', '.jsonl');

  it('each successful todo_write is a whole list, once, its ids not content', () => {
    const out = parse(lines);
    assert.deepEqual(out.unknown, []);
    assert.deepEqual(out.plans.map((p) => [p.source.agent, p.source.tool, p.source.session]), [['qwen-code', 'todo_write', session], ['qwen-code', 'todo_write', session]]);
    assert.deepEqual(out.plans.map(rows), [
      [['Read the parser', 'in_progress'], ['Fix the off-by-one', 'pending'], ['Write a regression test', 'pending']],
      [['Read the parser', 'completed'], ['Fix the off-by-one', 'in_progress'], ['Write a regression test', 'pending']],
    ]);
    assert.deepEqual(out.info, { agent: 'qwen-code', session, cwd: rec.workspace, request: rec.prompt, turn: { index: 0, state: 'ended' }, calls: 0, pending: null });
  });

  it('the todos file it rewrote holds the newest call\'s list', () => {
    const todos = fs.readFileSync(path.join(rec.agentDir, 'todos', `${session}.json`), 'utf8');
    assert.deepEqual(qwenTodosFileItems(todos), parse(lines).plans.at(-1)?.items);
    assert.equal(qwenTodosFileItems('{"todos": [{"content": "x", "status": "blocked"}]}'), undefined);
  });

  it('a call whose result is not a success changes nothing; a repeated line adds nothing', () => {
    const at = findLine(lines, (v) => v['type'] === 'tool_result' && JSON.stringify(v).includes('todo_write'));
    const failed = (lines[at] ?? '').replace('"status":"success"', '"status":"error"');
    assert.notEqual(failed, lines[at]);
    const out = parse([...lines.slice(0, at), failed, ...lines.slice(at + 1)]);
    assert.equal(out.plans.length, 1);
    assert.deepEqual(rows(out.plans[0]), rows(parse(lines).plans[1]));
    const doubled = [...lines.slice(0, at + 1), lines[at] as string, ...lines.slice(at + 1)];
    assert.deepEqual(parse(doubled).plans, parse(lines).plans);
  });

  it('resumes from its state at any line with the same plans', () => {
    const once = parse(lines).plans;
    for (let cut = 0; cut <= lines.length; cut++) {
      const head = createQwenCodeParser({ workspaceFolders: [rec.workspace] });
      const first = head.push(lines.slice(0, cut)).plans;
      const rest = createQwenCodeParser({ workspaceFolders: [rec.workspace] }, JSON.parse(JSON.stringify(head.state()))).push(lines.slice(cut)).plans;
      assert.deepEqual([...first, ...rest], once, `cut at line ${cut}`);
    }
  });

  it('a session whose cwd is outside the workspace yields nothing (the folder name is lossy)', () => {
    const out = parse(lines, ['/somewhere/else']);
    assert.deepEqual(out.plans, []);
    assert.equal(out.info, undefined);
  });

  it('turns: a prompt starts one, the answer ends it; calls after the last todo_write count', () => {
    const parser = createQwenCodeParser({ workspaceFolders: [rec.workspace] });
    const at = findLine(lines, (v) => v['type'] === 'tool_result' && JSON.stringify(v).includes('read_file'));
    parser.push(lines.slice(0, at + 1));
    assert.deepEqual(parser.turnFacts(), { index: 0, state: 'running', calls: ['call_scripted_002_0'] });
    parser.push(lines.slice(at + 1));
    assert.deepEqual(parser.turnFacts(), { index: 0, state: 'ended', calls: [] });
    const resumed = createQwenCodeParser({ workspaceFolders: [rec.workspace] }, JSON.parse(JSON.stringify(parser.state())));
    resumed.push([lines[0] as string]);
    assert.deepEqual(resumed.turnFacts(), { index: 1, state: 'running', calls: [] });
  });

  it('a run that never plans: no plan, no unknown shape', () => {
    const none = recording('qwen-code', 'no-plan');
    const out = createQwenCodeParser({ workspaceFolders: [none.workspace] }).push(recordedLines(none));
    assert.deepEqual(out.plans, []);
    assert.deepEqual(out.unknown, []);
  });
});

describe('qwenCode follower over the recorded folder', () => {
  const tmp = useTempDir();

  it('finds the chats of the workspace, hands both plans once, and nothing again after a restart', async () => {
    const rec = recording('qwen-code', 'todo-write');
    assert.deepEqual(qwenChatFolders(rec.agentDir, [rec.workspace]), [path.dirname(rec.sessionFiles[0] ?? '')]);
    const run = async () => {
      const sink = new MemorySink();
      const errors: unknown[] = [];
      const follower = qwenCode.start({
        folder: rec.agentDir,
        workspaceFolders: [rec.workspace],
        workspaceStorageFolder: undefined,
        storageDir: tmp.path,
        sink,
        onUnknownShape: (_f, shape) => errors.push(shape),
        onError: (error) => errors.push(error),
        onPolling: () => undefined,
        pollMs: 0,
      });
      assert.ok(follower);
      await follower.refresh();
      follower.dispose();
      assert.deepEqual(errors, []);
      return sink;
    };
    const first = await run();
    assert.equal(first.plans.length, 2);
    assert.equal(first.latest(first.plans[0]?.source.session ?? '')?.cwd, rec.workspace);
    assert.equal((await run()).plans.length, 0);
  });

  it('the todos file is the check: a list the chat showed says nothing; another list once settled, or a file in another shape, is reported once', async () => {
    const rec = recording('qwen-code', 'todo-write');
    const plans = createQwenCodeParser({ workspaceFolders: [rec.workspace] }).push(recordedLines(rec)).plans;
    const reports: string[] = [];
    const sink = checkedSink(new MemorySink(), rec.agentDir, (_file, detail) => reports.push(detail));
    await sink.importPlans(plans);
    assert.equal(reports.length, 0);
    // The chat has shown only the first list; the file holds the second (the next call ran).
    const fresh = checkedSink(new MemorySink(), rec.agentDir, (_file, detail) => reports.push(detail), Number.MAX_SAFE_INTEGER);
    await fresh.importPlans(plans.slice(0, 1));
    assert.equal(reports.length, 0, 'not yet: the chat may still bring that call');
    const settled = checkedSink(new MemorySink(), rec.agentDir, (_file, detail) => reports.push(detail), 0);
    await settled.importPlans(plans.slice(0, 1));
    await settled.importPlans(plans.slice(0, 1));
    assert.deepEqual(reports, ['the todos file holds a list no todo_write call in the chat has']);
    const copy = path.join(tmp.path, 'qwen');
    fs.mkdirSync(path.join(copy, 'todos'), { recursive: true });
    const session = plans[0]?.source.session ?? '';
    fs.writeFileSync(path.join(copy, 'todos', `${session}.json`), '{"todos": "not a list"}');
    const odd: string[] = [];
    await checkedSink(new MemorySink(), copy, (_file, detail) => odd.push(detail)).importPlans(plans);
    assert.deepEqual(odd, ['a todos file in a shape Agent Plan does not know']);
    // An id that is not Qwen Code's own shape is never made into a path.
    const hostile = plans.map((p) => ({ ...p, source: { ...p.source, session: '../../etc/passwd' } }));
    await checkedSink(new MemorySink(), copy, (_file, detail) => odd.push(detail)).importPlans(hostile);
    assert.equal(odd.length, 1);
  });

  it('its default folder is QWEN_HOME when set, else ~/.qwen', () => {
    assert.equal(qwenCode.defaultFolder?.({}, '/home/u'), '/home/u/.qwen');
    assert.equal(qwenCode.defaultFolder?.({ QWEN_HOME: '/opt/q' }, '/home/u'), '/opt/q');
  });
});

// Copilot's manage_todo_list, read from chat session files the real host wrote
// (test/agents/copilotChat/recordings, made by scripts/record-copilot-chats.mjs with the real
// Copilot agent and a scripted model). Variants are made from the recorded lines: cut,
// resumed, rewritten as VS Code rewrites a long log (one kind 0 line), or edited.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { copilotChatFolder, copilotChatParserFactory, createCopilotChatParser, mapTodoList } from '../../../src/agents/copilotChat';
import type { ForeignPlan, ForeignWrite, ParseOutput } from '../../../src/core/foreign';
import { firstChatRequest, replayChatLog, rewrittenChatLog } from '../../unit/helpers';

const FIXTURES = path.join(__dirname, 'recordings');

interface ManifestChat {
  file: string;
  uuid: string;
  agentPlanKeys: string[];
  identity: string;
  identityKey: string;
  keyMatches: boolean | null;
}
const manifest = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'manifest.json'), 'utf8')) as {
  recordedWith: { host: string; copilotChat: string };
  chats: ManifestChat[];
};

function chat(name: string): { lines: string[]; uuid: string; meta: ManifestChat } {
  const meta = manifest.chats.find((c) => c.file === `${name}.jsonl`);
  if (!meta) throw new Error(`no recorded chat ${name}`);
  const text = fs.readFileSync(path.join(FIXTURES, meta.file), 'utf8');
  return { lines: text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n'), uuid: meta.uuid, meta };
}

/**
 * Plans without `source.superseded` and `ranBy`: whether a manage_todo_list call was superseded,
 * and whether its request's end was known, depend on which lines were read together (a todo_write
 * call or the request's end later in the same read), not on the file.
 */
function plain(plans: readonly ForeignPlan[]): ForeignPlan[] {
  return plans.map((plan) => {
    const { superseded: _superseded, ...source } = plan.source;
    const { ranBy: _ranBy, ...rest } = plan;
    return { ...rest, source };
  });
}

function rows(plan: ForeignPlan | undefined): [string, string][] {
  return (plan?.items ?? []).map((item) => [item.content, item.status]);
}

/** The scripted model's call ids: `call_ap<run>t<turn>s<step>c<n>`; the step part says which call it was. */
function steps(plans: readonly ForeignPlan[]): string[] {
  return plans.map((plan) => /t\d+s\d+c\d+$/.exec(plan.source.call)?.[0] ?? plan.source.call);
}

/** Writes as [step of the call id, file, plansBefore]. */
function writeRows(writes: readonly ForeignWrite[] | undefined): [string, string, number][] {
  return (writes ?? []).map((write) => [/t\d+s\d+c\d+$/.exec(write.source.call)?.[0] ?? write.source.call, write.files.join(), write.plansBefore]);
}

const replay = replayChatLog;
const rewritten = rewrittenChatLog;
const resume = (state: unknown) => createCopilotChatParser(JSON.parse(JSON.stringify(state)));

describe('copilot chat parser, over chat session files of the real host', () => {
  it('was recorded with the pinned host and Copilot Chat', () => {
    assert.equal(manifest.recordedWith.host, '1.139.1');
    assert.equal(manifest.recordedWith.copilotChat, '0.67.0');
  });

  it('each manage_todo_list call is a whole list: titles trimmed, statuses mapped, ids dropped, duplicates and empty titles kept', () => {
    const { lines, uuid } = chat('manage-todo-list');
    const out = createCopilotChatParser().push(lines);
    assert.deepEqual(out.unknown, []);
    assert.deepEqual(steps(out.plans), ['t0s0c0', 't0s1c0', 't0s2c0']);
    for (const plan of out.plans) {
      assert.deepEqual({ ...plan.source, call: '' }, { agent: 'copilot', tool: 'manage_todo_list', session: uuid, call: '', turn: 0 });
    }
    assert.deepEqual(out.plans.map(rows), [
      [['Read the chat session format', 'pending'], ['Write the parser', 'pending'], ['Write the parser', 'pending'], ['', 'pending'], ['Padded title', 'pending']],
      [['Read the chat session format', 'in_progress'], ['Write the parser', 'pending'], ['Write the parser', 'pending'], ['', 'pending'], ['Padded title', 'pending']],
      [['Read the chat session format', 'completed'], ['Write the parser', 'in_progress'], ['Write the parser', 'pending'], ['', 'pending'], ['Padded title', 'completed']],
    ]);
    assert.ok(out.plans.every((plan) => plan.items.every((item) => Object.keys(item).sort().join() === 'content,status')));
  });

  it('the session is the chat uuid the file is named after, which is what todo_write’s token names', () => {
    const { lines, uuid, meta } = chat('both-tools');
    const out = createCopilotChatParser().push(lines);
    assert.equal(out.info?.session, uuid);
    // Recorded from the real token: Agent Plan's key for this chat is the hash of this identity.
    assert.equal(meta.keyMatches, true);
    assert.deepEqual(meta.agentPlanKeys, [meta.identityKey]);
    assert.equal(meta.identity, `resource:vscode-chat-session://local/${Buffer.from(uuid).toString('base64url')}?#`);
  });

  it('turn awareness: the newest request and whether any todo tool ran in it, todo_write included', () => {
    const a = chat('manage-todo-list');
    const secondRequest = a.lines.findIndex((line) => line.startsWith('{"kind":2,"k":["requests"]'));
    assert.ok(secondRequest > 0);
    const parser = createCopilotChatParser();
    assert.deepEqual(parser.push(a.lines.slice(0, secondRequest)).info?.latestTurn, { index: 0, planned: true });
    const after = parser.push(a.lines.slice(secondRequest));
    assert.deepEqual(after.info, { agent: 'copilot', session: a.uuid, request: firstChatRequest(a.lines), latestTurn: { index: 1, planned: false }, participant: 'GitHub.copilot-chat', turn: { index: 1, state: 'ended' }, calls: 0, pending: null });

    // The both-tools chat's first request with its manage_todo_list calls taken out: only
    // todo_write ran in it, and that makes it planned (with no plan to follow).
    const b = chat('both-tools');
    const state = replay(b.lines) as { requests: { response: { toolId?: string }[] }[] };
    state.requests = state.requests.slice(0, 1);
    const [first] = state.requests;
    if (!first) throw new Error('no first request');
    assert.ok(first.response.some((part) => part.toolId === 'todo_write'));
    first.response = first.response.filter((part) => part.toolId !== 'manage_todo_list');
    const onlyTodoWrite = createCopilotChatParser().push([JSON.stringify({ kind: 0, v: state })]);
    assert.deepEqual(onlyTodoWrite.plans, []);
    assert.deepEqual(onlyTodoWrite.info?.latestTurn, { index: 0, planned: true });
  });

  it('a chat that uses both tools: only manage_todo_list calls are plans, in call order, each with its turn', () => {
    const { lines, uuid } = chat('both-tools');
    const out = createCopilotChatParser().push(lines);
    assert.deepEqual(out.unknown, []);
    assert.deepEqual(steps(out.plans), ['t2s1c0', 't3s0c0']);
    assert.deepEqual(out.plans.map((plan) => [plan.source.session, plan.source.turn]), [[uuid, 0], [uuid, 1]]);
    assert.deepEqual(out.plans.map(rows), [
      [['Survey both tools', 'completed'], ['Compare their lists', 'in_progress']],
      [['Survey both tools', 'completed'], ['Compare their lists', 'completed'], ['Write the follow-up', 'in_progress']],
    ]);
    assert.deepEqual(out.info, { agent: 'copilot', session: uuid, title: 'Mirror fixture chat', request: firstChatRequest(lines), latestTurn: { index: 1, planned: true }, participant: 'GitHub.copilot-chat', turn: { index: 1, state: 'ended' }, calls: 0, pending: null });
  });

  it('a manage_todo_list call followed by a todo_write call read with it is marked superseded; the newest is not', () => {
    const { lines } = chat('both-tools');
    const together = createCopilotChatParser().push(lines);
    // Turn 0 is todo_write, manage_todo_list, todo_write: the later todo_write was saved first.
    assert.deepEqual(together.plans.map((plan) => plan.source.superseded === true), [true, false]);
    // Cut just before the later todo_write first appears, the call is the newest thing known: current.
    const cut = lines.findIndex((_line, i) => createCopilotChatParser().push(lines.slice(0, i + 1)).plans.length > 0);
    const before = createCopilotChatParser().push(lines.slice(0, cut + 1)).plans[0];
    if (before?.source.superseded === true) {
      // In this recording VS Code wrote the later todo_write in the same line as the call.
      assert.match(lines[cut]!, /"toolId":"manage_todo_list"[\s\S]*"toolId":"todo_write"/);
    } else {
      assert.equal(before?.source.superseded, undefined);
    }
  });

  it('each list says by when its request had run: the request’s end, or the next request’s start, the earlier known', () => {
    const { lines } = chat('both-tools');
    type Request = { timestamp?: number; modelState?: { value: number; completedAt?: number }; response?: unknown[] };
    const requests = (replay(lines) as { requests: Request[] }).requests;
    const ranBy = (turn: number | undefined): string => {
      const times = [requests[turn ?? -1]?.modelState?.completedAt, requests[(turn ?? -1) + 1]?.timestamp].filter((t): t is number => t !== undefined);
      assert.ok(times.length > 0, `the recording holds request ${turn}'s end`);
      return new Date(Math.min(...times)).toISOString();
    };
    const out = createCopilotChatParser().push(lines);
    assert.equal(out.plans.length, 2);
    assert.deepEqual(out.plans.map((plan) => plan.ranBy), out.plans.map((plan) => ranBy(plan.source.turn)));
    // Read while its request runs (before the request's end is in the file), a list has no such time.
    const first = lines.findIndex((_line, i) => createCopilotChatParser().push(lines.slice(0, i + 1)).plans.length > 0);
    const early = createCopilotChatParser().push(lines.slice(0, first + 1)).plans[0];
    const endsBy = lines.slice(0, first + 1).some((line) => line.includes('"completedAt"') || /"timestamp":\d+/.test(line.slice(line.indexOf('"requests"'))));
    if (!endsBy) assert.equal(early?.ranBy, undefined);
    // VS Code's first save of the chat, as seen in a run: request 0 over with its list, request 1
    // sent and running with no part yet. The list is known to have run by request 0's end.
    const saved = replay(lines) as { requests: Request[] };
    saved.requests = saved.requests.slice(0, 2);
    saved.requests[1] = { ...saved.requests[1], modelState: { value: 0 }, response: [] };
    const race = createCopilotChatParser().push([JSON.stringify({ kind: 0, v: saved })]);
    assert.deepEqual(race.plans.map((plan) => [plan.source.turn, plan.ranBy]), [[0, ranBy(0)]]);
    // The time comes with a state (a resumed parser) and goes with a request cut away.
    const parser = createCopilotChatParser();
    parser.push(lines);
    const state = parser.state() as { ranBy: Array<{ index: number; at: number }> };
    assert.deepEqual(state.ranBy.map((entry) => [entry.index, new Date(entry.at).toISOString()]), [[0, ranBy(0)], [1, ranBy(1)]]);
    assert.deepEqual((resume(state).state() as typeof state).ranBy, state.ranBy);
    parser.push([JSON.stringify({ kind: 2, k: ['requests'], v: [], i: 1 })]);
    assert.deepEqual((parser.state() as typeof state).ranBy.map((entry) => [entry.index, new Date(entry.at).toISOString()]), [[0, ranBy(0)]], 'request 1 cut: its own time goes');
  });

  it('the title is the chat’s customTitle, once it has one', () => {
    const { lines, uuid } = chat('titled');
    const out = createCopilotChatParser().push(lines);
    assert.equal(out.info?.title, 'Mirror fixture chat');
    assert.deepEqual(out.plans.map(rows), [[['Name the chat', 'in_progress']]]);
    const renamed = createCopilotChatParser();
    renamed.push(lines);
    const set = renamed.push([JSON.stringify({ kind: 1, k: ['customTitle'], v: '  Renamed chat ' })]);
    assert.deepEqual(set.info, { agent: 'copilot', session: uuid, title: 'Renamed chat', request: firstChatRequest(lines), latestTurn: { index: 0, planned: true }, participant: 'GitHub.copilot-chat', turn: { index: 0, state: 'ended' }, calls: 0, pending: null });
    assert.equal(renamed.push([JSON.stringify({ kind: 3, k: ['customTitle'] })]).info?.title, undefined);
    assert.equal(createCopilotChatParser().push(chat('manage-todo-list').lines).info?.title, undefined);
  });

  it('any cut, resumed from its JSON state, gives the same plans as one pass; a repeated line emits nothing twice', () => {
    for (const name of ['manage-todo-list', 'both-tools', 'titled']) {
      const { lines } = chat(name);
      const whole = createCopilotChatParser().push(lines);
      for (let cut = 0; cut <= lines.length; cut++) {
        const head = createCopilotChatParser();
        const first = head.push(lines.slice(0, cut));
        const rest = resume(head.state()).push(lines.slice(cut));
        assert.deepEqual(plain([...first.plans, ...rest.plans]), plain(whole.plans), `${name} cut at line ${cut}`);
        // Info comes only when it changed: the newest one given is the one-pass result.
        assert.deepEqual(rest.info ?? first.info, whole.info, `${name} info after cut ${cut}`);
      }
      const again = createCopilotChatParser();
      again.push(lines);
      assert.deepEqual(again.push(lines).plans, [], `${name} read twice`);
    }
  });

  it('a rewritten file (one kind 0 line with the whole chat) holds the same plans, and re-emits none it emitted', () => {
    for (const name of ['manage-todo-list', 'both-tools']) {
      const { lines } = chat(name);
      const incremental = createCopilotChatParser().push(lines);
      const compacted = createCopilotChatParser().push([rewritten(lines)]);
      assert.deepEqual(plain(compacted.plans), plain(incremental.plans), `${name}: the log and its snapshot agree`);
      assert.deepEqual(compacted.info, incremental.info);

      // VS Code rewrote the file halfway: a follower starts it again with a fresh parser.
      const half = Math.ceil(lines.length / 2);
      const factory = copilotChatParserFactory();
      const before = factory('/chats/x.jsonl').push(lines.slice(0, half)).plans;
      const after = factory('/chats/x.jsonl').push([rewritten(lines)]).plans;
      assert.deepEqual(plain([...before, ...after]), plain(incremental.plans), `${name}: rewritten after line ${half}`);
      // A resumed state carries the emitted calls too.
      const parser = createCopilotChatParser();
      parser.push(lines.slice(0, half));
      const resumed = resume(parser.state()).push([rewritten(lines)]).plans;
      assert.deepEqual(plain([...before, ...resumed]), plain(incremental.plans));
    }
  });

  it('requests removed from the end (a push cut on requests) are no longer the newest turn', () => {
    const { lines } = chat('manage-todo-list');
    const parser = createCopilotChatParser();
    parser.push(lines);
    const cut = parser.push([JSON.stringify({ kind: 2, k: ['requests'], i: 1 })]);
    assert.deepEqual(cut.info?.latestTurn, { index: 0, planned: true });
    const gone = parser.push([JSON.stringify({ kind: 2, k: ['requests'], i: 0 })]);
    assert.equal(gone.info?.latestTurn, undefined);
  });

  it('a call still streaming, waiting for approval, denied or skipped is no plan; the same call once it ran is one', () => {
    const { lines } = chat('titled');
    const line = rewritten(lines);
    const confirmed = '"isConfirmed":{"type":1}';
    assert.ok(line.includes(confirmed));
    for (const [what, replacement] of [['streaming', ''], ['denied', '"isConfirmed":{"type":0},'], ['skipped', '"isConfirmed":{"type":5},']] as const) {
      const edited = line.replace(confirmed + ',', replacement);
      assert.notEqual(edited, line);
      const parser = createCopilotChatParser();
      const out = parser.push([edited]);
      assert.deepEqual(out.plans, [], what);
      assert.deepEqual(out.unknown, [], what);
      assert.equal(out.info?.latestTurn?.planned, false, what);
      if (what === 'streaming') {
        // VS Code sends the changed part again (cut at its index, the rest appended).
        const request = (JSON.parse(line) as { v: { requests: { response: unknown[] }[] } }).v.requests[0];
        const at = request?.response.findIndex((p) => JSON.stringify(p).includes('manage_todo_list')) ?? -1;
        assert.ok(at >= 0);
        const repush = JSON.stringify({ kind: 2, k: ['requests', 0, 'response'], v: request?.response.slice(at), i: at });
        const ran = parser.push([repush, repush]);
        assert.deepEqual(ran.plans.map(rows), [[['Name the chat', 'in_progress']]]);
        assert.equal(ran.info?.latestTurn?.planned, true);
      }
    }
  });

  it('a running terminal command whose exit the file does not hold: the next part of the response (the model moved on) ends its wait', () => {
    const { lines } = chat('wait-confirmed');
    const terminal = (line: string) => line.includes('"toolId":"run_in_terminal"');
    const allowed = lines.findIndex((line) => terminal(line) && line.includes('"isConfirmed":{"type":4}'));
    const exited = lines.findIndex((line) => terminal(line) && line.includes('"exitCode"'));
    assert.ok(allowed > 0 && exited > allowed);
    const call = (JSON.parse(lines[allowed] ?? '{}') as { v: Array<{ toolCallId?: string }> }).v.find((part) => part.toolCallId)?.toolCallId;
    // The file up to the exit, without it: the command runs.
    const running = lines.slice(0, exited);
    assert.deepEqual(createCopilotChatParser().push(running).info?.pending, { tool: 'run_in_terminal', call });
    // Then the next parts the model appended after it (VS Code may save the request's end first; left out here).
    const next = lines.find((line, n) => n > exited && line.startsWith('{"kind":2,"k":["requests",0,"response"],"v":') && !line.includes('"i":'));
    assert.ok(next !== undefined);
    const after = createCopilotChatParser().push([...running, next]).info;
    assert.equal(after?.pending, null);
    assert.equal(after?.turn?.state, 'running', 'the request still runs');
  });

  it('shapes it does not know are reported once each and skipped; the other calls still come through', () => {
    const { lines } = chat('manage-todo-list');
    const at = lines.findIndex((l) => l.includes('"status":"in-progress"'));
    assert.ok(at >= 0);
    const odd = lines.map((l, i) => (i === at ? l.replace('"status":"in-progress"', '"status":"blocked-by-user"') : l));
    const out = createCopilotChatParser().push(odd);
    assert.deepEqual(out.unknown, [{ line: at + 1, detail: 'a manage_todo_list status "blocked-by-user"' }]);
    assert.ok(out.plans.length >= 1 && out.plans.length < 3, 'the call with the odd status is left out, the others are not');

    const noise = ['not json', '[1]', '{"kind":7}', '{"kind":1,"v":2}', '{"kind":2,"k":["requests"],"v":5}', '{"kind":7}', 'not json'];
    const parser = createCopilotChatParser();
    const head = parser.push(lines.slice(0, 1)).plans.length;
    assert.deepEqual(parser.push(noise).unknown.map((u) => [u.line, u.detail]), [
      [2, 'a line that is not JSON'],
      [3, 'a line that is not a JSON object'],
      [4, 'a chat session line of kind 7'],
      [5, 'a chat change of kind 1 without a path'],
      [6, 'a chat push without a list or with an odd cut'],
    ]);
    assert.equal(head + parser.push(lines.slice(1)).plans.length, 3, 'the chat goes on after the noise');
  });

  it('a chat file of another version is reported once and skipped until a known initial state', () => {
    const { lines } = chat('titled');
    const future = (lines[0] ?? '').replace('"version":3', '"version":4');
    assert.notEqual(future, lines[0]);
    const parser = createCopilotChatParser();
    const out = parser.push([future, ...lines.slice(1), future]);
    assert.deepEqual(out.unknown, [{ line: 1, detail: 'a chat session of version 4' }]);
    assert.deepEqual(out.plans, []);
    assert.equal(out.info, undefined);
    assert.equal(parser.push(lines).plans.length, 1, 'a known kind 0 starts it again');
    assert.deepEqual(createCopilotChatParser().push(lines.slice(1).concat(['{"kind":1,"k":["customTitle"],"v":"x"}'])).unknown, [
      { line: 1, detail: 'a chat change before the initial state' },
    ]);
  });

  it('the state stays small: counters, planned turns and call ids, never the chat', () => {
    const { lines } = chat('both-tools');
    const parser = createCopilotChatParser();
    parser.push(lines);
    const size = JSON.stringify(parser.state()).length;
    // Call ids and model-call ids (a few per request), and the chat's first request (at most
    // MAX_SESSION_REQUEST_LENGTH characters), the one text kept.
    const request = (parser.state() as { request?: string }).request ?? '';
    assert.ok(size - request.length < 1000, `state is ${size} characters`);
    // Thousands of calls: the saved state keeps the newest 2,000 ids.
    const many = createCopilotChatParser();
    many.push(lines.slice(0, 1));
    const part = (n: number) => ({ kind: 'toolInvocationSerialized', toolId: 'manage_todo_list', toolCallId: `call_${n}`, isConfirmed: { type: 1 }, toolSpecificData: { kind: 'todoList', todoList: [] } });
    const batch = Array.from({ length: 2500 }, (_, n) => JSON.stringify({ kind: 2, k: ['requests', 0, 'response'], v: [part(n)] }));
    assert.equal(many.push(batch).plans.length, 2500);
    const state = many.state() as { emitted: string[] };
    assert.equal(state.emitted.length, 2000);
    assert.equal(state.emitted[1999], 'call_2499');
  });

  it('mapTodoList maps exactly the three statuses, keeps order, and names what it cannot read', () => {
    const list = (todoList: unknown) => ({ kind: 'todoList', todoList });
    assert.deepEqual(mapTodoList(list([{ id: '2', title: ' b ', status: 'completed' }, { id: '1', title: 'a', status: 'not-started' }])), [
      { content: 'b', status: 'completed' },
      { content: 'a', status: 'pending' },
    ]);
    assert.deepEqual(mapTodoList(list([])), []);
    assert.equal(mapTodoList(list([{ title: 'a', status: 'constructor' }])), 'a manage_todo_list status "constructor"');
    assert.equal(mapTodoList(list([{ title: 3, status: 'completed' }])), 'a manage_todo_list item without a title');
    assert.equal(mapTodoList({ kind: 'input' }), 'a manage_todo_list call without a todo list');
    assert.equal(mapTodoList(undefined), 'a manage_todo_list call without a todo list');
  });

  it('edits: one write per edit group, named by the edit tool call before it, after the todo calls (both tools) that ran before it', () => {
    const { lines, uuid } = chat('edits');
    const out = createCopilotChatParser().push(lines);
    assert.deepEqual(out.unknown, []);
    assert.ok((out.writes ?? []).every((write) => write.source.agent === 'copilot' && write.source.session === uuid));
    // todo_write (s0), create_file notes.md (s1), replace README.md (s2), manage_todo_list (s3),
    // replace README.md again (s4), create_file docs/CHANGES.md (s5), todo_write (s6); then the
    // second request's replace (t1s0), after all three plan calls of the chat.
    assert.deepEqual(writeRows(out.writes), [
      ['t0s1c0', '/WORKSPACE/notes.md', 1],
      ['t0s2c0', '/WORKSPACE/README.md', 1],
      ['t0s4c0', '/WORKSPACE/README.md', 2],
      ['t0s5c0', '/WORKSPACE/docs/CHANGES.md', 2],
      ['t1s0c0', '/WORKSPACE/README.md', 3],
    ]);
    // The chats without edits write nothing.
    for (const name of ['manage-todo-list', 'both-tools', 'titled', 'health-stall']) assert.equal(createCopilotChatParser().push(chat(name).lines).writes, undefined, name);
  });

  it('edits: any cut, resumed from its JSON state, gives the same writes; parts sent again and a file read twice give none twice', () => {
    const { lines } = chat('edits');
    const whole = createCopilotChatParser().push(lines).writes;
    for (let cut = 0; cut <= lines.length; cut++) {
      const head = createCopilotChatParser();
      const first = head.push(lines.slice(0, cut));
      const rest = resume(head.state()).push(lines.slice(cut));
      assert.deepEqual([...(first.writes ?? []), ...(rest.writes ?? [])], whole, `cut at line ${cut}`);
    }
    const parser = createCopilotChatParser();
    parser.push(lines);
    assert.equal(parser.push(lines).writes, undefined, 'read twice');
    // VS Code sends a response again from the first part that changed: from every position.
    const response = (replay(lines) as { requests: { response: unknown[] }[] }).requests[0]!.response;
    for (let from = 0; from < response.length; from++) {
      const again = parser.push([JSON.stringify({ kind: 2, k: ['requests', 0, 'response'], i: from, v: response.slice(from) })]);
      assert.equal(again.writes, undefined, `parts sent again from ${from}`);
      assert.deepEqual(again.plans, []);
    }
  });

  it('edits: a rewritten file gives the same writes with the same ids, and a follower re-emits none', () => {
    const { lines } = chat('edits');
    const incremental = createCopilotChatParser().push(lines).writes;
    assert.deepEqual(createCopilotChatParser().push([rewritten(lines)]).writes, incremental);
    for (let half = 1; half < lines.length; half++) {
      const factory = copilotChatParserFactory();
      const before = factory('/chats/x.jsonl').push(lines.slice(0, half)).writes ?? [];
      const after = factory('/chats/x.jsonl').push([rewritten(lines)]).writes ?? [];
      assert.deepEqual([...before, ...after], incremental, `rewritten after line ${half}`);
    }
  });

  it('edits: a todo_write call the tool turned down (its result an error) wrote no version, so it does not count', () => {
    const { lines } = chat('edits');
    const first = lines.findIndex((line) => line.includes('"toolId":"todo_write"'));
    const parsed = JSON.parse(lines[first]!) as { v: Array<{ kind?: string; toolId?: string; resultDetails?: { output: Array<{ value: string }> } }> };
    const part = parsed.v.find((p) => p.toolId === 'todo_write')!;
    assert.match(part.resultDetails!.output[0]!.value, /^Updated todo list:/);
    const rejected = structuredClone(parsed);
    rejected.v.find((p) => p.toolId === 'todo_write')!.resultDetails!.output[0]!.value = 'Error: invalid todos: duplicate content "Write the notes"';
    const turnedDown = [...lines.slice(0, first), JSON.stringify(rejected), ...lines.slice(first + 1)];
    assert.deepEqual(
      writeRows(createCopilotChatParser().push(turnedDown).writes).map((row) => row[2]),
      [0, 0, 1, 1, 2],
    );
    // Its result may come only when the part is sent again: counted at first, then no more.
    const running = structuredClone(parsed);
    delete running.v.find((p) => p.toolId === 'todo_write')!.resultDetails;
    const at = parsed.v.findIndex((p) => p.toolId === 'todo_write');
    const resent = JSON.stringify({ kind: 2, k: ['requests', 0, 'response'], i: 0, v: rejected.v.slice(0, at + 1) });
    const later = [...lines.slice(0, first), JSON.stringify(running), resent, ...lines.slice(first + 1)];
    assert.deepEqual(
      writeRows(createCopilotChatParser().push(later).writes).map((row) => row[2]),
      [0, 0, 1, 1, 2],
    );
  });

  it('edits: an edit group with no tool call before it is named by its request, position and file; untitled documents are no file', () => {
    const { lines } = chat('edits');
    const uri = (scheme: string, p: string) => ({ $mid: 1, fsPath: p, path: p, scheme });
    const parser = createCopilotChatParser();
    parser.push(lines.slice(0, 1));
    const out = parser.push([
      JSON.stringify({ kind: 2, k: ['requests'], v: [{ requestId: 'r', message: { text: 'x' }, response: [{ value: 'hi' }, { kind: 'textEditGroup', uri: uri('file', '/w/a.ts'), edits: [], done: true }, { kind: 'textEditGroup', uri: uri('untitled', 'Untitled-1'), edits: [], done: true }] }] }),
    ]);
    assert.deepEqual(out.writes?.map((write) => [write.source.call, write.files, write.plansBefore]), [['request 1 part 1 /w/a.ts', ['/w/a.ts'], 0]]);
  });

  it('the chat folder is chatSessions in the workspace storage folder', () => {
    assert.equal(copilotChatFolder(path.join('/ws', 'abc')), path.join('/ws', 'abc', 'chatSessions'));
  });
});

describe('copilot chat parser, fuzzed', () => {
  const all = manifest.chats.flatMap((c) => chat(c.file.replace(/\.jsonl$/, '')).lines);
  const keys = fc.constantFrom<string | number>('requests', 'response', 'customTitle', 'kind', 'v', 'k', 'i', 0, 1, 2, -1, 1.5, 'toolSpecificData', 'todoList', 'isConfirmed', 'toolCallId');
  const leaf = fc.oneof(fc.string(), fc.integer({ min: -2, max: 5 }), fc.boolean(), fc.constant(null), fc.constantFrom('toolInvocationSerialized', 'manage_todo_list', 'todo_write', 'todoList', 'not-started', 'completed'));
  const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, leaf, tie('object'), fc.array(tie('value'), { maxLength: 3 })),
    object: fc.dictionary(keys.map(String), tie('value'), { maxKeys: 5 }),
  })).value;
  const entry = fc.oneof(
    fc.constantFrom(...all),
    fc.record({ kind: fc.constantFrom(0, 1, 2, 3, 4), k: fc.array(keys, { maxLength: 4 }), v: json, i: fc.option(fc.integer({ min: -1, max: 4 }), { nil: undefined }) }).map((e) => JSON.stringify(e)),
    json.map((v) => JSON.stringify(v) ?? 'undefined'),
    fc.string(),
  );

  it('never throws, always returns JSON-safe state, and a resumed parser goes on as one pass', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 25 }), fc.nat(25), (lines, cutAt) => {
        const cut = Math.min(cutAt, lines.length);
        const whole = createCopilotChatParser().push(lines);
        const head = createCopilotChatParser();
        const first: ParseOutput = head.push(lines.slice(0, cut));
        const rest = resume(head.state()).push(lines.slice(cut));
        assert.deepEqual(plain([...first.plans, ...rest.plans]), plain(whole.plans));
        assert.deepEqual(new Set([...first.unknown, ...rest.unknown].map((u) => u.detail)), new Set(whole.unknown.map((u) => u.detail)));
        const details = whole.unknown.map((u) => u.detail);
        assert.equal(new Set(details).size, details.length, 'each shape reported once');
        const calls = whole.plans.map((p) => p.source.call);
        assert.equal(new Set(calls).size, calls.length, 'each call emitted once');
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
    );
  });
});

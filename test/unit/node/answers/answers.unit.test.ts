// The permission hook (src/node/answers/answer.sh, run with the real sh) and the broker a window
// runs (answerBroker.ts) through a real answers folder: a request is taken, answered with the
// agent's own answer JSON, and leaves no file behind; with no window, no taker or no answer in
// time, the hook prints nothing and the agent asks at its own prompt.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AnswerBroker, type AnswerEnd, type PendingAnswer } from '../../../../src/node/answers/answerBroker';
import { answersFolder, MAX_REQUEST_BYTES } from '../../../../src/node/answers/answerSpool';
import { permissionRequestHook, type PermissionHook } from '../../../../src/node/answers/permissionHook';
import { claudeCodeAnswers } from '../../../../src/agents/claudeCode/answers';
import { codexAnswers } from '../../../../src/agents/codex/answers';
import { useTempDir } from '../../../lib/temp';
import { waitFor } from '../../../lib/wait';

const SCRIPT = path.join(__dirname, '..', '..', '..', '..', 'src', 'node', 'answers', 'answer.sh');
const HOOKS = new Map<string, PermissionHook>([
  ['claude-code', claudeCodeAnswers],
  ['codex', codexAnswers],
]);

/** Claude Code's PermissionRequest stdin, in the shape its 2.1.332 hook received (notes: agent-hooks.md). */
function claudeRequest(command: string, session = 'b5f3c2a1-0000-4000-8000-000000000001'): string {
  return JSON.stringify({
    session_id: session,
    transcript_path: `/home/u/.claude/projects/-w/${session}.jsonl`,
    cwd: '/w',
    prompt_id: 'p1',
    permission_mode: 'default',
    hook_event_name: 'PermissionRequest',
    tool_name: 'Bash',
    tool_input: { command, description: 'Create the marker file' },
    permission_suggestions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }],
  });
}

interface HookRun {
  child: ChildProcess;
  done: Promise<{ stdout: string; code: number | null; ms: number }>;
}

function runHook(folder: string, agent: string, stdin: string): HookRun {
  const started = Date.now();
  const child = spawn('sh', [SCRIPT, agent, folder], { stdio: ['pipe', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stdin?.on('error', () => undefined);
  child.stdin?.end(stdin);
  const done = new Promise<{ stdout: string; code: number | null; ms: number }>((resolve) => child.on('close', (code) => resolve({ stdout, code, ms: Date.now() - started })));
  return { child, done };
}

describe('answers: the permission hook and the broker, through a real folder', function () {
  this.timeout(20_000);
  const tmp = useTempDir();
  let broker: AnswerBroker | undefined;
  let folder: string;

  beforeEach(() => {
    folder = path.join(tmp.path, 'answers');
  });
  afterEach(() => broker?.dispose());

  async function startBroker(waitFor: (hook: PermissionHook) => number = () => 30, extra: { checkMs?: number } = {}) {
    const asked: PendingAnswer[] = [];
    const ended: Array<{ pending: PendingAnswer; end: AnswerEnd }> = [];
    const errors: string[] = [];
    broker = new AnswerBroker({ folder, hooks: HOOKS, waitFor, onError: (error) => errors.push(String(error)), ...extra });
    broker.onDidAsk((pending) => asked.push(pending));
    broker.onDidEnd((end) => ended.push(end));
    await broker.start();
    return { broker, asked, ended, errors };
  }

  it('the folder is made owner-only; the default is Agent Plan\'s folder in the data folder', async () => {
    fs.mkdirSync(folder, { mode: 0o755 });
    fs.chmodSync(folder, 0o755);
    await startBroker();
    assert.equal(fs.statSync(folder).mode & 0o777, 0o700);
    assert.equal(answersFolder({ XDG_DATA_HOME: '/x/data' }, '/home/u', 'linux'), '/x/data/agent-plan/answers');
    assert.equal(answersFolder({ XDG_DATA_HOME: 'relative' }, '/home/u', 'linux'), '/home/u/.local/share/agent-plan/answers');
  });

  it('Allow: the request is listed with its tool and command; the hook prints Claude Code\'s allow and leaves no file', async () => {
    const { asked, ended } = await startBroker();
    const run = runHook(folder, 'claude-code', claudeRequest('touch approved.txt'));
    await waitFor(() => asked.length === 1, 'the request listed', 10_000, 20);
    const [pending] = asked;
    assert.deepEqual([pending?.agent, pending?.session, pending?.tool, pending?.input, pending?.description, pending?.canAllow, pending?.canDeny], ['claude-code', 'b5f3c2a1-0000-4000-8000-000000000001', 'Bash', 'touch approved.txt', 'Create the marker file', true, true]);
    assert.deepEqual(broker?.pending().map((p) => p.id), [pending?.id]);
    assert.equal(await broker?.answer(pending?.id ?? '', 'allow'), true);
    const out = await run.done;
    assert.equal(out.code, 0);
    assert.deepEqual(JSON.parse(out.stdout), { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } });
    assert.deepEqual(ended.map((e) => e.end), [{ how: 'allow' }]);
    assert.deepEqual(broker?.pending(), []);
    assert.deepEqual(fs.readdirSync(folder), [], 'the hook took its files with it');
    assert.equal(await broker?.answer(pending?.id ?? '', 'deny'), false, 'a request answered is answered once');
  });

  it('Deny with a message: the hook prints the deny with the message for the model (Codex reads the same shape)', async () => {
    const { asked } = await startBroker();
    const run = runHook(folder, 'codex', claudeRequest('npm install left-pad').replace('b5f3c2a1', 'c0dec0de'));
    await waitFor(() => asked.length === 1, 'the request listed', 10_000, 20);
    assert.equal(asked[0]?.agent, 'codex');
    assert.equal(await broker?.answer(asked[0]?.id ?? '', 'deny', '  use pnpm  '), true);
    assert.deepEqual(JSON.parse((await run.done).stdout), { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'use pnpm' } } });
  });

  it('no window: the hook prints nothing within about a second (the agent asks at its own prompt)', async () => {
    fs.mkdirSync(folder, { mode: 0o700 });
    const out = await runHook(folder, 'claude-code', claudeRequest('touch x')).done;
    assert.deepEqual([out.stdout, out.code], ['', 0]);
    assert.ok(out.ms < 5000, `took ${out.ms} ms`);
    assert.deepEqual(fs.readdirSync(folder), []);
    // No folder at all: nothing either.
    const none = await runHook(path.join(tmp.path, 'missing'), 'claude-code', claudeRequest('touch x')).done;
    assert.deepEqual([none.stdout, none.code], ['', 0]);
  });

  it('a session no window follows is left to the agent; so is an agent the window cannot answer', async () => {
    const { asked } = await startBroker(() => 0);
    const out = await runHook(folder, 'claude-code', claudeRequest('touch x')).done;
    assert.deepEqual([out.stdout, asked.length], ['', 0]);
    const other = await runHook(folder, 'gemini-cli', '{"hook_event_name":"BeforeTool"}').done;
    assert.equal(other.stdout, '');
  });

  it('no answer in the time the window gave: the hook prints nothing and the request leaves the list', async () => {
    const { asked, ended } = await startBroker(() => 1);
    const out = await runHook(folder, 'claude-code', claudeRequest('touch x')).done;
    assert.equal(out.stdout, '');
    assert.equal(asked.length, 1);
    await waitFor(() => ended.length === 1, 'the request ended', 10_000, 20);
    assert.deepEqual(ended[0]?.end, { how: 'ended' });
    assert.deepEqual(broker?.pending(), []);
  });

  it('a hook killed outright (the agent answered at its prompt, or ended) leaves the list within a check', async () => {
    const { asked, ended } = await startBroker(() => 60, { checkMs: 200 });
    const run = runHook(folder, 'claude-code', claudeRequest('touch x'));
    await waitFor(() => asked.length === 1, 'the request listed', 10_000, 20);
    run.child.kill('SIGKILL');
    await run.done;
    await waitFor(() => ended.length === 1, 'the request ended', 10_000, 20);
    assert.equal(await broker?.answer(asked[0]?.id ?? '', 'allow'), false);
  });

  it('withdraw: the hook goes at once, printing nothing', async () => {
    const { asked } = await startBroker(() => 60);
    const run = runHook(folder, 'claude-code', claudeRequest('touch x'));
    await waitFor(() => asked.length === 1, 'the request listed', 10_000, 20);
    await broker?.withdraw(asked[0]?.id ?? '');
    const out = await run.done;
    assert.deepEqual([out.stdout, out.code], ['', 0]);
    assert.ok(out.ms < 5000);
  });

  it('hostile requests: not the hook\'s shape, not JSON, or too large, are reported and left to the agent; control characters and Markdown stay text', async () => {
    const { asked, errors } = await startBroker();
    const wrong = await runHook(folder, 'claude-code', JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash' })).done;
    const broken = await runHook(folder, 'claude-code', '{"hook_event_name": ').done;
    const huge = await runHook(folder, 'claude-code', claudeRequest('x'.repeat(MAX_REQUEST_BYTES))).done;
    assert.deepEqual([wrong.stdout, broken.stdout, huge.stdout, asked.length], ['', '', '', 0]);
    assert.equal(errors.length, 3, errors.join('\n'));
    assert.match(errors[0] ?? '', /not a claude-code permission request: hook_event_name "PreToolUse" is not PermissionRequest/);
    const hostile = '[click](http://x) \u001b[31m\u0007 $(rm -rf ~)';
    const run = runHook(folder, 'claude-code', claudeRequest(hostile));
    await waitFor(() => asked.length === 1, 'the request listed', 10_000, 20);
    assert.equal(asked[0]?.input, hostile, 'kept as data: escaped where it is shown');
    await broker?.withdraw(asked[0]?.id ?? '');
    await run.done;
    const long = permissionRequestHook('claude-code', true).request(JSON.parse(claudeRequest('y'.repeat(10_000))));
    assert.ok(typeof long === 'object' && long.input.length === 4000 && long.input.endsWith('…'));
  });

  it('a window reloaded (its process gone) takes its request over while the hook still waits; the answer still reaches the hook', async () => {
    const first = await startBroker(() => 60);
    const run = runHook(folder, 'claude-code', claudeRequest('touch x'));
    await waitFor(() => first.asked.length === 1, 'taken', 10_000, 20);
    const id = first.asked[0]?.id ?? '';
    first.broker.dispose();
    // The record names the window's process: here, one that has ended.
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    fs.writeFileSync(path.join(folder, `own.${id}`), String(gone));
    const second = await startBroker(() => 60);
    await waitFor(() => second.asked.length === 1, 'taken over', 10_000, 20);
    assert.equal(second.asked[0]?.id, id);
    assert.ok((second.asked[0]?.until ?? 0) - Date.now() <= 60_000, 'no more than the hook\u2019s own wait is left');
    assert.equal(fs.readFileSync(path.join(folder, `own.${id}`), 'utf8'), String(process.pid));
    assert.equal(await second.broker.answer(id, 'allow'), true);
    assert.match((await run.done).stdout, /"allow"/);
    await waitFor(() => fs.readdirSync(folder).length === 0, 'nothing left behind', 10_000, 20);
  });

  it('a request a live window took is not taken over', async () => {
    const first = await startBroker(() => 60);
    const run = runHook(folder, 'claude-code', claudeRequest('touch x'));
    await waitFor(() => first.asked.length === 1, 'taken', 10_000, 20);
    const other = new AnswerBroker({ folder, hooks: HOOKS, waitFor: () => 60 });
    const asked: PendingAnswer[] = [];
    other.onDidAsk((pending) => asked.push(pending));
    // The record names a live process that is not this one (this test's parent shell).
    fs.writeFileSync(path.join(folder, `own.${first.asked[0]?.id}`), String(process.ppid));
    try {
      // Its first look at the folder is over when start() resolves.
      await other.start();
      assert.deepEqual(asked, []);
    } finally {
      other.dispose();
    }
    await first.broker.withdraw(first.asked[0]?.id ?? '');
    await run.done;
  });

  it('two windows: one takes the request; an answer is written once', async () => {
    const first = await startBroker();
    const second = new AnswerBroker({ folder, hooks: HOOKS, waitFor: () => 30 });
    const secondAsked: PendingAnswer[] = [];
    second.onDidAsk((pending) => secondAsked.push(pending));
    await second.start();
    try {
      const run = runHook(folder, 'claude-code', claudeRequest('touch x'));
      await waitFor(() => first.asked.length + secondAsked.length === 1, 'taken by one', 10_000, 20);
      const taker = first.asked.length === 1 ? first.broker : second;
      const id = (first.asked[0] ?? secondAsked[0])?.id ?? '';
      assert.equal(await taker.answer(id, 'allow'), true);
      assert.match((await run.done).stdout, /"allow"/);
      // Both windows have looked at it for good once nothing of it is left in the folder.
      await waitFor(() => fs.readdirSync(folder).length === 0, 'nothing left behind', 10_000, 20);
      assert.equal(first.asked.length + secondAsked.length, 1, 'one window took it');
    } finally {
      second.dispose();
    }
  });
});

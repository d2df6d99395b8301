// Acting on a plan with the real GitHub Copilot agent and the scripted model: a chat stops
// with items open; Continue in New Chat types the hand-off prompt into a NEW chat (not sent);
// the test presses Enter as the user would, and the model's request holds every open item
// verbatim and nothing of the old chat. Ask to Continue and Ask to Restore type into the SAME
// chat. Copy Hand-off Prompt and Export Plan give the documented text. A Claude Code run,
// recorded by the real CLI, is continued in Copilot.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentPlanApi } from '../../src/extension';
import { api, bridge, domTexts, newChatSession, runDir, PLAN_VIEW_ROWS } from './helpers';
import { askAgent, copilotReady, MODEL, records, textOf, turnIndex, turnRecords, type ModelRecord } from './copilotAgent';
import { sleep, waitFor } from '../lib/wait';

interface Outcome {
  done: string;
  text?: string;
  file?: string;
  error?: string;
}

const CHAT_INPUT = '.interactive-input-editor .view-lines';
const kinds = (plan: AgentPlanApi, session: string): string[] => plan.getHealth(session).signals.map((signal) => signal.kind);
const lastSeq = (): number => Math.max(0, ...records().map((record) => record.seq));

/** The text of the newest user message of a request, and everything the request holds. */
function userMessage(record: ModelRecord): string {
  const users = (record.body?.messages ?? []).filter((message) => message.role === 'user');
  return textOf(users.at(-1)?.content);
}
function wholeRequest(record: ModelRecord): string {
  return (record.body?.messages ?? []).map((message) => textOf(message.content)).join('\n');
}

/** Runs of white space as one space: the input editor wraps long lines and renders spaces as no-break spaces. */
const flat = (text: string): string => text.replace(/[\s\u00a0]+/g, ' ').trim();
/** Without any white space: the chat input wraps long lines (after a hyphen too), and its text shows the wraps. */
const bare = (text: string): string => text.replace(/[\s\u00a0]+/g, '');

/** The chat inputs on screen, as flat text. */
async function chatInputs(): Promise<string[]> {
  return (await domTexts(CHAT_INPUT)).map(flat);
}

/** Presses Enter in the focused chat input, as the user would, and waits for the model to play `match`. */
async function submitAndWait(match: string, since: number): Promise<ModelRecord> {
  const turn = turnIndex(match);
  const received = (timeoutMs: number): Promise<ModelRecord> => waitFor(() => turnRecords(turn, since)[0], `the model to receive the request of "${match}"`, timeoutMs);
  // The chat typed into sends with the model the user has chosen there: the scripted one, picked
  // as the user would (a new chat may start on another model of the window: the fixture's, which
  // answers "ok" without a request reaching the scripted model; a stress run failed so).
  await vscode.commands.executeCommand('workbench.action.chat.open', { modelSelector: MODEL });
  for (let attempt = 1; ; attempt++) {
    // Enter where the user presses it: in the chat's input (a view the test touched meanwhile,
    // or an agent's run, may hold the focus).
    await vscode.commands.executeCommand('workbench.action.chat.focusInput');
    await bridge({ op: 'keys', press: ['Enter'] });
    try {
      return await received(5000);
    } catch {
      // Sent, the input is empty and the request is on its way; still typed, the Enter went
      // elsewhere (the focus moved before it landed): the user presses it again.
      const typed = (await chatInputs()).some((text) => text.trim() !== '');
      if (!typed || attempt === 3) return received(30_000);
    }
  }
}

describe('acting on a plan with the real Copilot agent', function () {
  this.timeout(120_000);
  let session = '';

  before(async () => {
    await copilotReady();
    await vscode.commands.executeCommand('workbench.view.extension.agentPlan');
    await vscode.commands.executeCommand('agentPlan.followLatest');
  });

  // The tests pin sessions and open chats in editors: leave the window following the latest session, with no editor open.
  after(async () => {
    await vscode.commands.executeCommand('agentPlan.followLatest');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Continue in New Chat types the prompt into a new chat; sent, the model gets every open item verbatim', async () => {
    const plan = await api();
    await newChatSession();
    await askAgent('[ap:handoff-stop]');
    session = (await waitFor(() => plan.listSessions().find((s) => s.todos.some((todo) => todo.content === 'Port the handoff parser')), 'the hand-off chat’s plan')).session;
    await waitFor(() => kinds(plan, session)[0] === 'stopped-open', 'the stop, once VS Code saved the chat', 30_000);

    const since = lastSeq();
    const outcome = await vscode.commands.executeCommand<Outcome>('agentPlan.continueInNewChat', session);
    assert.equal(outcome.done, 'typed');
    const prompt = outcome.text ?? '';
    assert.match(prompt, /^Continue the plan of .*\nOpen items:\n- \[in_progress\] Port the handoff parser\n- \[pending\] Test the handoff parser\nDone: Read the handoff notes\n/);
    // Typed, not sent: the input holds it and the model has received nothing.
    await waitFor(async () => (await chatInputs()).map(bare).includes(bare(prompt)), 'the prompt in the chat input').catch(async (error: unknown) => {
      throw new Error(`${String(error)}; the prompt: ${JSON.stringify(prompt)}; the inputs: ${JSON.stringify(await chatInputs())}`);
    });
    // A fixed wait: nothing is to happen, and no event says that VS Code chose not to send.
    await sleep(1000);
    assert.equal(turnRecords(turnIndex('continue the plan of'), since).length, 0, 'nothing is sent before the user sends it');

    const request = await submitAndWait('continue the plan of', since);
    const user = userMessage(request);
    for (const item of ['- [in_progress] Port the handoff parser', '- [pending] Test the handoff parser']) assert.ok(user.includes(item), `the request holds "${item}": ${user}`);
    // A new chat: nothing of the old one's request goes with it.
    assert.ok(!wholeRequest(request).includes('[ap:handoff-stop]'), 'the new chat carries nothing of the old one');
    // The new chat writes its first plan into a session of its own.
    const next = await waitFor(
      () => plan.listSessions().find((s) => s.session !== session && s.todos.some((todo) => todo.content === 'Test the handoff parser')),
      'the new chat’s plan',
      30_000,
    );
    assert.notEqual(next.session, session);
    // Both sessions show the link, recorded in their logs (the restart phase reads it again).
    await waitFor(() => plan.getSessionInfo(next.session).continuedFrom === session, 'the new session continued from the old one', 20_000);
    await waitFor(() => plan.getSessionInfo(session).continuedIn?.includes(next.session), 'the old session continued in the new one', 20_000);
    assert.ok(fs.readFileSync(plan.logFile(next.session), 'utf8').includes(`"type":"session/link","ts":`));
    await vscode.commands.executeCommand('agentPlan.selectSession', next.session);
    await waitFor(async () => (await domTexts(PLAN_VIEW_ROWS)).some((text) => text.startsWith('Continued from')), 'the link row in the Plan view');
    fs.writeFileSync(path.join(runDir(), 'handoff-before-restart.json'), JSON.stringify({ from: session, to: next.session }));
  });

  it('Ask to Continue types a request naming the open items into the same chat', async () => {
    const plan = await api();
    const since = lastSeq();
    const outcome = await vscode.commands.executeCommand<Outcome>('agentPlan.askToContinue', session);
    assert.equal(outcome.done, 'typed');
    assert.equal(outcome.text, 'Please continue your plan; still open: "Port the handoff parser", "Test the handoff parser". Keep your plan tool up to date.');
    await waitFor(async () => (await chatInputs()).includes(flat(outcome.text ?? '')), 'the request in the chat input');
    const request = await submitAndWait('please continue your plan; still open: "port the handoff parser"', since);
    assert.ok(wholeRequest(request).includes('[ap:handoff-stop]'), 'the request goes on in the same chat (its earlier request is in the history)');
    // The model left one item out: it is dropped.
    await waitFor(() => plan.getHealth(session).signals.find((signal) => signal.kind === 'dropped'), 'the dropped item', 30_000);
    assert.deepEqual(plan.getHealth(session).signals.find((signal) => signal.kind === 'dropped')?.items, ['Test the handoff parser']);
  });

  it('Ask to Restore types a request naming the dropped item into the same chat', async () => {
    const plan = await api();
    await waitFor(() => turnRecords(turnIndex('please continue your plan; still open: "port the handoff parser"')).length >= 2, 'the previous request to end');
    const since = lastSeq();
    const outcome = await vscode.commands.executeCommand<Outcome>('agentPlan.askToRestore', session, 'Test the handoff parser');
    assert.equal(outcome.done, 'typed');
    assert.equal(outcome.text, 'Your plan dropped "Test the handoff parser" before it was done. Put it back in your plan and do it, or say why not.');
    await waitFor(async () => (await chatInputs()).includes(flat(outcome.text ?? '')), 'the request in the chat input');
    const request = await submitAndWait('your plan dropped "test the handoff parser"', since);
    assert.ok(wholeRequest(request).includes('[ap:handoff-stop]'), 'the same chat');
    await waitFor(() => !kinds(plan, session).includes('dropped'), 'the item back in the plan', 30_000);
  });

  it('Copy Hand-off Prompt and Export Plan give the same documented text', async () => {
    const plan = await api();
    const copied = await vscode.commands.executeCommand<Outcome>('agentPlan.copyHandoff', session);
    assert.equal(copied.done, 'copied');
    assert.equal(await vscode.env.clipboard.readText(), copied.text);
    assert.match(copied.text ?? '', /^Continue the plan of /);
    const file = vscode.Uri.file(path.join(runDir(), 'export-handoff.md'));
    const exported = await vscode.commands.executeCommand<Outcome>('agentPlan.exportPlan', session, file);
    assert.equal(exported.done, 'exported');
    const written = fs.readFileSync(file.fsPath, 'utf8');
    assert.equal(written, exported.text);
    assert.ok(written.includes('## Plan\n\n- [x] Read the handoff notes\n- [ ] Port the handoff parser *(in progress)*\n- [ ] Test the handoff parser\n'), written);
    assert.ok(written.includes(`- Session: ${session}\n`));
    const versions = (await plan.getVersions(session)).versions.length;
    assert.ok(written.includes(`${versions} versions, newest first.`), written);
  });

  it('a bad session argument gets a stable error and changes nothing', async () => {
    // A key no file of the suite writes (two-windows.test.ts's probe was once all f's).
    const unknown = '0b'.repeat(16);
    assert.ok(!(await api()).listSessions().some((s) => s.session === unknown), 'the unknown session is not listed');
    const outcome = await vscode.commands.executeCommand<Outcome>('agentPlan.continueInNewChat', unknown);
    assert.deepEqual(outcome, { done: 'failed', error: 'unknown-session' });
    const restore = await vscode.commands.executeCommand<Outcome>('agentPlan.askToRestore', session, 42);
    assert.deepEqual(restore, { done: 'failed', error: 'not-text' });
  });

  it('a request of the user reaches the model from the same chat; a turn that ends without it shows request-open', async () => {
    const plan = await api();
    // The previous request has ended (VS Code saved it): the request belongs to the next turn.
    await waitFor(() => kinds(plan, session).includes('stopped-open'), 'the previous request to end', 30_000);
    const since = lastSeq();
    const outcome = await vscode.commands.executeCommand<Outcome & { request?: string }>('agentPlan.addRequest', session, 'Also update the handoff changelog');
    assert.equal(outcome.done, 'typed');
    assert.deepEqual((await plan.getRequests(session)).map((request) => request.text), ['Also update the handoff changelog']);
    await waitFor(async () => (await chatInputs()).includes('Also update the handoff changelog'), 'the request in the chat input');
    // Recorded in the log as the user's request.
    assert.ok(fs.readFileSync(plan.logFile(session), 'utf8').includes(`"type":"user/request"`));
    const request = await submitAndWait('also update the handoff changelog', since);
    assert.ok(userMessage(request).includes('Also update the handoff changelog'));
    assert.ok(wholeRequest(request).includes('[ap:handoff-stop]'), 'the same chat');
    // The model's plan leaves it out and the turn ends: not taken.
    await waitFor(() => plan.getHealth(session).signals.find((signal) => signal.kind === 'request-open'), 'request-open, once the turn ended', 30_000);
    assert.deepEqual(plan.getHealth(session).signals.find((signal) => signal.kind === 'request-open')?.items, ['Also update the handoff changelog']);
    await vscode.commands.executeCommand('agentPlan.selectSession', session);
    await waitFor(async () => (await domTexts(PLAN_VIEW_ROWS)).some((text) => text.includes('Also update the handoff changelog') && text.includes('not in the plan')), 'the request row, not in the plan');
  });

  it('a plan that takes the requests in clears their rows; a withdrawn request goes', async () => {
    const plan = await api();
    const withdrawn = await vscode.commands.executeCommand<Outcome & { request?: string }>('agentPlan.addRequest', session, 'Rename the handoff module');
    assert.ok(withdrawn.request);
    assert.deepEqual(await vscode.commands.executeCommand<Outcome>('agentPlan.withdrawRequest', session, withdrawn.request), { done: 'withdrawn' });
    assert.ok(!(await plan.getRequests(session)).some((request) => request.text === 'Rename the handoff module'));
    const since = lastSeq();
    await vscode.commands.executeCommand<Outcome>('agentPlan.addRequest', session, 'Also bump the handoff version');
    await waitFor(async () => (await chatInputs()).includes('Also bump the handoff version'), 'the second request in the chat input');
    await submitAndWait('also bump the handoff version', since);
    await waitFor(async () => (await plan.getRequests(session)).length === 0, 'both requests taken into the plan', 30_000);
    assert.ok(!plan.getHealth(session).signals.some((signal) => signal.kind === 'request-open'));
    await waitFor(async () => !(await domTexts(PLAN_VIEW_ROWS)).some((text) => text.includes('requested')), 'the request rows gone');
    const bad = await vscode.commands.executeCommand<Outcome>('agentPlan.addRequest', session, 'two\nlines');
    assert.deepEqual(bad, { done: 'failed', error: 'bad-request' });
  });
});

const agents = JSON.parse(fs.readFileSync(path.join(runDir(), 'agents.json'), 'utf8')) as { skipped?: string };
if (agents.skipped !== undefined) {
  console.log(`SKIPPED: a Claude Code run continued in Copilot: ${agents.skipped}`);
} else {
  describe('acting on a plan: a Claude Code run continued in Copilot', function () {
    this.timeout(120_000);

    before(async () => {
      await copilotReady();
    });

    it('its open items reach the Copilot agent verbatim', async () => {
      const plan = await api();
      const known = plan.listSessions().map((s) => s.session);
      const run = await bridge<{ code: number; timedOut: boolean }>({ op: 'runAgent', scenario: 'claude-code/todowrite', delayMs: 0 });
      assert.equal(run.code, 0);
      const claude = await waitFor(
        () => plan.listSessions().find((s) => s.source?.agent === 'claude-code' && !known.includes(s.session) && s.todos.length === 3 && s.todos[0]?.status === 'completed'),
        'the new Claude Code session with its last list',
        30_000,
      );
      const since = lastSeq();
      const outcome = await vscode.commands.executeCommand<Outcome>('agentPlan.continueInNewChat', claude.session);
      assert.equal(outcome.done, 'typed');
      assert.match(outcome.text ?? '', /\(Claude Code\)\.\n|a session of Claude Code\.\n/);
      await waitFor(async () => (await chatInputs()).map(bare).includes(bare(outcome.text ?? '')), 'the prompt in the chat input').catch(async (error: Error) => {
        throw new Error(`${error.message}; typed: ${JSON.stringify(flat(outcome.text ?? ''))}; inputs: ${JSON.stringify(await chatInputs())}`);
      });
      const request = await submitAndWait('claude code', since);
      const user = userMessage(request);
      for (const item of ['- [in_progress] Fix the off-by-one', '- [pending] Write a regression test']) assert.ok(user.includes(item), `the request holds "${item}": ${user}`);
      await waitFor(() => plan.listSessions().find((s) => s.session !== claude.session && !s.source && s.todos.some((todo) => todo.content === 'Write a regression test')), 'the Copilot chat’s plan', 30_000);
    });
  });
}

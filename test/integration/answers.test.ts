// Answers from Needs You, with the real Claude Code (interactive, in a terminal, its own
// permission dialog on) connected by the product's own Connect command: its request to run a
// shell command shows in Needs You at once, with the command; the row's Allow runs it; a Deny
// from the API carries its message to the model; an answer at Claude Code's own prompt takes the
// request out of Needs You. Each is on the session's log. Disconnect leaves the settings file as
// it was, byte for byte. Where the programs cannot run, the launcher says why and these tests are
// not defined.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PendingRequest } from '../../src/extension';
import { api, bridge, domTexts, logLines } from './helpers';
import { agentsStatus as status, startAgent, type AgentRun } from './terminalAgents';
import { waitFor } from '../lib/wait';

const SCENARIO = 'claude-code/approval-given';
const COMMAND = 'touch approved.txt';
/** Claude Code's own dialog, as its scenarios know it. */
const PROMPT = 'Do you want to proceed?';
const NEEDS_YOU_ROW = '#workbench\\.parts\\.sidebar .monaco-list-row';

/** The terminal left alone: only Agent Plan's answer (or none) closes Claude Code's dialog; the run goes on until the model heard the result. */
const LEFT = { keys: [], untilAnswered: true, endMs: 2000 };

function workspaceFolder(): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(folder, 'a workspace folder is open');
  return folder;
}

/** The request an agent's hook handed over, once it is in Needs You. */
async function requestOf(agent: 'claude-code' | 'codex', known: readonly string[]): Promise<PendingRequest> {
  const plan = await api();
  return waitFor(() => plan.getPendingRequests().find((request) => request.agent === agent && !known.includes(request.id)), `${agent}'s request in Needs You`, 60_000);
}
const claudeRequest = (known: readonly string[]) => requestOf('claude-code', known);

/** The session log's permission lines of a request. */
async function permissionLines(session: string, id: string): Promise<Array<Record<string, unknown>>> {
  const file = (await api()).logFile(session);
  return logLines(file)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((record) => record['id'] === id && String(record['type']).startsWith('permission/'));
}

if (status.skipped !== undefined) {
  console.log(`SKIPPED: answers from Needs You with the real Claude Code: ${status.skipped}`);
} else {
  describe(`answers from Needs You: the real Claude Code ${status.versions?.['claude-code'] ?? '?'}, connected`, function () {
    this.timeout(180_000);
    const home = status.home ?? '';
    const settings = path.join(home, '.claude', 'settings.json');
    let original: Buffer | undefined;
    const marker = () => path.join(workspaceFolder(), 'approved.txt');
    const seen: string[] = [];

    before(async () => {
      assert.ok(home !== '', 'the launcher names the agents\' HOME');
      original = fs.existsSync(settings) ? fs.readFileSync(settings) : undefined;
      const connected = await vscode.commands.executeCommand<{ files: Array<{ path: string; after?: string }> }>('agentPlan.connectAgent', 'claude-code', { confirm: false, mcp: false, answers: true });
      assert.deepEqual(connected.files.map((file) => file.path), [settings], 'Connect changed only Claude Code\'s settings.json');
      const hook = (JSON.parse(fs.readFileSync(settings, 'utf8')) as { hooks?: { PermissionRequest?: Array<{ hooks: Array<{ command: string }> }> } }).hooks?.PermissionRequest?.[0]?.hooks[0]?.command ?? '';
      assert.match(hook, /^sh '.*\/dist\/answer\.sh' claude-code '.*\/agent-plan\/answers'$/);
      await vscode.commands.executeCommand('workbench.view.extension.agentPlan');
    });

    beforeEach(() => fs.rmSync(marker(), { force: true }));

    after(async () => {
      fs.rmSync(marker(), { force: true });
      // The row's click showed its session: back to following the latest, as the other files expect.
      await vscode.commands.executeCommand('agentPlan.followLatest');
      await vscode.commands.executeCommand('agentPlan.disconnectAgent', 'claude-code');
      // Byte for byte as before Connect (or no file, as before).
      if (original === undefined) assert.equal(fs.existsSync(settings), false, 'the settings file Connect made is gone');
      else assert.ok(fs.readFileSync(settings).equals(original), 'the settings file is as it was');
    });

    it("its request is in Needs You at once, with the command; the row's Allow runs it; the log has the ask and the answer", async () => {
      const run = startAgent(SCENARIO, 0, 150_000, { tty: LEFT });
      const request = await claudeRequest(seen);
      seen.push(request.id);
      assert.deepEqual([request.tool, request.input, request.canAllow, request.canDeny], ['Bash', COMMAND, true, true]);
      // The Needs You row says so; its inline Allow is the user's click.
      const row = await waitFor(async () => (await domTexts(NEEDS_YOU_ROW)).find((text) => text.includes('asks to run Bash')), 'the Needs You row asking to run Bash', 20_000);
      assert.ok(row);
      // Its actions show on the row in focus: the row first (it shows the session), then its Allow.
      await bridge({ op: 'click', selector: NEEDS_YOU_ROW, hasText: 'asks to run Bash', timeoutMs: 10_000 });
      await bridge({ op: 'click', selector: `${NEEDS_YOU_ROW}.focused a.action-label[aria-label^="Allow Request"]`, timeoutMs: 10_000 });
      const done: AgentRun = await run;
      assert.equal(done.timedOut, false, 'the run ended by itself once the call ran');
      assert.equal(fs.existsSync(marker()), true, 'the allowed command ran');
      await waitFor(async () => (await permissionLines(request.session, request.id)).length === 2, 'the ask and the answer lines', 10_000);
      const [ask, answer] = await permissionLines(request.session, request.id);
      assert.deepEqual([ask?.['type'], ask?.['tool'], ask?.['input']], ['permission/ask', 'Bash', COMMAND]);
      assert.deepEqual([answer?.['type'], answer?.['answer']], ['permission/answer', 'allow']);
      assert.equal((await api()).getPendingRequests().some((pending) => pending.id === request.id), false, 'answered: out of Needs You');
    });

    it('Deny with a message: the command does not run, and the model gets the message word for word', async () => {
      const run = startAgent(SCENARIO, 0, 150_000, { tty: LEFT });
      const request = await claudeRequest(seen);
      seen.push(request.id);
      assert.equal(await (await api()).answerRequest(request.id, 'deny', 'use pnpm'), true);
      const done = await run;
      assert.equal(done.timedOut, false);
      assert.equal(fs.existsSync(marker()), false, 'the denied command did not run');
      type Line = { type?: string; message?: { content?: Array<{ type: string; content?: unknown; is_error?: boolean }> } };
      const lines: Line[] = (done.files['transcripts'] ?? []).flatMap((file) =>
        fs
          .readFileSync(file, 'utf8')
          .split('\n')
          .filter((line) => line.includes('use pnpm'))
          .map((line) => JSON.parse(line) as Line),
      );
      const resultOf = (line: Line) => (Array.isArray(line.message?.content) ? line.message.content.find((block) => block.type === 'tool_result') : undefined);
      // Claude Code's record of the call's result, and the model's next request as it was sent.
      const recorded = lines.filter((line) => line.type === 'user').map(resultOf);
      assert.deepEqual(recorded.map((block) => [block?.content, block?.is_error]), [['use pnpm', true]]);
      const sent = lines.filter((line) => line.type === 'api-request-blob').map(resultOf);
      assert.ok(sent.length >= 1 && sent.every((block) => String(block?.content).startsWith('use pnpm') && block?.is_error === true), 'the model\'s next request carries the denial');
      const logged = await permissionLines(request.session, request.id);
      assert.deepEqual(logged.map((line) => [line['type'], line['answer'], line['message']]), [['permission/ask', undefined, undefined], ['permission/answer', 'deny', 'use pnpm']]);
    });

    it("answered at Claude Code's own prompt: the request leaves Needs You, and its end is on the log", async () => {
      // Enter on its own dialog (its default, "Yes"), as a user at the terminal would; Claude Code
      // then runs on a while (its hook, which it does not stop, would wait out its time).
      let ended = false;
      const run = startAgent(SCENARIO, 0, 150_000, { tty: { keys: [{ afterRequests: 3, screen: PROMPT, text: '\r' }], untilAnswered: true, endMs: 12_000 } }).finally(() => {
        ended = true;
      });
      const request = await claudeRequest(seen);
      seen.push(request.id);
      const plan = await api();
      await waitFor(() => !plan.getPendingRequests().some((pending) => pending.id === request.id), 'the request out of Needs You', 30_000);
      assert.equal(ended, false, 'out of Needs You from its record, while Claude Code still ran');
      assert.equal(fs.existsSync(marker()), true, "the command ran on the terminal's answer");
      await waitFor(async () => (await permissionLines(request.session, request.id)).some((line) => line['answer'] === 'ended'), 'its end on the log', 20_000);
      await run;
    });
  });

  describe(`answers from Needs You: the real Codex ${status.versions?.['codex'] ?? '?'}, connected (its prompt hidden while the hook runs)`, function () {
    this.timeout(180_000);
    const home = status.home ?? '';
    const config = path.join(home, '.codex', 'config.toml');
    const marker = () => path.join(workspaceFolder(), 'approved.txt');

    before(async () => {
      const connected = await vscode.commands.executeCommand<{ files: Array<{ path: string }> }>('agentPlan.connectAgent', 'codex', { confirm: false, mcp: false, answers: true });
      assert.deepEqual(connected.files.map((file) => file.path), [config]);
      // Codex's own record that the user trusts the hook, in Agent Plan's block: no review screen.
      assert.match(fs.readFileSync(config, 'utf8'), /\[hooks\.state\."[^"]+config\.toml:permission_request:0:0"\]\ntrusted_hash = "sha256:[0-9a-f]{64}"/);
    });

    beforeEach(() => fs.rmSync(marker(), { force: true }));

    after(async () => {
      fs.rmSync(marker(), { force: true });
      await vscode.commands.executeCommand('agentPlan.disconnectAgent', 'codex');
    });

    const seen: string[] = [];
    const focus = async () => {
      // Codex waits on a window only while its user is there: the window has the focus.
      await bridge({ op: 'click', selector: '#workbench\\.parts\\.sidebar .pane-header', timeoutMs: 10_000 });
      await waitFor(() => vscode.window.state.focused, 'the window focused', 10_000);
    };

    it('its request for leave is in Needs You at once, with the command; Allow from the API runs it; the log has both lines', async () => {
      await focus();
      const run = startAgent('codex/approval-given', 0, 150_000, { tty: LEFT, connected: true });
      const request = await requestOf('codex', seen);
      seen.push(request.id);
      assert.equal(request.tool, 'Bash');
      assert.match(request.input, /touch approved\.txt/);
      assert.equal(await (await api()).answerRequest(request.id, 'allow'), true);
      const done = await run;
      assert.equal(done.timedOut, false);
      assert.equal(fs.existsSync(marker()), true, 'the allowed command ran');
      await waitFor(async () => (await permissionLines(request.session, request.id)).some((line) => line['answer'] === 'allow'), 'the answer line', 10_000);
    });

    it("no answer within agentPlan.answers.waitSeconds: Codex asks at its own prompt as before, and the user's answer there runs the command; the request leaves Needs You", async () => {
      const config = vscode.workspace.getConfiguration();
      await config.update('agentPlan.answers.waitSeconds', 5, vscode.ConfigurationTarget.Global);
      try {
        await focus();
        // Its own keys: "y" once its prompt shows (within 15 s of its request).
        const run = startAgent('codex/approval-given', 0, 150_000, { connected: true });
        const request = await requestOf('codex', seen);
        seen.push(request.id);
        const plan = await api();
        await waitFor(() => !plan.getPendingRequests().some((pending) => pending.id === request.id), 'the request out of Needs You once its time ran out', 30_000);
        const done = await run;
        assert.equal(done.timedOut, false, 'Codex showed its own prompt and took the answer typed there');
        assert.equal(fs.existsSync(marker()), true);
        await waitFor(async () => (await permissionLines(request.session, request.id)).some((line) => line['answer'] === 'ended'), 'its end on the log', 10_000);
      } finally {
        await config.update('agentPlan.answers.waitSeconds', undefined, vscode.ConfigurationTarget.Global);
      }
    });
  });
}

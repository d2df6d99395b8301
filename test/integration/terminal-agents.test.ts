// Claude Code, Codex and Gemini CLI run for real in the workspace this window has open
// (offline, against scripted model servers, in a network namespace with only loopback),
// and Agent Plan shows each run as a session of its own, labelled with its agent, with
// the latest list and every earlier version. The launcher runs the programs (bridge op
// `runAgent`); where they cannot run, it says why and these tests are not defined.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PlanSnapshot } from '../../src/extension';
import { api, bridge, findSessionRow, logLines, planItemLabels, PLAN_VIEW_ROWS, runDir } from './helpers';
import { gitBytes, inGitWorkspace, itemNumstats, treeState } from './gitState';
import { agentsStatus as status, itemsOf, newSessionShowing, runAgent, sessionsOf, startAgent, versionsText } from './terminalAgents';
import { waitFor } from '../lib/wait';

/** An agent's name as its Sessions rows say it. */
const agentName = (agent: 'claude-code' | 'codex' | 'gemini-cli'): string => ({ 'claude-code': 'Claude Code', codex: 'Codex', 'gemini-cli': 'Gemini CLI' })[agent];

async function sessionRowsMention(words: string): Promise<void> {
  await findSessionRow((label) => label.includes(words), `a Sessions row that says "${words}"`);
}

/**
 * What each item of the edits scenario cost: responses and tool calls while A, then B, was in
 * progress, and every response of the run (the scenario's script; the unit test over the
 * recordings holds the same figures). The fake model servers answer every request with 10
 * input and 20 output tokens (the unit tests over the recordings hold the same figures).
 */
const EDITS_LEDGER: Record<'claude-code' | 'codex' | 'gemini-cli', { items: Array<[string, number, number]>; responses: number } | undefined> = {
  'claude-code': { items: [['Add the separator constant', 2, 2], ['Use it in the parser', 4, 4]], responses: 9 },
  codex: { items: [['Add the separator constant', 2, 2], ['Use it in the parser', 2, 2]], responses: 6 },
  'gemini-cli': { items: [['Add the separator constant', 2, 2], ['Use it in the parser', 2, 2]], responses: 6 },
};

/** The API's ledger of the run, and the Plan view's rows saying the same. */
async function ledgerShown(agent: keyof typeof EDITS_LEDGER, session: string): Promise<void> {
  const expected = EDITS_LEDGER[agent];
  const plan = await api();
  const ledger = await waitFor(async () => {
    const found = await plan.getLedger(session);
    return found.total.responses >= (expected?.responses ?? 0) ? found : undefined;
  }, `the ledger of ${agent}'s run`);
  if (!expected) {
    assert.deepEqual(ledger.total, { responses: 0, calls: 0, tokens: undefined, cost: undefined }, 'no usage recorded: none counted, tokens not recorded');
    return;
  }
  assert.equal(ledger.total.responses, expected.responses);
  for (const [content, responses, calls] of expected.items) {
    const item = ledger.items.find((candidate) => candidate.content === content);
    assert.deepEqual(item && { ...item.all, cost: undefined }, { responses, calls, tokens: { input: 10 * responses, output: 20 * responses, cached: 0 }, cost: undefined }, content);
    const row = `${PLAN_VIEW_ROWS}[aria-label="${content}, completed"] .label-description`;
    const words = `${calls} calls · ${30 * responses} tokens`;
    await waitFor(async () => (await bridge<string[]>({ op: 'texts', selector: row }))[0]?.includes(words), `the row of “${content}” to say “${words}”`);
  }
  // The Plan Timeline's lanes say the same (their accessible name is their hover), read from the webview's frame.
  await vscode.commands.executeCommand('agentPlan.showTimeline', session);
  try {
    for (const [content, responses, calls] of expected.items) {
      const words = `${calls} calls · ${30 * responses} tokens`;
      const lane = `[data-lane="${content}"]`;
      await waitFor(async () => (await bridge<Array<string | null>>({ op: 'frameAttributes', selector: lane, name: 'aria-label' })).some((label) => label?.includes(words)), `the lane of “${content}” to say “${words}”`);
    }
  } finally {
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  }
}

if (status.skipped !== undefined) {
  // Said in the run's output; no test pretends to have run.
  console.log(`SKIPPED: terminal agents: ${status.skipped}`);
} else {
  describe(`terminal agents (${versionsText()})`, function () {
    this.timeout(120_000);

    before(async () => {
      await vscode.commands.executeCommand('workbench.view.extension.agentPlan');
      await vscode.commands.executeCommand('agentPlan.followLatest');
    });

    it('Claude Code with Task tools: the folded list, live while it works, and every version in history', async () => {
      const known = (await sessionsOf('claude-code')).map((s) => s.session);
      const seen: string[] = [];
      const listener = (await api()).onDidWritePlan((s) => {
        if (s.source?.agent === 'claude-code') seen.push(JSON.stringify(itemsOf(s)));
      });
      let session: PlanSnapshot;
      try {
        await runAgent('claude-code/tasks', 300);
        // The last TaskUpdate completes task 2; task 3 was deleted and leaves the list.
        session = await newSessionShowing('claude-code', known, [
          ['Read the parser', 'completed'],
          ['Fix the off-by-one', 'completed'],
        ]);
      } finally {
        listener.dispose();
      }
      // Follow Latest puts the agent that wrote last on screen.
      await waitFor(async () => {
        const rows = await planItemLabels(PLAN_VIEW_ROWS);
        return rows.length === 2 && rows.every((row) => row?.includes('completed') || row?.includes('Completed'));
      }, 'the Plan view to show the finished Claude Code list');
      const history = (await api()).getHistory(session.session);
      const versions = (await history).map((s) => JSON.stringify(itemsOf(s)));
      assert.ok(versions.length >= 4, `every change is a version (${versions.length})`);
      assert.ok(
        versions.includes(JSON.stringify([['Read the parser', 'in_progress'], ['Fix the off-by-one', 'pending'], ['Write a regression test', 'pending']])),
        'the version where the first task started',
      );
      assert.deepEqual(seen.slice(-versions.length), versions, 'each version reached the event stream as it was written');
      assert.equal((await history).every((s) => s.source?.tool === 'TaskCreate' || s.source?.tool === 'TaskUpdate'), true);
      await sessionRowsMention('Claude Code');
    });

    it('Claude Code with TodoWrite: activeForm is not content', async () => {
      const known = (await sessionsOf('claude-code')).map((s) => s.session);
      await runAgent('claude-code/todowrite');
      const session = await newSessionShowing('claude-code', known, [
        ['Read the parser', 'completed'],
        ['Fix the off-by-one', 'in_progress'],
        ['Write a regression test', 'pending'],
      ]);
      const history = await (await api()).getHistory(session.session);
      assert.deepEqual(history.map(itemsOf)[0], [['Read the parser', 'in_progress'], ['Fix the off-by-one', 'pending'], ['Write a regression test', 'pending']]);
      assert.equal(history.length, 2);
    });

    it('Codex update_plan: its two plans in order, the explanation left out', async () => {
      const known = (await sessionsOf('codex')).map((s) => s.session);
      await runAgent('codex/update-plan');
      const session = await newSessionShowing('codex', known, [
        ['Read the parser', 'completed'],
        ['Fix the off-by-one', 'in_progress'],
        ['Write a regression test', 'pending'],
      ]);
      const history = await (await api()).getHistory(session.session);
      assert.equal(history.length, 2);
      assert.equal(history[0]?.source?.tool, 'update_plan');
      await sessionRowsMention('Codex');
    });

    it('Gemini CLI write_todos: blocked and cancelled stay what they are', async () => {
      const known = (await sessionsOf('gemini-cli')).map((s) => s.session);
      await runAgent('gemini-cli/write-todos');
      const session = await newSessionShowing('gemini-cli', known, [
        ['Read the parser', 'completed'],
        ['Fix the off-by-one', 'in_progress'],
        ['Write a regression test', 'blocked'],
        ['Update the changelog', 'cancelled'],
      ]);
      assert.deepEqual(session.counts, { pending: 0, inProgress: 1, completed: 1, cancelled: 1, blocked: 1 });
      assert.equal((await (await api()).getHistory(session.session)).length, 2);
      await sessionRowsMention('Gemini CLI');
    });

    // Each agent's own edit tool writes a new file while item A is in progress and changes
    // another while item B is: the log names each file with the item in progress then. The
    // workspace is a git repository meanwhile: each item's changes (Review Item) are what
    // `git diff --numstat` says between the states around it, the agent's own, and `.git` is untouched.
    for (const [scenario, agent] of [
      ['claude-code/edits', 'claude-code'],
      ['codex/edits', 'codex'],
      ['gemini-cli/edits', 'gemini-cli'],
    ] as const) {
      it(`${scenario}: each file the agent wrote is in the session log with the item in progress then, and each item's changes are git's`, async () => {
        const workspace = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
        // The file the scripted edit changes, as a scratch run has it (scripts/agents/run.mjs); no tokens.ts yet.
        const src = path.join(workspace, 'src');
        const PARSER = 'export function parse(input: string): string[] {\n  return input.split(/\\s+/).filter(Boolean);\n}\n';
        fs.mkdirSync(src, { recursive: true });
        fs.writeFileSync(path.join(src, 'parser.ts'), PARSER);
        fs.rmSync(path.join(src, 'tokens.ts'), { force: true });
        const known = (await sessionsOf(agent)).map((s) => s.session);
        let states: Array<Map<string, Buffer>> = [];
        let gitBefore: Record<string, string> = {};
        let gitAfter: Record<string, string> = {};
        try {
          await inGitWorkspace(workspace, async () => {
            gitBefore = gitBytes(workspace);
            const start = treeState(workspace);
            // Each model answer waits a second: the follower reads each plan line, and the
            // snapshot is taken, before the agent's next edit.
            await runAgent(scenario, 1000);
            assert.match(fs.readFileSync(path.join(src, 'parser.ts'), 'utf8'), /split\(SEPARATOR\)/, 'the agent edited the parser');
            // The state between the items: the start with the new file as it is at the end (A wrote
            // it, B wrote only the parser); nothing else in the working tree changed.
            const used = treeState(workspace);
            const added = new Map(start).set('src/tokens.ts', used.get('src/tokens.ts') ?? Buffer.alloc(0));
            assert.match(used.get('src/tokens.ts')?.toString() ?? '', /SEPARATOR/, 'the agent wrote src/tokens.ts');
            assert.deepEqual(new Map(used).set('src/parser.ts', start.get('src/parser.ts')!), added, 'the agent changed only src/tokens.ts and src/parser.ts');
            states = [start, added, used];
            gitAfter = gitBytes(workspace);
          });
        } finally {
          // The test workspace has no src folder of its own (test/fixtures/workspace): leave it so.
          fs.rmSync(src, { recursive: true, force: true });
        }
        assert.deepEqual(gitAfter, gitBefore, 'the repository\'s .git is byte for byte what it was');
        const session = await newSessionShowing(agent, known, [
          ['Add the separator constant', 'completed'],
          ['Use it in the parser', 'completed'],
        ]);
        const file = (await api()).logFile(session.session);
        const writes = await waitFor(() => {
          const found = logLines(file).map((line) => JSON.parse(line) as { type: string; files: string[]; items: string[] }).filter((r) => r.type === 'file/write');
          return found.length >= 2 ? found : undefined;
        }, `two file/write lines in ${file}`);
        // Claude's failed Edit (its text not in the file) wrote nothing and has no line.
        assert.deepEqual(
          writes.map((w) => [w.files.map((f) => f.split('/').slice(-2).join('/')), w.items]),
          [
            [['src/tokens.ts'], ['Add the separator constant']],
            [['src/parser.ts'], ['Use it in the parser']],
          ],
        );
        const expected = itemNumstats(['Add the separator constant', 'Use it in the parser'], states, path.join(runDir(), `review-${agent}`));
        const changes = await (await api()).getItemChanges(session.session);
        for (const [item, counts] of expected) {
          const files = changes.items.find((candidate) => candidate.content === item)?.files ?? [];
          assert.deepEqual(
            files.map((f) => ({ path: f.path, added: f.added, removed: f.removed, meanwhile: f.meanwhile === true })),
            [...counts].map(([name, numbers]) => ({ path: name, ...numbers, meanwhile: false })),
            `${item}: its changes, as git diff --numstat says, the agent's own (${JSON.stringify(changes)})`,
          );
        }
        await ledgerShown(agent, session.session);
      });
    }

    // Claude Code on its default model (no plan tool of its own), Codex and Gemini CLI, connected to
    // Agent Plan's MCP server by the product's own Connect code (scripts/agents/mcp.mjs), write their
    // plan through it: each plan is a version of that agent's own session, with the file the agent
    // wrote between its two plans under the item in progress then.
    for (const [scenario, agent, tool] of [
      ['claude-code/mcp', 'claude-code', 'mcp__agentplan__todo_write'],
      ['codex/mcp', 'codex', 'mcp__agentplan__todo_write'],
      ['gemini-cli/mcp', 'gemini-cli', 'mcp_agentplan_todo_write'],
    ] as const) {
      it(`${scenario}: the plans it wrote through Agent Plan's MCP server are its own session's, its edit under the item in progress`, async () => {
        const workspace = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
        const src = path.join(workspace, 'src');
        fs.rmSync(path.join(src, 'tokens.ts'), { force: true });
        const known = (await sessionsOf(agent)).map((s) => s.session);
        try {
          await runAgent(scenario, 1000);
          assert.match(fs.readFileSync(path.join(src, 'tokens.ts'), 'utf8'), /SEPARATOR/, 'the agent wrote src/tokens.ts');
        } finally {
          fs.rmSync(src, { recursive: true, force: true });
        }
        const session = await newSessionShowing(agent, known, [
          ['Add the separator constant', 'completed'],
          ['Use it in the parser', 'in_progress'],
        ]);
        const plan = await api();
        const history = await plan.getHistory(session.session);
        assert.deepEqual(history.map(itemsOf), [
          [['Add the separator constant', 'in_progress'], ['Use it in the parser', 'pending']],
          [['Add the separator constant', 'completed'], ['Use it in the parser', 'in_progress']],
        ], 'both plans, once each, in the agent\'s own session');
        assert.deepEqual(history.map((version) => version.source?.tool), [tool, tool], 'written through the MCP tool');
        assert.equal(plan.listSessions().filter((s) => s.source?.agent === 'mcp' && s.todos.some((todo) => todo.content === 'Use it in the parser')).length, 0, 'not a second session of its own');
        const file = plan.logFile(session.session);
        const writes = await waitFor(() => {
          const found = logLines(file).map((line) => JSON.parse(line) as { type: string; files: string[]; items: string[] }).filter((r) => r.type === 'file/write');
          return found.length >= 1 ? found : undefined;
        }, `a file/write line in ${file}`);
        assert.deepEqual(writes.map((w) => [w.files.map((f) => f.split('/').slice(-2).join('/')), w.items]), [[['src/tokens.ts'], ['Add the separator constant']]]);
        await sessionRowsMention(agentName(agent));
      });
    }

    it('the plans outlive the agents\' own clean-up: deleted transcripts leave every version in Agent Plan', async () => {
      const plan = await api();
      // Every terminal agent's session, this file's runs above and any other file's.
      const sessions = plan.listSessions().filter((s) => s.source !== undefined && s.source.agent !== 'copilot');
      assert.ok(sessions.length >= 4, 'the runs above left their sessions');
      const before = await Promise.all(sessions.map(async (s) => [s.session, (await plan.getHistory(s.session)).length] as const));
      // What Claude Code does to old transcripts, to every agent's files at once.
      const home = path.join(runDir(), 'home');
      for (const folder of ['.claude/projects', '.codex/sessions', '.gemini/tmp']) fs.rmSync(path.join(home, folder), { recursive: true, force: true });
      // Refresh resolves once every follower has scanned its folders as they are now (the files
      // gone): a loss would show by then.
      await vscode.commands.executeCommand('agentPlan.refresh');
      for (const [session, versions] of before) {
        assert.equal((await plan.getHistory(session)).length, versions, `every version of ${session} is still there`);
        assert.ok(plan.getPlan(session), `${session} still has its plan`);
      }
    });

    it('Codex left at an approval prompt (interactive, without auto-approve): its health and its Sessions row say it waits for your approval', async () => {
      const config = vscode.workspace.getConfiguration();
      await config.update('agentPlan.health.waitSeconds', 2, vscode.ConfigurationTarget.Global);
      // The rows are read from the rendered Sessions view: it is on screen, showing the newest.
      await vscode.commands.executeCommand('workbench.view.extension.agentPlan');
      await vscode.commands.executeCommand('agentPlan.followLatest');
      try {
        const known = (await sessionsOf('codex')).map((s) => s.session);
        const run = startAgent('codex/approval-left', 0, 180_000);
        const waiting = await newSessionShowing('codex', known, [['Create approved.txt', 'in_progress']], 120_000);
        // The run ends with the prompt unanswered: its rollout stays at the call, and health says
        // the session waits for the user's approval (the API's copy of what the views show).
        const plan = await api();
        const approvalWait = (): boolean => plan.getHealth(waiting.session).signals.some((signal) => signal.kind === 'waiting' && signal.wait?.approval === true);
        const now = (): string => JSON.stringify(plan.getHealth(waiting.session).signals.map(({ kind, wait }) => ({ kind, wait })));
        await waitFor(approvalWait, () => `a waiting-for-approval signal (now ${now()})`, 30_000);
        await run;
        await waitFor(approvalWait, () => `the waiting-for-approval signal after the run ended at the prompt (now ${now()})`, 30_000);
        // Its row (and its Needs You row) says so in words.
        await sessionRowsMention('waiting for your approval');
      } finally {
        await config.update('agentPlan.health.waitSeconds', undefined, vscode.ConfigurationTarget.Global);
      }
    });

    it('a session that never planned adds no session', async () => {
      // Claude Code's sessions only: another file's agent may still add one of its own meanwhile.
      const before = (await sessionsOf('claude-code')).map((s) => s.session);
      await runAgent('claude-code/no-plan');
      // Refresh resolves once every follower has read every file as it is now: the new transcript
      // is read, and a plan in it would be a session by then.
      await vscode.commands.executeCommand('agentPlan.refresh');
      assert.deepEqual((await sessionsOf('claude-code')).map((s) => s.session).filter((s) => !before.includes(s)), [], 'no new Claude Code session');
    });
  });
}

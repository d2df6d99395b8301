// GitHub Copilot CLI runs for real in the workspace this window has open (offline, with its
// own model provider pointed at the scripted chat-completions model, in a network namespace
// with only loopback). Its plan lives in the `todos` table of the session's database, written
// through its `sql` tool: Agent Plan shows the run as a session of its own, labelled Copilot
// CLI, each change of the table as a version while the CLI runs, `done` as completed and
// `blocked` kept, and plan health says it stopped with items open. Where the programs cannot
// run, the launcher says why and these tests are not defined.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, findSessionRow } from './helpers';
import { agentsStatus as status, itemsOf, sameItems, sessionsOf as sessionsOfAgent, startAgent, type Items } from './terminalAgents';
import { waitFor } from '../lib/wait';

const sessionsOf = () => sessionsOfAgent('copilot-cli');

const INSERTED: Items = [['Read the parser', 'pending'], ['Fix the off-by-one', 'pending'], ['Write a regression test', 'pending']];
const STARTED: Items = [['Read the parser', 'in_progress'], ['Fix the off-by-one', 'pending'], ['Write a regression test', 'pending']];
const FINAL: Items = [['Read the parser', 'completed'], ['Fix the off-by-one', 'in_progress'], ['Write a regression test', 'blocked']];

if (status.skipped !== undefined) {
  console.log(`SKIPPED: Copilot CLI: ${status.skipped}`);
} else {
  describe(`Copilot CLI (${status.versions?.['copilot-cli'] ?? '?'})`, function () {
    this.timeout(180_000);

    before(async () => {
      await vscode.commands.executeCommand('workbench.view.extension.agentPlan');
      await vscode.commands.executeCommand('agentPlan.followLatest');
    });

    it('its todos table: each change a version while it runs, done as completed, blocked kept, stopped with items open', async () => {
      const known = (await sessionsOf()).map((s) => s.session);
      let ended = false;
      // Each model answer waits, so every change of the table is read while the CLI still runs.
      const run = startAgent('copilot-cli/sql-todos', 1500, 120_000).finally(() => {
        ended = true;
      });
      let seen: Items[] = [];
      const first = await waitFor(
        async () => {
          const fresh = (await sessionsOf()).filter((s) => !known.includes(s.session));
          seen = fresh.map(itemsOf);
          return fresh[0];
        },
        'a new Copilot CLI session',
        60_000,
      );
      assert.equal(ended, false, `the plan showed while Copilot CLI was still running (seen ${JSON.stringify(seen)})`);
      const result = await run;
      assert.equal(result.timedOut, false);
      assert.equal(result.code, 0);
      const plan = await api();
      const session = await waitFor(
        async () => (await sessionsOf()).find((s) => s.session === first.session && sameItems(itemsOf(s), FINAL)),
        'the final table',
        30_000,
      );
      assert.deepEqual(session.counts, { pending: 0, inProgress: 1, completed: 1, cancelled: 0, blocked: 1 });
      const history = (await plan.getHistory(session.session)).map(itemsOf);
      assert.deepEqual(history, [INSERTED, STARTED, FINAL], 'each change of the table, live');
      const latest = await plan.getHistory(session.session);
      assert.equal(latest.at(-1)?.source?.tool, 'sql');
      // The API first (the stop is read from the turn's end in events.jsonl), then the row,
      // wherever other files' sessions put it in the list.
      await waitFor(() => plan.getHealth(session.session).signals[0]?.kind === 'stopped-open', 'Copilot CLI: the stop', 20_000);
      await findSessionRow((l) => l.includes('Copilot CLI') && l.includes('stopped with items open'), 'a Sessions row: Copilot CLI, stopped with items open');
      const [stop] = plan.getHealth(session.session).signals;
      assert.equal(stop?.kind, 'stopped-open');
      assert.equal(stop?.how, 'ended');
      assert.deepEqual(stop?.items, ['Fix the off-by-one', 'Write a regression test']);
    });

    it('a run that never plans adds no session', async () => {
      // Copilot CLI's sessions only: another file's agent may still add one of its own meanwhile.
      const before = (await sessionsOf()).map((s) => s.session);
      const result = await startAgent('copilot-cli/no-plan', 0, 120_000);
      assert.equal(result.code, 0);
      // Refresh resolves once every follower has read every file as it is now: the run's files
      // are read, and a plan in them would be a session by then.
      await vscode.commands.executeCommand('agentPlan.refresh');
      assert.deepEqual((await sessionsOf()).map((s) => s.session).filter((s) => !before.includes(s)), [], 'no new Copilot CLI session');
    });
  });
}

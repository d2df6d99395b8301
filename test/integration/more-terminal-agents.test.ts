// opencode, Kilo CLI and Qwen Code run for real in the workspace this window has open
// (offline, against the scripted chat-completions model, in a network namespace with only
// loopback), and Agent Plan shows each run as a session of its own, labelled with its
// agent, with the latest list and every earlier version. opencode's database is read while
// opencode still holds it open. Each run ends its turn with items open: plan health shows it
// stopped. Where the programs cannot run, the launcher says why and these tests are not defined.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { PlanSnapshot } from '../../src/extension';
import { api, findSessionRow } from './helpers';
import { agentsStatus as status, itemsOf, newSessionShowing, runAgent as run, sessionsOf, type Items } from './terminalAgents';
import { waitFor } from '../lib/wait';

/** Kilo CLI starts slowly on a loaded machine (22 s seen): a run may take up to two minutes. */
const runAgent = (scenario: string, delayMs = 0) => run(scenario, delayMs, 120_000);

/** The run ended its turn with these items open: plan health says so, in the API and on its Sessions row. */
async function stoppedWithOpen(session: PlanSnapshot, agentName: string, open: string[]): Promise<void> {
  const plan = await api();
  await waitFor(() => plan.getHealth(session.session).signals[0]?.kind === 'stopped-open', `${agentName}: the stop`, 20_000);
  const [stop] = plan.getHealth(session.session).signals;
  assert.equal(stop?.how, 'ended');
  assert.deepEqual(stop?.items, open);
  await sessionRowsMention(agentName, 'stopped with items open');
}

async function sessionRowsMention(words: string, also?: string): Promise<void> {
  await findSessionRow((label) => label.includes(words) && (also === undefined || label.includes(also)), `a Sessions row that says "${words}"${also ? ` and "${also}"` : ''}`);
}

const FIRST: Items = [['Read the parser', 'in_progress'], ['Fix the off-by-one', 'pending'], ['Write a regression test', 'pending'], ['Update the changelog', 'pending']];
const LAST: Items = [['Read the parser', 'completed'], ['Fix the off-by-one', 'in_progress'], ['Write a regression test', 'pending'], ['Update the changelog', 'cancelled']];

if (status.skipped !== undefined) {
  console.log(`SKIPPED: opencode, Kilo CLI and Qwen Code: ${status.skipped}`);
} else {
  describe(`opencode, Kilo CLI and Qwen Code (${['opencode', 'kilo', 'qwen-code'].map((a) => `${a} ${status.versions?.[a] ?? '?'}`).join(', ')})`, function () {
    this.timeout(180_000);

    before(async () => {
      await vscode.commands.executeCommand('workbench.view.extension.agentPlan');
      await vscode.commands.executeCommand('agentPlan.followLatest');
    });

    it('opencode todowrite: read while opencode holds its database open; cancelled stays cancelled; both versions in history', async () => {
      const known = (await sessionsOf('opencode')).map((s) => s.session);
      let ended = false;
      // Each model answer waits, so opencode is still running (its database open) after its first call.
      const run = runAgent('opencode/todowrite', 1500).finally(() => {
        ended = true;
      });
      const first = await newSessionShowing('opencode', known, FIRST);
      assert.equal(ended, false, 'the first list showed while opencode was still running');
      await run;
      const session = await newSessionShowing('opencode', known, LAST);
      assert.equal(session.session, first.session, 'one run, one session');
      assert.deepEqual(session.counts, { pending: 1, inProgress: 1, completed: 1, cancelled: 1, blocked: 0 });
      const history = await (await api()).getHistory(session.session);
      assert.deepEqual(history.map(itemsOf), [FIRST, LAST]);
      assert.equal(history[0]?.source?.tool, 'todowrite');
      await sessionRowsMention('opencode');
      // Cancelled is not open: only the two items left to do.
      await stoppedWithOpen(session, 'opencode', ['Fix the off-by-one', 'Write a regression test']);
    });

    it('Kilo CLI todowrite: its own session, labelled Kilo CLI, both versions in history', async () => {
      const known = (await sessionsOf('kilo')).map((s) => s.session);
      await runAgent('kilo/todowrite');
      const session = await newSessionShowing('kilo', known, LAST);
      assert.deepEqual((await (await api()).getHistory(session.session)).map(itemsOf), [FIRST, LAST]);
      await sessionRowsMention('Kilo CLI');
      await stoppedWithOpen(session, 'Kilo CLI', ['Fix the off-by-one', 'Write a regression test']);
    });

    it('Qwen Code todo_write: its own session, labelled Qwen Code, both versions in history', async () => {
      const known = (await sessionsOf('qwen-code')).map((s) => s.session);
      await runAgent('qwen-code/todo-write');
      const session = await newSessionShowing('qwen-code', known, [
        ['Read the parser', 'completed'],
        ['Fix the off-by-one', 'in_progress'],
        ['Write a regression test', 'pending'],
      ]);
      const history = await (await api()).getHistory(session.session);
      assert.deepEqual(history.map(itemsOf)[0], [['Read the parser', 'in_progress'], ['Fix the off-by-one', 'pending'], ['Write a regression test', 'pending']]);
      assert.equal(history.length, 2);
      await sessionRowsMention('Qwen Code');
      await stoppedWithOpen(session, 'Qwen Code', ['Fix the off-by-one', 'Write a regression test']);
    });

    it('runs that never plan add no session', async () => {
      // Their agents' sessions only: another file's agent may still add one of its own meanwhile.
      const ours = async () => [...(await sessionsOf('opencode')), ...(await sessionsOf('qwen-code'))].map((s) => s.session);
      const before = await ours();
      await runAgent('opencode/no-plan');
      await runAgent('qwen-code/no-plan');
      // Refresh resolves once every follower has read every file as it is now: the runs' files
      // are read, and a plan in them would be a session by then.
      await vscode.commands.executeCommand('agentPlan.refresh');
      assert.deepEqual((await ours()).filter((s) => !before.includes(s)), [], 'no new opencode or Qwen Code session');
    });
  });
}

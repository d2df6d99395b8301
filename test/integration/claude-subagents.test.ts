// A real Claude Code run in the workspace this window has open (offline, against the scripted
// Anthropic model, in a network namespace with only loopback) keeps a plan and hands the fix to
// a subagent through its Agent tool; the subagent writes its own transcript and its own plan.
// Agent Plan shows the subagent's plan live, as a session of its own listed under its parent's
// in the Sessions view, and counts it in the parent's row; the two plans never mix. Where the
// programs cannot run, the launcher says why and these tests are not defined.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, findInSessionRows, type SessionsViewRow } from './helpers';
import { agentsStatus as status, itemsOf, sameItems as same, startAgent, type Items } from './terminalAgents';
import { waitFor } from '../lib/wait';

const PARENT: Items = [['Hand the fix to a subagent', 'in_progress'], ['Review the fix', 'pending']];
const CHILD_FIRST: Items = [['Read the tokenizer', 'in_progress'], ['Fix the loop bound', 'pending']];
const CHILD_LAST: Items = [['Read the tokenizer', 'completed'], ['Fix the loop bound', 'in_progress']];

if (status.skipped !== undefined) {
  console.log(`SKIPPED: Claude Code subagents: ${status.skipped}`);
} else {
  describe(`Claude Code subagents (${status.versions?.['claude-code'] ?? '?'})`, function () {
    this.timeout(180_000);

    before(async () => {
      await vscode.commands.executeCommand('workbench.view.extension.agentPlan');
      await vscode.commands.executeCommand('agentPlan.followLatest');
    });

    it("a subagent's plan: live, its own session under its parent's, counted in the parent's row, never mixed", async () => {
      const plan = await api();
      const known = new Set(plan.listSessions().map((s) => s.session));
      const fresh = () => plan.listSessions().filter((s) => s.source?.agent === 'claude-code' && !known.has(s.session));
      let ended = false;
      // Each model answer waits, so the subagent is still working when its first plan shows.
      const run = startAgent('claude-code/subagent', 1500, 150_000).finally(() => {
        ended = true;
      });
      const child = await waitFor(() => fresh().find((s) => same(itemsOf(s), CHILD_FIRST)), "the subagent's first plan", 90_000);
      assert.equal(ended, false, "the subagent's plan showed while Claude Code was still running");
      const result = await run;
      assert.equal(result.timedOut, false);
      assert.equal(result.code, 0);
      const parent = await waitFor(() => fresh().find((s) => same(itemsOf(s), PARENT)), "the parent's plan", 30_000);
      await waitFor(() => fresh().find((s) => s.session === child.session && same(itemsOf(s), CHILD_LAST)), "the subagent's last plan", 30_000);
      assert.notEqual(child.session, parent.session);
      // Never mixed: each session's history holds only its own lists.
      assert.deepEqual((await plan.getHistory(parent.session)).map(itemsOf), [PARENT]);
      assert.deepEqual((await plan.getHistory(child.session)).map(itemsOf), [CHILD_FIRST, CHILD_LAST]);
      // The link is in the log: the API reads it from the store built from the log.
      await waitFor(() => plan.getSessionInfo(child.session).parent === parent.session, "the subagent's parent link", 20_000);
      assert.equal(plan.getSessionInfo(parent.session).parent, undefined);
      // The Sessions view: the child under its parent (one level deeper), the parent counting it.
      let seen: SessionsViewRow[] = [];
      await findInSessionRows(
        (rows) => {
          seen = rows;
          const at = rows.findIndex((row) => row.label.includes('1 subagent, 0 running'));
          return at >= 0 && rows[at + 1]?.label.includes('SUBAGENT-TASK-7f3') === true && rows[at + 1]?.level === (rows[at]?.level ?? 0) + 1 ? true : undefined;
        },
        () => `a Sessions row counting one subagent, with the subagent listed under it; rows: ${JSON.stringify(seen)}`,
        20_000,
      );
    });
  });
}

// Runs last in the main phase, whatever the seed (test/integration/order.ts): records every
// session's plan, as the logs on disk hold it, and pins a session of its own, for the restart
// phase to find again; leaves two Plan Timelines open (one on a session deleted since) for the
// restart phase to see restored. It makes its own sessions, so it passes alone too.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, logFiles, planLine, planLines, runDir, writeLine } from './helpers';
import { sleep, waitFor } from '../lib/wait';

/** The session this file pins: older than its timeline session, so never the latest. */
const PINNED = 'c6'.repeat(16);

describe('before the restart', () => {
  before(async () => {
    const plan = await api();
    fs.writeFileSync(path.join(plan.logFolder, `${PINNED}.jsonl`), planLine(PINNED, Date.now() - 10 * 60_000, [['Stay pinned across the restart', 'in_progress']]) + '\n');
    await waitFor(() => plan.listSessions().some((s) => s.session === PINNED), 'the session to pin listed');
  });

  // First, so the sessions recorded below include the one it leaves.
  it('leaves two Plan Timelines open, one on a session with file writes, one on a session deleted since', async () => {
    const plan = await api();
    const key = 'c3'.repeat(16);
    const gone = 'd4'.repeat(16);
    const start = Date.now() - 5 * 60_000;
    fs.writeFileSync(
      path.join(plan.logFolder, `${key}.jsonl`),
      [
        planLine(key, start, [['Restore the panel', 'in_progress'], ['Check the state', 'pending']]),
        writeLine(key, start + 60_000, 'r1', ['timeline-restored/panel.ts'], ['Restore the panel']),
        planLine(key, start + 120_000, [['Restore the panel', 'completed'], ['Check the state', 'in_progress']]),
      ].join('\n') + '\n',
    );
    fs.writeFileSync(path.join(plan.logFolder, `${gone}.jsonl`), planLine(gone, start, [['Be deleted', 'pending']]) + '\n');
    await waitFor(() => plan.listSessions().some((s) => s.session === key) && plan.listSessions().some((s) => s.session === gone), 'both sessions listed');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('agentPlan.showTimeline', gone);
    // A second group, so both panels are visible (and restored at once) after the restart.
    await vscode.commands.executeCommand('workbench.action.newGroupRight');
    await vscode.commands.executeCommand('agentPlan.showTimeline', key);
    fs.rmSync(path.join(plan.logFolder, `${gone}.jsonl`));
    await waitFor(() => !plan.listSessions().some((s) => s.session === gone), 'the deleted session gone');
    fs.writeFileSync(path.join(runDir(), 'timeline-before-restart.json'), JSON.stringify({ key, gone }));
    // The web workbench saves its editors' state (the pages' state with it) every 5 s: a fixed wait,
    // as the browser's clock decides it and nothing tells the extension host it is saved (two
    // periods and a margin: 8 s once missed a save on a loaded machine).
    await sleep(12_000);
  });

  it('the API lists exactly the sessions whose logs are on disk, with their last lines', async () => {
    const plan = await api();
    const sessions = plan.listSessions();
    const files = logFiles(plan.logFolder);
    assert.ok(sessions.length >= 2, 'this file left its sessions (and other files theirs)');
    assert.deepEqual(sessions.map((s) => `${s.session}.jsonl`).sort(), files);
    for (const snapshot of sessions) {
      // The current plan is the last plan line that no later todo_write superseded (session/info lines are not plans).
      const current = planLines(plan.logFile(snapshot.session))
        .map((line) => JSON.parse(line) as { todos: unknown; source?: { superseded?: boolean } })
        .filter((event) => event.source?.superseded !== true);
      assert.deepEqual(current[current.length - 1]?.todos, snapshot.todos);
    }
    // With every version count, so the restart phase can tell that no follower imported anything twice.
    const expected = await Promise.all(sessions.map(async ({ session, todos }) => ({ session, todos, versions: (await plan.getHistory(session)).length })));
    fs.writeFileSync(path.join(runDir(), 'expected-after-restart.json'), JSON.stringify(expected));
  });

  it('pins a session that is not the latest, for the restart phase to find it pinned again', async () => {
    const plan = await api();
    assert.notEqual(PINNED, plan.listSessions()[0]?.session);
    await vscode.commands.executeCommand('agentPlan.selectSession', PINNED);
    await waitFor(() => plan.getViewState().session === PINNED && !plan.getViewState().followingLatest, 'the pinned session on screen');
    fs.writeFileSync(path.join(runDir(), 'pinned-before-restart.json'), JSON.stringify({ session: PINNED }));
    // VS Code writes workspace state to the browser's storage shortly after a change (a fixed wait:
    // the browser's clock decides it, and nothing tells the extension host it is written).
    await sleep(1500);
  });
});

// Two windows on one workspace: a second window of the same browser opens the same folder
// on the same server, so two extension hosts share one workspace storage and both follow
// the same terminal agent's files. The real Claude Code runs in the workspace (as in
// terminal-agents.test.ts); each of its plan calls must land in the log once, and the sidebar of
// each window must show each version once. The launcher opens and drives the second
// window (bridge ops `openWindow`, `closeWindow`, and `window: n` on the DOM ops).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PlanSnapshot } from '../../src/extension';
import { api, bridge, isItemRow, logLines, runDir, SESSIONS_VIEW_ROWS, PLAN_VIEW_ROWS, PICKER_ROWS } from './helpers';
import { agentsStatus as status, startAgent } from './terminalAgents';
import { sleep, waitFor } from '../lib/wait';

const ACTIVITY = '.activitybar li.action-item a.action-label[aria-label^="Agent Plan"]';
const SESSIONS_HEADER = '.pane-header[aria-label^="Sessions"]';
// The item itself takes the click: while a view loads, its progress badge lies over the label.
const ACTIVITY_ITEM = '.activitybar li.action-item:has(a.action-label[aria-label^="Agent Plan"])';


interface LogLine {
  type: string;
  title?: string;
  latestTurn?: unknown;
  turn?: unknown;
  activity?: unknown;
  pending?: unknown;
  source?: { agent: string; session: string; call?: string };
}

/** The rows of the history picker a window shows, once it has them all (they arrive with the page). */
async function pickerRows(window: number, versions: number, timeoutMs = 20_000): Promise<string[]> {
  let rows: string[] = [];
  await waitFor(
    async () => {
      rows = await bridge<string[]>({ op: 'texts', window, selector: PICKER_ROWS });
      return rows.length >= versions;
    },
    () => `window ${window}'s history picker with ${versions} versions (saw ${rows.length})`,
    timeoutMs,
  );
  // A moment more: a repeated version would come as an extra row (a fixed wait: nothing is to come).
  await sleep(500);
  return bridge<string[]>({ op: 'texts', window, selector: PICKER_ROWS });
}

/**
 * Shows Agent Plan's sidebar in a window. The window may restore it shown (the same browser
 * keeps the layout), and then a click on its activity-bar item would hide it: click only
 * while it stays hidden.
 */
async function showSidebar(window: number): Promise<void> {
  for (let attempt = 0; attempt < 4; attempt++) {
    const shown = await waitFor(async () => (await bridge<string[]>({ op: 'texts', window, selector: SESSIONS_HEADER })).length > 0, 'the sidebar', 5000).then(
      () => true,
      () => false,
    );
    if (shown) return;
    await bridge({ op: 'click', window, selector: ACTIVITY_ITEM });
  }
  throw new Error(`window ${window} does not show Agent Plan's sidebar`);
}

if (status.skipped !== undefined) {
  console.log(`SKIPPED: two windows with a terminal agent: ${status.skipped}`);
} else {
  describe('two windows on one workspace', function () {
    this.timeout(180_000);
    let second: number | undefined;

    after(async () => {
      if (second !== undefined) await bridge({ op: 'closeWindow', window: second });
    });

    it('a Claude Code run followed by both windows: each version once in the log, and once in the sidebar of each window', async () => {
      const plan = await api();
      await vscode.commands.executeCommand('workbench.view.extension.agentPlan');
      await vscode.commands.executeCommand('agentPlan.followLatest');
      const known = plan.listSessions().map((s) => s.session);

      second = await bridge<number>({ op: 'openWindow' });
      const window = second;
      await waitFor(async () => (await bridge<string[]>({ op: 'attributes', window, selector: ACTIVITY, name: 'aria-label' })).length > 0, 'Agent Plan in the second window', 90_000);
      await showSidebar(window);
      // The second window's Agent Plan is running once it shows a session another program just wrote.
      const probe = 'f7'.repeat(16);
      fs.mkdirSync(plan.logFolder, { recursive: true });
      fs.appendFileSync(
        plan.logFile(probe),
        JSON.stringify({ v: 1, type: 'todo/write', ts: new Date().toISOString(), session: probe, todos: [{ content: 'Second window is up', status: 'pending' }], counts: { pending: 1, inProgress: 0, completed: 0 } }) + '\n',
      );
      await waitFor(async () => (await bridge<string[]>({ op: 'texts', window, selector: SESSIONS_VIEW_ROWS })).some((row) => row.includes('Second window is up')), "the second window's Sessions view", 60_000).catch(async (error: unknown) => {
        await bridge({ op: 'screenshot', window, file: path.join(runDir(), 'logs', 'second-window.png') });
        throw error;
      });

      const seen: string[] = [];
      const listener = plan.onDidWritePlan((s) => {
        if (s.source?.agent === 'claude-code') seen.push(s.source.call);
      });
      let session: PlanSnapshot;
      try {
        const run = await startAgent('claude-code/tasks', 300);
        assert.equal(run.timedOut, false, 'claude-code/tasks timed out');
        assert.equal(run.code, 0, `claude-code/tasks exited ${run.code}`);
        session = await waitFor(
          () =>
            plan
              .listSessions()
              .find((s) => s.source?.agent === 'claude-code' && !known.includes(s.session) && s.todos.length === 2 && s.todos.every((t) => t.status === 'completed')),
          'the finished Claude Code list in the first window',
          30_000,
        );
        // Both windows have caught up: a repeat would have landed by now (a fixed wait: a repeat is
        // not to come, and no event says the other window's host has read the transcript).
        await sleep(2000);
      } finally {
        listener.dispose();
      }

      // The log: one plan line per call, one session/info line per change.
      const lines = logLines(plan.logFile(session.session)).map((line) => JSON.parse(line) as LogLine);
      const calls = lines.filter((line) => line.type === 'todo/write').map((line) => line.source?.call ?? '');
      assert.ok(calls.length >= 4, `the run made its plan calls (${calls.length})`);
      assert.equal(new Set(calls).size, calls.length, `each call once in the log: ${calls.join(', ')}`);
      const infos = lines.filter((line) => line.type === 'session/info').map((line) => JSON.stringify([line.title, line.latestTurn, line.turn, line.activity, line.pending]));
      assert.ok(infos.every((info, i) => i === 0 || info !== infos[i - 1]), `no session/info line repeats the one before: ${infos.join(' ')}`);

      // The first window: its history and its event stream hold each version once.
      const history = await plan.getHistory(session.session);
      assert.deepEqual(history.map((s) => s.source?.call), calls);
      assert.equal(new Set(seen).size, seen.length, `each version reached the event stream once: ${seen.join(', ')}`);
      const picked = vscode.commands.executeCommand('agentPlan.showHistory', session.session);
      const firstRows = await pickerRows(0, calls.length);
      await bridge({ op: 'keys', press: ['Escape'] });
      await picked;
      assert.equal(firstRows.length, calls.length, `the first window's history lists each version once: ${firstRows.join(' | ')}`);

      // The second window follows the latest session: its Plan view shows the finished list,
      // and its history (Agent Plan: Show History… from the palette) lists each version once.
      await waitFor(async () => {
        // The item rows; the health rows (done, here) are checked by copilot-health.test.ts.
        const rows = (await bridge<string[]>({ op: 'attributes', window, selector: PLAN_VIEW_ROWS, name: 'aria-label' })).filter(isItemRow);
        return rows.length === 2 && rows.every((row) => /completed/i.test(row ?? ''));
      }, "the second window's Plan view to show the finished Claude Code list", 20_000);
      let secondRows: string[] = [];
      // A busy window may drop the palette's Enter (the picker closes as it opens): the user
      // opens it again, and so does the test, up to three times.
      for (let attempt = 1; ; attempt++) {
        await bridge({ op: 'click', window, selector: PLAN_VIEW_ROWS });
        await bridge({ op: 'keys', window, press: ['F1'] });
        await bridge({ op: 'keys', window, text: 'Agent Plan: Show History' });
        // Enter runs the focused entry: wait until the filter has put ours there.
        await waitFor(async () => (await bridge<string[]>({ op: 'texts', window, selector: `${PICKER_ROWS}.focused` })).some((row) => row.includes('Agent Plan: Show History')), "the second window's palette entry, focused");
        await bridge({ op: 'keys', window, press: ['Enter'] });
        try {
          secondRows = await pickerRows(window, calls.length, 10_000);
          break;
        } catch (error) {
          if (attempt === 3) throw error;
          await bridge({ op: 'keys', window, press: ['Escape'] });
        }
      }
      await bridge({ op: 'keys', window, press: ['Escape'] });
      assert.equal(secondRows.length, calls.length, `the second window's history lists each version once: ${secondRows.join(' | ')}`);
      // The probe session stays: it is a session like any other (the restart phase finds it again).

    });
  });
}

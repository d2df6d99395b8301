// Plan health with the real GitHub Copilot agent and the scripted model, in one chat:
// the turn ends with items open (stopped), the next request leaves an item out (dropped),
// a request of 30 tool calls without a plan update (stalled, thresholds shortened by the
// setting), and a plan that completes (done, with a notification). Checked from the
// outside: the API, the rendered Plan and Sessions rows, the notification toasts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentPlanApi } from '../../src/extension';
import { api, bridge, domTexts, findInSessionRows, findSessionRow, isSessionRow, newChatSession, rowName, runDir, PLAN_VIEW_ROWS } from './helpers';
import { askAgent, copilotReady, releaseModel } from './copilotAgent';
import { waitFor } from '../lib/wait';

const STATUS_ITEM = '[id="agent-plan.agent-plan.agentPlan.progress"]';
const MESSAGES = '.notification-list-item-message';

const rowLabels = (selector: string): Promise<string[]> => bridge<Array<string | null>>({ op: 'attributes', selector, name: 'aria-label' }).then((labels) => labels.map((label) => label ?? ''));
const kinds = (plan: AgentPlanApi, session: string): string[] => plan.getHealth(session).signals.map((signal) => signal.kind);

async function setting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration().update(key, value, vscode.ConfigurationTarget.Global);
}

describe('plan health with the real Copilot agent', function () {
  this.timeout(120_000);
  let session = '';

  before(async () => {
    await copilotReady();
    await vscode.commands.executeCommand('workbench.view.extension.agentPlan');
    await vscode.commands.executeCommand('agentPlan.followLatest');
  });

  after(async () => {
    await setting('agentPlan.health.stallToolCalls', undefined);
    await setting('agentPlan.notify', undefined);
    // A test that fails while the filter is on must not leave it on for the files after it.
    await vscode.commands.executeCommand('agentPlan.showAllSessions');
  });

  it('a turn that ends with items open shows as stopped in the Plan view, the Sessions row and the API', async () => {
    const plan = await api();
    await newChatSession();
    await askAgent('[ap:health-stop]');
    session = (await waitFor(() => plan.listSessions().find((s) => s.todos.some((todo) => todo.content === 'Run the health tests')), 'the health chat’s plan')).session;
    // VS Code saves the chat file a few seconds after the request completes: then the stop is known.
    await waitFor(() => kinds(plan, session)[0] === 'stopped-open', 'the stop, once VS Code saved the chat', 30_000);
    const [stop] = plan.getHealth(session).signals;
    assert.equal(stop?.how, 'ended');
    assert.deepEqual(stop?.items, ['Write the health change', 'Run the health tests']);
    assert.equal(typeof stop?.at, 'number');
    const rows = await waitFor(async () => {
      const labels = await rowLabels(PLAN_VIEW_ROWS);
      return labels.some((label) => /^Stopped .* with 2 items open$/.test(label)) ? labels : undefined;
    }, 'the stopped row above the plan');
    assert.match(rows[0] ?? '', /^Stopped /, `the signal comes first: ${JSON.stringify(rows)}`);
    // The row is named by the chat's title once Copilot has made one, else its first request, by its first item before.
    const named = (label: string): boolean => label.includes(rowName(plan, session, 'Write the health change'));
    await findSessionRow((label) => named(label) && label.includes('stopped with items open'), 'the Sessions row marked stopped');
    await waitFor(async () => (await domTexts(STATUS_ITEM)).some((text) => text.includes('stopped with items open')), 'the status bar naming the stop');
    // On the warning background.
    await waitFor(async () => /warning-kind/.test((await bridge<string[]>({ op: 'attributes', selector: STATUS_ITEM, name: 'class' }))[0] ?? ''), 'the status bar on the warning background');
    // The filter lists the sessions that need attention: this one.
    await vscode.commands.executeCommand('agentPlan.showSessionsNeedingAttention');
    await findInSessionRows((rows) => {
      // The session rows: the Needs You section above them stays whatever the filter.
      const labels = rows.map((row) => row.label).filter(isSessionRow);
      // Other files' sessions that need attention may be listed too: each row says what it needs.
      return labels.some(named) && labels.every((label) => /waiting for your approval|waiting on |(stopped|cancelled|failed) with items open|stalled|items dropped|items reopened|request not taken/.test(label));
    }, 'only sessions needing attention');
    await vscode.commands.executeCommand('agentPlan.showAllSessions');
  });

  it('the next request leaves a pending item out: the dropped row shows its text below the plan', async () => {
    const plan = await api();
    await askAgent('[ap:health-drop]');
    await waitFor(() => plan.getHealth(session).signals.find((signal) => signal.kind === 'dropped'), 'the dropped signal');
    const dropped = plan.getHealth(session).signals.find((signal) => signal.kind === 'dropped');
    assert.deepEqual(dropped?.items, ['Run the health tests']);
    const versions = await plan.getVersions(session, { limit: 1 });
    assert.equal(dropped?.at, versions.versions[0]?.at, 'started by the newest version');
    const rows = await waitFor(async () => {
      const labels = await rowLabels(PLAN_VIEW_ROWS);
      return labels.includes('Run the health tests, dropped without being done') ? labels : undefined;
    }, 'the dropped item’s row');
    assert.ok(rows.includes('1 item dropped without being done'), `the dropped signal above: ${JSON.stringify(rows)}`);
    assert.equal(rows.at(-1), 'Run the health tests, dropped without being done', 'the dropped item is listed below the plan');
    // Compare opens the diff of the version that started it against the one before.
    await vscode.commands.executeCommand('agentPlan.compareSignalVersion', session, dropped?.at);
    const tab = await waitFor(() => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff ? input : undefined;
    }, 'the diff editor');
    assert.equal(tab.modified.path, `/${session}/${dropped?.at}.md`);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    // Dismissed, it leaves the view and the API.
    await vscode.commands.executeCommand('agentPlan.dismissDropped', session, ['Run the health tests']);
    assert.ok(!kinds(plan, session).includes('dropped'));
    await waitFor(async () => !(await rowLabels(PLAN_VIEW_ROWS)).some((label) => label.includes('dropped')), 'the dropped rows gone');
  });

  it('a request of 30 tool calls without a plan update shows as stalled while it runs', async () => {
    const plan = await api();
    await setting('agentPlan.health.stallToolCalls', 5);
    // Wait for the previous request's end to be recorded, so this request starts a new turn.
    await waitFor(() => kinds(plan, session).includes('stopped-open'), 'the previous request ended');
    await askAgent('[ap:health-stall]');
    // The model holds its last answer (15 s at most): the turn is still running.
    await waitFor(() => kinds(plan, session)[0] === 'stalled', 'stalled, once VS Code saved the chat with its tool calls', 14_000);
    assert.ok(!kinds(plan, session).includes('stopped-open'), 'a running turn is never stopped');
    await waitFor(async () => (await rowLabels(PLAN_VIEW_ROWS)).some((label) => /^No plan update in \d+ tool calls$/.test(label)), 'the stalled row');
    // Seen: the model answers now, and the turn ends.
    releaseModel('health-stall');
    // Once the request completes, it is no longer stalled but stopped with its items open.
    await waitFor(() => kinds(plan, session)[0] === 'stopped-open', 'the end of the request', 40_000);
    assert.ok(!kinds(plan, session).includes('stalled'));
  });

  it('a plan that completes shows as done, with a notification when notify is always', async () => {
    const plan = await api();
    await setting('agentPlan.notify', 'always');
    await askAgent('[ap:health-done]');
    await waitFor(() => kinds(plan, session)[0] === 'done', 'done');
    await waitFor(async () => (await rowLabels(PLAN_VIEW_ROWS)).some((label) => label.startsWith('Plan done')), 'the done row');
    // A toast, or (when VS Code holds toasts back) an entry in the notification center.
    await vscode.commands.executeCommand('notifications.showList');
    const shown = await waitFor(async () => {
      const texts = await domTexts(MESSAGES);
      return texts.some((text) => text.includes('Plan done')) ? texts : undefined;
    }, 'the notification').catch(async (error: unknown) => {
      await bridge({ op: 'screenshot', file: path.join(runDir(), 'health-notification.png') }).catch(() => undefined);
      throw new Error(`${String(error)}; notifications: ${JSON.stringify(await domTexts(MESSAGES))}`);
    });
    await vscode.commands.executeCommand('notifications.hideList');
    assert.equal(shown.filter((text) => text.includes('Plan done')).length, 1, `one notification: ${JSON.stringify(shown)}`);
    // Done needs no attention: the filter leaves this session out.
    // The row is named by the chat's title once Copilot has made one, else its first request, by its first item before.
    const named = (label: string): boolean => label.includes(rowName(plan, session, 'Survey the health code'));
    await vscode.commands.executeCommand('agentPlan.showAllSessions');
    await findSessionRow(named, 'the done session listed');
    await vscode.commands.executeCommand('agentPlan.showSessionsNeedingAttention');
    // Run first, this file's sessions may be the only ones, and none needs attention any more:
    // the filtered list is then empty (allSessionRows has shown the view before reading it).
    await findInSessionRows((rows) => !rows.some((row) => named(row.label)), 'the done session filtered out');
    await vscode.commands.executeCommand('agentPlan.showAllSessions');
    await findSessionRow(named, 'the done session listed again');
    // The status bar shows done without the warning background.
    await waitFor(async () => (await domTexts(STATUS_ITEM)).some((text) => text.includes('done')), 'the status bar naming done');
    assert.doesNotMatch((await bridge<string[]>({ op: 'attributes', selector: STATUS_ITEM, name: 'class' }))[0] ?? '', /warning-kind/);
  });

  it('through manage_todo_list too: Copilot’s own list, stopped with items open', async () => {
    const plan = await api();
    await newChatSession();
    await askAgent('[ap:health-followed-stop]');
    const followed = await waitFor(
      () => plan.listSessions().find((s) => s.source?.tool === 'manage_todo_list' && s.todos.some((todo) => todo.content === 'Write up the followed stop')),
      'the followed list, once VS Code saved the chat',
      30_000,
    );
    await waitFor(() => kinds(plan, followed.session)[0] === 'stopped-open', 'the followed stop', 30_000);
    assert.deepEqual(plan.getHealth(followed.session).signals[0]?.items, ['Check the followed stop', 'Write up the followed stop']);
  });
});

const agents = JSON.parse(fs.readFileSync(path.join(runDir(), 'agents.json'), 'utf8')) as { skipped?: string };
if (agents.skipped !== undefined) {
  console.log(`SKIPPED: plan health with the real Claude Code: ${agents.skipped}`);
} else {
  describe('plan health with the real Claude Code', function () {
    this.timeout(120_000);

    it('a run that ends its turn with items open shows as stopped (ended)', async () => {
      const plan = await api();
      const known = plan.listSessions().map((s) => s.session);
      const run = await bridge<{ code: number; timedOut: boolean }>({ op: 'runAgent', scenario: 'claude-code/todowrite', delayMs: 0 });
      assert.equal(run.code, 0);
      const claude = await waitFor(
        () => plan.listSessions().find((s) => s.source?.agent === 'claude-code' && !known.includes(s.session) && s.todos.length === 3 && s.todos[0]?.status === 'completed'),
        'the new Claude Code session with its last list',
        30_000,
      );
      await waitFor(() => kinds(plan, claude.session)[0] === 'stopped-open', 'the stop', 20_000);
      const [stop] = plan.getHealth(claude.session).signals;
      assert.equal(stop?.how, 'ended');
      assert.deepEqual(stop?.items, ['Fix the off-by-one', 'Write a regression test']);
      await findSessionRow((label) => label.includes('Claude Code') && label.includes('stopped with items open'), 'the Sessions row marked stopped');
    });
  });
}

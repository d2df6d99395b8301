// Run by `npm run screenshot` (phase `screenshot`): plays the `npm start` demo through
// the real Copilot agent (its scripted model plays the demo's plan) and, midway, saves a
// picture of the workbench into docs/ for the README. The plan's edits land in the run's
// copy of the workspace, into which Brewlog's files are copied and committed first (a git
// working tree, as a user's usually is, so each item shows what it changed).
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, api, bridge, domTexts, newChatSession, planLine } from '../helpers';
import { MODEL, copilotReady } from '../copilotAgent';
import { inGitWorkspace } from '../gitState';
import { sleep, waitFor } from '../../lib/wait';

describe('pictures for the README', function () {
  this.timeout(120_000);

  it('saves the workbench while the Copilot agent works through the demo plan', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension);
    const language = vscode.env.language.toLowerCase();
    const plan = await api();
    await vscode.commands.executeCommand('workbench.view.extension.agentPlan');
    await bridge({ op: 'drag', selector: '#workbench\\.parts\\.sidebar', edge: 'right', dx: 140 });

    // An earlier session, so the Sessions view has two: written by another program, in the
    // documented format, an hour ago.
    const earlier = randomBytes(16).toString('hex');
    fs.writeFileSync(plan.logFile(earlier), planLine(earlier, Date.now() - 3_600_000, [['Reproduce the login timeout', 'completed'], ['Write a failing test', 'in_progress'], ['Fix the session refresh', 'pending']]) + '\n');
    await waitFor(() => plan.listSessions().some((snapshot) => snapshot.session === earlier), 'the earlier session');

    await copilotReady();
    // The demo's plan edits Brewlog's files, as in `npm start`: they go into this run's workspace.
    const workspace = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    for (const name of ['index.html', 'src']) fs.cpSync(path.join(extension.extensionPath, 'demo', 'workspace', name), path.join(workspace, name), { recursive: true });
    await inGitWorkspace(workspace, () => playDemo(plan, language));
  });
});

/** Plays the demo in the git workspace and pictures the Plan view midway and the timeline at its end. */
async function playDemo(plan: Awaited<ReturnType<typeof api>>, language: string): Promise<void> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
  await newChatSession();
  const writes: string[] = [];
  const subscription = plan.onDidWritePlan((snapshot) => writes.push(snapshot.session));
  const running = vscode.commands.executeCommand('workbench.action.chat.open', {
    query: 'Add a dark mode toggle to Brewlog',
    mode: 'agent',
    modelSelector: MODEL,
    isPartialQuery: false,
    blockOnResponse: true,
  });
  // The fifth plan has a reworded item and two items in progress.
  await waitFor(() => writes.length >= 5, 'the demo to write five plans', 60_000);
  await waitFor(async () => (await domTexts('.pane:has(.pane-header[aria-label]) .monaco-list-row')).length >= 8, 'the rows to render');
  // The items done so far show what they changed (`+12 −3`).
  await waitFor(async () => (await domTexts('.pane:has(.pane-header[aria-label]) .monaco-list-row .label-description')).some((text) => /\+\d+ −\d+/.test(text)), 'an item\'s diffstat to render');
  if (language.startsWith('zh')) {
    const headers = await domTexts('.sidebar .pane-header');
    assert.ok(headers.some((text) => text.includes('计划')), `Chinese view titles, got ${JSON.stringify(headers)}`);
  }
  const file = path.join(extension.extensionPath, 'docs', `screenshot-${language}.png`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await bridge({ op: 'screenshot', file });
  assert.ok(fs.statSync(file).size > 10_000);
  await running;
  subscription.dispose();
  assert.ok(writes.length >= 10, 'the demo ran to its end');

  // The Plan Timeline of the session the real Copilot agent wrote: a lane per item (the
  // reworded one too), a mark per version; pictured in the light and the dark theme.
  const session = writes[writes.length - 1]!;
  await vscode.commands.executeCommand('workbench.action.closeSidebar');
  await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
  const rendered = await vscode.commands.executeCommand<{ lanes: string[]; marks: number }>('agentPlan.showTimeline', session);
  const versions = writes.filter((written) => written === session).length;
  assert.equal(rendered.marks, versions, 'a mark per version');
  assert.equal(rendered.lanes.length, 8, `the demo's seven items and the reworded one: ${JSON.stringify(rendered.lanes)}`);
  const config = vscode.workspace.getConfiguration('workbench');
  const before = config.inspect<string>('colorTheme')?.globalValue;
  for (const [theme, name] of [['Default Light Modern', 'light'], ['Default Dark Modern', 'dark']] as const) {
    await config.update('colorTheme', theme, vscode.ConfigurationTarget.Global);
    await sleep(1500);
    const picture = path.join(extension.extensionPath, 'docs', `screenshot-timeline-${name}-${language}.png`);
    await bridge({ op: 'screenshot', file: picture });
    assert.ok(fs.statSync(picture).size > 10_000);
  }
  await config.update('colorTheme', before, vscode.ConfigurationTarget.Global);
}

// Run by `npm run screenshot` (phase `screenshot`): writes a believable plan
// through real chat requests and saves pictures of the workbench into docs/.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, api, bridge, chat, domTexts, newChatSession, todos, waitFor } from '../helpers';

describe('pictures for the README', function () {
  this.timeout(90_000);
  it('saves the sidebar with a live plan', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension);
    const language = vscode.env.language.toLowerCase();
    const plan = await api();
    await vscode.commands.executeCommand('workbench.view.extension.agentPlan');

    await newChatSession();
    await chat(todos(['Reproduce the login timeout', 'completed'], ['Write a failing test', 'in_progress'], ['Fix the session refresh', 'pending']));
    await newChatSession();
    await chat(todos(['Read the theme code', 'in_progress'], ['Add a dark palette', 'pending'], ['Add the toggle to the header', 'pending']));
    await chat(
      todos(
        ['Read the theme code', 'completed'],
        ['Add a dark palette', 'completed'],
        ['Add the toggle to the header', 'in_progress'],
        ['Remember the choice in localStorage', 'in_progress'],
        ['Respect prefers-color-scheme on first visit', 'pending'],
        ['Test both themes', 'pending'],
      ),
    );
    await waitFor(() => plan.getViewState().items.length === 6, 'the plan in the view');
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    await vscode.commands.executeCommand('workbench.view.extension.agentPlan');
    await bridge({ op: 'drag', selector: '.monaco-sash.vertical', dx: 160 });
    const readme = vscode.workspace.workspaceFolders?.[0]?.uri;
    if (readme) await vscode.window.showTextDocument(vscode.Uri.joinPath(readme, 'README.md'), { preview: false, preserveFocus: true });
    await vscode.commands.executeCommand('agentPlan.revealPlan');
    await waitFor(async () => (await domTexts('.pane:has(.pane-header[aria-label]) .monaco-list-row')).length >= 6, 'the rows to render');
    if (language.startsWith('zh')) {
      const headers = await domTexts('.sidebar .pane-header');
      assert.ok(headers.some((text) => text.includes('计划')), `Chinese view titles, got ${JSON.stringify(headers)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 800)); // let the spinner and hover settle
    const file = path.join(extension.extensionPath, 'docs', `screenshot-${language}.png`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await bridge({ op: 'screenshot', file });
    assert.ok(fs.statSync(file).size > 10_000);
  });
});

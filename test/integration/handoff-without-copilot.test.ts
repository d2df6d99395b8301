// Before any test switches Copilot Chat on (the copilot-*.test.ts files do, through copilotReady):
// Continue in New Chat has no Copilot to type into, so the hand-off prompt goes to the clipboard
// and the user is told. VS Code cannot switch an extension off again, so the main phase runs this
// file before the others, whatever the seed (test/integration/order.ts, BEFORE_COPILOT_FILES).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, chat, domTexts, newChatSession, todos } from './helpers';
import { waitFor } from '../lib/wait';

describe('acting on a plan without Copilot', () => {
  it('Continue in New Chat copies the hand-off prompt and says so', async () => {
    assert.equal(vscode.extensions.getExtension('GitHub.copilot-chat'), undefined, 'Copilot Chat is not switched on yet in this host (order.ts runs this file before the Copilot files)');
    const plan = await api();
    await newChatSession();
    await chat(todos(['Sketch the offline hand-off', 'completed'], ['Copy the offline hand-off', 'in_progress'], ['Paste the offline hand-off', 'pending']));
    const session = (await waitFor(() => plan.listSessions().find((s) => s.todos.some((todo) => todo.content === 'Copy the offline hand-off')), 'the plan')).session;
    await vscode.env.clipboard.writeText('');
    const outcome = await vscode.commands.executeCommand<{ done: string; text?: string }>('agentPlan.continueInNewChat', session);
    assert.equal(outcome.done, 'copied');
    const [first, ...rest] = (outcome.text ?? '').split('\n');
    // The session is named by its chat's first request once VS Code has saved the chat (its
    // own timing), and plainly until then: either is right, nothing else is.
    assert.match(first ?? '', /^Continue the plan of (a session of a VS Code chat|"\{"input":\{"todos":.*" \(a VS Code chat\))\.$/);
    assert.equal(
      rest.join('\n'),
      'Open items:\n- [in_progress] Copy the offline hand-off\n- [pending] Paste the offline hand-off\nDone: Sketch the offline hand-off\n' +
        'Write this plan with your plan tool first (done items as completed), then carry on with the open items.',
    );
    assert.equal(await vscode.env.clipboard.readText(), outcome.text);
    // A toast, or (when VS Code holds toasts back) an entry in the notification center.
    await vscode.commands.executeCommand('notifications.showList');
    await waitFor(async () => (await domTexts('.notification-list-item-message')).some((text) => text.includes('the hand-off prompt is on the clipboard')), 'the message that says so');
    await vscode.commands.executeCommand('notifications.hideList');
  });
});

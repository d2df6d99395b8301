import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, api, chat, domTexts, newChatSession, todos } from './helpers';
import { waitFor } from '../lib/wait';

describe('foundation, in a real extension host', () => {
  it('activates and returns its API', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, 'the extension is loaded');
    const exported = await api();
    assert.equal(extension.isActive, true);
    assert.equal(typeof exported.getPlan, 'function');
    assert.equal(typeof exported.onDidWritePlan, 'function');
  });

  it('lists todo_write in vscode.lm.tools with the schema file as its input schema', () => {
    const tool = vscode.lm.tools.find((candidate) => candidate.name === 'todo_write');
    assert.ok(tool, 'todo_write is registered');
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension);
    const schema = JSON.parse(fs.readFileSync(path.join(extension.extensionPath, 'schemas', 'todo-write.input.json'), 'utf8'));
    delete schema.$schema;
    assert.deepEqual(tool.inputSchema, schema);
    assert.match(tool.description, /whole task list/i);
  });

  it('opens the Agent Plan container in the activity bar', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.agentPlan');
    const titles = await waitFor(async () => {
      const texts = await domTexts('.sidebar .composite.title');
      return texts.some((text) => /agent plan/i.test(text)) ? texts : undefined;
    }, 'the Agent Plan side bar title');
    assert.ok(titles.length > 0);
    const activity = await domTexts('.activitybar .action-item a.action-label[aria-label*="Agent Plan"]');
    assert.equal(activity.length, 1, 'one Agent Plan entry in the activity bar');
  });

  it('a real chat request reaches the tool with a defined token', async () => {
    await newChatSession();
    const written = new Promise<string>((resolve) => {
      const subscription = (async () => (await api()).onDidWritePlan((snapshot) => {
        resolve(snapshot.session);
        void subscription.then((s) => s.dispose());
      }))();
    });
    const call = await chat(todos(['Check the chat path', 'in_progress']));
    assert.equal(call.error, undefined);
    assert.equal(call.hasToken, true, 'the chat request carried a toolInvocationToken');
    assert.equal(call.resultText, 'Updated todo list: 0 pending, 1 in progress, 0 completed.');
    assert.match(await written, /^[0-9a-f]{32}$/);
  });
});

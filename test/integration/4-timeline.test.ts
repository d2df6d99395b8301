// The Plan Timeline in the real workbench: plans written through the real todo_write tool
// by a real chat request, the timeline's page read in its own DOM (webviews are nested
// iframes: the bridge searches every frame), live updates, and Compare from a mark.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, bridge, chat, newChatSession, runDir, todos, waitFor } from './helpers';

interface Rendered {
  lanes: string[];
  marks: number;
  versions: string[];
}

const frameLabels = (selector: string) => bridge<Array<string | null>>({ op: 'frameAttributes', selector, name: 'aria-label' });

describe('the Plan Timeline', function () {
  this.timeout(60_000);
  let session = '';

  before(async () => {
    await vscode.commands.executeCommand('workbench.view.extension.agentPlan');
    await vscode.commands.executeCommand('agentPlan.followLatest');
    await newChatSession();
    await chat(todos(['Read the code', 'in_progress'], ['Fix the bug', 'pending'], ['Write a test', 'pending']));
    await chat(todos(['Read the code', 'completed'], ['Fix the bug', 'in_progress'], ['Write a test', 'pending']));
    await chat(todos(['Read the code', 'completed'], ['Fix the bug', 'completed'], ['Cover the edge case', 'pending']));
    session = (await api()).listSessions()[0]!.session;
  });

  it('shows a lane per item (the reworded one marked), a mark per version, in the page’s DOM', async () => {
    const rendered = await vscode.commands.executeCommand<Rendered>('agentPlan.showTimeline', session);
    assert.deepEqual(rendered.lanes, ['Read the code', 'Fix the bug', 'Cover the edge case', 'Write a test']);
    assert.equal(rendered.marks, 3);
    // The same, read by the workbench's driver from the webview's frame.
    const lanes = await waitFor(async () => {
      const labels = await frameLabels('[data-lane]');
      return labels.length === 4 ? labels : undefined;
    }, 'the lanes in the webview DOM');
    assert.match(lanes[0] ?? '', /^Read the code, completed, in progress (\d+ s|under 1 s) · done after (\d+ s|under 1 s)$/);
    assert.match(lanes[2] ?? '', /^Cover the edge case, pending, reworded from “Write a test”$/);
    assert.match(lanes[3] ?? '', /^Write a test, pending, reworded as “Cover the edge case”$/);
    const marks = await frameLabels('[data-version]');
    assert.equal(marks.length, 3);
    // One tab stop for the marks: the newest (arrow keys move between them).
    assert.deepEqual(await bridge({ op: 'frameAttributes', selector: '[data-version]', name: 'tabindex' }), ['-1', '-1', '0']);
    assert.match(marks[0] ?? '', /^Version 1, .*: 0\/3 done · 1 in progress; first version$/);
    assert.match(marks[2] ?? '', /^Version 3, .*: 2\/3 done; \+1 added, −1 removed, 1 status changes$/);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputWebview, 'the timeline is an editor tab');
    assert.match(tab.label, /^Timeline: Read the code$/);
    const shot = path.join(runDir(), 'timeline.png');
    await bridge({ op: 'screenshot', file: shot });
    assert.ok(fs.statSync(shot).size > 1000);
  });

  it('follows the session as the agent writes', async () => {
    await chat(todos(['Read the code', 'completed'], ['Fix the bug', 'completed'], ['Cover the edge case', 'completed']));
    const marks = await waitFor(async () => {
      const labels = await frameLabels('[data-version]');
      return labels.length === 4 ? labels : undefined;
    }, 'a fourth mark after the write');
    assert.match(marks[3] ?? '', /3\/3 done/);
    const summary = await bridge<Array<string | null>>({ op: 'frameAttributes', selector: '[data-summary]', name: 'data-summary' });
    assert.equal(summary.length, 1);
  });

  it('compares a version with the previous one from its mark', async () => {
    await bridge({ op: 'frameClick', selector: '[data-version="1"]' });
    const diff = await waitFor(() => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff ? input : undefined;
    }, 'a diff editor');
    assert.equal(diff.original.scheme, 'agent-plan-snapshot');
    assert.match(diff.original.path, new RegExp(`^/${session}/0\\.md$`));
    assert.match(diff.modified.path, new RegExp(`^/${session}/\\d+\\.md$`));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('opens a long history on its newest 1000 versions and reads the older ones on request', async () => {
    const plan = await api();
    // Another program appends to the log in its documented format: 1500 versions of a 3-item plan.
    const key = 'a1'.repeat(16);
    const start = Date.now() - 1500 * 60_000;
    const statuses = ['pending', 'in_progress', 'completed'] as const;
    const lines: string[] = [];
    for (let i = 0; i < 1500; i++) {
      const todos = ['First', 'Second', 'Third'].map((content, index) => ({ content, status: statuses[(i + index) % 3]! }));
      const counts = { pending: 0, inProgress: 0, completed: 0 };
      for (const todo of todos) counts[todo.status === 'in_progress' ? 'inProgress' : todo.status]++;
      lines.push(JSON.stringify({ v: 1, type: 'todo/write', ts: new Date(start + i * 60_000).toISOString(), session: key, todos, counts }));
    }
    fs.writeFileSync(path.join(plan.logFolder, `${key}.jsonl`), lines.join('\n') + '\n');
    await waitFor(() => plan.listSessions().some((s) => s.session === key), 'the appended session to be listed');
    const rendered = await vscode.commands.executeCommand<Rendered>('agentPlan.showTimeline', key);
    assert.equal(rendered.marks, 1000);
    assert.deepEqual(rendered.lanes, ['First', 'Second', 'Third']);
    await bridge({ op: 'frameClick', selector: '[data-action="older"]' });
    await waitFor(async () => (await frameLabels('[data-version]')).length === 1500, 'all 1500 marks after loading the older page');
    assert.deepEqual(await frameLabels('[data-action="older"]'), [], 'nothing older left to load');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // Gone again, so the tests after this one find the sessions they expect.
    fs.rmSync(path.join(plan.logFolder, `${key}.jsonl`));
    await waitFor(() => !plan.listSessions().some((s) => s.session === key), 'the appended session to be gone');
  });
});

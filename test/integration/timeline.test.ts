// The Plan Timeline in the real workbench: plans written through the real todo_write tool
// by a real chat request, the timeline's page read in its own DOM (webviews are nested
// iframes: the bridge searches every frame), live updates, Compare from a mark, and the
// files each item changed (file/write lines another program appends), opened from the page.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, bridge, chat, chatSession, newChatSession, planLine, runDir, sessionName, todos, writeLine } from './helpers';
import { waitFor } from '../lib/wait';

interface Rendered {
  lanes: string[];
  marks: number;
  versions: string[];
}

const frameLabels = (selector: string) => bridge<Array<string | null>>({ op: 'frameAttributes', selector, name: 'aria-label' });
const frameAttribute = (selector: string, name: string) => bridge<Array<string | null>>({ op: 'frameAttributes', selector, name });

describe('the Plan Timeline', function () {
  this.timeout(60_000);
  let session = '';

  before(async () => {
    await vscode.commands.executeCommand('workbench.view.extension.agentPlan');
    await vscode.commands.executeCommand('agentPlan.followLatest');
    await newChatSession();
    await chat(todos(['Read the code', 'in_progress'], ['Fix the bug', 'pending'], ['Write a test', 'pending']));
    await chat(todos(['Read the code', 'completed'], ['Fix the bug', 'in_progress'], ['Write a test', 'pending']));
    session = (await chatSession(todos(['Read the code', 'completed'], ['Fix the bug', 'completed'], ['Cover the edge case', 'pending']))).session;
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
    // Named as the Sessions row names it: the chat's first request once the chat follower has read it, else the first item.
    await waitFor(async () => vscode.window.tabGroups.activeTabGroup.activeTab?.label === `Timeline: ${await sessionName(session, 'Read the code')}`, 'the timeline named after its session');
    const shot = path.join(runDir(), 'timeline.png');
    await bridge({ op: 'screenshot', file: shot });
    assert.ok(fs.statSync(shot).size > 1000);
  });

  it('follows the session as the agent writes', async () => {
    // The next version lands in the session's log as any writer's does (the real tool wrote the
    // first three above; a chat request sent now goes to whichever chat VS Code shows, which
    // after other files' chats need not be this one).
    const plan = await api();
    fs.appendFileSync(plan.logFile(session), planLine(session, Date.now(), [['Read the code', 'completed'], ['Fix the bug', 'completed'], ['Cover the edge case', 'completed']]) + '\n');
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
    // Gone again: the log folder as this test found it.
    fs.rmSync(path.join(plan.logFolder, `${key}.jsonl`));
    await waitFor(() => !plan.listSessions().some((s) => s.session === key), 'the appended session to be gone');
  });

  it('lists the files each item changed on its lane, opens one in an editor, and shows a new write', async () => {
    const plan = await api();
    const key = 'b2'.repeat(16);
    const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const files = ['timeline-files/notes.md', 'timeline-files/src/parser.ts', 'timeline-files/test/parser.test.ts', 'timeline-files/CHANGELOG.md', 'timeline-files/docs/guide.md'];
    for (const file of files) {
      fs.mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
      fs.writeFileSync(path.join(folder, file), `// ${file}\n`);
    }
    const absolute = path.join(folder, 'timeline-files', 'test', 'parser.test.ts');
    const start = Date.now() - 10 * 60_000;
    const at = (minutes: number) => start + minutes * 60_000;
    const lines = [
      planLine(key, at(0), [['Read the code', 'in_progress'], ['Fix the parser', 'pending'], ['Write a test', 'pending']]),
      writeLine(key, at(1), 'c1', ['timeline-files/notes.md'], ['Read the code']),
      planLine(key, at(2), [['Read the code', 'completed'], ['Fix the parser', 'in_progress'], ['Write a test', 'in_progress']]),
      writeLine(key, at(3), 'c2', ['timeline-files/src/parser.ts'], ['Fix the parser', 'Write a test']),
      writeLine(key, at(3.5), 'c2b', [absolute], ['Write a test']),
      writeLine(key, at(4), 'c3', ['timeline-files/src/parser.ts'], ['Fix the parser']),
      planLine(key, at(5), [['Read the code', 'completed'], ['Fix the parser', 'completed'], ['Write a test', 'completed']]),
      writeLine(key, at(6), 'c4', ['timeline-files/CHANGELOG.md'], []),
    ];
    fs.writeFileSync(path.join(plan.logFolder, `${key}.jsonl`), lines.join('\n') + '\n');
    try {
      await waitFor(() => plan.listSessions().some((s) => s.session === key), 'the appended session to be listed');
      await vscode.commands.executeCommand<Rendered>('agentPlan.showTimeline', key);
      let seen: unknown;
      const owners = await waitFor(async () => {
        const found = await frameAttribute('[data-file]', 'data-owner');
        seen = { found, lanes: await frameLabels('[data-lane]') };
        return found.length === 5 ? found : undefined;
      }, 'the files in the webview DOM').catch((error: unknown) => assert.fail(`${String(error)}: ${JSON.stringify(seen)}`));
      // The session's files in the header first, then each lane's, in the order first written.
      assert.deepEqual(owners, ['', 'Read the code', 'Fix the parser', 'Write a test', 'Write a test']);
      assert.deepEqual(await frameAttribute('[data-file]', 'data-file'), [
        'timeline-files/CHANGELOG.md',
        'timeline-files/notes.md',
        'timeline-files/src/parser.ts',
        'timeline-files/src/parser.ts',
        absolute,
      ]);
      assert.deepEqual(await frameLabels('[data-file]'), [
        'Open CHANGELOG.md in timeline-files',
        'Open notes.md in timeline-files',
        'Open parser.ts in timeline-files/src, shared with another item',
        'Open parser.ts in timeline-files/src, shared with another item',
        `Open parser.test.ts in ${path.dirname(absolute)}`,
      ]);
      // Each lane says its count, on the lane's name and in its accessible name.
      assert.deepEqual(await frameAttribute('[data-files-of]', 'aria-label'), ['Read the code: 1 file', 'Fix the parser: 1 file', 'Write a test: 2 files']);
      const lanes = await frameLabels('[data-lane]');
      assert.match(lanes[2] ?? '', /^Write a test, completed, .*2 files$/);
      // A tick per write on the lanes, and one for the session's.
      assert.equal((await frameAttribute('rect.write', 'class')).length, 6);

      // The lane's count opens its list; a click on a file opens it in an editor.
      await bridge({ op: 'frameClick', selector: '[data-files-of="Write a test"]' });
      const shot = path.join(runDir(), 'timeline-files.png');
      await bridge({ op: 'screenshot', file: shot });
      assert.ok(fs.statSync(shot).size > 1000);
      await bridge({ op: 'frameClick', selector: '[data-owner="Write a test"][data-file$="parser.test.ts"]' });
      const editor = await waitFor(() => {
        const active = vscode.window.activeTextEditor;
        return active?.document.uri.fsPath === absolute ? active : undefined;
      }, 'the written file in an editor');
      assert.equal(editor.document.getText(), '// timeline-files/test/parser.test.ts\n');
      await vscode.commands.executeCommand('agentPlan.showTimeline', key);
      await bridge({ op: 'frameClick', selector: '[data-files-of="Fix the parser"]' });
      await bridge({ op: 'frameClick', selector: '[data-owner="Fix the parser"][data-file="timeline-files/src/parser.ts"]' });
      await waitFor(() => vscode.window.activeTextEditor?.document.uri.fsPath === path.join(folder, 'timeline-files', 'src', 'parser.ts'), 'a relative path opened against the workspace folder');

      // Live: a write appended while the panel is open shows on its lane.
      await vscode.commands.executeCommand('agentPlan.showTimeline', key);
      fs.appendFileSync(path.join(plan.logFolder, `${key}.jsonl`), writeLine(key, Date.now(), 'c5', ['timeline-files/docs/guide.md'], ['Write a test']) + '\n');
      await waitFor(async () => (await frameAttribute('[data-owner="Write a test"]', 'data-file')).includes('timeline-files/docs/guide.md'), 'the new write on its lane');
      assert.deepEqual(await frameAttribute('[data-files-of]', 'aria-label'), ['Read the code: 1 file', 'Fix the parser: 1 file', 'Write a test: 3 files']);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      fs.rmSync(path.join(folder, 'timeline-files'), { recursive: true, force: true });
      fs.rmSync(path.join(plan.logFolder, `${key}.jsonl`), { force: true });
      await waitFor(() => !plan.listSessions().some((s) => s.session === key), 'the appended session to be gone');
    }
  });
});

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PlanViewState } from '../../src/extension';
import { activityBadge, api, badgeCount, bridge, chat, chatSession, drawnSessionRows, findInSessionRows, findSessionRow, isSessionRow, domTexts, logLines, newChatSession, planItemLabels, rowName, runDir, sessionName, SESSIONS_VIEW_ROWS, todos, PLAN_VIEW_ROWS, PLAN_MESSAGE, PICKER_ROWS } from './helpers';
import { waitFor } from '../lib/wait';

const LONG_HISTORY = 250;
/** Rows the Sessions view lists at first (SESSIONS_PAGE in src/vscode/sessions/sessionsTree.ts), and how many sessions the test adds. */
const SESSIONS_PAGE = 200;
const MANY_SESSIONS = 250;
/** Versions per page of the history picker (HISTORY_PAGE in src/vscode/history/historyPick.ts). */
const PAGE = 100;

const PLAN_HEADER = '.pane-header[aria-label^="Plan"]';
const STATUS_ITEM = '[id="agent-plan.agent-plan.agentPlan.progress"]';
/** Whether the quick input is on screen (a closed one stays in the page, hidden, with its last rows). */
const pickerShown = async (): Promise<boolean> => !/display:\s*none/.test((await bridge<Array<string | null>>({ op: 'attributes', selector: '.quick-input-widget', name: 'style' }))[0] ?? 'display: none');

/** Where each plan line of a log file starts: the addresses of its versions (session/info lines are not versions). */
function lineStarts(file: string): number[] {
  const starts: number[] = [];
  let at = 0;
  for (const line of fs.readFileSync(file, 'utf8').split('\n').slice(0, -1)) {
    if ((JSON.parse(line) as { type?: unknown }).type === 'todo/write') starts.push(at);
    at += Buffer.byteLength(line) + 1;
  }
  return starts;
}

const rowLabels = (selector: string) => bridge<string[]>({ op: 'attributes', selector, name: 'aria-label' });

async function viewShows(expected: (state: PlanViewState) => boolean, what: string): Promise<PlanViewState> {
  const plan = await api();
  return waitFor(() => {
    const state = plan.getViewState();
    return expected(state) ? state : undefined;
  }, what);
}

async function domShows(selector: string, expected: string[], what: string): Promise<void> {
  let last: string[] = [];
  try {
    await waitFor(async () => {
      // The Plan view's item rows; its health rows (a stopped turn, say) are checked by copilot-health.test.ts.
      last = selector === PLAN_VIEW_ROWS ? await planItemLabels(selector) : await rowLabels(selector);
      return JSON.stringify(last) === JSON.stringify(expected);
    }, what);
  } catch (error) {
    assert.deepEqual(last, expected, String(error));
  }
}

describe('the sidebar, rendered in the workbench', () => {
  let sessionA = '';
  let sessionB = '';

  before(async () => {
    await vscode.commands.executeCommand('workbench.view.extension.agentPlan');
    await vscode.commands.executeCommand('agentPlan.followLatest');
  });

  it('shows the latest session: items in order, status icons, description, badge and status bar', async () => {
    await newChatSession();
    sessionA = (await chatSession(todos(['Survey the code', 'completed'], ['Draft the API', 'in_progress'], ['Write docs', 'pending']))).session;
    await newChatSession();
    sessionB = (
      await chatSession(todos(['Set up the theme', 'completed'], ['Add the toggle', 'in_progress'], ['Persist the choice', 'in_progress'], ['Test both themes', 'pending']))
    ).session;
    assert.notEqual(sessionA, sessionB);

    const state = await viewShows((s) => s.session === sessionB, 'the Plan view to follow session B');
    assert.deepEqual(
      state.items.map((item) => [item.content, item.icon]),
      [
        ['Set up the theme', 'pass-filled'],
        // The workbench here runs with reduced motion on (scripts/integration.mjs): the in-progress icon stands still.
        ['Add the toggle', 'sync'],
        ['Persist the choice', 'sync'],
        ['Test both themes', 'circle-large-outline'],
      ],
    );
    assert.equal(state.description, '1/4 done · 2 in progress');
    assert.equal(state.badge, 3);

    await domShows(
      PLAN_VIEW_ROWS,
      ['Set up the theme, completed', 'Add the toggle, in progress', 'Persist the choice, in progress', 'Test both themes, pending'],
      'the Plan rows in the DOM',
    );
    // Each row's icon is read by the row's own label, in one look: a health row that appears meanwhile
    // (the chat's turn ended with items open) cannot shift the rows under the assertion.
    const iconOf = async (label: string) =>
      (await bridge<string[]>({ op: 'attributes', selector: `${PLAN_VIEW_ROWS}[aria-label="${label}"] .custom-view-tree-node-item-icon`, name: 'class' }))[0] ?? '';
    assert.match(await iconOf('Set up the theme, completed'), /codicon-pass-filled/);
    assert.match(await iconOf('Add the toggle, in progress'), /codicon-sync/);
    assert.doesNotMatch(await iconOf('Add the toggle, in progress'), /codicon-modifier-spin/);
    assert.match(await iconOf('Test both themes, pending'), /codicon-circle-large-outline/);
    // With motion allowed, the in-progress icon turns, on screen and in the API at once; and stands still again.
    const workbench = vscode.workspace.getConfiguration('workbench');
    const reduceMotion = workbench.inspect<string>('reduceMotion')?.globalValue;
    let icons = '';
    const inProgressIcons = async (wanted: string): Promise<boolean> => {
      const shown = (await api()).getViewState().items.filter((item) => item.status === 'in_progress').map((item) => item.icon);
      const drawn = await iconOf('Add the toggle, in progress');
      icons = `${shown.join()} ${/codicon-modifier-spin/.test(drawn) ? 'turning' : 'still'}`;
      return icons === wanted;
    };
    try {
      await workbench.update('reduceMotion', 'off', vscode.ConfigurationTarget.Global);
      await waitFor(() => inProgressIcons('sync~spin,sync~spin turning'), () => `the in-progress icons to turn (now ${icons})`);
    } finally {
      await workbench.update('reduceMotion', reduceMotion, vscode.ConfigurationTarget.Global);
    }
    await waitFor(() => inProgressIcons('sync,sync still'), () => `the in-progress icons to stand still again (now ${icons})`);
    assert.match((await bridge<string[]>({ op: 'attributes', selector: PLAN_HEADER, name: 'aria-label' }))[0] ?? '', /1\/4 done · 2 in progress/);
    // The badge adds the plan's open items to the sessions that need the user (earlier chats that stopped with items open).
    await waitFor(async () => {
      const badge = await activityBadge();
      return badgeCount(badge.parts, 'open items') === 3 && badge.value === 3 + badgeCount(badge.parts, 'needs you');
    }, 'the badge to count the three open items, with the sessions that need the user');
    const status = await waitFor(async () => {
      const texts = await domTexts(STATUS_ITEM);
      return texts[0]?.includes('1/4') ? texts[0] : undefined;
    }, 'the status bar item');
    assert.match(status, /1\/4 · Add the toggle/);
    // The session rows, below the Needs You section (the first chat's turn ended with items open),
    // the newest first: session B, written last.
    let sessions: string[] = [];
    // A chat of the test's own participant: never "of Copilot", before or after the follower reads its file.
    // Named by the chat's first request once the follower reads its file, by its first item before.
    await waitFor(async () => {
      sessions = (await rowLabels(SESSIONS_VIEW_ROWS)).filter(isSessionRow);
      const starts = [`Session ${await sessionName(sessionB, 'Set up the theme')}, 1/4 done`, 'Session Set up the theme, 1/4 done'];
      return sessions.length >= 2 && starts.some((start) => sessions[0]?.startsWith(start));
    }, () => `session B's row first in the Sessions view (rows: ${JSON.stringify(sessions.slice(0, 3))})`);
    await bridge({ op: 'screenshot', file: path.join(runDir(), 'sidebar-with-plan.png'), selector: '#workbench\\.parts\\.sidebar' });
    assert.ok(fs.statSync(path.join(runDir(), 'sidebar-with-plan.png')).size > 1000);
  });

  it('switches to a selected session and stays pinned until Follow Latest', async () => {
    const plan = await api();
    await vscode.commands.executeCommand('agentPlan.selectSession', sessionA);
    await viewShows((s) => s.session === sessionA && !s.followingLatest, 'session A to be shown');
    await domShows(PLAN_VIEW_ROWS, ['Survey the code, completed', 'Draft the API, in progress', 'Write docs, pending'], 'session A rows');

    // The chat in front is still session B's: this write lands there, and the pinned view stays on A.
    const { session: written } = await chatSession(todos(['Set up the theme', 'completed'], ['Add the toggle', 'completed'], ['Persist the choice', 'in_progress'], ['Test both themes', 'pending']));
    assert.equal(written, sessionB);
    // The views have taken the write once session B's Sessions row says 2/4 done: the pinned Plan view stays on A.
    // Its name as it is at each look: the chat's title or first request may arrive meanwhile.
    await findSessionRow((label) => isSessionRow(label) && (label.includes(rowName(plan, sessionB, 'Set up the theme')) || label.includes('Set up the theme')) && label.includes('2/4 done'), "session B's Sessions row to take the write", 20_000);
    assert.equal(plan.getViewState().session, sessionA);
    await domShows(PLAN_VIEW_ROWS, ['Survey the code, completed', 'Draft the API, in progress', 'Write docs, pending'], 'session A rows, still');

    await vscode.commands.executeCommand('agentPlan.followLatest');
    const state = await viewShows((s) => s.session === sessionB && s.followingLatest, 'session B after Follow Latest');
    assert.equal(state.description, '2/4 done · 1 in progress');
    await domShows(
      PLAN_VIEW_ROWS,
      ['Set up the theme, completed', 'Add the toggle, completed', 'Persist the choice, in progress', 'Test both themes, pending'],
      'session B rows after Follow Latest',
    );
  });

  it('copies the shown plan as Markdown', async () => {
    await vscode.commands.executeCommand('agentPlan.copyPlanAsMarkdown');
    const text = await vscode.env.clipboard.readText();
    assert.equal(
      text,
      '- [x] Set up the theme\n- [x] Add the toggle\n- [ ] Persist the choice *(in progress)*\n- [ ] Test both themes\n',
    );
  });

  it('compares the plan with its previous version in the diff editor', async () => {
    await vscode.commands.executeCommand('agentPlan.compareWithPrevious');
    const tab = await waitFor(() => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff ? input : undefined;
    }, 'a diff editor');
    assert.equal(tab.original.scheme, 'agent-plan-snapshot');
    // A version's document is addressed by where its line starts in the log.
    const starts = lineStarts((await api()).logFile(sessionB));
    assert.equal(tab.original.path, `/${sessionB}/${starts[0]}.md`);
    assert.equal(tab.modified.path, `/${sessionB}/${starts[1]}.md`);
    const original = await vscode.workspace.openTextDocument(tab.original);
    const modified = await vscode.workspace.openTextDocument(tab.modified);
    assert.match(original.getText(), /- \[ \] Add the toggle \*\(in progress\)\*/);
    assert.match(modified.getText(), /- \[x\] Add the toggle/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('shows an older version from the history, marked as such, and returns to the latest', async () => {
    await vscode.commands.executeCommand('agentPlan.showHistory', sessionB, 1);
    const state = await viewShows((s) => s.version !== undefined, 'an older version');
    assert.equal(state.version?.behind, 1);
    assert.equal(state.version?.ts, (await (await api()).getHistory(sessionB))[0]?.ts);
    assert.equal(state.items[1]?.status, 'in_progress');
    const message = await waitFor(async () => {
      const texts = await domTexts(PLAN_MESSAGE);
      return texts.find((text) => /^Older version, saved .+: the latest is one version newer\.$/.test(text));
    }, 'the older-version message');
    assert.ok(message);
    await vscode.commands.executeCommand('agentPlan.showLatestVersion');
    await viewShows((s) => s.version === undefined && s.items[1]?.status === 'completed', 'the latest version');
  });

  it('a chat answered by another extension\'s participant is not labelled Copilot once its chat file is read', async () => {
    const plan = await api();
    const info = await waitFor(
      () => logLines(plan.logFile(sessionB)).map((line) => JSON.parse(line) as { type?: string; participant?: string }).find((line) => line.type === 'session/info'),
      'VS Code to save the chat and the chat follower to read it',
      20_000,
    );
    assert.ok(info.participant !== undefined && !/copilot/i.test(info.participant), `the chat's participant is the test's own (${info.participant})`);
    assert.equal(plan.getSessionInfo(sessionB).agent, undefined);
    // Named by what was asked of it: the chat's first request, now in the log.
    assert.ok(plan.getSessionInfo(sessionB).request?.includes('Set up the theme'), 'the request, the JSON the test sent, holds the plan');
    const row = await findSessionRow((label) => isSessionRow(label) && label.includes(rowName(plan, sessionB, 'Set up the theme')), 'session B in the Sessions view', 20_000);
    assert.doesNotMatch(row, /of Copilot/);
  });

  it('shows an append written by another process to the log folder', async () => {
    const plan = await api();
    const file = plan.logFile(sessionB);
    const event = {
      v: 1,
      type: 'todo/write',
      ts: new Date().toISOString(),
      session: sessionB,
      todos: [
        { content: 'Set up the theme', status: 'completed' },
        { content: 'Add the toggle', status: 'completed' },
        { content: 'Persist the choice', status: 'completed' },
        { content: 'Written by another process', status: 'in_progress' },
      ],
      counts: { pending: 0, inProgress: 1, completed: 3 },
    };
    const result = spawnSync(process.execPath, ['-e', `require('fs').appendFileSync(process.argv[1], process.argv[2] + '\\n')`, file, JSON.stringify(event)]);
    assert.equal(result.status, 0, String(result.stderr));
    await viewShows((s) => s.items[3]?.content === 'Written by another process', 'the appended plan in the view');
    await domShows(
      PLAN_VIEW_ROWS,
      ['Set up the theme, completed', 'Add the toggle, completed', 'Persist the choice, completed', 'Written by another process, in progress'],
      'the appended plan in the DOM',
    );
  });

  it('an item that changed files opens to a row per file; a click opens the file', async () => {
    const plan = await api();
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(folder, 'the test window has a workspace folder');
    const changed = path.join(folder, 'src', 'toggle-from-another-process.ts');
    const hadSrc = fs.existsSync(path.dirname(changed));
    fs.mkdirSync(path.dirname(changed), { recursive: true });
    fs.writeFileSync(changed, 'export const toggle = true;\n');
    try {
      // A follower's import, as another process appends it: the file is the in-progress item's.
      const record = {
        v: 1,
        type: 'file/write',
        ts: new Date().toISOString(),
        session: sessionB,
        source: { agent: 'claude-code', session: 'run-files', call: 'toolu_files_1' },
        files: [changed],
        items: ['Written by another process'],
      };
      const result = spawnSync(process.execPath, ['-e', `require('fs').appendFileSync(process.argv[1], process.argv[2] + '\\n')`, plan.logFile(sessionB), JSON.stringify(record)]);
      assert.equal(result.status, 0, String(result.stderr));
      // The API gives the same: the item's file, in the current plan's order.
      const files = await waitFor(async () => {
        const changedFiles = await plan.getChangedFiles(sessionB);
        return changedFiles.items.some((item) => item.files.length > 0) ? changedFiles : undefined;
      }, 'the API to give the item its file');
      assert.deepEqual(
        files.items.map((item) => [item.content, item.files]),
        [
          ['Set up the theme', []],
          ['Add the toggle', []],
          ['Persist the choice', []],
          ['Written by another process', [{ path: changed, shared: false, writes: 1 }]],
        ],
      );
      assert.deepEqual(files.session, []);
      const row = `${PLAN_VIEW_ROWS}[aria-label="Written by another process, in progress"]`;
      await waitFor(async () => (await domTexts(row))[0]?.includes('1 file'), 'the item row to say it changed 1 file', 10_000);
      assert.deepEqual(await bridge<string[]>({ op: 'attributes', selector: row, name: 'aria-expanded' }), ['false']);
      await bridge({ op: 'click', selector: `${row} .monaco-tl-twistie` });
      const fileRow = `${PLAN_VIEW_ROWS}[aria-label="Changed file toggle-from-another-process.ts in src"]`;
      await waitFor(async () => (await domTexts(fileRow)).length === 1, 'the file row under the item').catch(async (error: Error) => {
        throw new Error(`${error.message}; the rows: ${JSON.stringify(await rowLabels(PLAN_VIEW_ROWS))}`);
      });
      await bridge({ op: 'click', selector: fileRow });
      const editor = await waitFor(() => (vscode.window.activeTextEditor?.document.uri.fsPath === changed ? vscode.window.activeTextEditor : undefined), 'the changed file in an editor');
      assert.equal(editor.document.getText(), 'export const toggle = true;\n');
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    } finally {
      // The test workspace as it was: other files edit its src folder with real agents.
      fs.rmSync(hadSrc ? changed : path.dirname(changed), { recursive: true, force: true });
    }
  });

  it('opens the shown session\'s log in an editor', async () => {
    const plan = await api();
    await vscode.commands.executeCommand('agentPlan.openSessionLog');
    const editor = await waitFor(() => vscode.window.activeTextEditor, 'an editor');
    assert.equal(editor.document.uri.fsPath, plan.logFile(sessionB));
    assert.match(editor.document.lineAt(0).text, /^\{"v":1,"type":"todo\/write"/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('hides the status bar item when its setting is off, and shows it again', async () => {
    const config = vscode.workspace.getConfiguration();
    try {
      await config.update('agentPlan.statusBar.enabled', false, vscode.ConfigurationTarget.Global);
      await waitFor(async () => (await domTexts(STATUS_ITEM)).length === 0, 'the status bar item to go');
    } finally {
      await config.update('agentPlan.statusBar.enabled', undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor(async () => (await domTexts(STATUS_ITEM))[0]?.includes('3/4'), 'the status bar item to come back');
  });

  it('says so when the agent clears its plan, and hides badge and status bar', async () => {
    await newChatSession();
    const first = await chat(todos(['Short-lived task', 'in_progress']));
    assert.match(String(first.resultText), /^Updated todo list/);
    const cleared = await chat({ todos: [] });
    assert.equal(cleared.resultText, 'Updated todo list: 0 pending, 0 in progress, 0 completed.');
    const state = await viewShows((s) => s.items.length === 0 && s.message !== undefined, 'the cleared plan');
    assert.match(state.message ?? '', /^The agent cleared its plan at /);
    assert.equal(state.badge, undefined);
    assert.equal(state.description, undefined);
    await waitFor(async () => (await domTexts('.pane:has(.pane-header[aria-label^="Plan"]) .message')).some((text) => text.startsWith('The agent cleared its plan')), 'the message in the DOM');
    await waitFor(async () => (await domTexts(STATUS_ITEM)).length === 0, 'the status bar item to hide');
    await waitFor(async () => {
      const badge = await activityBadge();
      return badgeCount(badge.parts, 'open items') === 0 && badge.value === badgeCount(badge.parts, 'needs you');
    }, 'the badge to count no open item (only the sessions that need the user)');
    // Back to following the latest session, for the tests below.
    await vscode.commands.executeCommand('agentPlan.followLatest');
    await viewShows((s) => s.followingLatest, 'following the latest session again');
  });

  it('deletes nothing unless the modal confirmation is accepted', async () => {
    // A test host answers every modal dialog with "cancel", as a user pressing Escape would.
    const plan = await api();
    const before = fs.readdirSync(plan.logFolder).sort();
    await vscode.commands.executeCommand('agentPlan.deleteSession', sessionA);
    assert.deepEqual(fs.readdirSync(plan.logFolder).sort(), before);
    assert.ok(plan.listSessions().some((s) => s.session === sessionA));
  });

  it('deletes only the chosen session log', async () => {
    const plan = await api();
    const fileA = plan.logFile(sessionA);
    const fileB = plan.logFile(sessionB);
    assert.ok(fs.existsSync(fileA) && fs.existsSync(fileB));
    const others = fs.readdirSync(plan.logFolder).filter((name) => !fileA.endsWith(name)).sort();
    const sizeB = fs.statSync(fileB).size;
    const nameA = plan.getSessionInfo(sessionA).request;
    await vscode.commands.executeCommand('agentPlan.deleteSession', sessionA, { confirm: false });
    assert.equal(fs.existsSync(fileA), false);
    assert.deepEqual(fs.readdirSync(plan.logFolder).sort(), others);
    assert.equal(fs.statSync(fileB).size, sizeB);
    await waitFor(() => plan.listSessions().every((s) => s.session !== sessionA), 'session A to leave the list');
    await findInSessionRows((rows) => rows.length > 0 && !rows.some(({ label }) => label.includes('Survey the code') || (nameA !== undefined && label.includes(nameA))), 'session A to leave the Sessions view');
  });

  it('pages the history picker: the newest versions first, older ones on "Load older versions…"', async function () {
    this.timeout(90_000); // up to three tries to open the picker and three to type its filter, 10 s and 5 s each
    const plan = await api();
    // Another window of Agent Plan wrote a long history for this session.
    const session = createHash('sha256').update('a long history').digest('hex').slice(0, 32);
    const started = Date.now() - 3_600_000;
    const lines = Array.from({ length: LONG_HISTORY }, (_, i) => {
      const items = [{ content: 'Keep going', status: 'in_progress' }, { content: `Step ${i}`, status: 'pending' }];
      return JSON.stringify({ v: 1, type: 'todo/write', ts: new Date(started + i * 1000).toISOString(), session, todos: items, counts: { pending: 1, inProgress: 1, completed: 0 } });
    });
    fs.writeFileSync(plan.logFile(session), lines.join('\n') + '\n');
    await waitFor(() => plan.getPlan(session)?.todos[1]?.content === `Step ${LONG_HISTORY - 1}`, 'the long session in the store');
    const ts = (i: number) => new Date(started + i * 1000).toISOString();
    // The API pages the same way: newest first, continued from the last address.
    const first100 = await plan.getVersions(session);
    assert.deepEqual(first100.versions.map((v) => v.todos[1]?.content), Array.from({ length: PAGE }, (_, i) => `Step ${LONG_HISTORY - 1 - i}`));
    assert.equal(first100.more, true);
    const rest = await plan.getVersions(session, { limit: LONG_HISTORY, before: first100.versions.at(-1)!.at });
    assert.equal(rest.versions.length, LONG_HISTORY - PAGE);
    assert.equal(rest.more, false);
    assert.equal(rest.versions.at(-1)?.todos[1]?.content, 'Step 0');
    const label = (i: number) => new Date(ts(i)).toLocaleTimeString(vscode.env.language);

    // The picker's rows replace those of a picker shown before (another session's): wait for this one's.
    let first = '';
    // The command's promise is handed back in an object: an async function would wait for the pick.
    // Where the picker does not come (a busy window; it failed so once in a run), the user closes
    // whatever quick input is open and asks again, up to three times.
    const showPicker = async (): Promise<{ picked: Thenable<unknown> }> => {
      for (let attempt = 1; ; attempt++) {
        const picked = vscode.commands.executeCommand('agentPlan.showHistory', session);
        const came = await waitFor(async () => {
          first = (await domTexts(PICKER_ROWS))[0] ?? '';
          return (await pickerShown()) && first.includes(label(LONG_HISTORY - 1));
        }, 'the history picker of the long session').then(() => true, () => false);
        if (came) return { picked };
        if (attempt === 3) assert.fail(`the history picker of the long session did not come in three tries: its first row is ${first}`);
        await bridge({ op: 'keys', press: ['Escape'] });
      }
    };
    let { picked } = await showPicker();
    assert.ok(first.includes('latest'), `the newest version comes first: ${first}`);
    // Typed into the picker's filter; where the keys did not all land there (a busy window), the
    // user clicks into the filter and types it again, as the test does, up to three times.
    let shown: string[] = [];
    const olderRowAlone = async (): Promise<boolean> => {
      shown = await domTexts(PICKER_ROWS);
      return shown.length === 1 && shown[0]?.includes('Load older versions') === true;
    };
    for (let attempt = 1; ; attempt++) {
      if (attempt > 1) {
        // A picker that lost the focus meanwhile has closed: the user opens it again.
        if (!(await pickerShown())) ({ picked } = await showPicker());
        await bridge({ op: 'click', selector: '.quick-input-widget .quick-input-box input', timeoutMs: 5000 });
      }
      await bridge({ op: 'keys', press: ['ControlOrMeta+a'] });
      await bridge({ op: 'keys', text: 'older versions' });
      if (await waitFor(olderRowAlone, 'the "Load older versions…" row', 5000).then(() => true, () => false)) break;
      if (attempt === 3) assert.fail(`the "Load older versions…" row alone, after three tries; shown: ${JSON.stringify(shown.slice(0, 5))}`);
    }
    await bridge({ op: 'keys', press: ['Enter'] });
    // The next page is in, and the first version it added has the focus.
    const firstNew = LONG_HISTORY - 1 - (PAGE - 1);
    await waitFor(async () => (await domTexts(`${PICKER_ROWS}.focused`))[0]?.includes(label(firstNew)), `version ${firstNew} focused`);
    await bridge({ op: 'keys', press: ['Enter'] });
    await picked;
    const state = await viewShows((s) => s.version !== undefined, 'the picked version');
    assert.deepEqual(state.version, { ts: ts(firstNew), behind: PAGE - 1 });
    assert.equal(state.items[1]?.content, `Step ${firstNew}`);
    await waitFor(async () => (await domTexts(PLAN_MESSAGE)).some((text) => text.endsWith(`the latest is ${PAGE - 1} versions newer.`)), 'the older-version message');

    // Compare reads the version before the one shown, by its address.
    await vscode.commands.executeCommand('agentPlan.compareWithPrevious', session);
    const tab = await waitFor(() => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff ? input : undefined;
    }, 'a diff editor');
    const starts = lineStarts(plan.logFile(session));
    assert.equal(tab.original.path, `/${session}/${starts[firstNew - 1]}.md`);
    assert.equal(tab.modified.path, `/${session}/${starts[firstNew]}.md`);
    assert.match((await vscode.workspace.openTextDocument(tab.original)).getText(), new RegExp(`- \\[ \\] Step ${firstNew - 1}\n`));
    assert.match((await vscode.workspace.openTextDocument(tab.modified)).getText(), new RegExp(`- \\[ \\] Step ${firstNew}\n`));
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await vscode.commands.executeCommand('agentPlan.followLatest');
    await viewShows((s) => s.followingLatest && s.version === undefined, 'following the latest session again');
  });

  it('lists the newest 200 sessions, and older ones a page at a time', async () => {
    const plan = await api();
    // Another window of Agent Plan wrote many sessions, all newer than the ones above.
    const added = Array.from({ length: MANY_SESSIONS }, (_, i) => createHash('sha256').update(`many sessions ${i}`).digest('hex').slice(0, 32));
    const files = added.map((session, i) => {
      const todos = [{ content: `Many ${i}`, status: 'pending' }];
      fs.writeFileSync(plan.logFile(session), JSON.stringify({ v: 1, type: 'todo/write', ts: new Date().toISOString(), session, todos, counts: { pending: 1, inProgress: 0, completed: 0 } }) + '\n');
      return plan.logFile(session);
    });
    const listed = () => new Set(plan.listSessions().map((s) => s.session));
    try {
      // Every added session in the store; the total counts the sessions of other files too (whatever ran before).
      await waitFor(() => {
        const now = listed();
        return added.every((session) => now.has(session));
      }, `all ${MANY_SESSIONS} added sessions in the store`, 20_000);
      // The view lists a subagent's session under its parent's (when that is listed), not as a row of its own.
      const sessions = plan.listSessions();
      const present = new Set(sessions.map((s) => s.session));
      const rows = sessions.filter((s) => {
        const parent = plan.getSessionInfo(s.session).parent;
        return parent === undefined || parent === s.session || !present.has(parent);
      });
      const total = rows.length;
      const oldest = rows.at(-1)!;
      const oldestName = await sessionName(oldest.session, oldest.todos[0]!.content);
      // The end of the list: a row for the sessions not listed yet.
      await vscode.commands.executeCommand('agentPlan.sessions.focus');
      const moreRow = `Show ${Math.min(SESSIONS_PAGE, total - SESSIONS_PAGE)} older sessions…`;
      await waitFor(async () => {
        await bridge({ op: 'keys', press: ['End'] });
        return (await domTexts(SESSIONS_VIEW_ROWS)).some((text) => text.includes(moreRow));
      }, `the "${moreRow}" row at the end of the Sessions view`);
      assert.ok(!(await rowLabels(SESSIONS_VIEW_ROWS)).some((label) => label.includes(oldestName)), 'the oldest session is not listed yet');
      await bridge({ op: 'click', selector: SESSIONS_VIEW_ROWS, hasText: moreRow });
      // Now the whole list: its end is the oldest session, and no row for more.
      // The last session row of the list's top level (a subagent's row may follow its parent's,
      // one level deeper), by its place in the list (the DOM keeps drawn rows in any order).
      let last: string | undefined;
      await waitFor(async () => {
        await bridge({ op: 'keys', press: ['End'] });
        const texts = await domTexts(SESSIONS_VIEW_ROWS);
        const drawn = (await drawnSessionRows())?.filter((row) => isSessionRow(row.label));
        if (drawn === undefined) return false;
        const top = Math.min(...drawn.map((row) => row.level));
        last = drawn.filter((row) => row.level === top).sort((a, b) => b.index - a.index)[0]?.label;
        return !texts.some((text) => text.includes('older sessions')) && last?.includes(oldestName);
      }, () => `the oldest session (${oldestName}) at the end of the Sessions view (the last row: ${last})`);
    } finally {
      for (const file of files) fs.rmSync(file, { force: true });
      await waitFor(() => {
        const now = listed();
        return !added.some((session) => now.has(session));
      }, 'the added sessions to leave the store', 20_000);
    }
  });
});

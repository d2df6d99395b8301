// Copilot's built-in todo tool (manage_todo_list) through the real Copilot agent: Agent
// Plan follows VS Code's chat session files of this workspace and appends each call to
// the same session todo_write uses for that chat. Checked from the outside: the API, the
// log file and the rendered sidebar.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { PlanSnapshot } from '../../src/extension';
import { activityBadge, api, badgeCount, domTexts, findSessionRow, logLines, newChatSession, planItemLabels, PLAN_VIEW_ROWS, PLAN_MESSAGE } from './helpers';
import { askAgent, copilotReady, scriptTurns, turnIndex } from './copilotAgent';
import { waitFor } from '../lib/wait';

const STATUS_ITEM = '[id="agent-plan.agent-plan.agentPlan.progress"]';

type Items = Array<[string, string]>;
const itemsOf = (snapshot: PlanSnapshot | undefined): Items => (snapshot?.todos ?? []).map((t) => [t.content, t.status]);

/** What each call of a script turn should leave in Agent Plan, in call order (the README's mapping). */
function expectedLists(match: string): Items[] {
  const status: Record<string, string> = { 'not-started': 'pending', 'in-progress': 'in_progress', completed: 'completed' };
  return scriptTurns()[turnIndex(match)]!.steps.flatMap((step) => {
    if (step.tool === 'manage_todo_list') {
      return [(step.arguments as { todoList: Array<{ title: string; status: string }> }).todoList.map((i): [string, string] => [i.title.trim(), status[i.status]!])];
    }
    if (step.tool === 'todo_write') return [(step.arguments as { todos: Array<{ content: string; status: string }> }).todos.map((i): [string, string] => [i.content, i.status])];
    return [];
  });
}

async function newSession(known: readonly string[], items: Items): Promise<PlanSnapshot> {
  let seen: Items[] = [];
  return waitFor(
    async () => {
      const fresh = (await api()).listSessions().filter((s) => !known.includes(s.session));
      seen = fresh.map(itemsOf);
      return fresh.find((s) => JSON.stringify(itemsOf(s)) === JSON.stringify(items));
    },
    () => `a new session showing ${JSON.stringify(items)} (seen ${JSON.stringify(seen)})`,
  );
}

describe('Copilot\'s own todo list, followed', function () {
  this.timeout(90_000);
  let followed: PlanSnapshot;

  before(async () => {
    await copilotReady();
    await vscode.commands.executeCommand('workbench.view.extension.agentPlan');
    await vscode.commands.executeCommand('agentPlan.followLatest');
  });

  it('a manage_todo_list call shows in the sidebar: rows, badge and status bar, every call a version', async () => {
    const known = (await api()).listSessions().map((s) => s.session);
    await newChatSession();
    await askAgent('[ap:followed-1]');
    const lists = expectedLists('[ap:followed-1]');
    followed = await newSession(known, lists[lists.length - 1]!);
    assert.equal(followed.source?.agent, 'copilot');
    assert.equal(followed.source?.tool, 'manage_todo_list');
    // Copilot allows repeated titles: both are kept, the second trimmed, none dropped.
    assert.equal(followed.todos.length, 3);
    const history = await (await api()).getHistory(followed.session);
    assert.deepEqual(history.map(itemsOf), lists, 'one version per call, in call order');
    await waitFor(async () => (await planItemLabels(PLAN_VIEW_ROWS)).length === 3, 'three Plan item rows');
    await waitFor(async () => {
      const badge = await activityBadge();
      return badgeCount(badge.parts, 'open items') === 2 && badge.value === 2 + badgeCount(badge.parts, 'needs you');
    }, 'the badge to count the two open items, with the sessions that need the user');
    await waitFor(async () => (await domTexts(STATUS_ITEM))[0]?.includes('1/3'), 'the status bar to say 1/3');
  });

  it('a newer request that writes no plan marks the plan as from an earlier turn', async () => {
    // Right after the call above, in the same chat: another chat opened meanwhile (Open Chat's
    // editor) can leave the Chat view on another file's chat.
    assert.ok(followed, 'the previous test followed a plan');
    assert.equal((await api()).getSessionInfo(followed.session).earlierTurn, false);
    await askAgent('[ap:followed-moved-on]');
    // Once VS Code saved the chat with the newer request ended (a few seconds after it completes):
    // while it runs it may still write a plan.
    await waitFor(() => (api().then((plan) => plan.getSessionInfo(followed.session).earlierTurn)), 'the session to be marked as from an earlier turn (once VS Code saved the chat)', 30_000);
    await waitFor(async () => (await domTexts(PLAN_MESSAGE)).some((text) => text.includes('earlier turn')), 'the Plan view to say so');
    await waitFor(async () => (await domTexts(STATUS_ITEM))[0]?.includes('earlier turn'), 'the status bar to say so');
    // Still the same plan, still on screen.
    assert.deepEqual(itemsOf((await api()).getPlan(followed.session)), itemsOf(followed));
  });

  it('Open Chat opens the chat a followed plan belongs to, as a chat editor', async () => {
    assert.ok(followed, 'the previous test followed a plan');
    const request = '[ap:followed-1] please';
    const tabs = (): string[] => vscode.window.tabGroups.all.flatMap((group) => group.tabs.map((tab) => tab.label));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.deepEqual(tabs(), [], 'no editor open before');
    await vscode.commands.executeCommand('agentPlan.openChat', followed.session);
    // The tab is named by the chat's title once Copilot has made one, else by its request.
    const plan = await api();
    const names = (): string[] => [request, plan.getSessionInfo(followed.session).title].filter((name): name is string => name !== undefined);
    await waitFor(() => tabs().some((tab) => names().includes(tab)), `a tab for the chat ${JSON.stringify(names())} (tabs: ${JSON.stringify(tabs())})`);
    await waitFor(async () => (await domTexts('.editor-instance .interactive-item-container')).some((text) => text.includes(request)), 'the chat\'s request in the editor');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a chat that uses both tools in turn is one session whose history holds every write, and whose current plan is the last call\'s', async () => {
    const known = (await api()).listSessions().map((s) => s.session);
    await newChatSession();
    await askAgent('[ap:both-1]');
    await askAgent('[ap:both-2]');
    const lists = [...expectedLists('[ap:both-1]'), ...expectedLists('[ap:both-2]')];
    const session = await newSession(known, lists[lists.length - 1]!);
    // VS Code saves the chat file seconds after the calls: wait for the followed one.
    const history = await waitFor(async () => {
      const versions = await (await api()).getHistory(session.session);
      return versions.length === lists.length ? versions : undefined;
    }, 'every write of the chat in its history');
    const fresh = (await api()).listSessions().filter((s) => !known.includes(s.session));
    assert.equal(fresh.length, 1, 'one chat, one session');
    assert.deepEqual([...history.map(itemsOf)].map((l) => JSON.stringify(l)).sort(), lists.map((l) => JSON.stringify(l)).sort(), 'every write, none twice');
    assert.deepEqual(history.filter((s) => !s.source).map(itemsOf), [lists[0], lists[2]], 'todo_write calls in call order');
    // VS Code saves the chat file seconds after the calls. Read after the later todo_write (the
    // usual case), the followed call joins the history superseded, never the current plan; read
    // before it (VS Code saved between the two requests), it was the plan until that write.
    const late = history.find((s) => s.source?.tool === 'manage_todo_list');
    assert.deepEqual(itemsOf(late), lists[1]);
    const readAfterLastWrite = (late ? history.indexOf(late) : -1) > history.findIndex((s) => !s.source && JSON.stringify(itemsOf(s)) === JSON.stringify(lists[2]));
    assert.equal(late?.source?.superseded === true, readAfterLastWrite, `superseded exactly when read after the later todo_write (read after it: ${readAfterLastWrite})`);
    assert.deepEqual(itemsOf((await api()).getPlan(session.session)), lists[2], 'the last call is the current plan');
    // Followed lines say where they came from, in the log itself.
    const sources = logLines((await api()).logFile(session.session)).map((line) => (JSON.parse(line) as { source?: { agent: string } }).source?.agent);
    assert.ok(sources.includes('copilot'));
    // Chats, not hashes: once Copilot has titled the chat, its Sessions row says so.
    const title = await waitFor(() => (api().then((plan) => plan.getSessionInfo(session.session).title)), 'Copilot to give the chat a title', 20_000);
    await findSessionRow((row) => row.includes(title), `a Sessions row titled "${title}"`, 20_000);
  });
});

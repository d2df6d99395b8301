// The real GitHub Copilot agent (Copilot Chat 0.67.0, built into the pinned host)
// in agent mode, with a scripted local model: what Copilot sends the model about
// todo_write, what the model gets back, and what the sidebar shows. Checked from
// the outside only: the model's recorded requests, the log folder, the rendered DOM.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, bridge, domTexts, EXTENSION_ID, findInSessionRows, isSessionRow, newChatSession, type SessionsViewRow, planItemLabels, rowName, runDir, withoutPlanWrites, PLAN_VIEW_ROWS, PLAN_MESSAGE, PICKER_ROWS } from './helpers';
import { askAgent, copilotReady, records, scriptTurns, textOf, toolResults, turnIndex, type ModelRecord } from './copilotAgent';
import { sleep, waitFor } from '../lib/wait';

const STATUS_ITEM = '[id="agent-plan.agent-plan.agentPlan.progress"]';
const CHAT_ITEMS = '#workbench\\.parts\\.auxiliarybar .interactive-item-container';
/** The chat view's header: the open chat's title, beside the back arrow. */
const CHAT_TITLE = '#workbench\\.parts\\.auxiliarybar .chat-view-title-label';

interface Todo {
  content: string;
  status: string;
}

/** The todo lists a turn of the script sends with todo_write, in order. */
function scriptedLists(match: string): Todo[][] {
  return scriptTurns()[turnIndex(match)]!.steps.filter((step) => step.tool === 'todo_write').map((step) => (step.arguments as { todos: Todo[] }).todos);
}

/** The ids the model gave its todo_write calls in a turn, and the text each call got back. */
function resultsOfTurn(played: ModelRecord[]): string[] {
  const texts: string[] = [];
  played.forEach((record, i) => {
    for (const call of record.reply?.calls ?? []) {
      const next = played[i + 1];
      assert.ok(next, `a follow-up request after call ${call.id}`);
      const text = toolResults(next).get(call.id);
      assert.ok(text !== undefined, `the follow-up request carries a role "tool" message for ${call.id}`);
      texts.push(text);
    }
  });
  return texts;
}

const rowLabels = (selector: string): Promise<string[]> => bridge<Array<string | null>>({ op: 'attributes', selector, name: 'aria-label' }).then((labels) => labels.map((label) => label ?? ''));
const contents = (rows: string[]): string => rows.map((row) => row.replace(/, .*$/, '')).join(' | ');

describe('the real Copilot agent with a scripted model', function () {
  this.timeout(90_000);
  /** The session of the chat that played the two-request plan. */
  let planned = '';

  before(async () => {
    await copilotReady();
    await vscode.commands.executeCommand('workbench.view.extension.agentPlan');
    await vscode.commands.executeCommand('agentPlan.followLatest');
  });

  it('is offered todo_write exactly as the manifest declares it, beside the built-in manage_todo_list', async () => {
    await newChatSession();
    const [request] = await askAgent('[ap:offer]');
    const tools = request?.body?.tools ?? [];
    const ours = tools.filter((tool) => tool.function.name === 'todo_write');
    assert.equal(ours.length, 1, `todo_write is offered once (offered: ${tools.map((tool) => tool.function.name).join(', ')})`);
    const manifest = (vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { languageModelTools: Array<{ name: string; modelDescription: string; inputSchema: unknown }> } }).contributes.languageModelTools.find((tool) => tool.name === 'todo_write')!;
    assert.equal(ours[0]!.type, 'function');
    assert.equal(ours[0]!.function.description, manifest.modelDescription);
    assert.deepEqual(ours[0]!.function.parameters, manifest.inputSchema);
    // Copilot's own todo tool is in the same request, by default.
    assert.ok(tools.some((tool) => tool.function.name === 'manage_todo_list'), 'manage_todo_list is offered too');
  });

  it('plays a plan across two requests: the sidebar follows each call, the model reads our exact results, the chat shows our messages', async () => {
    const plan = await api();
    const known = plan.listSessions().map((s) => s.session);
    await newChatSession();
    const seen: string[] = [];
    const banners: string[] = [];
    let watching = true;
    const watch = (async () => {
      while (watching) {
        const rows = await planItemLabels(PLAN_VIEW_ROWS).catch(() => []);
        const shown = rows.join('\n');
        if (shown !== '' && seen[seen.length - 1] !== shown) seen.push(shown);
        // The screen and the API, read together: a turn that writes the plan never shows it as
        // from an earlier turn, not even between the turn's start and its first call.
        const banner = (await domTexts(PLAN_MESSAGE).catch(() => [])).find((text) => text.includes('earlier turn'));
        const viewed = plan.getViewState().session;
        if (banner !== undefined) banners.push(`${banner} (API: earlierTurn ${viewed === undefined ? 'no session' : String(plan.getSessionInfo(viewed).earlierTurn)})`);
        await sleep(150);
      }
    })();
    let first: ModelRecord[];
    let second: ModelRecord[];
    try {
      first = await askAgent('[ap:plan-1]');
      second = await askAgent('[ap:plan-2]');
      const last = scriptedLists('[ap:plan-2]').at(-1)!;
      await waitFor(async () => contents(await planItemLabels(PLAN_VIEW_ROWS)) === last.map((todo) => todo.content).join(' | ') && (await planItemLabels(PLAN_VIEW_ROWS)).every((row) => /completed/i.test(row)), 'the last plan in the sidebar');
    } finally {
      watching = false;
      await watch;
    }
    assert.deepEqual(banners, [], 'no earlier-turn banner while the turns that write the plan run');
    const [message] = await domTexts(PLAN_MESSAGE);
    assert.ok(!(message ?? '').includes('earlier turn') && !plan.getSessionInfo(plan.getViewState().session!).earlierTurn, 'the screen and the API agree: the plan is this turn\'s');
    assert.deepEqual(resultsOfTurn(first), ['Updated todo list: 2 pending, 1 in progress, 0 completed.', 'Updated todo list: 1 pending, 1 in progress, 1 completed.']);
    assert.deepEqual(resultsOfTurn(second), ['Updated todo list: 0 pending, 1 in progress, 2 completed.', 'Updated todo list: 0 pending, 0 in progress, 3 completed.']);

    // One session holds the four calls in order, exactly as the model sent them.
    const lists = [...scriptedLists('[ap:plan-1]'), ...scriptedLists('[ap:plan-2]')];
    const session = (await waitFor(() => plan.listSessions().find((s) => !known.includes(s.session) && s.todos.some((todo) => todo.content === lists.at(-1)![0]!.content)), "the chat's session")).session;
    planned = session;
    assert.deepEqual(
      (await plan.getHistory(session)).map((snapshot) => snapshot.todos.map(({ content, status }) => ({ content, status }))),
      lists,
    );
    // The sidebar showed each version in turn (each stays up while the model "works").
    const label = (todo: Todo): string => `${todo.content}, ${todo.status.replace('_', ' ')}`;
    const expected = lists.map((list) => list.map(label).join('\n'));
    let at = 0;
    for (const shown of seen) if (shown === expected[at]) at++;
    assert.equal(at, expected.length, `the Plan view showed every version in order; it showed ${JSON.stringify(seen)}`);

    // The chat shows our prepareInvocation message for each call.
    const chatRows = await rowLabels('.monaco-list-row.response');
    for (const message of ['Plan 0/3 done · now: Survey the code', 'Plan 1/3 done · now: Write the change', 'Plan 2/3 done · now: Run the tests', 'Plan 3/3 done']) {
      assert.ok(chatRows.some((row) => row.includes(message)), `the chat shows "${message}"; it shows ${JSON.stringify(chatRows)}`);
    }
  });

  it('a newer request in that chat that calls no todo tool marks its todo_write plan as from an earlier turn', async () => {
    const plan = await api();
    assert.ok(planned !== '', 'the previous test played a plan');
    const session = planned;
    const before = plan.getPlan(session);
    await askAgent('[ap:plan-moved-on]');
    await waitFor(() => plan.getSessionInfo(session).earlierTurn, 'the session to be marked as from an earlier turn (once VS Code saved the chat)', 20_000);
    await waitFor(async () => (await domTexts(PLAN_MESSAGE)).some((text) => text.includes('earlier turn')), 'the Plan view to say so');
    await waitFor(async () => (await domTexts(STATUS_ITEM))[0]?.includes('earlier turn'), 'the status bar to say so');
    assert.deepEqual(plan.getPlan(session)?.todos, before?.todos, 'the same plan, still on screen');
    assert.equal(plan.getSessionInfo(session).agent, 'copilot', 'a chat the Copilot agent answered is labelled Copilot');
  });

  it('brings the model our exact error for a duplicate item, and writes nothing', async () => {
    await newChatSession();
    // Plans only: the chat follower may add session/info lines (titles, turns) meanwhile.
    const played = await withoutPlanWrites('a duplicate item from the Copilot agent', () => askAgent('[ap:duplicate]'));
    assert.deepEqual(resultsOfTurn(played), ['Error: invalid todos: duplicate content "Same step"']);
  });

  it('tells Copilot\'s side requests (titles, progress messages) apart from agent requests', () => {
    const all = records();
    const agent = all.filter((record) => record.kind === 'agent');
    const side = all.filter((record) => record.kind === 'side');
    assert.ok(agent.length > 0 && side.length > 0, `both kinds were recorded (${agent.length} agent, ${side.length} side)`);
    for (const record of agent) assert.ok((record.body?.tools?.length ?? 0) > 0, `agent request ${record.seq} offers tools`);
    for (const record of side) assert.equal(record.body?.tools, undefined, `side request ${record.seq} offers no tools`);
    const titles = side.filter((record) => (record.body?.messages ?? []).some((message) => message.role === 'user' && textOf(message.content).includes('brief title')));
    assert.ok(titles.length > 0, 'Copilot asked the model for a chat title');
    for (const record of titles) assert.equal(record.reply?.calls, undefined, 'a title request gets text only');
  });

  it('starts a new session for a new chat; two chats alternate, each writing its own session, in the Sessions view', async () => {
    const plan = await api();
    const known = plan.listSessions().map((s) => s.session);
    /** The new session whose first item is `first`: this test's chat, whatever other sessions write meanwhile. */
    const sessionOf = (first: string) => waitFor(() => plan.listSessions().find((s) => !known.includes(s.session) && s.todos[0]?.content === first), `the session of "${first}"`);
    await newChatSession();
    await askAgent('[ap:alpha-1]');
    const alpha = await sessionOf('Alpha task');
    assert.equal(alpha.todos[0]?.content, 'Alpha task');
    await newChatSession();
    await askAgent('[ap:beta-1]');
    const beta = await sessionOf('Beta task');
    assert.notEqual(beta.session, alpha.session, 'a new chat is a new session');
    assert.equal(beta.todos[0]?.content, 'Beta task');
    // A row names its chat by the title Copilot gave it once the chat file has one, else by its first request, else by its first item.
    /** The places of the two chats' rows among all the Sessions rows (-1: not listed). */
    const positions = (all: SessionsViewRow[]): [number, number] => {
      const rows = all.map((row) => row.label).filter(isSessionRow);
      return [rows.findIndex((row) => row.includes(rowName(plan, alpha.session, 'Alpha task'))), rows.findIndex((row) => row.includes(rowName(plan, beta.session, 'Beta task')))];
    };
    await findInSessionRows((all) => {
      const [a, b] = positions(all);
      return b >= 0 && a > b;
    }, 'Beta above Alpha in the Sessions view');
    // Back to the first chat: the chat view's back arrow shows its session list, where the first
    // chat's title is the model's answer to Copilot's title request (or the request itself).
    await bridge({ op: 'click', selector: '#workbench\\.parts\\.auxiliarybar .codicon-arrow-left', timeoutMs: 5000 });
    const item = await waitFor(async () => {
      const items = await domTexts('.agent-session-item');
      return ['Alpha chat', '[ap:alpha-1]'].find((text) => items.some((shown) => shown.includes(text)));
    }, 'the first chat in the chat view\'s session list');
    // The next request must go to that chat: wait until the chat view shows it, not the second one.
    // A click that lands while the list is drawn again opens nothing; one click per try, each
    // given time to load the chat (clicking on while it loads would open it over and over).
    const firstChatShown = async (): Promise<boolean> => {
      const shown = await domTexts(CHAT_ITEMS);
      return shown.some((text) => text.includes('[ap:alpha-1]')) && !shown.some((text) => text.includes('[ap:beta-1]'));
    };
    // The chat view's list shows the few most recent chats: where other files' chats have pushed
    // the first one out of it, the user picks it from all of them (Chat: Pick Agent Session).
    const fromPicker = async (): Promise<void> => {
      void vscode.commands.executeCommand('workbench.action.chat.pickAgentSession');
      await waitFor(async () => (await domTexts(PICKER_ROWS)).some((text) => text.includes(item)), 'the first chat among all chats', 5000).catch(() => undefined);
      await bridge({ op: 'click', selector: PICKER_ROWS, hasText: item, timeoutMs: 5000 }).catch(() => undefined);
    };
    // A click on the list's row that opens nothing (the list drawn again, or hidden behind a chat
    // shown meanwhile while its rows stay in the page) is followed by the picker, which lists them all.
    let opened = false;
    for (let attempt = 0; attempt < 3 && !opened; attempt++) {
      if (attempt === 0 && !(await domTexts('.agent-session-item')).some((text) => text.includes(item))) {
        await bridge({ op: 'click', selector: '#workbench\\.parts\\.auxiliarybar .codicon-arrow-left', timeoutMs: 5000 }).catch(() => undefined);
      }
      if (attempt > 0 || !(await domTexts('.agent-session-item')).some((text) => text.includes(item))) await fromPicker();
      else await bridge({ op: 'click', selector: '.agent-session-item', hasText: item, timeoutMs: 5000 }).catch(() => undefined);
      opened = await waitFor(firstChatShown, 'the first chat open in the chat view').then(
        () => true,
        () => false,
      );
      // The chat view may name the first chat in its header before it draws its requests (seen on
      // a loaded machine: header "Alpha chat", no request drawn yet). The picker lists every chat but
      // the open one, so it cannot help then: the view is the first chat's, and the next request
      // goes to it. What follows proves it: that request's plan lands in the first chat's session.
      if (!opened && (await domTexts(CHAT_TITLE)).some((text) => text.includes(item))) {
        opened = await waitFor(firstChatShown, 'the first chat, named in the header, to draw its requests', 15_000).then(
          () => true,
          async () => !(await domTexts(CHAT_ITEMS)).some((text) => text.includes('[ap:beta-1]')),
        );
      }
    }
    if (!opened) {
      await bridge({ op: 'screenshot', file: path.join(runDir(), 'logs', 'first-chat-not-open.png') }).catch(() => undefined);
      throw new Error(`timed out waiting for the first chat open in the chat view after 3 tries (a click, then the picker twice); listed: ${JSON.stringify(await domTexts('.agent-session-item'))}; header: ${JSON.stringify(await domTexts(CHAT_TITLE))}; shown: ${JSON.stringify(await domTexts(CHAT_ITEMS))}`);
    }
    await askAgent('[ap:alpha-2]');
    // The first chat writes to its own session again: its plan changes, and no new session shows it.
    const again = await waitFor(() => plan.getPlan(alpha.session)?.todos.every((todo) => todo.status === 'completed') && plan.getPlan(alpha.session), "the first chat's session to take its second plan");
    assert.deepEqual(again.todos.map((todo) => todo.status), ['completed']);
    assert.deepEqual(
      plan.listSessions().filter((s) => !known.includes(s.session) && s.todos[0]?.content === 'Alpha task').map((s) => s.session),
      [alpha.session],
      'the first chat writes to its own session again',
    );
    assert.equal(plan.getPlan(beta.session)?.todos[0]?.status, 'in_progress', "the second chat's plan is untouched");
    await findInSessionRows((all) => {
      const [a, b] = positions(all);
      return a >= 0 && b > a;
    }, 'Alpha back above Beta in the Sessions view');
  });
});

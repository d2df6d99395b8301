// The `npm start` demo, end to end in the real host: the @demo participant runs
// its agent loop against the scripted offline model, which calls todo_write
// through the real chat tool path; the sidebar must end up showing exactly the
// demo's last todo_write input.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PlanSnapshot } from '../../src/extension';
import { api, bridge, findSessionRow, newChatSession, planItemLabels, runDir, PLAN_VIEW_ROWS } from './helpers';
import { waitFor } from '../lib/wait';

const DEMO_ID = 'agent-plan-demo.agent-plan-demo';
const STEP_DELAY = 'agentPlanDemo.stepDelayMs';
/** The exported description of the dark mode session, its times normalized (see timesNormalized). */
const EXPECTED_DESCRIPTION = path.join(__dirname, '..', '..', '..', 'test', 'integration', 'expected', 'demo-pr-description.md');
/** A span as the views say it: "under 1 s", "42 s", "4 min 12 s", "1 h 5 min". */
const SPAN = /under 1 s|\d+ (?:s|min|h|d)(?: \d+ (?:s|min|h))?/;

/** This machine's times (how long the demo's steps took here) written as `<time>`; the rest is exact. */
function timesNormalized(markdown: string): string {
  return markdown.replace(new RegExp(`(— |Elapsed )(?:${SPAN.source})`, 'g'), '$1<time>');
}

/** Whole seconds of a span text ("under 1 s" is 0), or undefined when it is none. */
function spanSeconds(text: string): number | undefined {
  if (text === 'under 1 s') return 0;
  const match = /^(?:(\d+) min)? ?(?:(\d+) s)?$/.exec(text);
  if (!match || (match[1] === undefined && match[2] === undefined)) return undefined;
  return Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0);
}


type Status = PlanSnapshot['todos'][number]['status'];
interface Todo {
  content: string;
  status: Status;
}
interface DemoCall {
  request: number;
  input: { todos: Todo[] };
  resultText: string | undefined;
  error: string | undefined;
}
interface DemoRequest {
  prompt: string;
  calls: DemoCall[];
  done: boolean;
  error: string | undefined;
}
interface DemoApi {
  calls: DemoCall[];
  requests: DemoRequest[];
}

async function demo(): Promise<DemoApi> {
  const extension = vscode.extensions.getExtension<DemoApi>(DEMO_ID);
  if (!extension) throw new Error(`${DEMO_ID} is not loaded`);
  return extension.activate();
}

/** Sends a request to @demo as a user would, and waits until its agent loop has finished. */
async function askDemo(query: string): Promise<DemoRequest> {
  const { requests } = await demo();
  const index = requests.length;
  await vscode.commands.executeCommand('workbench.action.chat.open', {
    query,
    mode: 'ask',
    modelSelector: { vendor: 'agent-plan-demo' },
    isPartialQuery: false,
    blockOnResponse: true,
  });
  return waitFor(
    () => {
      const request = requests[index];
      return request && (request.done || request.error !== undefined) ? request : undefined;
    },
    `@demo to finish "${query}"`,
    45_000,
  );
}

const pick = (todos: readonly Todo[]): Todo[] => todos.map(({ content, status }) => ({ content, status }));
const inProgress = (todos: readonly Todo[]): number => todos.filter((todo) => todo.status === 'in_progress').length;

/** Index of a call whose list keeps its length but changes an item's text in place. */
function rewordedAt(lists: Todo[][]): number {
  return lists.findIndex((list, i) => {
    const next = lists[i + 1];
    return next !== undefined && next.length === list.length && list.some((todo, k) => next[k]!.content !== todo.content && !next.some((n) => n.content === todo.content));
  });
}

/** Index of a call, after the first and before the last, that adds an item never seen before. */
function addedMidwayAt(lists: Todo[][]): number {
  const seen = new Set<string>();
  let grownAt = -1;
  lists.forEach((list, i) => {
    if (i > 0 && i < lists.length - 1 && grownAt < 0 && list.length > lists[i - 1]!.length && list.some((todo) => !seen.has(todo.content))) grownAt = i;
    for (const todo of list) seen.add(todo.content);
  });
  return grownAt;
}

/** Runs one request in a new chat and checks the loop, the log and the sidebar; returns its session and inputs. */
async function runDemo(query: string): Promise<{ session: string; lists: Todo[][]; prompt: string }> {
  const plan = await api();
  await newChatSession();
  const snapshots: PlanSnapshot[] = [];
  const subscription = plan.onDidWritePlan((snapshot) => snapshots.push(snapshot));
  try {
    const request = await askDemo(query);
    assert.equal(request.error, undefined, 'the agent loop ran without error');
    assert.equal(request.done, true);
    const lists = request.calls.map((call) => call.input.todos);
    assert.ok(lists.length >= 6, `several todo_write calls (got ${lists.length})`);
    for (const call of request.calls) {
      assert.equal(call.error, undefined);
      assert.ok(call.resultText?.startsWith('Updated todo list:'), `result text: ${call.resultText}`);
    }

    // Every call wrote one snapshot, all to one session, each equal to what the model sent.
    await waitFor(() => snapshots.length >= lists.length, 'a snapshot per todo_write call');
    assert.equal(snapshots.length, lists.length);
    const sessions = new Set(snapshots.map((snapshot) => snapshot.session));
    assert.equal(sessions.size, 1, 'one chat, one session');
    const session = snapshots[0]!.session;
    assert.deepEqual(
      snapshots.map((snapshot) => pick(snapshot.todos)),
      lists,
    );
    assert.deepEqual(
      (await plan.getHistory(session)).map((snapshot) => pick(snapshot.todos)),
      lists,
      'the history holds every version',
    );

    // What the sidebar shows at the end is the demo's last todo_write input.
    const last = lists[lists.length - 1]!;
    const state = await waitFor(() => {
      const current = plan.getViewState();
      return current.session === session ? current : undefined;
    }, 'the Plan view to follow the demo session');
    assert.deepEqual(pick(state.items), last);
    assert.equal(plan.getPlan()?.session, session);
    assert.deepEqual(pick(plan.getPlan()?.todos ?? []), last);
    assert.equal(plan.listSessions()[0]?.session, session, 'the demo session is the latest in the Sessions view');

    // And so does the rendered tree.
    let rows: string[] = [];
    try {
      await waitFor(async () => {
        rows = await planItemLabels(PLAN_VIEW_ROWS);
        return rows.length === last.length && last.every((todo, i) => rows[i]?.startsWith(`${todo.content}, `));
      }, 'the Plan rows in the DOM');
    } catch (error) {
      assert.deepEqual(rows, last.map((todo) => todo.content), String(error));
    }
    return { session, lists, prompt: request.prompt };
  } finally {
    subscription.dispose();
  }
}

describe('the npm start demo: @demo and its scripted model drive todo_write', () => {
  let previousDelay: number | undefined;
  let darkModeSession = '';
  let darkModePrompt = '';

  before(async () => {
    const config = vscode.workspace.getConfiguration();
    previousDelay = config.inspect<number>(STEP_DELAY)?.globalValue;
    await config.update(STEP_DELAY, 50, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.view.extension.agentPlan');
    await vscode.commands.executeCommand('agentPlan.followLatest');
  });

  after(async () => {
    await vscode.workspace.getConfiguration().update(STEP_DELAY, previousDelay, vscode.ConfigurationTarget.Global);
  });

  it('plays the dark mode scenario through the real tool; the sidebar ends on its last plan', async function () {
    this.timeout(90_000);
    const { session, lists, prompt } = await runDemo('@demo add a dark mode toggle');
    darkModeSession = session;
    darkModePrompt = prompt;

    assert.ok(lists[0]!.length > 0 && lists[0]!.every((todo) => todo.status === 'pending'), 'the plan starts with every item pending');
    assert.ok(lists.some((list) => inProgress(list) >= 2), 'two items in progress at once');
    const reworded = rewordedAt(lists);
    assert.ok(reworded >= 0, 'an item is reworded between two calls');
    assert.ok(addedMidwayAt(lists) > 0, 'an item is added midway');
    assert.ok(lists[lists.length - 1]!.every((todo) => todo.status === 'completed'), 'everything completed at the end');
    assert.ok(lists.some((list) => list.some((todo) => /dark/i.test(todo.content))), 'the dark mode script was chosen');
  });

  it('each item says what it cost (time only: the demo records no usage), as getLedger does; the session exports as a pull request description', async function () {
    this.timeout(60_000);
    assert.ok(darkModeSession !== '', 'the dark mode session ran first');
    const plan = await api();
    // The Plan view follows the latest session: the dark mode one, run last.
    assert.equal(plan.getViewState().session, darkModeSession);
    const last = plan.getPlan(darkModeSession)?.todos ?? [];
    const ledger = await plan.getLedger(darkModeSession);
    // The demo's own loop records no model response: nothing counted, tokens not recorded (never 0).
    assert.deepEqual(ledger.total, { responses: 0, calls: 0, tokens: undefined, cost: undefined });
    for (const todo of last) {
      const item = ledger.items.find((candidate) => candidate.content === todo.content);
      assert.ok(item && item.inProgressMs > 0, `“${todo.content}” was in progress for a while`);
      // Its row's description says that time, as the ledger has it (to the second).
      const row = `${PLAN_VIEW_ROWS}[aria-label="${todo.content.replace(/"/g, '\\"')}, completed"] .label-description`;
      const description = await waitFor(async () => (await bridge<string[]>({ op: 'texts', selector: row }))[0], `the description of “${todo.content}”`);
      assert.equal(spanSeconds(description.trim()), Math.round(item.inProgressMs / 1000), `“${todo.content}”: ${description}`);
    }

    // The description is titled by the session's name: the request, once the chat follower copied it.
    await waitFor(() => plan.getSessionInfo(darkModeSession).request !== undefined, 'the first request in the session log', 30_000);
    const markdown = await vscode.commands.executeCommand<string>('agentPlan.copyAsPullRequestDescription', darkModeSession, 'clipboard');
    assert.equal(await vscode.env.clipboard.readText(), markdown, 'the clipboard holds what the command made');
    // Its heading is the session's name: the chat's title once Copilot titled the chat (it does
    // when its models are ready, as after any Copilot test of this run), else the request.
    const name = plan.getSessionInfo(darkModeSession).title ?? darkModePrompt.trim();
    assert.ok(markdown.startsWith(`## ${name}\n`), `headed by the session's name, ${JSON.stringify(name)}: ${markdown.split('\n')[0]}`);
    const actual = timesNormalized(markdown).replace(/^## .*\n/, '## <session name>\n');
    fs.writeFileSync(path.join(runDir(), 'demo-pr-description.actual.md'), actual);
    assert.equal(actual, fs.readFileSync(EXPECTED_DESCRIPTION, 'utf8'), `the whole description (this run's is in ${runDir()})`);
  });

  it('the session is named by what the user asked (or the chat\'s title), not by its first item: its Sessions row and its timeline', async function () {
    this.timeout(60_000);
    assert.ok(darkModeSession !== '', 'the dark mode scenario ran');
    const plan = await api();
    // The request as the participant received it (VS Code hands it on without "@demo").
    const asked = darkModePrompt;
    const first = plan.getPlan(darkModeSession)?.todos[0]?.content ?? '';
    assert.ok(asked !== '' && first !== '' && asked !== first);
    // The chat follower reads VS Code's chat file and copies the first request into the log, once.
    const info = await waitFor(() => {
      const current = plan.getSessionInfo(darkModeSession);
      return current.request !== undefined ? current : undefined;
    }, 'the first request in the session log', 30_000);
    assert.equal(info.request, asked.trim());
    assert.deepEqual([...new Set(logRequests(plan.logFile(darkModeSession)))], [asked.trim()], 'the session/info lines say it, and nothing else');
    // The Sessions row, read from the DOM, says what was asked, or the chat's title where
    // Copilot titled the chat (a title names a session before its request does).
    const name = (): string => plan.getSessionInfo(darkModeSession).title ?? asked.trim();
    const row = await findSessionRow((label) => label.startsWith(`Session ${name()},`), 'the Sessions row named by the request');
    assert.ok(!row?.includes(first), `not by its first item: ${row}`);
    // So does the Plan Timeline's title.
    await vscode.commands.executeCommand('agentPlan.showTimeline', darkModeSession);
    await waitFor(() => vscode.window.tabGroups.activeTabGroup.activeTab?.label === `Timeline: ${name()}`, 'the timeline titled by the request');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('a second request in a new chat is a second session with a plan built from its text', async function () {
    this.timeout(90_000);
    const plan = await api();
    const { session, lists } = await runDemo('@demo write a CSV export for the cups list');
    assert.notEqual(session, darkModeSession);
    const listed = plan.listSessions().map((snapshot) => snapshot.session);
    assert.ok(listed.includes(darkModeSession) && listed.includes(session), 'both demo sessions are listed');
    assert.equal(lists[0]![0]!.content, 'Understand the request: write a CSV export for the cups list');
    assert.ok(lists.some((list) => inProgress(list) >= 2));
    assert.ok(rewordedAt(lists) >= 0);
    assert.ok(addedMidwayAt(lists) > 0);
    assert.ok(lists[lists.length - 1]!.every((todo) => todo.status === 'completed'));
  });
});

/** The `request` of each session/info line of a log file that has one, in file order. */
function logRequests(file: string): string[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"session/info"'))
    .map((line) => (JSON.parse(line) as { request?: string }).request)
    .filter((request): request is string => request !== undefined);
}

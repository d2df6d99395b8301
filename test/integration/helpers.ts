// Shared by the integration tests: the extension's API, real chat requests
// through the fixture participant, and the bridge to the rendered DOM (waiting: ../lib/wait.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentPlanApi, PlanSnapshot } from '../../src/extension';
import { waitFor } from '../lib/wait';

export const EXTENSION_ID = 'agent-plan.agent-plan';
export const FIXTURE_ID = 'agent-plan-test.agent-plan-fixture';

export interface FixtureCall {
  prompt: string;
  hasToken: boolean;
  resultText: string | string[] | undefined;
  error: string | undefined;
}

export async function api(): Promise<AgentPlanApi> {
  const extension = vscode.extensions.getExtension<AgentPlanApi>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded`);
  return extension.activate();
}

async function fixtureCalls(): Promise<FixtureCall[]> {
  const extension = vscode.extensions.getExtension<{ calls: FixtureCall[] }>(FIXTURE_ID);
  if (!extension) throw new Error(`${FIXTURE_ID} is not loaded`);
  return (await extension.activate()).calls;
}

/** The folder this run lives in (the parent of the test workspace). */
export function runDir(): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!folder) throw new Error('no workspace folder');
  return path.dirname(folder);
}

/** Starts a new chat, so the next request belongs to a new chat session. */
export async function newChatSession(): Promise<void> {
  // New Chat acts on the chat widget focused last, which after another file's chat editor or
  // webview need not be the Chat view's: focus the view first, as the next request goes there.
  await vscode.commands.executeCommand('workbench.action.chat.open');
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
}

/**
 * Sends a real chat request to the fixture participant, which calls todo_write
 * with each input in turn and the request's own toolInvocationToken.
 */
export async function chat(...inputs: unknown[]): Promise<FixtureCall> {
  const calls = await fixtureCalls();
  const before = calls.length;
  const prompt = JSON.stringify(inputs.length === 1 ? { input: inputs[0] } : { calls: inputs });
  await vscode.commands.executeCommand('workbench.action.chat.open', {
    query: `@planner ${prompt}`,
    mode: 'ask',
    modelSelector: { vendor: 'agent-plan-test' },
    isPartialQuery: false,
    blockOnResponse: true,
  });
  await waitFor(() => calls.length > before && (calls[calls.length - 1]?.resultText !== undefined || calls[calls.length - 1]?.error !== undefined), 'the participant to answer');
  const call = calls[calls.length - 1];
  if (!call) throw new Error('no chat call recorded');
  return call;
}

/**
 * Sends a real chat request (as `chat` does) and returns the session its last todo_write saved:
 * the one whose write carried that plan, found by the write event, never by being the newest
 * (another file's agent may write after it).
 */
export async function chatSession(...inputs: unknown[]): Promise<{ call: FixtureCall; session: string }> {
  const plan = await api();
  const last = inputs[inputs.length - 1] as { todos?: Array<{ content: string; status: string }> } | undefined;
  const wanted = JSON.stringify((last?.todos ?? []).map(({ content, status }) => ({ content, status })));
  const written: PlanSnapshot[] = [];
  const subscription = plan.onDidWritePlan((snapshot) => written.push(snapshot));
  try {
    const call = await chat(...inputs);
    if (call.error !== undefined || !String(call.resultText).startsWith('Updated todo list')) throw new Error(`the chat's todo_write failed: ${call.error ?? call.resultText}`);
    const snapshot = await waitFor(
      () => written.find((s) => s.source === undefined && JSON.stringify(s.todos.map(({ content, status }) => ({ content, status }))) === wanted),
      `the write of ${wanted}`,
    );
    return { call, session: snapshot.session };
  } finally {
    subscription.dispose();
  }
}

/** Lines of a session's log file (empty when it does not exist). */
export function logLines(file: string): string[] {
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').split('\n').filter((line) => line !== '');
}

/** The `todo/write` lines of a session's log: its plans, without the session/info lines the followers add. */
export function planLines(file: string): string[] {
  return logLines(file).filter((line) => (JSON.parse(line) as { type?: unknown }).type === 'todo/write');
}

/**
 * Runs `action` and checks it wrote no plan: no log file was created or gained a plan line,
 * except by a follower (an agent's own record read meanwhile, its write event naming a
 * source): another file's agent may still write while this runs.
 */
export async function withoutPlanWrites<T>(what: string, action: () => Promise<T>): Promise<T> {
  const plan = await api();
  const counts = () => new Map(logFiles(plan.logFolder).map((name) => [name, planLines(path.join(plan.logFolder, name)).length] as const));
  const before = counts();
  const followed = new Set<string>();
  const subscription = plan.onDidWritePlan((snapshot) => {
    if (snapshot.source !== undefined) followed.add(path.basename(plan.logFile(snapshot.session)));
  });
  try {
    const result = await action();
    let changed: string[] = [];
    // A follower's write event may come a moment after its line: wait for each change to be explained.
    await waitFor(
      () => {
        changed = [...counts()].filter(([name, lines]) => before.get(name) !== lines && !followed.has(name)).map(([name]) => name);
        return changed.length === 0;
      },
      () => `${what}: no log file created or grown but by a follower (changed: ${JSON.stringify(changed)})`,
      3000,
    );
    return result;
  } finally {
    subscription.dispose();
  }
}

export function logFiles(folder: string): string[] {
  if (!fs.existsSync(folder)) return [];
  return fs.readdirSync(folder).filter((name) => name.endsWith('.jsonl')).sort();
}

let bridgeCounter = 0;
/** Asks the launcher, which drives the browser, about the rendered workbench; a real agent's run may take longer than `timeoutMs`'s default. */
export async function bridge<T>(request: Record<string, unknown>, timeoutMs = 20_000): Promise<T> {
  const dir = path.join(runDir(), 'bridge');
  const id = `${process.pid}-${++bridgeCounter}`;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `req-${id}.json.tmp`), JSON.stringify(request));
  fs.renameSync(path.join(dir, `req-${id}.json.tmp`), path.join(dir, `req-${id}.json`));
  const responseFile = path.join(dir, `res-${id}.json`);
  // Looked for every 10 ms: the launcher answers within a few, and tests make hundreds of requests.
  await waitFor(() => fs.existsSync(responseFile), `the bridge to answer ${JSON.stringify(request)}`, timeoutMs, 10);
  const response = JSON.parse(fs.readFileSync(responseFile, 'utf8')) as { ok: boolean; value?: T; error?: string };
  fs.rmSync(responseFile, { force: true });
  if (!response.ok) throw new Error(`bridge: ${response.error}`);
  return response.value as T;
}

/** Inner texts of every element matching a CSS selector in the workbench. */
export function domTexts(selector: string): Promise<string[]> {
  return bridge<string[]>({ op: 'texts', selector });
}

export function todos(...items: Array<[string, 'pending' | 'in_progress' | 'completed']>): { todos: Array<{ content: string; status: string }> } {
  return { todos: items.map(([content, status]) => ({ content, status })) };
}

/** Plan item rows read "text, status"; the health rows above and below them do not. */
export function isItemRow(label: string | null | undefined): boolean {
  return /, (pending|in progress|completed|cancelled|blocked)$/.test(label ?? '');
}

/** The aria-labels of the Plan view's item rows, without its health rows. */
export async function planItemLabels(selector: string): Promise<string[]> {
  return (await bridge<Array<string | null>>({ op: 'attributes', selector, name: 'aria-label' })).flatMap((label) => (isItemRow(label) ? [label ?? ''] : []));
}

type Status = 'pending' | 'in_progress' | 'completed';
/** A todo/write line as another program appends it, in the documented format. */
export function planLine(session: string, ts: number, items: Array<[string, Status]>): string {
  const todos = items.map(([content, status]) => ({ content, status }));
  const counts = { pending: 0, inProgress: 0, completed: 0 };
  for (const todo of todos) counts[todo.status === 'in_progress' ? 'inProgress' : todo.status]++;
  return JSON.stringify({ v: 1, type: 'todo/write', ts: new Date(ts).toISOString(), session, todos, counts });
}
/** A file/write line: the files one of an agent's tool calls wrote, and the items in progress then. */
export function writeLine(session: string, ts: number, call: string, files: string[], items: string[]): string {
  return JSON.stringify({ v: 1, type: 'file/write', ts: new Date(ts).toISOString(), session, source: { agent: 'claude-code', session: 'files-run', call }, files, items });
}

/**
 * What names a session on screen now: the chat's title, else its first request's text (both
 * read from the log by the API), else its first item `first`.
 */
export async function sessionName(session: string, first: string): Promise<string> {
  return rowName(await api(), session, first);
}

/** The name a session's Sessions row shows now: the chat's title once known, else its first request, else `first` (its first item). */
export function rowName(plan: AgentPlanApi, session: string, first: string): string {
  const info = plan.getSessionInfo(session);
  return info.title ?? info.request ?? first;
}

const ACTIVITY = '.activitybar li.action-item a.action-label[aria-label^="Agent Plan"]';
const ACTIVITY_BADGE = '.activitybar li.action-item:has(a.action-label[aria-label^="Agent Plan"]) .badge-content';

/**
 * Agent Plan's badge in the activity bar: the number shown (0 when none) and what its label
 * names after the container's name, one part per view's badge ("3 open items in the plan",
 * "2 sessions need you"). VS Code adds the views' badges into one number.
 */
export async function activityBadge(): Promise<{ value: number; parts: string[] }> {
  const text = (await domTexts(ACTIVITY_BADGE))[0]?.trim() ?? '';
  const label = (await bridge<Array<string | null>>({ op: 'attributes', selector: ACTIVITY, name: 'aria-label' }))[0] ?? '';
  return { value: text === '' ? 0 : Number(text), parts: label.split(' - ').slice(1) };
}

/** The count a badge part names: open items in the plan, or sessions that need you; 0 when no part names it. */
export function badgeCount(parts: readonly string[], what: 'open items' | 'needs you'): number {
  const pattern = what === 'open items' ? /^(\d+) open items? in the plan$/ : /^(\d+) sessions? needs? you$/;
  for (const part of parts) {
    const match = pattern.exec(part);
    if (match) return Number(match[1]);
  }
  return 0;
}

/** A Sessions view row of a session ("Session … of Codex, …"), not a worktree row nor a row of the Needs You section. */
export function isSessionRow(label: string | null | undefined): boolean {
  return /^Session /.test(label ?? '');
}

/**
 * A view's tree rows, without the sticky copies of parent rows that the tree draws over the list
 * while it is scrolled (they carry the same place in the list, and no depth).
 */
const TREE_ROWS = '.monaco-list-row:not(.monaco-tree-sticky-row)';
export const SESSIONS_VIEW_ROWS = `.pane:has(.pane-header[aria-label^="Sessions"]) ${TREE_ROWS}`;
export const PLAN_VIEW_ROWS = `.pane:has(.pane-header[aria-label^="Plan"]) ${TREE_ROWS}`;
/** The Plan view's message (above its rows): the earlier-turn banner, a stop, a wait. */
export const PLAN_MESSAGE = '.pane:has(.pane-header[aria-label^="Plan"]) .message';
/** The rows of an open quick pick (Chat: Pick Agent Session, Agent Plan's pickers). */
export const PICKER_ROWS = '.quick-input-widget .monaco-list-row';

/**
 * The rows of the Sessions view drawn now, in DOM order: each with its place in the list and
 * whether it is the list's last row. Undefined when a row was drawn again between two reads (the
 * attributes would not line up): read again.
 */
export async function drawnSessionRows(): Promise<Array<SessionsViewRow & { index: number; last: boolean }> | undefined> {
  const read = (name: string): Promise<Array<string | null>> => bridge<Array<string | null>>({ op: 'attributes', selector: SESSIONS_VIEW_ROWS, name });
  const [indexes, labels, levels, last] = [await read('data-index'), await read('aria-label'), await read('aria-level'), await read('data-last-element')];
  if (indexes.length !== labels.length || labels.length !== levels.length || levels.length !== last.length) return undefined;
  return indexes.map((index, i) => ({ index: Number(index), label: labels[i] ?? '', level: Number(levels[i]), last: last[i] === 'true' }));
}

/** A drawn row of the Sessions view: its label and its depth in the tree. */
export interface SessionsViewRow {
  label: string;
  level: number;
}

/**
 * Every row of the Sessions view, top to bottom. The view draws only the rows on screen (other
 * files' sessions and the Needs You section can push a row below), so the rows are read from the
 * top a page at a time, each kept once by its place in the list, until the list's last row is read.
 * (The first PageDown only moves the focus to the last row on screen: a page may bring nothing new.)
 */
export async function allSessionRows(): Promise<SessionsViewRow[]> {
  await vscode.commands.executeCommand('agentPlan.sessions.focus');
  await bridge({ op: 'keys', press: ['Home'] });
  const rows = new Map<number, SessionsViewRow>();
  for (let page = 0; page < 50; page++) {
    const drawn = await drawnSessionRows();
    if (drawn === undefined) continue;
    for (const { index, label, level } of drawn) rows.set(index, { label, level });
    if (drawn.length === 0 || drawn.some((row) => row.last)) break;
    await bridge({ op: 'keys', press: ['PageDown'] });
  }
  // Back at the top, as the next test expects the list to be.
  await bridge({ op: 'keys', press: ['Home'] });
  return [...rows.entries()].sort(([a], [b]) => a - b).map(([, row]) => row);
}

/** What `probe` finds in the Sessions view's rows (all of them, wherever they are in the list), once it finds it, until `what` times out. */
export function findInSessionRows<T>(probe: (rows: SessionsViewRow[]) => T | undefined | false, what: string | (() => string), timeoutMs = 10_000): Promise<T> {
  let seen: SessionsViewRow[] = [];
  return waitFor(
    async () => probe((seen = await allSessionRows())),
    () => `${typeof what === 'string' ? what : what()} (the Sessions rows then: ${JSON.stringify(seen.slice(0, 12).map((row) => row.label.slice(0, 100)))})`,
    timeoutMs,
  );
}

/** The label of the Sessions row `matches` picks, wherever it is in the list. */
export function findSessionRow(matches: (label: string) => boolean, what: string, timeoutMs = 10_000): Promise<string> {
  return findInSessionRows((rows) => rows.find((row) => row.label !== '' && matches(row.label))?.label, what, timeoutMs);
}

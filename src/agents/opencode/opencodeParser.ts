// opencode's (and Kilo CLI's, which is built on it) SQLite database: each completed
// `todowrite` call of a session of this workspace, a whole list. Pure: rows in, plans out;
// the reading is done in opencodeReader.ts.
//
// Observed with the real programs (opencode 1.18.33, Kilo CLI 7.7.7), same schema in both:
// - `session(id, directory, title, parent_id, time_updated, …)`: `directory` is where the
//   run was started (the PWD); `project.worktree` is the git root, `/` for a folder outside git.
// - `part(id, session_id, message_id, time_created, time_updated, data)`: a call is a part whose
//   `data` is `{type: "tool", tool: "todowrite", callID, state: {status, input: {todos}, time}}`;
//   it counts once `state.status` is "completed". Items `{content, status, priority}`, statuses
//   pending, in_progress, completed, cancelled (kept as they are); `priority` (high, medium,
//   low) goes to `source.priorities`, never into the item.
// - `todo(session_id, content, status, priority, position, …)` holds only the latest list,
//   replaced whole on each call: it is the check, not the history.
import { isInsideWorkspace } from '../locations';
import { describeValue, isRecord, mapItems } from '../lineParser';
import type { AgentId, ForeignItem, ForeignPlan, ForeignSessionInfo, ForeignStatus, UnknownShape } from '../../core/foreign';

/** The agent whose opencode-style database it is (opencode's own, or Kilo CLI's): its lines carry this id. */
export type OpencodeAgent = AgentId;

export const OPENCODE_PLAN_TOOL = 'todowrite';
const STATUSES: readonly ForeignStatus[] = ['pending', 'in_progress', 'completed', 'cancelled'];

/** The columns of `session` that are read. */
export interface OpencodeSessionRow {
  id: string;
  directory: string;
  title: string;
  time_updated: number;
}

/** The columns of `part` that are read. */
export interface OpencodePartRow {
  id: string;
  session_id: string;
  time_updated: number;
  data: string;
}

/** The columns of `todo` that are read. */
export interface OpencodeTodoRow {
  session_id: string;
  content: string;
  status: string;
  priority: string;
  position: number;
}

/** The sessions (ids) of `rows` that ran in one of the workspace folders. */
export function workspaceSessions(rows: readonly OpencodeSessionRow[], workspaceFolders: readonly string[]): OpencodeSessionRow[] {
  return rows.filter((row) => typeof row.directory === 'string' && row.directory !== '' && workspaceFolders.some((folder) => isInsideWorkspace(row.directory, folder)));
}

/**
 * The title opencode and Kilo CLI give a session until one is made for it
 * (`New session - <ISO time>`, `Child session - <ISO time>` for a subagent's): no title.
 */
const DEFAULT_TITLE = /^(New|Child) session - \d{4}-\d{2}-\d{2}T[\d:.]+Z$/;

/** What the rows of one session say: its info (title, folder). */
export function sessionInfo(agent: OpencodeAgent, row: OpencodeSessionRow): ForeignSessionInfo {
  const info: ForeignSessionInfo = { agent, session: row.id, cwd: row.directory };
  const title = typeof row.title === 'string' ? row.title.trim() : '';
  if (title !== '' && !DEFAULT_TITLE.test(title)) info.title = title;
  return info;
}

export interface PartsOutput {
  plans: ForeignPlan[];
  unknown: UnknownShape[];
}

/**
 * The plans in `parts` (any order; sorted here by part id, which opencode makes ascending in
 * time), of the sessions in `sessions` only. Parts of other tools, and calls not completed
 * yet, yield nothing; a todowrite part in an unknown shape is reported (line 0: rows have none).
 */
export function plansFromParts(agent: OpencodeAgent, parts: readonly OpencodePartRow[], sessions: ReadonlySet<string>): PartsOutput {
  const plans: ForeignPlan[] = [];
  const unknown: UnknownShape[] = [];
  for (const part of [...parts].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    if (!sessions.has(part.session_id)) continue;
    let data: unknown;
    try {
      data = JSON.parse(part.data);
    } catch {
      unknown.push({ line: 0, detail: 'a part whose data is not JSON' });
      continue;
    }
    if (!isRecord(data) || data['type'] !== 'tool' || data['tool'] !== OPENCODE_PLAN_TOOL) continue;
    const state = data['state'];
    if (!isRecord(state)) {
      unknown.push({ line: 0, detail: 'a todowrite part without a state' });
      continue;
    }
    if (state['status'] !== 'completed') continue;
    const call = data['callID'];
    if (typeof call !== 'string' || call === '') {
      unknown.push({ line: 0, detail: 'a todowrite part without a callID' });
      continue;
    }
    const input = state['input'];
    const todos = isRecord(input) ? input['todos'] : undefined;
    const mapped = mapItems(todos, 'content', STATUSES, OPENCODE_PLAN_TOOL);
    if (!mapped.ok) {
      unknown.push({ line: 0, detail: mapped.detail });
      continue;
    }
    const priorities = priorityList(todos);
    if (typeof priorities === 'string') {
      unknown.push({ line: 0, detail: priorities });
      continue;
    }
    const plan: ForeignPlan = {
      source: { agent, tool: OPENCODE_PLAN_TOOL, session: part.session_id, call, ...(priorities.length > 0 ? { priorities } : {}) },
      items: mapped.items,
    };
    const at = callTime(state, part.time_updated);
    if (at !== undefined) plan.at = at;
    plans.push(plan);
  }
  return { plans, unknown };
}

/** Each item's priority, in order; [] when no item has one; a string when one is not a word. */
function priorityList(todos: unknown): string[] | string {
  if (!Array.isArray(todos)) return [];
  const list = todos.map((todo) => (isRecord(todo) ? todo['priority'] : undefined));
  if (list.every((p) => p === undefined)) return [];
  for (const p of list) {
    if (typeof p !== 'string' || p.length > 32) return `todowrite priority ${describeValue(p)}`;
  }
  return list as string[];
}

function callTime(state: Record<string, unknown>, fallback: number): string | undefined {
  const time = state['time'];
  const end = isRecord(time) ? time['end'] : undefined;
  const ms = typeof end === 'number' && Number.isFinite(end) ? end : fallback;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

/**
 * The check against the `todo` table: undefined when a session's stored list is the list of
 * its newest plan; otherwise a short description of the difference, for the output channel.
 */
export function todoTableMismatch(rows: readonly OpencodeTodoRow[], newest: readonly ForeignItem[]): string | undefined {
  const stored = [...rows].sort((a, b) => a.position - b.position).map((row) => `${row.status}:${row.content.trim()}`);
  const planned = newest.map((item) => `${item.status}:${item.content}`);
  if (stored.length === planned.length && stored.every((entry, i) => entry === planned[i])) return undefined;
  return `the todo table holds ${stored.length} items, the newest todowrite call ${planned.length}, or they differ`;
}

/** The columns of `message` that are read (for turns). */
export interface OpencodeMessageRow {
  id: string;
  session_id: string;
  time_updated: number;
  data: string;
}

/** Where a session's newest turn stands, as opencode's rows show it. */
export interface OpencodeTurn {
  /** 0-based: the number of user messages before the newest one. */
  index: number;
  state: 'running' | 'ended' | 'cancelled' | 'failed';
  /** The id of the user message that started it. */
  user: string;
  /** The newest todowrite part of the turn, when there is one. */
  lastPlan?: string;
  /** Ids of the other tool parts of the turn after its last todowrite (at most MAX_COUNTED_CALLS). */
  calls: string[];
}

const MAX_COUNTED_CALLS = 1000;

/** opencode's ids (`msg_…`, `prt_…`) start with a time-ordered part after the prefix: compare that. */
export function idTime(id: string): string {
  const at = id.indexOf('_');
  return at < 0 ? id : id.slice(at + 1);
}

/** Orders two ids by their time-ordered part (a sort's comparator). */
export function byIdTime(a: string, b: string): number {
  const x = idTime(a);
  const y = idTime(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The session's newest turn after these rows (any order; re-read rows change nothing twice):
 * a user message starts a turn; an assistant message of that turn with an error ends it
 * cancelled (aborted by the user) or failed; one completed with a finish other than
 * "tool-calls" ends it. Each tool part other than todowrite after the turn's last todowrite
 * counts as activity.
 */
export function followTurn(previous: OpencodeTurn | undefined, messages: readonly OpencodeMessageRow[], parts: readonly OpencodePartRow[]): OpencodeTurn | undefined {
  let turn = previous ? { ...previous, calls: [...previous.calls] } : undefined;
  const events = [
    ...messages.map((row) => ({ kind: 'message' as const, row })),
    ...parts.map((row) => ({ kind: 'part' as const, row })),
  ].sort((a, b) => byIdTime(a.row.id, b.row.id));
  for (const event of events) {
    let data: unknown;
    try {
      data = JSON.parse(event.row.data);
    } catch {
      continue;
    }
    if (!isRecord(data)) continue;
    if (event.kind === 'message') {
      if (data['role'] === 'user') {
        if (turn !== undefined && idTime(event.row.id) <= idTime(turn.user)) continue;
        turn = { index: turn === undefined ? 0 : turn.index + 1, state: 'running', user: event.row.id, calls: [] };
      } else if (data['role'] === 'assistant' && turn !== undefined && data['parentID'] === turn.user) {
        const error = data['error'];
        const time = data['time'];
        if (isRecord(error)) turn.state = error['name'] === 'MessageAbortedError' ? 'cancelled' : 'failed';
        else if (isRecord(time) && typeof time['completed'] === 'number' && data['finish'] !== 'tool-calls' && data['finish'] !== undefined) turn.state = 'ended';
      }
      continue;
    }
    if (turn === undefined || data['type'] !== 'tool' || idTime(event.row.id) <= idTime(turn.user)) continue;
    if (turn.lastPlan !== undefined && idTime(event.row.id) <= idTime(turn.lastPlan)) continue;
    if (data['tool'] === OPENCODE_PLAN_TOOL) {
      turn.lastPlan = event.row.id;
      turn.calls = [];
    } else if (!turn.calls.includes(event.row.id) && turn.calls.length < MAX_COUNTED_CALLS) {
      turn.calls.push(event.row.id);
    }
  }
  return turn;
}

/** Whether a `message` row's data is the user's (`role: "user"`). */
export function isUserMessage(data: string): boolean {
  try {
    const value: unknown = JSON.parse(data);
    return isRecord(value) && value['role'] === 'user';
  } catch {
    return false;
  }
}

/** What the user typed in a message: its `text` parts' texts, not those opencode adds (`synthetic`); undefined when none. */
export function requestFromParts(datas: readonly unknown[]): string | undefined {
  const texts: string[] = [];
  for (const data of datas) {
    let value: unknown;
    try {
      value = typeof data === 'string' ? JSON.parse(data) : undefined;
    } catch {
      continue;
    }
    if (isRecord(value) && value['type'] === 'text' && value['synthetic'] !== true && typeof value['text'] === 'string') texts.push(value['text']);
  }
  return texts.length > 0 ? texts.join(' ') : undefined;
}

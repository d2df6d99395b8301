// The record format of the session log: what one line holds, how it is built, and how a
// line read back is checked. No I/O. Two record types share a session's file:
//
//   {"v":1,"type":"todo/write","ts":"<ISO 8601>","session":"<key>","todos":[...],"counts":{...}}
//   {"v":1,"type":"todo/write",...,"source":{"agent","tool","session","call","turn"?},"at"?}   (foreign)
//   {"v":1,"type":"session/info","ts","session","source":{"agent","session"},"title"?,"latestTurn"?:{"index","planned"},"participant"?,
//    "request"?,"turn"?:{"index","state","since"},"activity"?:{"calls","at"},"pending"?:{"tool","call","since","approval"?},"parent"?,"cwd"?}
//
// A `todo/write` line without `source` is the todo_write tool's and is held to the tool's
// rules; with `source` it is a foreign plan (from another agent), held to the foreign rules
// (any of five statuses, repeats and empty texts allowed, nothing dropped).
// A third type, `user/request`, records a request the user added for the agent (or withdrew):
//   {"v":1,"type":"user/request","ts","session","id":"<1–64 of [A-Za-z0-9_-]>","text":"<one line>","withdrawn"?:true}
// Readers that know only the first two skip it (and report it) like any line they cannot read.
// A fourth, `session/link`, ties a plan continued in a new chat to the session it came from:
//   {"v":1,"type":"session/link","ts","session","from":"<key>"}  (in the new session's log)
//   {"v":1,"type":"session/link","ts","session","to":"<key>"}    (in the old session's log)
// A fifth, `file/write`, records the files one of an agent's tool calls wrote, and the items
// in progress then (the evidence of what each item changed):
//   {"v":1,"type":"file/write","ts","session","source":{"agent","session","call"},"files":[...],"items":[...],"itemsUnknown"?:true,"subagent"?:true,"at"?}
// A sixth, `model/usage`, records one model response of an agent as its own record counts it:
// the tool calls it made, the tokens it used where the agent records them, its cost where the
// agent records one, and the items in progress then (see usageRecord.ts):
//   {"v":1,"type":"model/usage","ts","session","source":{"agent","session","call"},"items":[...],"calls","tokens"?:{"input","output","cached"},"cost"?,"at"?}
// A seventh, `tree/snapshot`, records the working tree's content (a git tree in Agent Plan's own
// object store) when the session's set of in-progress items changed (see snapshotRecord.ts):
//   {"v":1,"type":"tree/snapshot","ts","session","tree","folder","items":[...],"plan"?}
// An eighth and ninth, `permission/ask` and `permission/answer`, record a tool call that asked
// the user's leave through the agent's permission hook, and how it ended (permissionRecord.ts).
import { AGENT_IDS as SOURCE_AGENT_IDS, MAX_PARTICIPANT_LENGTH, TURN_STATES, type AgentId, type PlanSource, type TurnState } from '../foreign';
import { isRecord } from '../json';
import { ITEM_STATUSES, countItems, type ItemStatus, type PlanCounts, type PlanItem } from '../plan/plan';
import { validateTodoInput } from '../plan/validate';
import { parseUsage, USAGE_EVENT, type UsageRecord } from './usageRecord';
import { parseSnapshot, SNAPSHOT_EVENT, type SnapshotRecord } from './snapshotRecord';
import { parsePermission, PERMISSION_ANSWER_EVENT, PERMISSION_ASK_EVENT, type PermissionAnswerRecord, type PermissionAskRecord } from './permissionRecord';
export type { PermissionAnswerRecord, PermissionAskRecord } from './permissionRecord';
export type { UsageRecord } from './usageRecord';
export type { SnapshotRecord } from './snapshotRecord';

export const LOG_FORMAT_VERSION = 1;
export const TODO_WRITE_EVENT = 'todo/write';
export const SESSION_INFO_EVENT = 'session/info';
export const USER_REQUEST_EVENT = 'user/request';
export const SESSION_LINK_EVENT = 'session/link';
export const FILE_WRITE_EVENT = 'file/write';
/** The most files one file/write line names, and the longest path it keeps. */
export const MAX_WRITE_FILES = 64;
export const MAX_PATH_LENGTH = 4096;
/** The most in-progress items one file/write line names (a plan with more names the first ones). */
export const MAX_WRITE_ITEMS = 32;
const LINKED_KEY = /^[0-9a-f]{32}$/;
/** The longest request text a line may hold, in UTF-16 code units. */
export const MAX_REQUEST_LENGTH = 500;
const REQUEST_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The agent ids a foreign line may carry: the shared list of src/core/foreign.ts. */
export const AGENT_IDS: readonly AgentId[] = SOURCE_AGENT_IDS;

/** One snapshot of a session's plan: a `todo/write` line, one kind of LogRecord. */
export interface PlanRecord {
  v: 1;
  type: 'todo/write';
  /** When this machine saved it: shown, never used to order writes. */
  ts: string;
  session: string;
  todos: PlanItem[];
  counts: PlanCounts;
  /** Set on a foreign plan (from another agent); absent on todo_write's own. */
  source?: PlanSource;
  /** The foreign record's own time, when it had one. */
  at?: string;
}

/** What is known about a foreign session besides its plans; the newest line wins. */
export interface SessionInfoRecord {
  v: 1;
  type: 'session/info';
  ts: string;
  session: string;
  source: { agent: AgentId; session: string };
  title?: string;
  /** The text of the session's first request (the user's first prompt), one line, bounded: names a session without a title. */
  request?: string;
  latestTurn?: { index: number; planned: boolean };
  /** VS Code chats: the extension id of the participant that answered the newest request. */
  participant?: string;
  /** The newest turn, where the program records turns: running or how it ended, and since when this machine knows. */
  turn?: TurnFact;
  /** The program's record since its last plan call: tool calls in the newest turn, and when this machine last saw it grow. */
  activity?: ActivityFact;
  /** The tool call the program's record shows waiting for its result, and since when this machine knows; absent when none waits. */
  pending?: PendingFact;
  /** A subagent's session: the foreign session id of its parent (same agent); the views show it under that session. */
  parent?: string;
  /** The folder the session ran in, as the program recorded it (which worktree it worked in). */
  cwd?: string;
}

/** Longest first-request text a session/info line keeps, in UTF-16 code units. */
export const MAX_SESSION_REQUEST_LENGTH = 200;

/**
 * A request's text as a session's name: whitespace runs (line breaks too) made one space,
 * trimmed, cut to MAX_SESSION_REQUEST_LENGTH with "…"; undefined when nothing is left.
 * Display text only: never a file name.
 */
export function sessionRequestText(text: string): string | undefined {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return undefined;
  if (flat.length <= MAX_SESSION_REQUEST_LENGTH) return flat;
  // Never cut between the two halves of a surrogate pair.
  const cut = /[\uDC00-\uDFFF]/.test(flat.charAt(MAX_SESSION_REQUEST_LENGTH - 1)) ? MAX_SESSION_REQUEST_LENGTH - 2 : MAX_SESSION_REQUEST_LENGTH - 1;
  return `${flat.slice(0, cut)}…`;
}

/** Longest tool name and call id a `pending` fact keeps (the programs' are far shorter). */
export const MAX_TOOL_LENGTH = 128;
export const MAX_CALL_LENGTH = 256;

export interface PendingFact {
  tool: string;
  call: string;
  /** ISO time this machine first saw the call waiting. */
  since: string;
  /** The record tells the call waits for the user's approval. */
  approval?: true;
}

/** Longest folder kept as a session's `cwd` (paths are far shorter). */
export const MAX_CWD_LENGTH = 4096;

/** Longest parent session id kept (the programs' ids are far shorter). */
export const MAX_PARENT_LENGTH = 512;

export interface TurnFact {
  index: number;
  state: TurnState;
  /** ISO time this machine first saw the turn in that state. */
  since: string;
}

export interface ActivityFact {
  calls: number;
  /** ISO time this machine saw the count change. */
  at: string;
}

/** What a session/info line says besides its source; absent facts are unknown. */
export interface SessionFacts {
  title?: string | undefined;
  /** The first request's text, one line (sessionRequestText). */
  request?: string | undefined;
  latestTurn?: { index: number; planned: boolean } | undefined;
  participant?: string | undefined;
  turn?: TurnFact | undefined;
  activity?: ActivityFact | undefined;
  pending?: PendingFact | undefined;
  /** A subagent's session: the foreign session id of the session that started it (same agent). */
  parent?: string | undefined;
  /** The folder the session ran in, as the program recorded it. */
  cwd?: string | undefined;
}

/** A request the user added for the agent (Add a Request for the Agent…), or its withdrawal. */
export interface UserRequestRecord {
  v: 1;
  type: 'user/request';
  ts: string;
  session: string;
  /** Names the request across its lines: the withdrawal carries the id of the request it takes back. */
  id: string;
  /** One line, trimmed, not empty. */
  text: string;
  withdrawn?: true;
}

/** A plan continued in another session: `from` in the new session's log, `to` in the old one's. */
export interface SessionLinkRecord {
  v: 1;
  type: 'session/link';
  ts: string;
  session: string;
  from?: string;
  to?: string;
}

/**
 * The files one tool call of an agent wrote, read from the agent's own record, and the items
 * of the session's plan that were in progress then: one item, the file is that item's; several,
 * each of theirs, shared; none, the session's.
 */
export interface FileWriteRecord {
  v: 1;
  type: 'file/write';
  /** When this machine recorded it. */
  ts: string;
  session: string;
  /** The agent, its session id and the tool call's id (with `session`, the key that makes importing idempotent). */
  source: { agent: AgentId; session: string; call: string };
  /** The paths as the agent named them (absolute, or relative to its workspace), each once, in order. */
  files: string[];
  /** The texts of the items in progress when the call wrote them, in plan order; empty: none was (unless `itemsUnknown`). */
  items: string[];
  /** The agent's record does not tell which items were in progress then (`items` is empty): not known, never "none". */
  itemsUnknown?: true;
  /**
   * The call was a subagent's (`source.session` is the subagent's own session), which has no
   * plan of its own: its files count under this session's items in progress then.
   */
  subagent?: true;
  /** The agent's own time of the call, when its record has one (shown, never used for order). */
  at?: string;
}

export type LogRecord = PlanRecord | SessionInfoRecord | UserRequestRecord | SessionLinkRecord | FileWriteRecord | UsageRecord | SnapshotRecord | PermissionAskRecord | PermissionAnswerRecord;

export function sessionLinkRecord(session: string, ts: string, link: { from: string } | { to: string }): SessionLinkRecord {
  return 'from' in link
    ? { v: LOG_FORMAT_VERSION, type: SESSION_LINK_EVENT, ts, session, from: link.from }
    : { v: LOG_FORMAT_VERSION, type: SESSION_LINK_EVENT, ts, session, to: link.to };
}

export function isPlanEvent(record: LogRecord): record is PlanRecord {
  return record.type === TODO_WRITE_EVENT;
}

export function isInfoRecord(record: LogRecord): record is SessionInfoRecord {
  return record.type === SESSION_INFO_EVENT;
}

export function isUserRequest(record: LogRecord): record is UserRequestRecord {
  return record.type === USER_REQUEST_EVENT;
}

export function isFileWrite(record: LogRecord): record is FileWriteRecord {
  return record.type === FILE_WRITE_EVENT;
}

const WRITE_SOURCE_PROBLEM = '`source` of a file/write must be {"agent": a known agent, "session": string, "call": string}';

/** A file/write line's `source`: a known agent, its session id and the call's id. */
function isWriteSource(value: unknown): value is { agent: AgentId; session: string; call: string } {
  return isRecord(value) && isAgent(value['agent']) && nonEmpty(value['session']) && nonEmpty(value['call']);
}

/** Why a file/write's `source` cannot be recorded, or undefined when it can. */
export function writeSourceProblem(value: unknown): string | undefined {
  return isWriteSource(value) ? undefined : WRITE_SOURCE_PROBLEM;
}

/** Why a path cannot be recorded in a file/write line, or undefined when it can. */
export function pathProblem(path: unknown): string | undefined {
  if (typeof path !== 'string' || path.trim() === '') return 'a path must be a non-empty string';
  if (path.length > MAX_PATH_LENGTH) return `a path is longer than ${MAX_PATH_LENGTH} characters`;
  if (/[\0\r\n]/.test(path)) return 'a path holds a NUL or a line break';
  return undefined;
}

/** A file/write line, ready to append (callers check the paths with pathProblem first). */
export function fileWriteRecord(
  session: string,
  ts: string,
  source: { agent: AgentId; session: string; call: string },
  files: readonly string[],
  /** null: the items in progress then are not known. */
  items: readonly string[] | null,
  at?: string,
  /** The call was a subagent's, counted under this session's items. */
  subagent = false,
): FileWriteRecord {
  const unique = [...new Set(files)].slice(0, MAX_WRITE_FILES);
  const record: FileWriteRecord = {
    v: LOG_FORMAT_VERSION,
    type: FILE_WRITE_EVENT,
    ts,
    session,
    source: { agent: source.agent, session: source.session, call: source.call },
    files: unique,
    items: items === null ? [] : items.slice(0, MAX_WRITE_ITEMS),
  };
  if (items === null) record.itemsUnknown = true;
  if (subagent) record.subagent = true;
  if (at !== undefined) record.at = at;
  return record;
}

/** Why a request's text cannot be recorded, or undefined when it can (after trimming). */
export function requestTextProblem(text: string): string | undefined {
  if (text.trim() === '') return 'the request is empty';
  if (/[\r\n]/.test(text.trim())) return 'the request must be one line';
  if (text.trim().length > MAX_REQUEST_LENGTH) return `the request is longer than ${MAX_REQUEST_LENGTH} characters`;
  return undefined;
}

/** A user/request line, ready to append (callers check the text with requestTextProblem first). */
export function userRequestRecord(session: string, ts: string, id: string, text: string, withdrawn = false): UserRequestRecord {
  const record: UserRequestRecord = { v: LOG_FORMAT_VERSION, type: USER_REQUEST_EVENT, ts, session, id, text: text.trim() };
  if (withdrawn) record.withdrawn = true;
  return record;
}

/** A plan that can be the session's current one: any but a foreign snapshot a later write superseded. */
export function isCurrentPlan(record: LogRecord): record is PlanRecord {
  return isPlanEvent(record) && record.source?.superseded !== true;
}

/** A todo_write snapshot, ready to append (callers validate the todos first). */
export function planEvent(session: string, ts: string, todos: readonly PlanItem[], source?: PlanSource, at?: string): PlanRecord {
  const items = todos.map((todo) => ({ content: todo.content, status: todo.status }));
  const event: PlanRecord = { v: LOG_FORMAT_VERSION, type: TODO_WRITE_EVENT, ts, session, todos: items, counts: countItems(items) };
  if (source) event.source = copySource(source);
  if (at !== undefined) event.at = at;
  return event;
}

export function infoRecord(session: string, ts: string, source: { agent: AgentId; session: string }, facts: SessionFacts): SessionInfoRecord {
  const { title, request, latestTurn, participant, turn, activity, pending, parent, cwd } = facts;
  const record: SessionInfoRecord = {
    v: LOG_FORMAT_VERSION,
    type: SESSION_INFO_EVENT,
    ts,
    session,
    source: { agent: source.agent, session: source.session },
  };
  if (title !== undefined) record.title = title;
  if (request !== undefined) record.request = request;
  if (latestTurn) record.latestTurn = { index: latestTurn.index, planned: latestTurn.planned };
  if (participant !== undefined) record.participant = participant;
  if (turn) record.turn = { index: turn.index, state: turn.state, since: turn.since };
  if (activity) record.activity = { calls: activity.calls, at: activity.at };
  if (pending) record.pending = copyPending(pending);
  if (parent !== undefined) record.parent = parent;
  if (cwd !== undefined) record.cwd = cwd;
  return record;
}

/**
 * Checks a parsed line and returns the record (fresh copies, unknown fields dropped), or
 * what is wrong with it. `session` is the key the line's file belongs to.
 */
export function parseLogRecord(value: unknown, session: string): LogRecord | string {
  if (!isRecord(value)) return 'not a JSON object';
  if (value['v'] !== LOG_FORMAT_VERSION) return `unsupported format version ${JSON.stringify(value['v'])}`;
  const type = value['type'];
  if (type !== TODO_WRITE_EVENT && type !== SESSION_INFO_EVENT && type !== USER_REQUEST_EVENT && type !== SESSION_LINK_EVENT && type !== FILE_WRITE_EVENT && type !== USAGE_EVENT && type !== SNAPSHOT_EVENT && type !== PERMISSION_ASK_EVENT && type !== PERMISSION_ANSWER_EVENT) {
    return `unknown event type ${JSON.stringify(type)}`;
  }
  const ts = value['ts'];
  if (typeof ts !== 'string' || Number.isNaN(Date.parse(ts))) return '`ts` is not a timestamp';
  if (value['session'] !== session) return '`session` does not match the file name';
  if (type === USER_REQUEST_EVENT) return parseRequest(value, session, ts);
  if (type === SESSION_LINK_EVENT) return parseLink(value, session, ts);
  if (type === FILE_WRITE_EVENT) return parseFileWrite(value, session, ts);
  if (type === SNAPSHOT_EVENT) return parseSnapshot(value, session, ts);
  if (type === PERMISSION_ASK_EVENT || type === PERMISSION_ANSWER_EVENT) return parsePermission(value, session, ts);
  if (type === USAGE_EVENT) return parseUsage(value, session, ts, isWriteSource(value['source']) ? undefined : WRITE_SOURCE_PROBLEM.replace('file/write', USAGE_EVENT));
  return type === TODO_WRITE_EVENT ? parsePlan(value, session, ts) : parseInfo(value, session, ts);
}

function parseLink(value: Record<string, unknown>, session: string, ts: string): SessionLinkRecord | string {
  const from = value['from'];
  const to = value['to'];
  if ((from === undefined) === (to === undefined)) return 'a session/link has exactly one of `from` and `to`';
  const other = from ?? to;
  if (typeof other !== 'string' || !LINKED_KEY.test(other) || other === session) return 'the session of a session/link must be another session key (32 lowercase hex)';
  return sessionLinkRecord(session, ts, from !== undefined ? { from: other } : { to: other });
}

function parseFileWrite(value: Record<string, unknown>, session: string, ts: string): FileWriteRecord | string {
  const source = value['source'];
  if (!isWriteSource(source)) return WRITE_SOURCE_PROBLEM;
  const files = value['files'];
  if (!Array.isArray(files) || files.length === 0 || files.length > MAX_WRITE_FILES) return `\`files\` of a file/write must be a list of 1 to ${MAX_WRITE_FILES} paths`;
  for (const file of files as unknown[]) {
    const problem = pathProblem(file);
    if (problem) return `\`files\` of a file/write: ${problem}`;
  }
  if (new Set(files).size !== files.length) return '`files` of a file/write names a path twice';
  const items = value['items'];
  if (!Array.isArray(items) || items.length > MAX_WRITE_ITEMS || !items.every((item) => typeof item === 'string')) {
    return `\`items\` of a file/write must be a list of at most ${MAX_WRITE_ITEMS} strings`;
  }
  const unknown = itemsUnknownOf(value, items, 'file/write');
  if (typeof unknown === 'string') return unknown;
  const subagent = value['subagent'];
  if (subagent !== undefined && subagent !== true) return '`subagent` of a file/write must be true when present';
  const at = value['at'];
  if (at !== undefined && !isTimestamp(at)) return '`at` is not a timestamp';
  return fileWriteRecord(session, ts, { agent: source['agent'], session: source['session'], call: source['call'] }, files as string[], unknown ? null : items, at, subagent === true);
}

/** A line's `itemsUnknown`: absent (false), or `true` with `items` empty; a string says what is wrong. */
export function itemsUnknownOf(value: Record<string, unknown>, items: readonly unknown[], type: string): boolean | string {
  const unknown = value['itemsUnknown'];
  if (unknown === undefined) return false;
  if (unknown !== true || items.length > 0) return `\`itemsUnknown\` of a ${type} must be true, with \`items\` empty`;
  return true;
}

function parseRequest(value: Record<string, unknown>, session: string, ts: string): UserRequestRecord | string {
  const id = value['id'];
  if (typeof id !== 'string' || !REQUEST_ID.test(id)) return '`id` of a user/request must be 1 to 64 of A-Z, a-z, 0-9, _ and -';
  const text = value['text'];
  if (typeof text !== 'string') return '`text` of a user/request must be a string';
  const problem = requestTextProblem(text);
  if (problem) return problem;
  const withdrawn = value['withdrawn'];
  if (withdrawn !== undefined && withdrawn !== true) return '`withdrawn` of a user/request must be true when present';
  return userRequestRecord(session, ts, id, text, withdrawn === true);
}

/** parseLogRecord for `todo/write` lines only (anything else is reported as wrong). */
export function parseLogEvent(value: unknown, session: string): PlanRecord | string {
  const record = parseLogRecord(value, session);
  if (typeof record === 'string') return record;
  return isPlanEvent(record) ? record : `unknown event type ${JSON.stringify(record.type)}`;
}

function parsePlan(value: Record<string, unknown>, session: string, ts: string): PlanRecord | string {
  let todos: PlanItem[];
  let source: PlanSource | undefined;
  if (value['source'] === undefined) {
    const checked = validateTodoInput({ todos: value['todos'] });
    if (!checked.ok) return `invalid todos (${checked.error})`;
    todos = checked.todos;
  } else {
    const parsed = parseSource(value['source']);
    if (typeof parsed === 'string') return parsed;
    source = parsed;
    const items = parseForeignItems(value['todos']);
    if (typeof items === 'string') return `invalid todos (${items})`;
    todos = items;
  }
  const at = value['at'];
  if (at !== undefined && (typeof at !== 'string' || Number.isNaN(Date.parse(at)))) return '`at` is not a timestamp';
  const event = planEvent(session, ts, todos, source, at);
  if (!countsEqual(value['counts'], event.counts)) return '`counts` do not match `todos`';
  return event;
}

function parseInfo(value: Record<string, unknown>, session: string, ts: string): SessionInfoRecord | string {
  const source = value['source'];
  if (!isRecord(source) || !isAgent(source['agent']) || !nonEmpty(source['session'])) {
    return '`source` must be {"agent": a known agent, "session": string}';
  }
  const title = value['title'];
  if (title !== undefined && typeof title !== 'string') return '`title` must be a string';
  const request = value['request'];
  if (request !== undefined && (typeof request !== 'string' || sessionRequestText(request) !== request)) {
    return `\`request\` must be one trimmed line of 1 to ${MAX_SESSION_REQUEST_LENGTH} characters`;
  }
  const latest = value['latestTurn'];
  let latestTurn: { index: number; planned: boolean } | undefined;
  if (latest !== undefined) {
    if (!isRecord(latest) || !isIndex(latest['index']) || typeof latest['planned'] !== 'boolean') {
      return '`latestTurn` must be {"index": integer ≥ 0, "planned": boolean}';
    }
    latestTurn = { index: latest['index'], planned: latest['planned'] };
  }
  const participant = value['participant'];
  if (participant !== undefined && (!nonEmpty(participant) || participant.length > MAX_PARTICIPANT_LENGTH)) {
    return `\`participant\` must be a string of 1 to ${MAX_PARTICIPANT_LENGTH} characters`;
  }
  const turnValue = value['turn'];
  let turn: TurnFact | undefined;
  if (turnValue !== undefined) {
    if (
      !isRecord(turnValue) ||
      !isIndex(turnValue['index']) ||
      !TURN_STATES.includes(turnValue['state'] as TurnState) ||
      !isTimestamp(turnValue['since'])
    ) {
      return '`turn` must be {"index": integer ≥ 0, "state": "running" | "ended" | "cancelled" | "failed", "since": timestamp}';
    }
    turn = { index: turnValue['index'], state: turnValue['state'] as TurnState, since: turnValue['since'] };
  }
  const activityValue = value['activity'];
  let activity: ActivityFact | undefined;
  if (activityValue !== undefined) {
    if (!isRecord(activityValue) || !isIndex(activityValue['calls']) || !isTimestamp(activityValue['at'])) {
      return '`activity` must be {"calls": integer ≥ 0, "at": timestamp}';
    }
    activity = { calls: activityValue['calls'], at: activityValue['at'] };
  }
  const pending = parsePending(value['pending']);
  if (typeof pending === 'string') return pending;
  const parent = value['parent'];
  if (parent !== undefined && (!nonEmpty(parent) || parent.length > MAX_PARENT_LENGTH)) {
    return `\`parent\` must be a string of 1 to ${MAX_PARENT_LENGTH} characters`;
  }
  const cwd = value['cwd'];
  if (cwd !== undefined && (!nonEmpty(cwd) || cwd.length > MAX_CWD_LENGTH)) return `\`cwd\` must be a string of 1 to ${MAX_CWD_LENGTH} characters`;
  return infoRecord(session, ts, { agent: source['agent'], session: source['session'] }, { title, request, latestTurn, participant, turn, activity, pending, parent, cwd });
}

function copyPending(pending: PendingFact): PendingFact {
  const copy: PendingFact = { tool: pending.tool, call: pending.call, since: pending.since };
  if (pending.approval === true) copy.approval = true;
  return copy;
}

function parsePending(value: unknown): PendingFact | undefined | string {
  if (value === undefined) return undefined;
  const problem = `\`pending\` must be {"tool": string of 1 to ${MAX_TOOL_LENGTH} characters, "call": string of 1 to ${MAX_CALL_LENGTH} characters, "since": timestamp, "approval"?: true}`;
  if (!isRecord(value)) return problem;
  const { tool, call, since, approval } = value;
  if (!nonEmpty(tool) || tool.length > MAX_TOOL_LENGTH || !nonEmpty(call) || call.length > MAX_CALL_LENGTH || !isTimestamp(since)) return problem;
  if (approval !== undefined && approval !== true) return problem;
  return copyPending({ tool, call, since, ...(approval === true ? { approval } : {}) });
}

/** Longest priority word kept in a foreign plan's `source.priorities` (opencode's are high, medium, low). */
export const MAX_PRIORITY_LENGTH = 32;

/** A foreign plan's `source`, checked. */
export function parseSource(value: unknown): PlanSource | string {
  if (!isRecord(value)) return '`source` must be an object';
  if (!isAgent(value['agent'])) return `unknown agent ${JSON.stringify(value['agent'])} in \`source\``;
  for (const field of ['tool', 'session', 'call'] as const) {
    if (!nonEmpty(value[field])) return `\`source.${field}\` must be a non-empty string`;
  }
  const turn = value['turn'];
  if (turn !== undefined && !isIndex(turn)) return '`source.turn` must be an integer ≥ 0';
  const superseded = value['superseded'];
  if (superseded !== undefined && typeof superseded !== 'boolean') return '`source.superseded` must be a boolean';
  const priorities = value['priorities'];
  if (priorities !== undefined && (!Array.isArray(priorities) || !priorities.every((p) => typeof p === 'string' && p.length <= MAX_PRIORITY_LENGTH))) {
    return `\`source.priorities\` must be a list of strings of at most ${MAX_PRIORITY_LENGTH} characters`;
  }
  return copySource(value as unknown as PlanSource);
}

/**
 * The foreign rules for a foreign plan's items: `{content: string, status}` with any of
 * the five statuses; content is trimmed; repeats and empty texts are kept, nothing dropped.
 */
export function parseForeignItems(value: unknown): PlanItem[] | string {
  if (!Array.isArray(value)) return '`todos` must be an array';
  const items: PlanItem[] = [];
  for (const [index, item] of (value as unknown[]).entries()) {
    const n = index + 1;
    if (!isRecord(item)) return `item ${n} is not an object`;
    const extra = Object.keys(item).find((key) => key !== 'content' && key !== 'status');
    if (extra !== undefined) return `item ${n} has an unknown key ${JSON.stringify(extra)}`;
    const content = item['content'];
    if (typeof content !== 'string') return `item ${n}: \`content\` must be a string`;
    const status = item['status'];
    if (!ITEM_STATUSES.includes(status as ItemStatus)) return `item ${n}: unknown status ${JSON.stringify(status)}`;
    items.push({ content: content.trim(), status: status as ItemStatus });
  }
  return items;
}

function copySource(source: PlanSource): PlanSource {
  const copy: PlanSource = { agent: source.agent, tool: source.tool, session: source.session, call: source.call };
  if (source.turn !== undefined) copy.turn = source.turn;
  if (source.superseded === true) copy.superseded = true;
  if (source.priorities !== undefined) copy.priorities = [...source.priorities];
  return copy;
}

function countsEqual(stored: unknown, counts: PlanCounts): boolean {
  if (!isRecord(stored)) return false;
  const keys: Array<keyof PlanCounts> = ['pending', 'inProgress', 'completed', 'cancelled', 'blocked'];
  return keys.every((key) => stored[key] === counts[key]);
}

function isAgent(value: unknown): value is AgentId {
  return AGENT_IDS.includes(value as AgentId);
}

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

function isTimestamp(value: unknown): value is string {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value));
}

function isIndex(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

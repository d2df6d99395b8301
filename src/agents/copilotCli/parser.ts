// GitHub Copilot CLI (`@github/copilot`) sessions: `<copilotHome>/session-state/<session id>/`.
// Pure: lines and rows in, plans out; the files are read in ./index.ts.
//
// Observed with the real CLI (1.0.102, run offline with its own model provider):
// - `events.jsonl`, append-only, one `{type, data, id, timestamp, parentId}` per line. Line 1 is
//   `session.start` with `data.sessionId` and `data.context.cwd`. A request is a `user.message`
//   (its `content` is the prompt); each model call is an `assistant.turn_start` …
//   `assistant.turn_end` pair, its `assistant.message` listing `toolRequests`; a tool call is
//   `tool.execution_start` (`toolCallId`, `toolName`, `arguments`) then
//   `tool.execution_complete` (`toolCallId`, `success`). The request is answered when an
//   `assistant.message` with no `toolRequests` is followed by its `assistant.turn_end`.
// - `workspace.yaml`: `id`, `cwd` (where the session ran), `git_root` and `branch` inside git.
// - The plan: the `todos` table of the session's `session.db` (`id, title, description, status`
//   with pending, in_progress, done, blocked; `todo_deps` for prerequisites), which the model
//   writes with SQL through its `sql` tool. The database is made on the first `sql` call and is
//   in rollback-journal mode. The events carry the SQL, not the rows, and the database only the
//   newest table. Each completed `sql` call that may write is handed on as a plan whose items
//   come from running the session's SQL again, in order, in an in-memory SQLite database
//   (./todoReplay.ts, by the follower in ./index.ts); a call that left the table as it was is no
//   version, and the follower tells the parser so (`settle`), which renumbers the edits and
//   responses after it. A call that cannot be run again (refused, past a bound) is reported
//   once; from there on the table is read from the database instead, and the items in progress
//   at an edit or response are not known (`itemsUnknown`), never "none".
// - A waiting call: a tool the model asked for (`assistant.message` `toolRequests`) whose
//   `tool.execution_complete` has not come, until the request ends or a new one starts. It
//   waits for the user's approval while a `permission.requested` names it
//   (`permissionRequest.toolCallId`) and its `permission.completed` (same `requestId`) has not
//   come: recorded interactive, without `--allow-all-tools`, a shell command's prompt writes
//   `permission.requested` after the call's `tool.execution_start`, and the answer writes
//   `permission.completed` before the command runs. A request `resolvedByHook` asks no one.
//   With `--allow-all-tools` no permission event is written.
// - Older releases had an `update_todo` tool whose argument was a Markdown checklist; 1.0.102
//   offers none. In 1.0.63's code the checklist is `arguments.todos` (a string) and its prompts
//   name `- [x]` completed and `- [ ]` pending; its runtime also knows `in_progress`, with a mark
//   not seen. The checklist is read as written; any other mark makes the call an unknown shape
//   rather than a guessed status.
import { type Batch, type JsonRecord, JsonLineParser, excerpt, isRecord, stringField } from '../lineParser';
import { itemsFromChecklist as checklistItems } from '../checklist';
import { OpenCalls } from '../openCalls';
import type { ForeignItem, ForeignPlan, ForeignSessionInfo, ForeignStatus, ParseOutput, SessionParser, TurnState } from '../../core/foreign';
import { TURN_STATES } from '../../core/foreign';
import { PendingWrites, toolCallFiles, type WriteTools } from '../toolWrites';
import { copilotUsageRecord, readCopilotPendingUsage, settleCopilotUsage, type CopilotPendingUsage } from './usage';
import { lookAtSql, MAX_CALL_SQL_CHARS, onlyReads } from './sqlGuard';
import type { ReplayCall } from './todoReplay';

/** Copilot CLI's write tools. */
const WRITE_TOOLS: WriteTools = { paths: { create: 'path', edit: 'path' }, patches: { apply_patch: ['input', 'patch', 'patchText'] } };

/** Permission requests kept while their completion has not come. */
const MAX_PERMISSIONS = 64;

/** The tool of a plan read from the `todos` table: its items come from the database, not the line. */
export const COPILOT_TODOS_TOOL = 'sql';
export const COPILOT_CHECKLIST_TOOL = 'update_todo';

/** A `todos` row as read (`rowid` gives the order the model inserted them in). */
export interface CopilotTodoRow {
  id: string;
  title: string;
  /** NULL where the SQL set none (a CASE without ELSE): read as an unknown shape. */
  status: string | null;
}

/** The status of a `todos` row, with nothing invented: done is completed, blocked stays blocked. */
const TABLE_STATUSES: Record<string, ForeignStatus> = { pending: 'pending', in_progress: 'in_progress', done: 'completed', blocked: 'blocked' };

/** Plans whose items are to be read from the session's database: the SQL before them could not be run again. */
const FROM_TABLE = new WeakSet<ForeignPlan>();

/** True for a plan whose items are read from the session's `todos` table (the SQL could not be run again). */
export function readsTable(plan: ForeignPlan): boolean {
  return FROM_TABLE.has(plan);
}

/** What became of a `sql` call's plan: a version, no version (the table as it was), or not known. */
export type SqlCallOutcome = 'version' | 'unchanged' | 'unknown';

/** A plan whose items come from running the session's SQL again: the call to run, and where to tell the parser what came of it. */
export interface ReplayedPlan {
  call: ReplayCall;
  settle(outcome: SqlCallOutcome): void;
}
const REPLAYED = new WeakMap<ForeignPlan, ReplayedPlan>();

/** The call to run again for a plan's items, when its items come from the SQL. */
export function replayedPlan(plan: ForeignPlan): ReplayedPlan | undefined {
  return REPLAYED.get(plan);
}

/** SQL of the session's writing calls kept in the state at most (to run them again after a restart); past it, older calls are not kept. */
export const MAX_HISTORY_CHARS = 4 * 1024 * 1024;

/** The items of a `todos` table; a string (for the output channel) when a row is not in its known shape. */
export function itemsFromTodoRows(rows: readonly CopilotTodoRow[]): ForeignItem[] | string {
  const items: ForeignItem[] = [];
  for (const row of rows) {
    const status = typeof row.status === 'string' ? TABLE_STATUSES[row.status] : undefined;
    if (status === undefined) return `a todos row with status ${JSON.stringify(excerpt(String(row.status), 24))}`;
    if (typeof row.title !== 'string') return 'a todos row without a title';
    items.push({ content: row.title.trim(), status });
  }
  return items;
}

/** The items of an `update_todo` Markdown checklist; a string when a line is not `- [ ] …` or `- [x] …`. */
export function itemsFromChecklist(markdown: string): ForeignItem[] | string {
  return checklistItems(markdown, 'an update_todo');
}

/** The workspace a session ran in, from its `workspace.yaml` (`cwd: <path>`); undefined when it has none yet. */
export function workspaceYamlCwd(text: string): string | undefined {
  for (const line of text.split(/\r?\n/)) {
    const match = /^cwd:\s*(.*?)\s*$/.exec(line);
    if (match === null) continue;
    let value = match[1] ?? '';
    if (value.startsWith('"')) {
      try {
        value = JSON.parse(value) as string;
      } catch {
        return undefined;
      }
    } else if (value.startsWith("'") && value.endsWith("'") && value.length >= 2) {
      value = value.slice(1, -1).replace(/''/g, "'");
    }
    return typeof value === 'string' && value !== '' ? value : undefined;
  }
  return undefined;
}

/** True for SQL that may change a table (anything but plain reads): it is run again. */
export function mayWrite(query: string): boolean {
  return !onlyReads(lookAtSql(query));
}

export function createCopilotCliParser(state?: unknown): SessionParser {
  return new CopilotCliParser(state);
}

interface PendingCall {
  tool: string;
  /** The checklist (update_todo) or the SQL (sql; '' when longer than MAX_CALL_SQL_CHARS, with `long`). */
  text: string;
  long?: boolean;
}

/** A write or response handed on in the newest push, with its plan count as counted then. */
interface Counted {
  target: { plansBefore?: number; plans?: number; itemsUnknown?: boolean };
  key: 'plansBefore' | 'plans';
  raw: number;
}

class CopilotCliParser extends JsonLineParser {
  private turn: { index: number; state: TurnState } | undefined;
  private calls = 0;
  /** The newest model call answered without tool requests: its turn_end ends the request. */
  private answered = false;
  /** Plan calls started, by call id, waiting for their completion. */
  private pending: Record<string, PendingCall> = {};
  /** create/edit/apply_patch calls waiting for their completion. */
  private readonly writes: PendingWrites;
  /** The newest response's usage, until its message. */
  private usage: CopilotPendingUsage | undefined;
  /** Tool calls the model asked for whose tool.execution_complete has not come. */
  private readonly open: OpenCalls;
  /** Permission requests without their completion: request id → the call it asks leave for. */
  private permissions: Record<string, string> = {};
  /** The SQL of the session's completed calls that may write, in order (null where not kept). */
  private history: Array<string | null> = [];
  private historyChars = 0;
  /** The table is not known from here on: a call could not be run again. */
  private tableUnknown = false;
  /** The newest push's writes and responses, and its plans that were no version: `settle` renumbers them. */
  private counted: Counted[] = [];
  private dropped: number[] = [];

  constructor(state: unknown) {
    super('copilot-cli', state);
    this.open = new OpenCalls(isRecord(state) ? state['open'] : undefined);
    this.writes = new PendingWrites(isRecord(state) ? state['writes'] : undefined);
    this.usage = readCopilotPendingUsage(isRecord(state) ? state['usage'] : undefined);
    if (!isRecord(state)) return;
    const turn = state['turn'];
    if (isRecord(turn) && typeof turn['index'] === 'number' && TURN_STATES.includes(turn['state'] as TurnState)) {
      this.turn = { index: turn['index'], state: turn['state'] as TurnState };
    }
    if (typeof state['calls'] === 'number') this.calls = state['calls'];
    const history = state['history'];
    if (Array.isArray(history) && history.every((q) => q === null || typeof q === 'string')) {
      this.history = history as Array<string | null>;
      this.historyChars = this.history.reduce((sum, q) => sum + (q?.length ?? 0), 0);
    }
    this.tableUnknown = state['tableUnknown'] === true;
    this.answered = state['answered'] === true;
    const permissions = state['permissions'];
    if (isRecord(permissions)) {
      for (const [request, call] of Object.entries(permissions).slice(-MAX_PERMISSIONS)) if (typeof call === 'string') this.permissions[request] = call;
    }
    const pending = state['pending'];
    if (isRecord(pending)) {
      for (const [id, call] of Object.entries(pending)) {
        if (isRecord(call) && typeof call['tool'] === 'string' && typeof call['text'] === 'string') this.pending[id] = { tool: call['tool'], text: call['text'], ...(call['long'] === true ? { long: true } : {}) };
      }
    }
  }

  protected ownState(): JsonRecord {
    return { ...(this.turn ? { turn: this.turn } : {}), calls: this.calls, answered: this.answered, pending: this.pending, writes: this.writes.state(), open: this.open.state(), permissions: this.permissions, ...(this.usage ? { usage: this.usage } : {}), history: this.history, ...(this.tableUnknown ? { tableUnknown: true } : {}) };
  }

  override push(lines: readonly string[]): ParseOutput {
    this.counted = [];
    this.dropped = [];
    const heldBefore = this.usage;
    const output = super.push(lines);
    for (const target of [...(output.writes ?? []), ...(output.usage ?? [])]) this.counted.push({ target, key: 'plansBefore', raw: target.plansBefore });
    if (this.usage !== undefined && this.usage !== heldBefore) this.counted.push({ target: this.usage, key: 'plans', raw: this.usage.plans });
    return output;
  }

  /**
   * What became of the plan of a sql call emitted in the newest push (`ordinal`: the plan count
   * right after it): no version, so the writes and responses after it come after one plan
   * fewer; or not known, so their items are not known, nor those of everything after.
   */
  private settle(ordinal: number, outcome: SqlCallOutcome): void {
    if (outcome === 'unchanged') {
      this.dropped.push(ordinal);
      this.base.plans--;
      for (const { target, key, raw } of this.counted) target[key] = raw - this.dropped.filter((d) => d <= raw).length;
    } else if (outcome === 'unknown') {
      this.tableUnknown = true;
      for (const { target, raw } of this.counted) if (raw >= ordinal) target.itemsUnknown = true;
    }
  }

  protected override info(): ForeignSessionInfo | undefined {
    const info = super.info();
    if (info === undefined || this.turn === undefined) return info;
    return { ...info, turn: { ...this.turn }, calls: this.calls, pending: this.open.pending() };
  }

  protected handle(record: JsonRecord, line: number, batch: Batch): void {
    const type = record['type'];
    const data = record['data'];
    if (typeof type !== 'string') {
      batch.report(line, 'an event without a type');
      return;
    }
    if (!isRecord(data)) return;
    switch (type) {
      case 'session.start': {
        if (this.base.session !== undefined) return;
        const id = stringField(data, 'sessionId');
        if (id === undefined) {
          batch.report(line, 'a session.start event without data.sessionId');
          return;
        }
        this.base.session = id;
        const context = data['context'];
        const cwd = isRecord(context) ? stringField(context, 'cwd') : undefined;
        if (cwd !== undefined) this.base.cwd = cwd;
        return;
      }
      case 'user.message': {
        const content = stringField(data, 'content');
        this.firstRequest(content);
        this.turn = { index: this.turn === undefined ? 0 : this.turn.index + 1, state: 'running' };
        this.calls = 0;
        this.answered = false;
        this.open.clear();
        this.permissions = {};
        return;
      }
      case 'session.usage_record':
        settleCopilotUsage(this.base.session, this.usage, 0, batch);
        this.usage = copilotUsageRecord(record, data, this.base.plans, this.tableUnknown);
        return;
      case 'assistant.message': {
        const requests = data['toolRequests'];
        this.answered = !Array.isArray(requests) || requests.length === 0;
        // Asked for here, before it starts: a call the CLI asks leave for waits from this event on.
        for (const request of Array.isArray(requests) ? requests : []) {
          if (isRecord(request)) this.open.start(stringField(request, 'toolCallId') ?? '', stringField(request, 'name') ?? '');
        }
        settleCopilotUsage(this.base.session, this.usage, Array.isArray(requests) ? requests.length : 0, batch);
        this.usage = undefined;
        return;
      }
      case 'assistant.turn_end':
        settleCopilotUsage(this.base.session, this.usage, 0, batch);
        this.usage = undefined;
        if (this.answered && this.turn?.state === 'running') {
          this.turn = { index: this.turn.index, state: 'ended' };
          this.open.clear();
          this.permissions = {};
        }
        return;
      case 'permission.requested':
        this.permissionRequested(data);
        return;
      case 'permission.completed':
        this.permissionCompleted(data);
        return;
      case 'tool.execution_start':
        this.started(data, line, batch, stringField(record, 'timestamp'));
        return;
      case 'tool.execution_complete':
        this.completed(record, data, line, batch);
        return;
      default:
        return;
    }
  }

  /** A prompt for the user's leave: the call it names waits for approval until its completion. */
  private permissionRequested(data: JsonRecord): void {
    const request = stringField(data, 'requestId');
    const asked = data['permissionRequest'];
    const prompt = data['promptRequest'];
    const call = (isRecord(asked) ? stringField(asked, 'toolCallId') : undefined) ?? (isRecord(prompt) ? stringField(prompt, 'toolCallId') : undefined);
    if (request === undefined || call === undefined || data['resolvedByHook'] === true) return;
    const kept = Object.keys(this.permissions);
    if (kept.length >= MAX_PERMISSIONS && kept[0] !== undefined) delete this.permissions[kept[0]];
    this.permissions[request] = call;
    this.open.approval(call, true);
  }

  /** The prompt was answered (or dismissed): its call no longer waits for approval. */
  private permissionCompleted(data: JsonRecord): void {
    const request = stringField(data, 'requestId');
    const call = (request !== undefined ? this.permissions[request] : undefined) ?? stringField(data, 'toolCallId');
    if (request !== undefined) delete this.permissions[request];
    if (call === undefined) return;
    // Another prompt still open for the same call keeps it waiting for approval.
    if (!Object.values(this.permissions).includes(call)) this.open.approval(call, false);
  }

  private started(data: JsonRecord, line: number, batch: Batch, at: string | undefined): void {
    const call = stringField(data, 'toolCallId');
    const tool = stringField(data, 'toolName');
    const args = data['arguments'];
    if (call === undefined || tool === undefined) {
      batch.report(line, 'a tool.execution_start event without toolCallId or toolName');
      return;
    }
    if (tool === COPILOT_CHECKLIST_TOOL) {
      const text = isRecord(args) ? (stringField(args, 'todos') ?? stringField(args, 'content') ?? stringField(args, 'markdown')) : typeof args === 'string' ? args : undefined;
      if (text === undefined) batch.report(line, 'an update_todo call without a checklist');
      else this.pending[call] = { tool, text };
      return;
    }
    if (tool === COPILOT_TODOS_TOOL) {
      const query = isRecord(args) ? stringField(args, 'query') : undefined;
      // Every sql call that may write is run again (a trigger or another table may change todos).
      if (query !== undefined && query.length > MAX_CALL_SQL_CHARS) {
        this.pending[call] = { tool, text: '', long: true };
        return;
      }
      if (query !== undefined && mayWrite(query)) {
        this.pending[call] = { tool, text: query };
        return;
      }
    }
    if (!this.base.emitted.includes(call)) this.writes.note(call, toolCallFiles(WRITE_TOOLS, tool, args), at);
    this.calls += 1;
  }

  private completed(record: JsonRecord, data: JsonRecord, line: number, batch: Batch): void {
    const call = stringField(data, 'toolCallId');
    if (call === undefined) return;
    this.open.finish(call);
    for (const [request, asked] of Object.entries(this.permissions)) if (asked === call) delete this.permissions[request];
    const write = this.writes.settle(call);
    if (write !== undefined && data['success'] === true && this.base.session !== undefined && !batch.alreadyEmitted(call)) {
      batch.write({ source: { agent: 'copilot-cli', session: this.base.session, call }, files: write.files, ...(this.tableUnknown ? { itemsUnknown: true } : {}), ...(write.at !== undefined ? { at: write.at } : {}) });
    }
    const pending = this.pending[call];
    if (pending === undefined) return;
    delete this.pending[call];
    if (data['success'] !== true) {
      // One statement that failed changed nothing; of several, the ones before it may have (the
      // CLI's transaction is not told): from there on the table is not known.
      if (pending.tool === COPILOT_TODOS_TOOL && !this.tableUnknown) {
        const look = lookAtSql(pending.text);
        if (pending.long === true || 'refused' in look || look.statements.length > 1) {
          batch.report(line, 'a failed sql call of several statements');
          this.tableUnknown = true;
        }
      }
      return;
    }
    const session = this.base.session;
    if (session === undefined) {
      batch.report(line, 'a plan call before session.start');
      return;
    }
    const at = stringField(record, 'timestamp');
    if (pending.tool === COPILOT_TODOS_TOOL) {
      const index = this.history.length;
      const keep = pending.long !== true && this.historyChars + pending.text.length <= MAX_HISTORY_CHARS;
      this.history.push(keep ? pending.text : null);
      if (keep) this.historyChars += pending.text.length;
      if (batch.alreadyEmitted(call)) return;
      const plan: ForeignPlan = { source: { agent: 'copilot-cli', tool: COPILOT_TODOS_TOOL, session, call }, items: [], ...(at !== undefined ? { at } : {}) };
      batch.emit(plan);
      const ordinal = this.base.plans;
      if (this.tableUnknown) {
        // The SQL before could not be run again: the rows are read from the session's database by the follower (./index.ts).
        FROM_TABLE.add(plan);
      } else {
        const query = pending.long === true ? null : pending.text;
        REPLAYED.set(plan, { call: { session, history: this.history, index, query }, settle: (outcome) => this.settle(ordinal, outcome) });
      }
      this.calls = 0;
      return;
    }
    const items = itemsFromChecklist(pending.text);
    if (typeof items === 'string') {
      batch.report(line, items);
      return;
    }
    if (batch.alreadyEmitted(call)) return;
    batch.emit({ source: { agent: 'copilot-cli', tool: COPILOT_CHECKLIST_TOOL, session, call }, items, ...(at !== undefined ? { at } : {}) });
    this.calls = 0;
  }
}

// Claude Code transcripts (`<claudeDir>/projects/<folder>/<sessionId>.jsonl`): the plan calls
// in them, as whole lists. Pure: lines in, plans out.
//
// - TodoWrite sends the whole list; it counts once its tool_result says it was not an error.
// - TaskCreate / TaskUpdate change one task each; the list is folded from them. A created
//   task's id is only in its result (`toolUseResult.task.id`); results of parallel calls can
//   come in any order, and one content block stands on each line. `deleted` leaves the list.
// - `activeForm` and `description` are not content: the item text is `content` / `subject`.
// - Only the structure counts: other line types mention the tool names too.
// - A session whose first `cwd` is outside the workspace folders yields nothing.
// - Turns: a user prompt (text, not a tool result, not `isMeta`, not a subagent's sidechain)
//   starts one; an assistant message with `stop_reason: "end_turn"` ends it; "[Request
//   interrupted by user…" cancels it; an API error message (`isApiErrorMessage`) fails it.
//   Every other tool_use after the last plan call of the turn counts as activity.
// - A waiting call: a tool_use of the main transcript whose tool_result has not come, until the
//   turn moves on (a new prompt, its end). The transcript writes nothing while Claude Code asks
//   for leave to run a tool, so an approval prompt and a running tool look the same.
// - Files: an Edit, Write, MultiEdit or NotebookEdit call wrote its file once its tool_result
//   came back without `is_error` (a failed Edit, its text not found, wrote nothing); the
//   write comes after the plans emitted before that result.
// - An MCP server's todo_write (Agent Plan's own tool, `mcp__<server>__todo_write`, any server
//   name) is a plan call as TodoWrite is, when its input holds to Agent Plan's contract; one
//   Claude Code refused (no permission: its tool_result `is_error`) is not.
import { isMcpDoubleUnderscoreTodoWrite, isMcpTodoInput, mcpTodoItems } from '../mcpTodoWrite';
import { claudeFilesWritten } from './fileWrites';
import { claudeUsageOf } from './usage';
import { OpenCalls } from '../openCalls';
import { isInsideWorkspace } from '../locations';
import { type Batch, type JsonRecord, JsonLineParser, describeValue, isRecord, mapItems, stringField } from '../lineParser';
import { TURN_STATES, type ForeignItem, type ForeignSessionInfo, type ForeignStatus, type SessionParser, type TurnState } from '../../core/foreign';

const TODO_STATUSES: readonly ForeignStatus[] = ['pending', 'in_progress', 'completed'];
const TASK_STATUSES = ['pending', 'in_progress', 'completed', 'deleted'] as const;
const PLAN_TOOLS = ['TodoWrite', 'TaskCreate', 'TaskUpdate'] as const;
/** Tool call ids remembered for the count of calls since the last plan call. */
const MAX_COUNTED_CALLS = 1000;
/** Write calls kept while their result has not come (a run cut short never sends some). */
const MAX_PENDING_WRITES = 1000;
/** A plan tool: Claude Code's own, or an MCP server's todo_write (`mcp__<server>__todo_write`). */
type PlanTool = (typeof PLAN_TOOLS)[number] | `mcp__${string}__todo_write`;

/** A plan tool call whose result has not been seen yet. */
interface PendingUse {
  name: PlanTool;
  input: unknown;
  line: number;
}

/** A file-writing call whose result has not been seen yet. */
interface PendingWrite {
  files: string[];
  at?: string;
}

/** A result seen before its call (parallel calls out of order). */
interface EarlyResult {
  isError: boolean;
  result: unknown;
  /** The tool_result's text, when it is one string. */
  text?: string;
  at?: string;
}

interface Task {
  id: string;
  subject: string;
  status: ForeignStatus;
}

export interface ClaudeCodeParserOptions {
  /** The workspace folders: a session whose first recorded cwd is in none of them is skipped. */
  workspaceFolders?: readonly string[];
  /**
   * The file is a subagent's own transcript (`<session>/subagents/agent-<id>.jsonl`): its
   * session is the subagent's, `<parent session id>:agent-<agent id>`, with its parent named.
   */
  subagent?: boolean;
}

/** The session id Agent Plan gives a Claude Code subagent: its parent's, and its own agent id. */
export function claudeSubagentSession(parent: string, agentId: string): string {
  return `${parent}:agent-${agentId}`;
}

/** Whether `file` is a subagent's transcript: `…/<session id>/subagents/agent-<id>.jsonl`. */
export function isClaudeSubagentFile(file: string): boolean {
  const parts = file.split(/[\\/]/);
  const name = parts.at(-1) ?? '';
  return parts.at(-2) === 'subagents' && name.startsWith('agent-') && name.endsWith('.jsonl');
}

export function createClaudeCodeParser(options: ClaudeCodeParserOptions = {}, state?: unknown): SessionParser {
  return new ClaudeCodeParser(options, state);
}

class ClaudeCodeParser extends JsonLineParser {
  private readonly uses = new Map<string, PendingUse>();
  private readonly early = new Map<string, EarlyResult>();
  private readonly writes = new Map<string, PendingWrite>();
  private tasks: Task[] = [];
  /** A subagent's parent session id. */
  private parent: string | undefined;
  private titles: Partial<Record<'customTitle' | 'aiTitle' | 'summary', string>> = {};
  /** Whether the session's first cwd was in the workspace; undefined until a cwd is seen. */
  private inWorkspace: boolean | undefined;
  /** The newest turn, once a prompt was seen. */
  private turn: { index: number; state: TurnState } | undefined;
  /** Ids of the tool calls of the newest turn after its last plan call. */
  private calls: string[] = [];
  /** The main transcript's tool calls without a result yet. */
  private readonly open: OpenCalls;

  constructor(
    private readonly options: ClaudeCodeParserOptions,
    state: unknown,
  ) {
    super('claude-code', state);
    this.open = new OpenCalls(isRecord(state) ? state['open'] : undefined);
    if (!isRecord(state)) return;
    const uses = state['uses'];
    if (isRecord(uses)) {
      for (const [id, use] of Object.entries(uses)) {
        if (isRecord(use) && isPlanTool(use['name']) && typeof use['line'] === 'number') {
          this.uses.set(id, { name: use['name'], input: use['input'], line: use['line'] });
        }
      }
    }
    const early = state['early'];
    if (isRecord(early)) {
      for (const [id, result] of Object.entries(early)) {
        if (isRecord(result) && typeof result['isError'] === 'boolean') {
          const entry: EarlyResult = { isError: result['isError'], result: result['result'] };
          if (typeof result['text'] === 'string') entry.text = result['text'];
          if (typeof result['at'] === 'string') entry.at = result['at'];
          this.early.set(id, entry);
        }
      }
    }
    const writes = state['writes'];
    if (isRecord(writes)) {
      for (const [id, write] of Object.entries(writes)) {
        if (!isRecord(write) || !Array.isArray(write['files'])) continue;
        const files = write['files'].filter((file): file is string => typeof file === 'string');
        if (files.length === 0) continue;
        this.writes.set(id, typeof write['at'] === 'string' ? { files, at: write['at'] } : { files });
      }
    }
    const tasks = state['tasks'];
    if (Array.isArray(tasks)) {
      this.tasks = tasks.filter(
        (t): t is Task =>
          isRecord(t) &&
          typeof t['id'] === 'string' &&
          typeof t['subject'] === 'string' &&
          typeof t['status'] === 'string' &&
          (TODO_STATUSES as readonly string[]).includes(t['status']),
      );
    }
    if (typeof state['inWorkspace'] === 'boolean') this.inWorkspace = state['inWorkspace'];
    if (typeof state['parent'] === 'string') this.parent = state['parent'];
    const turn = state['turn'];
    if (isRecord(turn) && typeof turn['index'] === 'number' && TURN_STATES.includes(turn['state'] as TurnState)) {
      this.turn = { index: turn['index'], state: turn['state'] as TurnState };
    }
    const calls = state['calls'];
    if (Array.isArray(calls)) this.calls = calls.filter((id): id is string => typeof id === 'string').slice(0, MAX_COUNTED_CALLS);
    const titles = state['titles'];
    if (isRecord(titles)) {
      for (const key of ['customTitle', 'aiTitle', 'summary'] as const) {
        const value = titles[key];
        if (typeof value === 'string') this.titles[key] = value;
      }
    }
  }

  protected override accepted(): boolean {
    return this.inWorkspace !== false;
  }

  protected ownState(): JsonRecord {
    const state: JsonRecord = {
      uses: Object.fromEntries(this.uses),
      early: Object.fromEntries(this.early),
      writes: Object.fromEntries(this.writes),
      tasks: this.tasks,
      titles: this.titles,
    };
    if (this.inWorkspace !== undefined) state['inWorkspace'] = this.inWorkspace;
    if (this.parent !== undefined) state['parent'] = this.parent;
    if (this.turn) state['turn'] = this.turn;
    state['calls'] = this.calls;
    state['open'] = this.open.state();
    return state;
  }

  protected override info(): ForeignSessionInfo | undefined {
    const base = super.info();
    const info = base !== undefined && this.parent !== undefined ? { ...base, parent: this.parent } : base;
    if (info === undefined || this.turn === undefined) return info;
    return { ...info, turn: { ...this.turn }, calls: this.calls.length, pending: this.open.pending() };
  }

  /** Where the turn stands after this line. */
  private followTurn(type: 'assistant' | 'user', record: JsonRecord, message: JsonRecord): void {
    if (record['isSidechain'] === true || record['isMeta'] === true) return;
    const content = message['content'];
    if (type === 'assistant') {
      if (record['isApiErrorMessage'] === true) this.setTurn('failed');
      else if (message['stop_reason'] === 'end_turn') this.setTurn('ended');
      return;
    }
    const text = typeof content === 'string' ? content : Array.isArray(content) ? promptText(content) : undefined;
    if (text === undefined) return;
    if (text.startsWith('[Request interrupted by user')) {
      this.setTurn('cancelled');
      return;
    }
    this.turn = { index: this.turn === undefined ? 0 : this.turn.index + 1, state: 'running' };
    this.calls = [];
    this.open.clear();
  }

  private setTurn(state: TurnState): void {
    this.turn = { index: this.turn?.index ?? 0, state };
    this.open.clear();
  }

  private countCall(name: unknown, input: unknown, id: string | undefined): void {
    // An MCP todo_write outside Agent Plan's contract is no plan call: it counts as activity.
    if (isPlanTool(name) && (!isMcpDoubleUnderscoreTodoWrite(name) || isMcpTodoInput(input))) {
      this.calls = [];
      return;
    }
    if (id === undefined || this.calls.includes(id) || this.calls.length >= MAX_COUNTED_CALLS) return;
    this.calls.push(id);
  }

  protected handle(record: JsonRecord, line: number, batch: Batch): void {
    // A subagent's own transcript: every line is its sidechain, and its lines are its own.
    if (this.options.subagent === true) {
      if (record['isSidechain'] !== true) return;
      const parent = stringField(record, 'sessionId');
      const agentId = stringField(record, 'agentId');
      if (this.base.session === undefined && parent !== undefined && agentId !== undefined) {
        this.parent = parent;
        this.base.session = claudeSubagentSession(parent, agentId);
      }
      // What the parent asked of it: its first request.
      const message = record['message'];
      if (record['type'] === 'user' && isRecord(message)) this.firstRequest(requestText(record, message, true));
      if (this.base.session === undefined) return;
      this.handleLine({ ...record, isSidechain: false, sessionId: this.base.session }, line, batch);
      return;
    }
    this.handleLine(record, line, batch);
  }

  private handleLine(record: JsonRecord, line: number, batch: Batch): void {
    const type = record['type'];
    // Titles: one the user gave (/rename) wins over one Claude Code made, which wins over a summary.
    const titleField = type === 'custom-title' ? 'customTitle' : type === 'ai-title' ? 'aiTitle' : type === 'summary' ? 'summary' : undefined;
    if (titleField !== undefined) {
      const title = stringField(record, titleField)?.trim();
      if (title !== undefined && title !== '') this.titles[titleField] = title;
      this.base.title = this.titles.customTitle ?? this.titles.aiTitle ?? this.titles.summary ?? this.base.title;
      return;
    }
    if (type !== 'assistant' && type !== 'user') return;

    const session = stringField(record, 'sessionId');
    if (session !== undefined && this.base.session === undefined) this.base.session = session;
    const cwd = stringField(record, 'cwd');
    if (cwd !== undefined && this.base.cwd === undefined) {
      this.base.cwd = cwd;
      const folders = this.options.workspaceFolders;
      if (folders !== undefined) this.inWorkspace = folders.some((folder) => isInsideWorkspace(cwd, folder));
    }

    const message = record['message'];
    if (!isRecord(message)) {
      batch.report(line, `a ${type} line without a message`);
      return;
    }
    this.followTurn(type, record, message);
    if (type === 'user') this.firstRequest(requestText(record, message, false));
    const content = message['content'];
    if (!Array.isArray(content)) return; // a user prompt as plain text
    const at = stringField(record, 'timestamp');
    if (type === 'assistant') {
      // A sidechain line in the main transcript is a subagent's: its writes are its own session's.
      if (record['isSidechain'] !== true) this.noteWrites(record, at);
      if (record['isSidechain'] !== true && this.accepted()) claudeUsageOf(this.base.session, message, content, at, batch);
      for (const block of content) {
        if (isRecord(block) && block['type'] === 'tool_use' && record['isSidechain'] !== true) {
          this.countCall(block['name'], block['input'], stringField(block, 'id'));
          this.open.start(stringField(block, 'id') ?? '', stringField(block, 'name') ?? '');
        }
        if (!isRecord(block) || block['type'] !== 'tool_use' || !isPlanTool(block['name'])) continue;
        const id = stringField(block, 'id');
        if (id === undefined) {
          batch.report(line, `a ${block['name']} call without an id`);
          continue;
        }
        if (this.base.emitted.includes(id) || this.uses.has(id)) continue; // a repeated line
        this.uses.set(id, { name: block['name'], input: block['input'], line });
        const result = this.early.get(id);
        if (result) {
          this.early.delete(id);
          this.settle(id, result, line, batch);
        }
      }
      return;
    }
    const results = content.filter((block) => isRecord(block) && block['type'] === 'tool_result') as JsonRecord[];
    for (const block of results) {
      const id = stringField(block, 'tool_use_id');
      if (id === undefined) continue;
      this.open.finish(id);
      // `toolUseResult` belongs to the line; with several results on one line it cannot be paired.
      const result: EarlyResult = { isError: block['is_error'] === true, result: results.length === 1 ? record['toolUseResult'] : undefined };
      if (typeof block['content'] === 'string') result.text = block['content'].slice(0, 200);
      if (at !== undefined) result.at = at;
      const write = this.writes.get(id);
      if (write) {
        this.writes.delete(id);
        if (!result.isError && this.accepted() && this.base.session !== undefined && !batch.alreadyEmitted(id)) {
          batch.write({ source: { agent: 'claude-code', session: this.base.session, call: id }, files: write.files, ...(write.at !== undefined ? { at: write.at } : {}) });
        }
      }
      if (this.uses.has(id)) this.settle(id, result, line, batch);
      else if (!this.base.emitted.includes(id) && looksLikePlanResult(result)) this.early.set(id, result);
    }
  }

  /** The line's file-writing calls, held until their results say whether they wrote. */
  private noteWrites(record: JsonRecord, at: string | undefined): void {
    for (const { path, call } of claudeFilesWritten(record)) {
      if (call === undefined || this.base.emitted.includes(call)) continue;
      const pending = this.writes.get(call);
      if (pending) {
        if (!pending.files.includes(path)) pending.files.push(path);
        continue;
      }
      if (this.writes.size >= MAX_PENDING_WRITES) this.writes.delete(this.writes.keys().next().value as string);
      this.writes.set(call, at !== undefined ? { files: [path], at } : { files: [path] });
    }
  }

  /** A plan call and its result are both in: apply it and emit the whole list. */
  private settle(id: string, result: EarlyResult, line: number, batch: Batch): void {
    const use = this.uses.get(id);
    if (!use) return;
    this.uses.delete(id);
    if (batch.alreadyEmitted(id) || result.isError) return;
    const input = isRecord(use.input) ? use.input : {};
    let items: ForeignItem[] | undefined;
    if (isMcpDoubleUnderscoreTodoWrite(use.name)) {
      const mapped = mcpTodoItems(use.input);
      if (!mapped.ok) {
        batch.report(use.line, mapped.detail);
        return;
      }
      items = mapped.items;
    }
    switch (use.name) {
      case 'TodoWrite': {
        const mapped = mapItems(input['todos'], 'content', TODO_STATUSES, 'TodoWrite');
        if (!mapped.ok) {
          batch.report(use.line, mapped.detail);
          return;
        }
        items = mapped.items;
        break;
      }
      case 'TaskCreate':
        items = this.create(input, result, line, batch);
        break;
      case 'TaskUpdate':
        items = this.update(input, result.result, use.line, batch);
        break;
    }
    if (items === undefined || !this.accepted() || this.base.session === undefined) return;
    batch.emit({
      source: { agent: 'claude-code', tool: use.name, session: this.base.session, call: id },
      items,
      ...(result.at !== undefined ? { at: result.at } : {}),
    });
  }

  private create(input: JsonRecord, result: EarlyResult, line: number, batch: Batch): ForeignItem[] | undefined {
    const task = isRecord(result.result) ? result.result['task'] : undefined;
    // The id is in `toolUseResult.task.id`; a line holding several results has no
    // toolUseResult of its own, and then the result text ("Task #3 created …") names it.
    const id = (isRecord(task) ? taskId(task['id']) : undefined) ?? /^Task #(\w+) created\b/.exec(result.text ?? '')?.[1];
    if (id === undefined) {
      batch.report(line, 'a TaskCreate result without task.id');
      return undefined;
    }
    const subject = typeof input['subject'] === 'string' ? input['subject'] : isRecord(task) ? task['subject'] : undefined;
    if (typeof subject !== 'string') {
      batch.report(line, 'a TaskCreate call without a subject');
      return undefined;
    }
    this.tasks = this.tasks.filter((t) => t.id !== id);
    this.tasks.push({ id, subject: subject.trim(), status: 'pending' });
    this.tasks.sort(byTaskId);
    return this.items();
  }

  private update(input: JsonRecord, result: unknown, line: number, batch: Batch): ForeignItem[] | undefined {
    if (isRecord(result) && result['success'] === false) return undefined;
    const id = taskId(input['taskId']);
    if (id === undefined) {
      batch.report(line, 'a TaskUpdate call without a taskId');
      return undefined;
    }
    const task = this.tasks.find((t) => t.id === id);
    if (!task) {
      batch.report(line, 'a TaskUpdate of a task not created in this file');
      return undefined;
    }
    const status = input['status'];
    if (status !== undefined && !(TASK_STATUSES as readonly unknown[]).includes(status)) {
      batch.report(line, `TaskUpdate status ${describeValue(status)}`);
      return undefined;
    }
    const before = JSON.stringify(this.items());
    if (status === 'deleted') this.tasks = this.tasks.filter((t) => t !== task);
    else {
      if (typeof status === 'string') task.status = status as ForeignStatus;
      if (typeof input['subject'] === 'string') task.subject = input['subject'].trim();
    }
    const after = this.items();
    // An update of fields Agent Plan does not show (owner, blocks, …) is no new version.
    return JSON.stringify(after) === before ? undefined : after;
  }

  private items(): ForeignItem[] {
    return this.tasks.map((t) => ({ content: t.subject, status: t.status }));
  }
}

/** The text of a user message that is a prompt (text blocks, no tool result), else undefined. */
function promptText(content: readonly unknown[]): string | undefined {
  if (content.some((block) => isRecord(block) && block['type'] === 'tool_result')) return undefined;
  const text = content.find((block): block is JsonRecord => isRecord(block) && block['type'] === 'text');
  return text !== undefined && typeof text['text'] === 'string' ? text['text'] : undefined;
}

function isPlanTool(name: unknown): name is PlanTool {
  return (PLAN_TOOLS as readonly unknown[]).includes(name) || isMcpDoubleUnderscoreTodoWrite(name);
}

function taskId(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function looksLikePlanResult({ result, text }: EarlyResult): boolean {
  if (isRecord(result)) return 'task' in result || 'newTodos' in result || 'taskId' in result || 'statusChange' in result;
  return /^(Task #\w+ created|Updated task #)/.test(text ?? '');
}

/** Task ids are counters ("1", "2", …): numeric order, then text order. */
function byTaskId(a: Task, b: Task): number {
  const x = Number(a.id);
  const y = Number(b.id);
  if (Number.isFinite(x) && Number.isFinite(y) && x !== y) return x - y;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The text the user typed on a `user` line: a plain prompt, or the text of one sent with an
 * image; not a tool's result, a meta line, a subagent's line in the main transcript, an
 * interruption, nor Claude Code's own wrappers (`<command-name>`, `<local-command-stdout>`,
 * `<task-notification>`, `<system-reminder>`).
 */
function requestText(record: JsonRecord, message: JsonRecord, subagent: boolean): string | undefined {
  if (record['isMeta'] === true || (!subagent && record['isSidechain'] === true)) return undefined;
  const content = message['content'];
  const text = typeof content === 'string' ? content : Array.isArray(content) ? promptText(content) : undefined;
  if (text === undefined) return undefined;
  const start = text.trimStart();
  return start.startsWith('<') || start.startsWith('[Request interrupted by user') ? undefined : text;
}

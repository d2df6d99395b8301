// Qwen Code chats (`<qwenDir>/projects/<cwd, every non-alphanumeric "-">/chats/<sessionId>.jsonl`):
// each successful `todo_write` call, a whole list. Pure: lines in, plans out.
//
// Observed with the real CLI (0.24.4): the file is appended, one record per line, every record
// with `uuid`, `sessionId`, `timestamp`, `type` (user, assistant, tool_result, system), `cwd`
// and `version`. Messages carry Gemini's content shape (`message.parts[]`): a call is an
// assistant record's `functionCall {id, name, args}`; its outcome is a later `tool_result`
// record's `toolCallResult {callId, status}`. Items are `{id, content, status}` with three
// statuses; `id` is not content. `todo_write` is off by default in 0.24 (`tools.todoWrite.enabled`).
// The folder name is lossy (`/a/b-c` and `/a/b/c` share it): the `cwd` on the records decides.
// A waiting call: a `functionCall` whose `tool_result` has not come, until the turn moves on.
// An approval prompt is not told apart: recorded interactive (`--approval-mode default`), the
// chat writes nothing while it asks ("Allow execution of …?"); the call's `ui_telemetry`
// record says `decision: "accept"` (the user's) or `"auto_accept"` only once it completed.
// Turns: a `user` record (a prompt; tool results are `tool_result` records) starts one; an
// assistant record without a functionCall (the answer) ends it. Each other call after the
// turn's last todo_write counts as activity.
import { isInsideWorkspace } from '../locations';
import { type Batch, type JsonRecord, JsonLineParser, isRecord, mapItems, stringField } from '../lineParser';
import { OpenCalls } from '../openCalls';
import type { ForeignItem, ForeignSessionInfo, ForeignStatus, SessionParser } from '../../core/foreign';
import { PendingWrites, toolCallFiles, type WriteTools } from '../toolWrites';
import { qwenUsageOf } from './usage';

/** Qwen Code's write tools (`replace` in older releases). */
const WRITE_TOOLS: WriteTools = { paths: { write_file: 'file_path', edit: 'file_path', replace: 'file_path' }, patches: {} };

const STATUSES: readonly ForeignStatus[] = ['pending', 'in_progress', 'completed'];
export const QWEN_PLAN_TOOL = 'todo_write';

export interface QwenCodeParserOptions {
  /** The workspace folders: a session whose first recorded cwd is in none of them yields nothing. */
  workspaceFolders?: readonly string[];
}

export function createQwenCodeParser(options: QwenCodeParserOptions = {}, state?: unknown): SessionParser & { turnFacts(): QwenTurn | undefined } {
  return new QwenCodeParser(options, state);
}

/** A call whose result is not in yet: its items (already mapped) and when it was made. */
interface PendingCall {
  items: ForeignItem[];
  at?: string;
}

/** Where the newest turn stands: running, or ended with an answer. */
export interface QwenTurn {
  index: number;
  state: 'running' | 'ended';
  /** Ids of the other calls after the turn's last todo_write. */
  calls: string[];
}

const MAX_COUNTED_CALLS = 1000;

class QwenCodeParser extends JsonLineParser {
  private readonly calls = new Map<string, PendingCall>();
  private inWorkspace: boolean | undefined;
  private turn: QwenTurn | undefined;
  /** write_file/edit calls waiting for their result. */
  private readonly writes: PendingWrites;

  /** Calls whose tool_result has not come. */
  private readonly open: OpenCalls;

  constructor(
    private readonly options: QwenCodeParserOptions,
    state: unknown,
  ) {
    super('qwen-code', state);
    this.writes = new PendingWrites(isRecord(state) ? state['writes'] : undefined);
    this.open = new OpenCalls(isRecord(state) ? state['open'] : undefined);
    if (!isRecord(state)) return;
    const calls = state['calls'];
    if (isRecord(calls)) {
      for (const [id, call] of Object.entries(calls)) {
        if (!isRecord(call) || !Array.isArray(call['items'])) continue;
        const mapped = mapItems(call['items'], 'content', STATUSES, QWEN_PLAN_TOOL);
        if (!mapped.ok) continue;
        const entry: PendingCall = { items: mapped.items };
        if (typeof call['at'] === 'string') entry.at = call['at'];
        this.calls.set(id, entry);
      }
    }
    if (typeof state['inWorkspace'] === 'boolean') this.inWorkspace = state['inWorkspace'];
    const turn = state['turn'];
    if (isRecord(turn) && typeof turn['index'] === 'number' && (turn['state'] === 'running' || turn['state'] === 'ended') && Array.isArray(turn['calls'])) {
      this.turn = { index: turn['index'], state: turn['state'], calls: turn['calls'].filter((c): c is string => typeof c === 'string').slice(0, MAX_COUNTED_CALLS) };
    }
  }

  protected override info(): ForeignSessionInfo | undefined {
    const info = super.info();
    if (info === undefined || this.turn === undefined) return info;
    return { ...info, turn: { index: this.turn.index, state: this.turn.state }, calls: this.turn.calls.length, pending: this.open.pending() };
  }

  /** The newest turn so far (a copy). */
  turnFacts(): QwenTurn | undefined {
    return this.turn ? { ...this.turn, calls: [...this.turn.calls] } : undefined;
  }

  protected override accepted(): boolean {
    return this.inWorkspace !== false;
  }

  protected ownState(): JsonRecord {
    const state: JsonRecord = { calls: Object.fromEntries(this.calls), writes: this.writes.state(), open: this.open.state() };
    if (this.inWorkspace !== undefined) state['inWorkspace'] = this.inWorkspace;
    if (this.turn !== undefined) state['turn'] = this.turn;
    return state;
  }

  protected handle(record: JsonRecord, line: number, batch: Batch): void {
    const session = stringField(record, 'sessionId');
    if (session !== undefined && this.base.session === undefined) this.base.session = session;
    const cwd = stringField(record, 'cwd');
    if (cwd !== undefined && this.base.cwd === undefined) {
      this.base.cwd = cwd;
      const folders = this.options.workspaceFolders;
      if (folders !== undefined) this.inWorkspace = folders.some((folder) => isInsideWorkspace(cwd, folder));
    }
    if (!this.accepted()) return;
    const type = record['type'];
    if (type === 'user') {
      this.turn = { index: this.turn === undefined ? 0 : this.turn.index + 1, state: 'running', calls: [] };
      // What the user typed (`provenance: "real_user"` where the record says).
      const provenance = record['provenance'];
      if (provenance === undefined || provenance === 'real_user') this.firstRequest(partsText(record['message']));
      this.open.clear();
    }
    if (type === 'assistant') this.readCalls(record, line, batch);
    else if (type === 'tool_result') this.readResult(record, line, batch);
  }

  /** An assistant record: its todo_write calls, kept until their results. */
  private readCalls(record: JsonRecord, line: number, batch: Batch): void {
    const message = record['message'];
    const parts = isRecord(message) ? message['parts'] : undefined;
    if (!Array.isArray(parts)) return;
    const called = parts.filter((part) => isRecord(part) && isRecord(part['functionCall']));
    qwenUsageOf(this.base.session, record, called.length, batch);
    if (called.length === 0 && this.turn !== undefined) {
      this.turn.state = 'ended';
      this.open.clear();
    }
    for (const part of parts) {
      const call = isRecord(part) ? part['functionCall'] : undefined;
      if (isRecord(call) && this.turn !== undefined) {
        const callId = stringField(call, 'id');
        this.open.start(callId ?? '', stringField(call, 'name') ?? '');
        if (call['name'] === QWEN_PLAN_TOOL) this.turn.calls = [];
        else if (callId !== undefined && !this.turn.calls.includes(callId) && this.turn.calls.length < MAX_COUNTED_CALLS) this.turn.calls.push(callId);
      }
      if (isRecord(call) && typeof call['name'] === 'string' && call['name'] !== QWEN_PLAN_TOOL) {
        const callId = stringField(call, 'id');
        if (callId !== undefined && !this.base.emitted.includes(callId)) this.writes.note(callId, toolCallFiles(WRITE_TOOLS, call['name'], call['args']), stringField(record, 'timestamp'));
      }
      if (!isRecord(call) || call['name'] !== QWEN_PLAN_TOOL) continue;
      const id = stringField(call, 'id');
      if (id === undefined) {
        batch.report(line, 'a todo_write call without an id');
        continue;
      }
      if (this.base.emitted.includes(id) || this.calls.has(id)) continue;
      const args = call['args'];
      const mapped = mapItems(isRecord(args) ? args['todos'] : undefined, 'content', STATUSES, QWEN_PLAN_TOOL);
      if (!mapped.ok) {
        batch.report(line, mapped.detail);
        continue;
      }
      const at = stringField(record, 'timestamp');
      this.calls.set(id, { items: mapped.items, ...(at !== undefined ? { at } : {}) });
    }
  }

  /** A tool_result record: a todo_write call that succeeded is a plan; any other outcome drops it. */
  private readResult(record: JsonRecord, line: number, batch: Batch): void {
    const result = record['toolCallResult'];
    if (!isRecord(result)) {
      batch.report(line, 'a tool_result without toolCallResult');
      return;
    }
    const id = stringField(result, 'callId');
    if (id === undefined) return;
    this.open.finish(id);
    const write = this.writes.settle(id);
    if (write !== undefined && result['status'] === 'success' && this.base.session !== undefined && !batch.alreadyEmitted(id)) {
      batch.write({ source: { agent: 'qwen-code', session: this.base.session, call: id }, files: write.files, ...(write.at !== undefined ? { at: write.at } : {}) });
    }
    const call = this.calls.get(id);
    if (call === undefined) return;
    this.calls.delete(id);
    if (result['status'] !== 'success' || batch.alreadyEmitted(id)) return;
    if (this.base.session === undefined) {
      batch.report(line, 'a todo_write result before any sessionId');
      return;
    }
    batch.emit({
      source: { agent: 'qwen-code', tool: QWEN_PLAN_TOOL, session: this.base.session, call: id },
      items: call.items,
      ...(call.at !== undefined ? { at: call.at } : {}),
    });
  }
}

/** The todos file Qwen Code rewrites whole (`<qwenDir>/todos/<sessionId>.json`): its items, or undefined in another shape. */
export function qwenTodosFileItems(text: string): ForeignItem[] | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    if (!isRecord(value)) return undefined;
    const mapped = mapItems(value['todos'], 'content', STATUSES, QWEN_PLAN_TOOL);
    return mapped.ok ? mapped.items : undefined;
  } catch {
    return undefined;
  }
}

/** Qwen Code's project folder name for a workspace path: every character not a letter or digit becomes "-". */
export function qwenProjectFolderName(workspace: string): string {
  return workspace.replace(/[^a-zA-Z0-9]/g, '-');
}

/** The text parts of a message (`message.parts[].text`), joined; undefined when it has none. */
function partsText(message: unknown): string | undefined {
  const parts = isRecord(message) ? message['parts'] : undefined;
  if (!Array.isArray(parts)) return undefined;
  const texts = parts.filter((part): part is JsonRecord => isRecord(part) && typeof part['text'] === 'string');
  return texts.length > 0 ? texts.map((part) => part['text'] as string).join(' ') : undefined;
}

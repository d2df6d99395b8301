// Codex rollouts (`<codexHome>/sessions/YYYY/MM/DD/rollout-*.jsonl`): each `update_plan`
// call, a whole list. Pure: lines in, plans out.
//
// - Line 1, `session_meta`: `payload.id` is the thread (session) id, `payload.cwd` the workspace.
// - A plan call: `response_item` whose payload is a `function_call` named `update_plan`, its
//   `arguments` a JSON string `{explanation?, plan: [{step, status}]}`. `explanation` is not content.
// - Turns: `event_msg` `task_started` starts one, `task_complete` ends it, `turn_aborted`
//   ends it cancelled (reason "interrupted" or "replaced") or failed. Every other tool call
//   (`function_call`, `custom_tool_call`, `local_shell_call`) after the turn's last
//   update_plan counts as activity.
// - A waiting call: a tool call whose `function_call_output` / `custom_tool_call_output` has not
//   come, until its turn ends or a new one starts. The rollout records no approval request;
//   a command call whose arguments ask to run outside the sandbox (`sandbox_permissions:
//   "require_escalated"`) in a turn whose `turn_context` has the user approve
//   (`approval_policy` `on-request` or `untrusted`) is one Codex asks the user about: that
//   wait is for approval. Any other call waiting may be a running command.
// - Files: an apply_patch call (a `custom_tool_call` whose input is the patch, or an older
//   `function_call` with it in its arguments) wrote the files its patch names once its output
//   says "Success. Updated the following files"; a patch that did not apply wrote nothing.
//   The write comes after the plans emitted before that output.
import { codexFilesWritten } from './fileWrites';
import { codexResponseItem, codexUsageOf, readCodexResponse, type CodexResponse } from './usage';
import { OpenCalls } from '../openCalls';
import { type Batch, type JsonRecord, JsonLineParser, isRecord, mapItems, stringField } from '../lineParser';
import { TURN_STATES, type ForeignSessionInfo, type ForeignStatus, type SessionParser, type TurnState } from '../../core/foreign';

const STATUSES: readonly ForeignStatus[] = ['pending', 'in_progress', 'completed'];
const TOOL_CALLS: ReadonlySet<unknown> = new Set(['function_call', 'custom_tool_call', 'local_shell_call']);
const CALL_OUTPUTS: ReadonlySet<unknown> = new Set(['function_call_output', 'custom_tool_call_output']);
/** apply_patch calls kept while their output has not come (a run cut short never sends some). */
const MAX_PENDING_WRITES = 1000;

/** A file-writing call whose output has not been seen yet. */
interface PendingWrite {
  files: string[];
  at?: string;
}

export function createCodexParser(state?: unknown): SessionParser {
  return new CodexParser(state);
}

class CodexParser extends JsonLineParser {
  /** The newest turn, once one started. */
  private turn: { index: number; state: TurnState } | undefined;
  /** Tool calls of the newest turn since its last update_plan. */
  private calls = 0;
  /** apply_patch calls waiting for their output, by call id. */
  private readonly writes = new Map<string, PendingWrite>();
  /** The response whose items are being read, until its token_count. */
  private response: CodexResponse | undefined;
  /** Tool calls without their output yet. */
  private readonly open: OpenCalls;
  /** The newest turn_context's approval policy. */
  private approvalPolicy: string | undefined;

  constructor(state: unknown) {
    super('codex', state);
    this.open = new OpenCalls(isRecord(state) ? state['open'] : undefined);
    if (!isRecord(state)) return;
    if (typeof state['approvalPolicy'] === 'string') this.approvalPolicy = state['approvalPolicy'];
    this.response = readCodexResponse(state['response']);
    const writes = state['writes'];
    if (isRecord(writes)) {
      for (const [id, write] of Object.entries(writes)) {
        if (!isRecord(write) || !Array.isArray(write['files'])) continue;
        const files = write['files'].filter((file): file is string => typeof file === 'string');
        if (files.length > 0) this.writes.set(id, typeof write['at'] === 'string' ? { files, at: write['at'] } : { files });
      }
    }
    const turn = state['turn'];
    if (isRecord(turn) && typeof turn['index'] === 'number' && TURN_STATES.includes(turn['state'] as TurnState)) {
      this.turn = { index: turn['index'], state: turn['state'] as TurnState };
    }
    if (typeof state['calls'] === 'number') this.calls = state['calls'];
  }

  protected ownState(): JsonRecord {
    const state: JsonRecord = { calls: this.calls, writes: Object.fromEntries(this.writes), open: this.open.state() };
    if (this.response) state['response'] = { ...this.response };
    if (this.turn) state['turn'] = this.turn;
    if (this.approvalPolicy !== undefined) state['approvalPolicy'] = this.approvalPolicy;
    return state;
  }

  protected override info(): ForeignSessionInfo | undefined {
    const info = super.info();
    if (info === undefined || this.turn === undefined) return info;
    return { ...info, turn: { ...this.turn }, calls: this.calls, pending: this.open.pending() };
  }

  private followTurn(payload: JsonRecord): void {
    const kind = payload['type'];
    if (kind === 'task_started' || kind === 'task_complete' || kind === 'turn_aborted') this.open.clear();
    if (kind === 'task_started') {
      this.turn = { index: this.turn === undefined ? 0 : this.turn.index + 1, state: 'running' };
      this.calls = 0;
    } else if (kind === 'task_complete') {
      this.turn = { index: this.turn?.index ?? 0, state: 'ended' };
    } else if (kind === 'turn_aborted') {
      // Stopped by the user (or by a new request in its place) is cancelled; any other reason, failed.
      const reason = payload['reason'];
      this.turn = { index: this.turn?.index ?? 0, state: reason === 'interrupted' || reason === 'replaced' ? 'cancelled' : 'failed' };
    }
  }

  protected handle(record: JsonRecord, line: number, batch: Batch): void {
    const payload = record['payload'];
    const type = record['type'];
    if (type === 'session_meta') {
      if (!isRecord(payload)) {
        batch.report(line, 'a session_meta line without a payload');
        return;
      }
      // A rollout's own meta comes first; later ones (forks, resumes) do not change whose file it is.
      if (this.base.session === undefined) {
        const id = stringField(payload, 'id');
        if (id === undefined) batch.report(line, 'a session_meta line without payload.id');
        else this.base.session = id;
        const cwd = stringField(payload, 'cwd');
        if (cwd !== undefined) this.base.cwd = cwd;
      }
      return;
    }
    if (type === 'turn_context' && isRecord(payload)) {
      this.approvalPolicy = stringField(payload, 'approval_policy') ?? this.approvalPolicy;
      return;
    }
    if (type === 'event_msg' && isRecord(payload)) {
      if (payload['type'] === 'user_message') this.firstRequest(codexRequestText(stringField(payload, 'message')));
      this.followTurn(payload);
      if (payload['type'] === 'token_count') this.response = codexUsageOf(this.base.session, this.response, payload, stringField(record, 'timestamp'), batch);
      return;
    }
    if (type !== 'response_item' || !isRecord(payload)) return;
    if (payload['type'] === 'message' && payload['role'] === 'user') this.firstRequest(codexRequestText(inputText(payload['content'])));
    this.response = codexResponseItem(this.response, payload, this.base.plans);
    if (TOOL_CALLS.has(payload['type'])) {
      this.calls = payload['name'] === 'update_plan' ? 0 : this.calls + 1;
      const call = stringField(payload, 'call_id') ?? '';
      this.open.start(call, stringField(payload, 'name') ?? stringField(payload, 'type') ?? '');
      if (this.asksApproval(payload)) this.open.approval(call, true);
    }
    if (CALL_OUTPUTS.has(payload['type'])) this.open.finish(stringField(payload, 'call_id') ?? '');
    if (payload['name'] === 'apply_patch') {
      this.noteWrite(record);
      return;
    }
    if (CALL_OUTPUTS.has(payload['type'])) {
      this.settleWrite(payload, batch);
      return;
    }
    if (payload['type'] !== 'function_call' || payload['name'] !== 'update_plan') return;
    const call = stringField(payload, 'call_id');
    if (call === undefined) {
      batch.report(line, 'an update_plan call without a call_id');
      return;
    }
    if (batch.alreadyEmitted(call)) return;
    let args: unknown;
    try {
      const raw = payload['arguments'];
      args = typeof raw === 'string' ? JSON.parse(raw) : raw;
    } catch {
      batch.report(line, 'update_plan arguments that are not JSON');
      return;
    }
    const mapped = mapItems(isRecord(args) ? args['plan'] : undefined, 'step', STATUSES, 'update_plan');
    if (!mapped.ok) {
      batch.report(line, mapped.detail);
      return;
    }
    if (this.base.session === undefined) {
      batch.report(line, 'an update_plan call before session_meta');
      return;
    }
    const at = stringField(record, 'timestamp');
    batch.emit({
      source: { agent: 'codex', tool: 'update_plan', session: this.base.session, call },
      items: mapped.items,
      ...(at !== undefined ? { at } : {}),
    });
  }

  /** Whether Codex asks the user before this call runs: a command to run outside the sandbox, under a policy where the user approves. */
  private asksApproval(payload: JsonRecord): boolean {
    if (this.approvalPolicy !== 'on-request' && this.approvalPolicy !== 'untrusted') return false;
    let args: unknown = payload['arguments'];
    try {
      args = typeof args === 'string' ? JSON.parse(args) : args;
    } catch {
      return false;
    }
    return isRecord(args) && args['sandbox_permissions'] === 'require_escalated';
  }

  /** An apply_patch call: the files its patch names, held until its output says it applied. */
  private noteWrite(record: JsonRecord): void {
    const found = codexFilesWritten(record);
    const call = found[0]?.call;
    if (call === undefined || this.base.emitted.includes(call) || this.writes.has(call)) return;
    if (this.writes.size >= MAX_PENDING_WRITES) this.writes.delete(this.writes.keys().next().value as string);
    const at = stringField(record, 'timestamp');
    const files = found.map((write) => write.path);
    this.writes.set(call, at !== undefined ? { files, at } : { files });
  }

  /** A call's output: an apply_patch that applied wrote its files. */
  private settleWrite(payload: JsonRecord, batch: Batch): void {
    const call = stringField(payload, 'call_id');
    const write = call === undefined ? undefined : this.writes.get(call);
    if (call === undefined || write === undefined) return;
    this.writes.delete(call);
    if (!patchApplied(payload['output']) || this.base.session === undefined || batch.alreadyEmitted(call)) return;
    batch.write({ source: { agent: 'codex', session: this.base.session, call }, files: write.files, ...(write.at !== undefined ? { at: write.at } : {}) });
  }
}

/**
 * Whether an apply_patch output says the patch applied: Codex answers "Success. Updated the
 * following files: …" (in 0.171.0 after "Exit code: 0 … Output:"; older releases wrapped it in
 * JSON, or in `{content, success}`), and an error text otherwise.
 */
function patchApplied(output: unknown): boolean {
  if (isRecord(output)) {
    if (output['success'] === false) return false;
    output = output['content'];
  }
  // Output as content items ({type: "input_text", text}).
  if (Array.isArray(output)) output = output.map((item) => (isRecord(item) && typeof item['text'] === 'string' ? item['text'] : '')).join('\n');
  return typeof output === 'string' && /\bSuccess\. Updated the following files\b/.test(output);
}

/** The text of a user message's `input_text` parts. */
function inputText(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const texts = content.filter((part): part is JsonRecord => isRecord(part) && part['type'] === 'input_text' && typeof part['text'] === 'string');
  return texts.length > 0 ? texts.map((part) => part['text'] as string).join(' ') : undefined;
}

/**
 * A user message as the user typed it: Codex puts its own context in user messages too
 * (`<environment_context>`, `<user_instructions>`, `# AGENTS.md instructions for …`), never a request.
 */
function codexRequestText(text: string | undefined): string | undefined {
  const start = text?.trimStart();
  return start === undefined || start.startsWith('<') || start.startsWith('# AGENTS.md instructions') ? undefined : text;
}

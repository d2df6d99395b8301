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
// - An MCP server's todo_write (Agent Plan's own tool: a `function_call` with `namespace:
//   "mcp__<server>"`, any server, and `name: "todo_write"`, its input in Agent Plan's contract)
//   is a plan call as update_plan is, once the `event_msg` `item_completed` of its
//   `McpToolCall` item (`id` = the call_id) says `status: "completed"`; a call Codex refused
//   (`status: "failed"`: not approved) or the server answered with an error is not.
import { isCodexMcpTodoWrite, isMcpTodoInput, mcpTodoItems } from '../mcpTodoWrite';
import { codexFilesWritten } from './fileWrites';
import { codexResponseItem, codexUsageOf, readCodexResponse, type CodexResponse } from './usage';
import { OpenCalls } from '../openCalls';
import { type Batch, type JsonRecord, JsonLineParser, isRecord, mapItems, stringField } from '../lineParser';
import { TURN_STATES, type ForeignItem, type ForeignSessionInfo, type ForeignStatus, type SessionParser, type TurnState } from '../../core/foreign';

const STATUSES: readonly ForeignStatus[] = ['pending', 'in_progress', 'completed'];
const TOOL_CALLS: ReadonlySet<unknown> = new Set(['function_call', 'custom_tool_call', 'local_shell_call']);
const CALL_OUTPUTS: ReadonlySet<unknown> = new Set(['function_call_output', 'custom_tool_call_output']);
/** apply_patch calls kept while their output has not come (a run cut short never sends some). */
const MAX_PENDING_WRITES = 1000;

/** MCP todo_write calls kept while their outcome has not come. */
const MAX_PENDING_PLANS = 1000;

/** An MCP todo_write call whose outcome has not been seen yet: its tool's name, items (checked) and time. */
interface PendingPlan {
  tool: string;
  items: ForeignItem[];
  at?: string;
}

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
  /** MCP todo_write calls waiting for their outcome, by call id. */
  private readonly plans = new Map<string, PendingPlan>();

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
    // Not `plans`: the base state's count of plans emitted has that name.
    const plans = state['mcpPlans'];
    if (isRecord(plans)) {
      for (const [id, plan] of Object.entries(plans)) {
        if (!isRecord(plan) || typeof plan['tool'] !== 'string') continue;
        const mapped = mapItems(plan['items'], 'content', STATUSES, plan['tool']);
        if (mapped.ok) this.plans.set(id, { tool: plan['tool'], items: mapped.items, ...(typeof plan['at'] === 'string' ? { at: plan['at'] } : {}) });
      }
    }
  }

  protected ownState(): JsonRecord {
    const state: JsonRecord = { calls: this.calls, writes: Object.fromEntries(this.writes), mcpPlans: Object.fromEntries(this.plans), open: this.open.state() };
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
      if (payload['type'] === 'item_completed') this.settlePlan(payload['item'], line, batch);
      return;
    }
    if (type !== 'response_item' || !isRecord(payload)) return;
    if (payload['type'] === 'message' && payload['role'] === 'user') this.firstRequest(codexRequestText(inputText(payload['content'])));
    this.response = codexResponseItem(this.response, payload, this.base.plans);
    if (TOOL_CALLS.has(payload['type'])) {
      this.calls = payload['name'] === 'update_plan' || isMcpPlanCall(payload) ? 0 : this.calls + 1;
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
    if (payload['type'] === 'function_call' && isCodexMcpTodoWrite(payload['namespace'], payload['name'])) {
      this.noteMcpPlan(record, payload, line, batch);
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

  /** An MCP todo_write call: its items, held until its outcome says it ran. */
  private noteMcpPlan(record: JsonRecord, payload: JsonRecord, line: number, batch: Batch): void {
    const call = stringField(payload, 'call_id');
    const tool = `${String(payload['namespace'])}__${String(payload['name'])}`;
    if (call === undefined) {
      batch.report(line, 'an MCP todo_write call without a call_id');
      return;
    }
    if (batch.wasEmitted(call) || this.plans.has(call)) return;
    const mapped = mcpTodoItems(parseArguments(payload['arguments']));
    if (!mapped.ok) {
      batch.report(line, mapped.detail);
      return;
    }
    if (this.plans.size >= MAX_PENDING_PLANS) this.plans.delete(this.plans.keys().next().value as string);
    const at = stringField(record, 'timestamp');
    this.plans.set(call, { tool, items: mapped.items, ...(at !== undefined ? { at } : {}) });
  }

  /** An `item_completed` event: an MCP todo_write call that completed without an error is a plan. */
  private settlePlan(item: unknown, line: number, batch: Batch): void {
    if (!isRecord(item) || item['type'] !== 'McpToolCall') return;
    const call = stringField(item, 'id');
    const plan = call === undefined ? undefined : this.plans.get(call);
    if (call === undefined || plan === undefined) return;
    this.plans.delete(call);
    const result = item['result'];
    if (item['status'] !== 'completed' || (isRecord(result) && result['isError'] === true)) return;
    if (this.base.session === undefined) {
      batch.report(line, 'an MCP todo_write call before session_meta');
      return;
    }
    if (batch.alreadyEmitted(call)) return;
    batch.emit({ source: { agent: 'codex', tool: plan.tool, session: this.base.session, call }, items: plan.items, ...(plan.at !== undefined ? { at: plan.at } : {}) });
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

/** A function call's arguments: a JSON string (or, in older files, the object); undefined when not JSON. */
function parseArguments(raw: unknown): unknown {
  try {
    return typeof raw === 'string' ? JSON.parse(raw) : raw;
  } catch {
    return undefined;
  }
}

/** Whether a tool call is an MCP todo_write whose input is a todo_write list. */
function isMcpPlanCall(payload: JsonRecord): boolean {
  return payload['type'] === 'function_call' && isCodexMcpTodoWrite(payload['namespace'], payload['name']) && isMcpTodoInput(parseArguments(payload['arguments']));
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

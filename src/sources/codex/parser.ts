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
import { type Batch, type JsonRecord, JsonLineParser, isRecord, mapItems, stringField } from '../lineParser';
import { TURN_STATES, type ForeignSessionInfo, type ForeignStatus, type SessionParser, type TurnState } from '../types';

const STATUSES: readonly ForeignStatus[] = ['pending', 'in_progress', 'completed'];
const TOOL_CALLS: ReadonlySet<unknown> = new Set(['function_call', 'custom_tool_call', 'local_shell_call']);

export function createCodexParser(state?: unknown): SessionParser {
  return new CodexParser(state);
}

class CodexParser extends JsonLineParser {
  /** The newest turn, once one started. */
  private turn: { index: number; state: TurnState } | undefined;
  /** Tool calls of the newest turn since its last update_plan. */
  private calls = 0;

  constructor(state: unknown) {
    super('codex', state);
    if (!isRecord(state)) return;
    const turn = state['turn'];
    if (isRecord(turn) && typeof turn['index'] === 'number' && TURN_STATES.includes(turn['state'] as TurnState)) {
      this.turn = { index: turn['index'], state: turn['state'] as TurnState };
    }
    if (typeof state['calls'] === 'number') this.calls = state['calls'];
  }

  protected ownState(): JsonRecord {
    return this.turn ? { turn: this.turn, calls: this.calls } : { calls: this.calls };
  }

  protected override info(): ForeignSessionInfo | undefined {
    const info = super.info();
    if (info === undefined || this.turn === undefined) return info;
    return { ...info, turn: { ...this.turn }, calls: this.calls };
  }

  private followTurn(payload: JsonRecord): void {
    const kind = payload['type'];
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
    if (type === 'event_msg' && isRecord(payload)) {
      this.followTurn(payload);
      return;
    }
    if (type !== 'response_item' || !isRecord(payload)) return;
    if (TOOL_CALLS.has(payload['type'])) this.calls = payload['name'] === 'update_plan' ? 0 : this.calls + 1;
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
}

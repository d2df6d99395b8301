// Codex rollouts (`<codexHome>/sessions/YYYY/MM/DD/rollout-*.jsonl`): each `update_plan`
// call, a whole list. Pure: lines in, plans out.
//
// - Line 1, `session_meta`: `payload.id` is the thread (session) id, `payload.cwd` the workspace.
// - A plan call: `response_item` whose payload is a `function_call` named `update_plan`, its
//   `arguments` a JSON string `{explanation?, plan: [{step, status}]}`. `explanation` is not content.
import { type Batch, type JsonRecord, JsonLineParser, isRecord, mapItems, stringField } from './lineParser';
import type { ForeignStatus, SessionParser } from './types';

const STATUSES: readonly ForeignStatus[] = ['pending', 'in_progress', 'completed'];

export function createCodexParser(state?: unknown): SessionParser {
  return new CodexParser(state);
}

class CodexParser extends JsonLineParser {
  constructor(state: unknown) {
    super('codex', state);
  }

  protected ownState(): JsonRecord {
    return {};
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
    if (type !== 'response_item' || !isRecord(payload)) return;
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

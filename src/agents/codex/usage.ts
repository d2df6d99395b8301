// Codex's model responses as `model/usage` facts: a response's items (its tool calls) come
// first, then a `token_count` event with its `last_token_usage`; a repeated event repeats the
// running total, which keys the response. The response counts after the plans emitted
// before its first item (a plan it made itself was not in force while it ran).
import { type Batch, isRecord } from '../lineParser';
import { codexTokens } from '../usage';

export interface CodexResponse {
  /** Plans emitted before the response's first item. */
  plans: number;
  /** Its tool calls so far. */
  calls: number;
}

const CALLS: ReadonlySet<unknown> = new Set(['function_call', 'custom_tool_call', 'local_shell_call', 'web_search_call']);

export function readCodexResponse(value: unknown): CodexResponse | undefined {
  return isRecord(value) && typeof value['plans'] === 'number' && typeof value['calls'] === 'number' ? { plans: value['plans'], calls: value['calls'] } : undefined;
}

/** A response_item: the response starts (if it had not), and a tool call counts. */
export function codexResponseItem(response: CodexResponse | undefined, payload: Record<string, unknown>, plans: number): CodexResponse {
  const next = response ?? { plans, calls: 0 };
  return CALLS.has(payload['type']) ? { ...next, calls: next.calls + 1 } : next;
}

/** A token_count event: the response's usage, once; the next response starts fresh. */
export function codexUsageOf(session: string | undefined, response: CodexResponse | undefined, payload: Record<string, unknown>, at: string | undefined, batch: Batch): CodexResponse | undefined {
  const found = codexTokens(payload);
  if (found === undefined || session === undefined) return response;
  if (batch.alreadyEmitted(`usage\ntotal ${found.total}`)) return undefined;
  batch.used({ source: { agent: 'codex', session, call: `total-${found.total}` }, calls: response?.calls ?? 0, tokens: found.tokens, ...(at !== undefined ? { at } : {}) }, response?.plans);
  return undefined;
}

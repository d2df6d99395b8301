// Gemini CLI's model responses as `model/usage` facts. Each response is a `gemini` message
// with its `tokens`, written when the response ends and again under the same id once its tool
// calls are added. The response counts once, by the message's id, after the plans emitted
// before its first copy (a plan it wrote itself was not in force while it ran):
// - a copy with tool calls, or with text, counts at once (with those calls);
// - a copy with neither (tool calls may follow) is held until a copy of it with calls, or a
//   record of another message, comes (then it made none);
// - a tool call that a later copy of a counted response adds counts as a call of its own
//   (no tokens), as Claude Code's do.
import { type Batch, type JsonRecord, isRecord, stringField } from '../lineParser';
import { geminiTokens } from '../usage';
import type { UsageTokens } from '../../core/log/usageRecord';

export interface GeminiHeldResponse {
  id: string;
  /** Plans emitted before its first copy. */
  plans: number;
  tokens?: UsageTokens;
  at?: string;
}

export function readGeminiHeldResponse(value: unknown): GeminiHeldResponse | undefined {
  if (!isRecord(value) || typeof value['id'] !== 'string' || typeof value['plans'] !== 'number') return undefined;
  const held: GeminiHeldResponse = { id: value['id'], plans: value['plans'] };
  const tokens = geminiTokens(value['tokens']);
  if (tokens !== undefined) held.tokens = tokens;
  if (typeof value['at'] === 'string') held.at = value['at'];
  return held;
}

const key = (id: string): string => `usage\n${id}`;

function callIds(record: JsonRecord): string[] {
  const calls = record['toolCalls'];
  if (!Array.isArray(calls)) return [];
  return calls.map((call) => (isRecord(call) ? stringField(call, 'id') : undefined)).filter((id): id is string => id !== undefined);
}

/** A message's content with text in it: a string, or a list of parts. */
function hasText(content: unknown): boolean {
  if (typeof content === 'string') return content.trim() !== '';
  return Array.isArray(content) && content.some((part) => isRecord(part) && typeof part['text'] === 'string' && part['text'].trim() !== '');
}

function settle(session: string, held: GeminiHeldResponse, calls: readonly string[], batch: Batch): void {
  if (batch.alreadyEmitted(key(held.id))) return;
  for (const call of calls) batch.alreadyEmitted(key(call));
  const facts = { calls: calls.length, ...(held.tokens !== undefined ? { tokens: held.tokens } : {}), ...(held.at !== undefined ? { at: held.at } : {}) };
  batch.used({ source: { agent: 'gemini-cli', session, call: held.id }, ...facts }, held.plans);
}

/**
 * One message record (any type), before its own plan calls are read: what it tells of the
 * responses. Returns the response held now (undefined: none).
 */
export function geminiUsageOf(session: string | undefined, held: GeminiHeldResponse | undefined, record: JsonRecord, plans: number, batch: Batch): GeminiHeldResponse | undefined {
  const id = stringField(record, 'id');
  if (session === undefined || id === undefined) return held;
  if (held !== undefined && held.id !== id) {
    settle(session, held, [], batch);
    held = undefined;
  }
  if (record['type'] !== 'gemini') return undefined;
  const calls = callIds(record);
  if (batch.wasEmitted(key(id))) {
    for (const call of calls) if (!batch.alreadyEmitted(key(call))) batch.used({ source: { agent: 'gemini-cli', session, call }, calls: 1 });
    return undefined;
  }
  const tokens = geminiTokens(record['tokens']) ?? held?.tokens;
  const at = stringField(record, 'timestamp') ?? held?.at;
  const now: GeminiHeldResponse = { id, plans: held?.plans ?? plans, ...(tokens !== undefined ? { tokens } : {}), ...(at !== undefined ? { at } : {}) };
  const text = hasText(record['content']);
  if (calls.length === 0 && !text) return now;
  settle(session, now, calls, batch);
  return undefined;
}

// What one model response used, read from an agent's own record of it (the facts of a
// `model/usage` line). Pure: one parsed record in, its figures out; a record in any other
// shape gives undefined. Field names as the real programs write them:
// - Claude Code 2.1.332: an assistant line's `message.usage` {input_tokens, output_tokens,
//   cache_creation_input_tokens, cache_read_input_tokens}; one API message is written as several
//   lines (one per content block), each with the same usage: count a message once, by its id.
// - Codex 0.171.0: `event_msg` `token_count` after a response's items, `info.last_token_usage`
//   {input_tokens (cached included), cached_input_tokens, output_tokens} and a running
//   `info.total_token_usage` (a repeated event repeats the total).
// - Qwen Code 0.24.4: an assistant record's `usageMetadata` {promptTokenCount (cached included),
//   candidatesTokenCount, thoughtsTokenCount, cachedContentTokenCount}.
// - Gemini CLI 0.61.0: a `gemini` message's `tokens` {input (cached included), output, cached,
//   thoughts, tool (the tool-use prompt, apart from input), total}; the message is written again
//   under the same id (its tool calls added): count it once, by its id.
// - Copilot CLI 1.0.102: `session.usage_record` before the response's `assistant.message`,
//   `data.usage` {inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, cost}.
import { isRecord, type JsonRecord } from '../core/json';
import type { UsageTokens } from '../core/log/usageRecord';

const n = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0);
const has = (value: JsonRecord, ...fields: string[]): boolean => fields.some((field) => typeof value[field] === 'number');

/** Claude Code: an assistant message's usage. */
export function claudeTokens(usage: unknown): UsageTokens | undefined {
  if (!isRecord(usage) || !has(usage, 'input_tokens', 'output_tokens')) return undefined;
  return { input: n(usage['input_tokens']), output: n(usage['output_tokens']), cached: n(usage['cache_read_input_tokens']) + n(usage['cache_creation_input_tokens']) };
}

/** Codex: a token_count payload's last usage and its running total (the response's key). */
export function codexTokens(payload: unknown): { tokens: UsageTokens; total: number } | undefined {
  const info = isRecord(payload) ? payload['info'] : undefined;
  const last = isRecord(info) ? info['last_token_usage'] : undefined;
  const total = isRecord(info) ? info['total_token_usage'] : undefined;
  if (!isRecord(last) || !isRecord(total) || !has(last, 'input_tokens', 'output_tokens')) return undefined;
  const cached = n(last['cached_input_tokens']);
  return {
    tokens: { input: Math.max(0, n(last['input_tokens']) - cached), output: n(last['output_tokens']), cached },
    total: n(total['total_tokens']) || n(total['input_tokens']) + n(total['output_tokens']),
  };
}

/** Qwen Code: an assistant record's usageMetadata. */
export function qwenTokens(usage: unknown): UsageTokens | undefined {
  if (!isRecord(usage) || !has(usage, 'promptTokenCount', 'candidatesTokenCount')) return undefined;
  const cached = n(usage['cachedContentTokenCount']);
  return { input: Math.max(0, n(usage['promptTokenCount']) - cached), output: n(usage['candidatesTokenCount']) + n(usage['thoughtsTokenCount']), cached };
}

/** Gemini CLI: a message's tokens; thoughts count as output, the tool-use prompt as input. */
export function geminiTokens(tokens: unknown): UsageTokens | undefined {
  if (!isRecord(tokens) || !has(tokens, 'input', 'output')) return undefined;
  const cached = n(tokens['cached']);
  return { input: Math.max(0, n(tokens['input']) - cached) + n(tokens['tool']), output: n(tokens['output']) + n(tokens['thoughts']), cached };
}

/** Copilot CLI: a session.usage_record's data: its tokens, cost and id. */
export function copilotUsage(data: unknown): { tokens: UsageTokens; cost?: number; id?: string } | undefined {
  const usage = isRecord(data) ? data['usage'] : undefined;
  if (!isRecord(usage) || !has(usage, 'inputTokens', 'outputTokens')) return undefined;
  const accounting = usage['accounting'];
  const id = isRecord(accounting) && typeof accounting['usageId'] === 'string' && accounting['usageId'] !== '' ? accounting['usageId'] : undefined;
  const out: { tokens: UsageTokens; cost?: number; id?: string } = {
    tokens: { input: n(usage['inputTokens']), output: n(usage['outputTokens']), cached: n(usage['cacheReadTokens']) + n(usage['cacheWriteTokens']) },
  };
  if (typeof usage['cost'] === 'number' && Number.isFinite(usage['cost']) && usage['cost'] >= 0) out.cost = usage['cost'];
  if (id !== undefined) out.id = id;
  return out;
}

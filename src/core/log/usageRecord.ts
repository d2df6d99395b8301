// The `model/usage` line of the session log: one model response of an agent, as its own record
// counts it, copied once (like file/write) with the items in progress then:
//
//   {"v":1,"type":"model/usage","ts","session","source":{"agent","session","call"},"items":[...],"itemsUnknown"?:true,
//    "calls":<tool calls it made>,"tokens"?:{"input","output","cached"},"cost"?,"at"?}
//
// `source.call` is the response's id in the agent's record (a message id, a usage record's
// id, or the call ids it made): with the agent and session, the key that makes importing
// idempotent. `tokens` is absent where the agent records none for the response (never 0 in
// its place); `cost` only where the agent records one. No I/O.
import { AGENT_IDS, type AgentId } from '../foreign';

export const USAGE_EVENT = 'model/usage';
/** The most in-progress items one line names (as file/write). */
const MAX_USAGE_ITEMS = 32;

export interface UsageTokens {
  /** Prompt tokens not read from a cache. */
  input: number;
  output: number;
  /** Prompt tokens read from a cache (or written to one, where the agent counts both). */
  cached: number;
}

export interface UsageRecord {
  v: 1;
  type: 'model/usage';
  ts: string;
  session: string;
  source: { agent: AgentId; session: string; call: string };
  /** The texts of the items in progress when the response was made; empty: none was (unless `itemsUnknown`). */
  items: string[];
  /** The agent's record does not tell which items were in progress then (`items` is empty). */
  itemsUnknown?: true;
  /** The tool calls the response made. */
  calls: number;
  tokens?: UsageTokens;
  /** The agent's own cost figure, where it records one. */
  cost?: number;
  /** The agent's own time of the response. */
  at?: string;
}

/** What a parser hands on for one response (the sink adds the items). */
export interface UsageFacts {
  calls: number;
  tokens?: UsageTokens;
  cost?: number;
}

export function isUsage(record: { type: string }): record is UsageRecord {
  return record.type === USAGE_EVENT;
}

const count = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** Why these facts cannot be recorded, or undefined when they can. */
export function usageProblem(facts: unknown): string | undefined {
  if (typeof facts !== 'object' || facts === null) return 'usage must be an object';
  const { calls, tokens, cost } = facts as Record<string, unknown>;
  if (!count(calls) || !Number.isInteger(calls)) return '`calls` of a model/usage must be an integer ≥ 0';
  if (tokens !== undefined) {
    if (typeof tokens !== 'object' || tokens === null) return '`tokens` of a model/usage must be {"input","output","cached"}';
    const t = tokens as Record<string, unknown>;
    if (!count(t['input']) || !count(t['output']) || !count(t['cached'])) return '`tokens` of a model/usage must be {"input","output","cached"}, numbers ≥ 0';
  }
  if (cost !== undefined && !count(cost)) return '`cost` of a model/usage must be a number ≥ 0';
  return undefined;
}

export function usageRecord(
  session: string,
  ts: string,
  source: { agent: AgentId; session: string; call: string },
  facts: UsageFacts,
  /** null: the items in progress then are not known. */
  items: readonly string[] | null,
  at?: string,
): UsageRecord {
  const record: UsageRecord = {
    v: 1,
    type: USAGE_EVENT,
    ts,
    session,
    source: { agent: source.agent, session: source.session, call: source.call },
    items: items === null ? [] : items.slice(0, MAX_USAGE_ITEMS),
    calls: facts.calls,
  };
  if (items === null) record.itemsUnknown = true;
  if (facts.tokens !== undefined) record.tokens = { input: facts.tokens.input, output: facts.tokens.output, cached: facts.tokens.cached };
  if (facts.cost !== undefined) record.cost = facts.cost;
  if (at !== undefined) record.at = at;
  return record;
}

/** A model/usage line read back (its `v`, `type`, `ts` and `session` already checked), or what is wrong. */
export function parseUsage(value: Record<string, unknown>, session: string, ts: string, sourceProblem: string | undefined): UsageRecord | string {
  if (sourceProblem !== undefined) return sourceProblem;
  const source = value['source'] as { agent: unknown; session: string; call: string };
  if (!AGENT_IDS.includes(source.agent as AgentId)) return sourceProblem ?? 'unknown agent in `source`';
  const problem = usageProblem(value);
  if (problem) return problem;
  const items = value['items'];
  if (!Array.isArray(items) || items.length > MAX_USAGE_ITEMS || !items.every((item) => typeof item === 'string')) {
    return `\`items\` of a model/usage must be a list of at most ${MAX_USAGE_ITEMS} strings`;
  }
  const unknown = value['itemsUnknown'];
  if (unknown !== undefined && (unknown !== true || items.length > 0)) return `\`itemsUnknown\` of a ${USAGE_EVENT} must be true, with \`items\` empty`;
  const at = value['at'];
  if (at !== undefined && (typeof at !== 'string' || Number.isNaN(Date.parse(at)))) return '`at` is not a timestamp';
  return usageRecord(session, ts, { agent: source.agent as AgentId, session: source.session, call: source.call }, value as unknown as UsageFacts, unknown === true ? null : items, at);
}

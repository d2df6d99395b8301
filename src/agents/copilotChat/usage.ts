// The Copilot agent's model calls as `model/usage` facts, from a request's `result.metadata`
// in VS Code's chat file (Copilot Chat 0.67.0), written once the request is over:
// - `toolCallRounds[]`: one round per model call, in order, `{id, timestamp, toolCalls: [{id,
//   name, arguments}]}`; a call's id is its response part's `toolCallId` with `__vscode-<n>`
//   added.
// - `promptTokens`, `outputTokens`: the figures of the request's LAST model call only (recorded
//   against a model answering each call with different figures); no other call's tokens and
//   no cached count are in the file.
// Each round becomes one fact, by its id, with its tool calls and after the todo calls (both
// tools) made before it; the last carries the request's tokens, the others record none.
import { type Batch, type JsonRecord, isRecord, stringField } from '../lineParser';
import type { UsageTokens } from '../../core/log/usageRecord';

/** A round's tool call id as its response part names it. */
const partCallId = (id: string): string => id.replace(/__vscode-\d+$/, '');

const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);

/** The request's last model call's tokens, when the metadata records them. */
function lastCallTokens(metadata: JsonRecord): UsageTokens | undefined {
  const input = count(metadata['promptTokens']);
  const output = count(metadata['outputTokens']);
  return input === undefined || output === undefined ? undefined : { input, output, cached: 0 };
}

interface Round {
  id: string;
  calls: string[];
  at?: string;
}

function roundsOf(metadata: JsonRecord, request: number): Round[] {
  const rounds = metadata['toolCallRounds'];
  if (!Array.isArray(rounds)) return [];
  return rounds.filter(isRecord).map((round, n) => {
    const calls = Array.isArray(round['toolCalls']) ? round['toolCalls'].filter(isRecord).map((call) => stringField(call, 'id') ?? '') : [];
    const time = round['timestamp'];
    const at = typeof time === 'number' && Number.isFinite(time) ? new Date(time).toISOString() : undefined;
    return { id: stringField(round, 'id') ?? `request ${request} round ${n}`, calls: calls.map(partCallId), ...(at !== undefined ? { at } : {}) };
  });
}

/**
 * A request's result: one fact per model call not handed on yet. `plans` is the todo calls
 * counted so far in the chat (this request's included), `counted` their part ids.
 */
export function copilotChatUsageOf(session: string | undefined, request: number, result: unknown, plans: number, counted: readonly string[], batch: Batch): void {
  const metadata = isRecord(result) ? result['metadata'] : undefined;
  if (session === undefined || !isRecord(metadata)) return;
  const rounds = roundsOf(metadata, request);
  const tokens = lastCallTokens(metadata);
  const todo = new Set(counted);
  // The todo calls of this request from each round on: the plans its calls came after are the rest.
  let later = 0;
  const before = rounds.map(() => 0);
  for (let n = rounds.length - 1; n >= 0; n--) {
    later += rounds[n]!.calls.filter((call) => todo.has(call)).length;
    before[n] = Math.max(0, plans - later);
  }
  rounds.forEach((round, n) => {
    if (batch.alreadyEmitted(`usage\n${round.id}`)) return;
    const last = n === rounds.length - 1 && tokens !== undefined ? { tokens } : {};
    batch.emitUsage({ source: { agent: 'copilot', session, call: round.id }, calls: round.calls.length, ...last, ...(round.at !== undefined ? { at: round.at } : {}), plansBefore: before[n]! });
  });
}

// opencode's and Kilo CLI's model responses as `model/usage` facts: each assistant `message`
// row's `data` holds `tokens {input, output, reasoning, cache: {read, write}}` and `cost`
// (0 with an unpriced provider); it counts once completed (`time.completed`), by its id, with
// the tool parts of that message as its calls. Pure: rows in, facts out.
import { isRecord } from '../lineParser';
import type { ForeignUsage } from '../../core/foreign';
import { byIdTime, idTime, type OpencodeAgent, type OpencodeMessageRow } from './opencodeParser';

const n = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0);

/**
 * The completed assistant messages of `rows` (sessions in `plans` only), each with the number
 * of the session's plan parts made before it and its tool calls (`callsOf`).
 */
export function usageFromMessages(
  agent: OpencodeAgent,
  rows: readonly OpencodeMessageRow[],
  plans: Readonly<Record<string, readonly string[]>>,
  callsOf: (messageId: string) => number,
): ForeignUsage[] {
  const out: ForeignUsage[] = [];
  for (const row of [...rows].sort((a, b) => byIdTime(a.id, b.id))) {
    const planned = plans[row.session_id];
    if (planned === undefined) continue;
    let data: unknown;
    try {
      data = JSON.parse(row.data);
    } catch {
      continue;
    }
    if (!isRecord(data) || data['role'] !== 'assistant') continue;
    const time = data['time'];
    const completed = isRecord(time) ? time['completed'] : undefined;
    if (typeof completed !== 'number') continue;
    const tokens = data['tokens'];
    const cache = isRecord(tokens) ? tokens['cache'] : undefined;
    const usage: ForeignUsage = {
      source: { agent, session: row.session_id, call: row.id },
      calls: callsOf(row.id),
      plansBefore: planned.filter((id) => idTime(id) < idTime(row.id)).length,
      at: new Date(completed).toISOString(),
    };
    if (isRecord(tokens)) {
      usage.tokens = { input: n(tokens['input']), output: n(tokens['output']) + n(tokens['reasoning']), cached: isRecord(cache) ? n(cache['read']) + n(cache['write']) : 0 };
    }
    if (typeof data['cost'] === 'number' && Number.isFinite(data['cost']) && data['cost'] >= 0) usage.cost = data['cost'];
    out.push(usage);
  }
  return out;
}

// Claude Code's model responses as `model/usage` facts: one API message is written as several
// transcript lines (one per content block), each carrying the same `message.usage`. The
// message counts once, by its id, with the tool calls on its first line; a tool call on a
// later line of the same message counts as a call of its own (no tokens).
import type { Batch } from '../lineParser';
import { claudeTokens } from '../usage';

export function claudeUsageOf(session: string | undefined, message: Record<string, unknown>, content: readonly unknown[], at: string | undefined, batch: Batch): void {
  const id = message['id'];
  if (session === undefined || typeof id !== 'string' || id === '') return;
  const calls = content
    .map((block) => (typeof block === 'object' && block !== null && (block as Record<string, unknown>)['type'] === 'tool_use' ? (block as Record<string, unknown>)['id'] : undefined))
    .filter((call): call is string => typeof call === 'string' && call !== '');
  const when = at !== undefined ? { at } : {};
  if (!batch.alreadyEmitted(`usage\n${id}`)) {
    const tokens = claudeTokens(message['usage']);
    for (const call of calls) batch.alreadyEmitted(`usage\n${call}`);
    batch.used({ source: { agent: 'claude-code', session, call: id }, calls: calls.length, ...(tokens !== undefined ? { tokens } : {}), ...when });
    return;
  }
  for (const call of calls) {
    if (!batch.alreadyEmitted(`usage\n${call}`)) batch.used({ source: { agent: 'claude-code', session, call }, calls: 1, ...when });
  }
}

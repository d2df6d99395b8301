// Qwen Code's model responses as `model/usage` facts: each assistant record carries the
// response's `usageMetadata`; it counts once, by the record's uuid, with its function calls.
import { type Batch, stringField } from '../lineParser';
import { qwenTokens } from '../usage';

export function qwenUsageOf(session: string | undefined, record: Record<string, unknown>, calls: number, batch: Batch): void {
  const id = stringField(record, 'uuid');
  if (session === undefined || id === undefined || batch.alreadyEmitted(`usage\n${id}`)) return;
  const tokens = qwenTokens(record['usageMetadata']);
  const at = stringField(record, 'timestamp');
  batch.used({ source: { agent: 'qwen-code', session, call: id }, calls, ...(tokens !== undefined ? { tokens } : {}), ...(at !== undefined ? { at } : {}) });
}

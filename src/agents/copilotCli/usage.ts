// Copilot CLI's model responses as `model/usage` facts: a `session.usage_record` event comes
// before the response's `assistant.message`, whose `toolRequests` are its calls. The usage is
// held until that message (or the turn's end, without calls), then counts once, by its
// `accounting.usageId` (else the event's id). A subagent's events are in its parent's file and
// count for the parent's session.
import { type Batch, isRecord, stringField } from '../lineParser';
import { copilotUsage } from '../usage';
import type { UsageTokens } from '../../core/log/usageRecord';

export interface CopilotPendingUsage {
  id: string;
  tokens: UsageTokens;
  cost?: number;
  at?: string;
  /** Plans emitted before the response. */
  plans: number;
  /** The items in progress then are not known (the SQL before it was not read). */
  itemsUnknown?: boolean;
}

export function readCopilotPendingUsage(value: unknown): CopilotPendingUsage | undefined {
  if (!isRecord(value) || typeof value['id'] !== 'string' || typeof value['plans'] !== 'number' || !isRecord(value['tokens'])) return undefined;
  return value as unknown as CopilotPendingUsage;
}

/** A session.usage_record event: the usage to hold. */
export function copilotUsageRecord(record: Record<string, unknown>, data: Record<string, unknown>, plans: number, itemsUnknown: boolean): CopilotPendingUsage | undefined {
  const found = copilotUsage(data);
  const id = found?.id ?? stringField(record, 'id');
  if (found === undefined || id === undefined) return undefined;
  const at = stringField(record, 'timestamp');
  return { id, tokens: found.tokens, ...(found.cost !== undefined ? { cost: found.cost } : {}), ...(at !== undefined ? { at } : {}), plans, ...(itemsUnknown ? { itemsUnknown } : {}) };
}

/** The held usage counts, with the response's calls. */
export function settleCopilotUsage(session: string | undefined, pending: CopilotPendingUsage | undefined, calls: number, batch: Batch): void {
  if (pending === undefined || session === undefined || batch.alreadyEmitted(`usage\n${pending.id}`)) return;
  batch.used(
    { source: { agent: 'copilot-cli', session, call: pending.id }, calls, tokens: pending.tokens, ...(pending.cost !== undefined ? { cost: pending.cost } : {}), ...(pending.itemsUnknown ? { itemsUnknown: true } : {}), ...(pending.at !== undefined ? { at: pending.at } : {}) },
    pending.plans,
  );
}

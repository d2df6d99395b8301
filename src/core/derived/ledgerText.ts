// The words for what an item (or a session) cost: "6 min · 14 calls · 52k tokens". Time only
// when no model response was recorded for it; "tokens not recorded" (never 0) when responses
// were, but without tokens; a part made while other items were in progress too is marked
// shared. Pure; the translator comes in (vscode.l10n.t in the extension, formatOnly in tests).
import { shortCount, tokenSum, type LedgerFigures } from './ledger';
import { spanText, type Translate } from '../plan/present';

export interface LedgerPart {
  /** Time in progress (or elapsed); undefined or 0: not said. */
  ms?: number | undefined;
  all: LedgerFigures;
  /** The part of `all` made while other items were in progress too. */
  shared?: LedgerFigures | undefined;
  /** Requests for the user's leave while it was in progress. */
  asks?: number | undefined;
}

export interface LedgerTextOptions {
  /**
   * Tooltips and documents: tokens split into input, output and cached, and, where no
   * response was recorded, says so ("usage not recorded") instead of leaving it out.
   */
  detail?: boolean;
}

/** "6 min · 14 calls · 52k tokens · partly shared"; empty when there is nothing to say. */
export function ledgerText(part: LedgerPart, t: Translate, options: LedgerTextOptions = {}): string {
  const parts: string[] = [];
  if (part.ms !== undefined && part.ms > 0) parts.push(spanText(part.ms, t));
  const { all, shared } = part;
  const asks = part.asks !== undefined && part.asks > 0 ? (part.asks === 1 ? t('1 permission request') : t('{0} permission requests', part.asks)) : undefined;
  if (all.responses === 0) {
    if (options.detail === true) parts.push(t('usage not recorded'));
    if (asks !== undefined) parts.push(asks);
    return parts.join(' · ');
  }
  parts.push(all.calls === 1 ? t('1 call') : t('{0} calls', all.calls));
  const sum = tokenSum(all);
  if (all.tokens === undefined || sum === undefined) parts.push(t('tokens not recorded'));
  else if (options.detail === true) parts.push(t('{0} tokens (input {1}, output {2}, cached {3})', shortCount(sum), shortCount(all.tokens.input), shortCount(all.tokens.output), shortCount(all.tokens.cached)));
  else parts.push(t('{0} tokens', shortCount(sum)));
  if (all.cost !== undefined) parts.push(t('cost {0}', costText(all.cost)));
  if (shared !== undefined && shared.responses > 0) parts.push(shared.responses >= all.responses ? t('shared with other items') : t('partly shared with other items'));
  if (asks !== undefined) parts.push(asks);
  return parts.join(' · ');
}

/** The agent's own figure, in its own unit (none is assumed): "0.42", "0.0031", "12.5". */
function costText(cost: number): string {
  return String(cost >= 100 ? Math.round(cost) : Number(cost.toPrecision(3)));
}

// The words of the "Needs you" queue: why a session waits on the user, the section's title
// and the badge's tooltip. Pure; the translator comes in (vscode.l10n.t, formatOnly in tests).
import type { HealthSignal } from './health';
import { signalWord } from './healthText';
import type { NeedsYou } from './needsYou';
import type { Translate } from '../plan/present';

/** Why the session waits on the user, in a few words: "stopped with 2 items open", "stalled", "a request of yours is open". */
export function needsYouReason(signal: HealthSignal, t: Translate): string {
  const count = signal.items?.length ?? 0;
  switch (signal.kind) {
    case 'stopped-open':
      if (signal.how === 'cancelled') return count === 1 ? t('cancelled with 1 item open') : t('cancelled with {0} items open', count);
      if (signal.how === 'failed') return count === 1 ? t('failed with 1 item open') : t('failed with {0} items open', count);
      return count === 1 ? t('stopped with 1 item open') : t('stopped with {0} items open', count);
    case 'stalled':
      return t('stalled');
    case 'request-open':
      return count > 1 ? t('{0} requests of yours are open', count) : t('a request of yours is open');
    default:
      // A kind the queue gains later speaks with its health word until it has words of its own.
      return signalWord(signal, t);
  }
}

/** One row of the section: the session's name, its agent (if known) and the reason. */
export interface NeedsYouRow {
  session: string;
  signal: HealthSignal;
  title: string;
  agent: string | undefined;
  reason: string;
  /** "Codex · stopped with 2 items open" */
  description: string;
}

/**
 * The section at the top of the Sessions view, or undefined when no session needs the user:
 * its title counts the whole queue, its rows are the `shown` most urgent (only those are named:
 * naming a session held as a summary may read its plan back).
 */
export function needsYouSection(
  queue: readonly NeedsYou[],
  nameOf: (session: string) => { title: string; agent: string | undefined },
  t: Translate,
  shown = Infinity,
): { label: string; rows: NeedsYouRow[] } | undefined {
  if (queue.length === 0) return undefined;
  const rows = queue.slice(0, shown).map(({ session, signal }): NeedsYouRow => {
    const { title, agent } = nameOf(session);
    const reason = needsYouReason(signal, t);
    return { session, signal, title, agent, reason, description: agent !== undefined ? `${agent} · ${reason}` : reason };
  });
  return { label: t('Needs You ({0})', queue.length), rows };
}

/** The Sessions view's badge (part of the activity bar's): how many sessions wait on the user. */
export function needsYouBadge(count: number, t: Translate): { value: number; tooltip: string } | undefined {
  if (count <= 0) return undefined;
  return { value: count, tooltip: count === 1 ? t('1 session needs you') : t('{0} sessions need you', count) };
}

// The sessions that wait on the user, in one queue across sessions and worktrees: a turn
// that stopped with items open, a stalled plan, a request of the user's still open. Most
// urgent first, then the one waiting longest. Pure: from the health signals the log gives.
import type { HealthKind, HealthSignal } from './health';

/** The signals that mean the session waits on the user, most urgent first. */
export const NEEDS_YOU_KINDS: readonly HealthKind[] = ['stopped-open', 'stalled', 'request-open'];

export interface NeedsYou {
  session: string;
  /** Its most urgent signal that waits on the user. */
  signal: HealthSignal;
}

/** The queue: each session whose signals include one of NEEDS_YOU_KINDS, most urgent first, then the oldest. */
export function needsYouQueue(sessions: readonly string[], signalsOf: (session: string) => readonly HealthSignal[]): NeedsYou[] {
  const queue: NeedsYou[] = [];
  for (const session of sessions) {
    const waiting = signalsOf(session).filter((signal) => NEEDS_YOU_KINDS.includes(signal.kind));
    waiting.sort((a, b) => NEEDS_YOU_KINDS.indexOf(a.kind) - NEEDS_YOU_KINDS.indexOf(b.kind));
    const signal = waiting[0];
    if (signal !== undefined) queue.push({ session, signal });
  }
  return queue.sort(
    (a, b) =>
      NEEDS_YOU_KINDS.indexOf(a.signal.kind) - NEEDS_YOU_KINDS.indexOf(b.signal.kind) ||
      (a.signal.since < b.signal.since ? -1 : a.signal.since > b.signal.since ? 1 : 0) ||
      (a.session < b.session ? -1 : a.session > b.session ? 1 : 0),
  );
}

/** The session to go to next: the one after `current` in the queue (round it goes), else the first. */
export function nextNeedingYou(queue: readonly NeedsYou[], current: string | undefined): NeedsYou | undefined {
  const at = queue.findIndex((entry) => entry.session === current);
  return queue[at < 0 ? 0 : (at + 1) % queue.length];
}

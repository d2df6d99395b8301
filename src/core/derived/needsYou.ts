// The sessions that wait on the user, in one queue across sessions and worktrees: a tool
// call waiting (for the user's approval first), a turn that stopped with items open, a
// stalled plan, a request of the user's still open. Most urgent first, then the one waiting
// longest. Pure: from the health signals the log gives.
//
// A waiting call ranks first: its agent is live and blocked until the call completes (an
// approval only the user can give, or a command the user may want to stop), while a stopped
// or stalled session is already at rest and loses nothing by waiting a little longer.
import type { HealthKind, HealthSignal } from './health';

/** The signals that mean the session waits on the user, most urgent first. */
export const NEEDS_YOU_KINDS: readonly HealthKind[] = ['waiting', 'stopped-open', 'stalled', 'request-open'];

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
    waiting.sort((a, b) => needsYouRank(a) - needsYouRank(b));
    const signal = waiting[0];
    if (signal !== undefined) queue.push({ session, signal });
  }
  return queue.sort(
    (a, b) =>
      needsYouRank(a.signal) - needsYouRank(b.signal) ||
      (a.signal.since < b.signal.since ? -1 : a.signal.since > b.signal.since ? 1 : 0) ||
      (a.session < b.session ? -1 : a.session > b.session ? 1 : 0),
  );
}

/** A signal's place: by kind, and among waiting calls, an approval before a running tool. */
export function needsYouRank(signal: HealthSignal): number {
  const kind = NEEDS_YOU_KINDS.indexOf(signal.kind) * 2;
  return signal.kind === 'waiting' && signal.wait?.approval !== true ? kind + 1 : kind;
}

/** The session to go to next: the one after `current` in the queue (round it goes), else the first. */
export function nextNeedingYou(queue: readonly NeedsYou[], current: string | undefined): NeedsYou | undefined {
  const at = queue.findIndex((entry) => entry.session === current);
  return queue[at < 0 ? 0 : (at + 1) % queue.length];
}

// When to snapshot a session's working tree: when the one reader meets a plan version, written
// now, that changes the session's set of in-progress items (the todo_write call itself; the
// plan line a follower appends for the other agents), and for the first version met live (a
// snapshot before the first item starts, where the plan starts with none in progress). Not
// on every version: a session of 500 versions whose in-progress set did not change takes none.
// A version read at a first look (a session's past, after a reload) or one the agent wrote
// long before it reached the log (a follower catching up) takes none either: the working tree
// is no longer what it was then, and a snapshot would invent. Of several versions in one read
// only the last can be snapshotted (the others' moments are gone): their stretches stay
// "not recorded". Pure: fed the reader's reads, it hands back what to snapshot.
import { isCurrentPlan, type PlanRecord } from '../log/logRecord';
import { isSnapshot } from '../log/snapshotRecord';
import type { LogRead } from '../log/sessionLog';

/** A foreign plan the agent wrote longer ago than this is history caught up, not a moment to snapshot. */
export const SNAPSHOT_STALE_MS = 60_000;
/** Snapshot lines remembered per session (by their plan version) to keep two windows from writing one twice. */
const KEPT_SNAPSHOT_PLANS = 64;

export interface SnapshotDue {
  session: string;
  /** Byte offset of the plan version. */
  plan: number;
  /** The items in progress from now on, in plan order. */
  items: string[];
}

interface SessionState {
  /** The in-progress set of the newest version met; undefined: no version met yet. */
  working: Set<string> | undefined;
  /** Plan versions that already have a snapshot line, newest last. */
  snapshotted: number[];
}

/** The in-progress items of a plan, in plan order, each once. */
export function inProgressItems(plan: PlanRecord): string[] {
  return [...new Set(plan.todos.filter((todo) => todo.status === 'in_progress').map((todo) => todo.content))];
}

function sameSet(a: ReadonlySet<string>, b: readonly string[]): boolean {
  return a.size === b.length && b.every((item) => a.has(item));
}

export class SnapshotTrigger {
  private readonly sessions = new Map<string, SessionState>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Takes one read of the reader; returns the snapshot to take, if any. */
  take(read: LogRead): SnapshotDue | undefined {
    if (read.gone || read.sync?.reset) {
      this.sessions.delete(read.session);
      if (read.gone) return undefined;
    }
    let state = this.sessions.get(read.session);
    if (read.sync && (!state || read.sync.reset)) {
      // A first look: the past as it stands, no moment to snapshot.
      state = { working: read.sync.current ? new Set(inProgressItems(read.sync.current)) : undefined, snapshotted: [] };
      this.sessions.set(read.session, state);
      if (read.records.length === 0) return undefined;
    }
    let changed = false;
    let last: { record: PlanRecord; at: number; items: string[] } | undefined;
    read.records.forEach((record, i) => {
      const at = read.offsets?.[i];
      if (isSnapshot(record) && record.plan !== undefined) {
        state ??= this.fresh(read.session);
        state.snapshotted.push(record.plan);
        state.snapshotted.splice(0, Math.max(0, state.snapshotted.length - KEPT_SNAPSHOT_PLANS));
        return;
      }
      if (!isCurrentPlan(record) || at === undefined) return;
      state ??= this.fresh(read.session);
      const items = inProgressItems(record);
      changed ||= state.working === undefined || !sameSet(state.working, items);
      state.working = new Set(items);
      last = { record, at, items };
    });
    // The newest version of the read is the one moment left to snapshot: an earlier one's is gone.
    if (!changed || !last || !this.isLive(last.record) || this.has(read.session, last.at)) return undefined;
    return { session: read.session, plan: last.at, items: last.items };
  }

  /** Whether the log holds a snapshot line for this plan version (as far as the reader has read). */
  has(session: string, plan: number): boolean {
    return this.sessions.get(session)?.snapshotted.includes(plan) ?? false;
  }

  private fresh(session: string): SessionState {
    const state: SessionState = { working: undefined, snapshotted: [] };
    this.sessions.set(session, state);
    return state;
  }

  private isLive(plan: PlanRecord): boolean {
    const at = plan.at !== undefined ? Date.parse(plan.at) : Date.parse(plan.ts);
    return Number.isNaN(at) || this.now() - at <= SNAPSHOT_STALE_MS;
  }
}

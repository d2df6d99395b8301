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
import type { SessionColumn, SessionRecords } from '../log/sessionRecords';

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

/** The in-progress items of a plan, in plan order, each once. */
export function inProgressItems(plan: PlanRecord): string[] {
  return [...new Set(plan.todos.filter((todo) => todo.status === 'in_progress').map((todo) => todo.content))];
}

/**
 * An in-progress set as one small integer: a 30-bit FNV-1a hash of its items, sorted, each once.
 * What a session keeps between its versions (a set of texts was some 400 bytes a session, for
 * every session read, most never written again); two different sets alike by chance (about one
 * change in a billion) would miss a snapshot, never invent one.
 */
export function inProgressKey(items: readonly string[]): number {
  let hash = 0x811c9dc5;
  for (const item of [...new Set(items)].sort()) {
    for (let i = 0; i < item.length; i++) hash = Math.imul(hash ^ item.charCodeAt(i), 0x01000193);
    hash = Math.imul(hash ^ 0xffff, 0x01000193);
  }
  // A small integer, held in the record's field without an allocation.
  return hash & 0x3fffffff;
}

export class SnapshotTrigger {
  /** The in-progress set of the newest version met, by session (no entry: no version met yet). */
  private readonly working: SessionColumn<number>;
  /** Plan versions that already have a snapshot line, newest last: only for sessions whose snapshot lines were read. */
  private readonly snapshotted = new Map<string, number[]>();

  constructor(
    private readonly now: () => number = Date.now,
    records?: SessionRecords,
  ) {
    this.working = records?.column<number>('snapshot') ?? new Map<string, number>();
  }

  /** Takes one read of the reader; returns the snapshot to take, if any. */
  take(read: LogRead): SnapshotDue | undefined {
    const { session } = read;
    if (read.gone || read.sync?.reset) {
      this.working.delete(session);
      this.snapshotted.delete(session);
      if (read.gone) return undefined;
    }
    if (read.sync && (!this.working.has(session) || read.sync.reset)) {
      // A first look: the past as it stands, no moment to snapshot.
      if (read.sync.current) this.working.set(session, inProgressKey(inProgressItems(read.sync.current)));
      if (read.records.length === 0) return undefined;
    }
    let changed = false;
    let last: { record: PlanRecord; at: number; items: string[] } | undefined;
    read.records.forEach((record, i) => {
      const at = read.offsets?.[i];
      if (isSnapshot(record) && record.plan !== undefined) {
        const plans = this.snapshotted.get(session) ?? [];
        plans.push(record.plan);
        plans.splice(0, Math.max(0, plans.length - KEPT_SNAPSHOT_PLANS));
        this.snapshotted.set(session, plans);
        return;
      }
      if (!isCurrentPlan(record) || at === undefined) return;
      const items = inProgressItems(record);
      const key = inProgressKey(items);
      changed ||= this.working.get(session) !== key;
      this.working.set(session, key);
      last = { record, at, items };
    });
    // The newest version of the read is the one moment left to snapshot: an earlier one's is gone.
    if (!changed || !last || !this.isLive(last.record) || this.has(session, last.at)) return undefined;
    return { session, plan: last.at, items: last.items };
  }

  /** Whether the log holds a snapshot line for this plan version (as far as the reader has read). */
  has(session: string, plan: number): boolean {
    return this.snapshotted.get(session)?.includes(plan) ?? false;
  }

  private isLive(plan: PlanRecord): boolean {
    const at = plan.at !== undefined ? Date.parse(plan.at) : Date.parse(plan.ts);
    return Number.isNaN(at) || this.now() - at <= SNAPSHOT_STALE_MS;
  }
}

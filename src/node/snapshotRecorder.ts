// Takes the snapshots the trigger asks for (core/derived/snapshotTrigger.ts): the working tree
// of the session's folder as a git tree in Agent Plan's own store (gitSnapshots.ts), one
// `tree/snapshot` line through the sink's per-session lock, then the store held under its size
// cap (checked after every snapshot). Runs only when a plan version changes a session's
// in-progress set: no timer, no periodic work. A folder that is not a git working tree (or git
// missing) takes none, said once per folder; its items say "changes not recorded". A snapshot
// that was tried and did not finish (stopped by its time bound, failed, a repository above the
// followed folders) is recorded as missed, with why: its items say so, never "no changes".
import type { Disposable } from '../core/emitter';
import { SnapshotTrigger, type SnapshotDue } from '../core/derived/snapshotTrigger';
import type { LogPlanSink } from '../core/log/planSink';
import type { SessionLog } from '../core/log/sessionLog';
import type { SnapshotMiss } from '../core/log/snapshotRecord';
import type { GitSnapshots, SnapshotFailure } from './gitSnapshots';

export interface SnapshotRecorderOptions {
  /** The working folder of a session (the workspace folder for a VS Code chat, the recorded `cwd` for a terminal agent); undefined: unknown. */
  folderOf(session: string): string | undefined;
  /** The store's cap in bytes (a setting); 0 or less: no cap. */
  maxBytes(): number;
  /** Untracked files larger than this are left out of snapshots (a setting); undefined: none are. */
  maxFileBytes?(): number | undefined;
  /** The folders Agent Plan follows: a repository above them is not snapshotted. */
  within?(): readonly string[];
  /** Whether snapshots are taken at all (a setting). */
  enabled(): boolean;
  info(message: string): void;
  error(message: string, error: unknown): void;
  /** Called after a snapshot line was appended (tests, views). */
  onSnapshot?(session: string, ms: number): void;
}

/** The failures recorded as a missed snapshot (the others mean no git here at all: said once, none recorded). */
const MISSED: Partial<Record<SnapshotFailure, SnapshotMiss>> = { 'timed-out': 'timed-out', failed: 'failed', 'parent-repository': 'parent-repository' };

export class SnapshotRecorder implements Disposable {
  readonly trigger: SnapshotTrigger;
  private readonly subscription: Disposable;
  /** One snapshot at a time per session, in the order their versions were read. */
  private readonly queues = new Map<string, Promise<void>>();
  private readonly told = new Set<string>();
  /**
   * A snapshot due before its session's folder was known, by session: a follower may append an
   * agent's first plan line before the session/info line that says where it works. Taken
   * once that line is read (a newer due replaces it).
   */
  private readonly waiting = new Map<string, SnapshotDue>();
  private disposed = false;

  constructor(
    log: SessionLog,
    private readonly sink: LogPlanSink,
    private readonly snapshots: GitSnapshots,
    private readonly options: SnapshotRecorderOptions,
  ) {
    // Its per-session state in the reader's shared session record (a field, not a map of its own).
    this.trigger = new SnapshotTrigger(Date.now, log.records);
    this.subscription = log.onDidRead((read) => {
      const due = this.trigger.take(read);
      if (due) {
        this.waiting.delete(due.session);
        if (this.options.enabled()) this.enqueue(due);
        return;
      }
      // Asked again after every listener has seen this read (take() runs later): still no
      // folder, and it waits for the next read.
      const waiting = this.waiting.get(read.session);
      if (waiting !== undefined && this.options.enabled()) {
        this.waiting.delete(read.session);
        this.enqueue(waiting);
      }
    });
  }

  /**
   * Settles when the snapshots asked for so far for `session` are taken (or given up): a
   * `todo_write` call answers after it, so the agent's next edit comes after the snapshot.
   */
  settled(session: string): Promise<void> {
    return this.queues.get(session) ?? Promise.resolve();
  }

  /** Settles when every snapshot asked for so far is taken (tests). */
  async idle(): Promise<void> {
    while (this.queues.size > 0) await Promise.all([...this.queues.values()]);
  }

  private enqueue(due: SnapshotDue): void {
    const before = this.queues.get(due.session) ?? Promise.resolve();
    const next = before
      .then(() => this.take(due))
      .catch((error: unknown) => this.options.error(`could not snapshot the working tree of session ${due.session}`, error))
      .finally(() => {
        if (this.queues.get(due.session) === next) this.queues.delete(due.session);
      });
    this.queues.set(due.session, next);
  }

  private async take(due: SnapshotDue): Promise<void> {
    if (this.disposed) return;
    const folder = this.options.folderOf(due.session);
    if (folder === undefined) {
      this.waiting.set(due.session, due);
      return;
    }
    const result = await this.snapshots.snapshot(folder, { session: due.session, within: this.options.within?.(), maxFileBytes: this.options.maxFileBytes?.() });
    if (this.disposed) return;
    const present = (): boolean => this.trigger.has(due.session, due.plan);
    if (!result.ok) {
      const missed = MISSED[result.reason];
      if (missed !== undefined) {
        this.options.info(`the snapshot of ${folder} for session ${due.session} was not taken (${result.reason}: ${result.detail}); its items' changes there are not recorded`);
        await this.sink.importSnapshot(due.session, { missed, detail: result.detail, folder, items: due.items, plan: due.plan }, present);
      } else if (!this.told.has(folder)) {
        this.told.add(folder);
        this.options.info(`no snapshots of ${folder} (${result.reason}: ${result.detail}); its items' changes are not recorded`);
      }
      return;
    }
    const appended = await this.sink.importSnapshot(due.session, { tree: result.tree, folder: result.toplevel, items: due.items, plan: due.plan, skipped: result.skipped }, present);
    if (appended) this.options.onSnapshot?.(due.session, result.ms);
    await this.holdCap();
  }

  /** Prunes the oldest snapshots while the store is over its cap. */
  async holdCap(): Promise<void> {
    const max = this.options.maxBytes();
    if (max <= 0) return;
    const dropped = await this.snapshots.prune(max);
    if (dropped > 0) this.options.info(`the snapshot store was over its cap: dropped the ${dropped} oldest snapshots`);
  }

  dispose(): void {
    this.disposed = true;
    this.subscription.dispose();
  }
}

// Every session's plan health, kept in step with the log by its one reader: each line read
// goes to that session's SessionHealth (health.ts), in file order, and costs the items of the
// versions it compares, never a history replay. A file's first look (activation) seeds it
// from what the tail read found: the current plan and the newest session/info line.
// No I/O, no vscode import; the time rules (stalled) are checked when `nextCheck` says.
import { Emitter, type Disposable } from './emitter';
import { DEFAULT_HEALTH_SETTINGS, SessionHealth, type HealthInfo, type HealthSettings, type HealthSignal } from './health';
import type { LogEvent, SessionInfoRecord } from './logRecord';
import type { LogRead, SessionLog } from './sessionLog';

export interface HealthChange {
  session: string;
  /**
   * The change comes from lines read as they were written in this window's life (or from
   * the clock), not from a first look at a file: what a reload finds is not news.
   */
  live: boolean;
}

interface Entry {
  health: SessionHealth;
  /** What the signals were when last told, to tell only real changes. */
  told: string;
  /** The newest plan and info line fed (the same objects the reader hands on), so a rescan that repeats them changes nothing. */
  plan: LogEvent | undefined;
  info: SessionInfoRecord | undefined;
}

export function healthInfo(record: SessionInfoRecord): HealthInfo {
  return {
    ts: record.ts,
    turn: record.turn ? { state: record.turn.state, since: record.turn.since } : undefined,
    activity: record.activity ? { calls: record.activity.calls, at: record.activity.at } : undefined,
  };
}

export class HealthBook implements Disposable {
  private readonly entries = new Map<string, Entry>();
  /** Sessions a time rule may change (a running turn with open items): the only ones a check looks at. */
  private readonly timed = new Map<string, number>();
  private readonly emitter = new Emitter<HealthChange>();
  private readonly subscription: Disposable;
  private settings: HealthSettings = DEFAULT_HEALTH_SETTINGS;

  /** Fires when a session's signals changed. */
  readonly onDidChange = this.emitter.event;

  constructor(
    log: Pick<SessionLog, 'onDidRead'>,
    private readonly now: () => number = Date.now,
    private readonly reportListenerError: (error: unknown) => void = () => {},
  ) {
    this.subscription = log.onDidRead((read) => this.take(read));
  }

  /** The session's signals now, most urgent first; [] for a session with nothing to say. */
  signals(session: string): HealthSignal[] {
    return this.entries.get(session)?.health.signals(this.now(), this.settings) ?? [];
  }

  /** New thresholds for stalled: every session is looked at again. */
  configure(settings: HealthSettings): void {
    if (settings.stallCalls === this.settings.stallCalls && settings.stallMinutes === this.settings.stallMinutes) return;
    this.settings = settings;
    for (const session of this.entries.keys()) this.update(session, false);
  }

  /** The user dismissed dropped items of a session. */
  dismiss(session: string, items: readonly string[]): void {
    const entry = this.entries.get(session);
    if (entry?.health.dismiss(items)) this.update(session, true);
  }

  /** When a time rule may next change some session's signals (ms since the epoch), if any may. */
  nextCheck(): number | undefined {
    let next: number | undefined;
    for (const at of this.timed.values()) if (next === undefined || at < next) next = at;
    return next;
  }

  /** Looks again at the sessions whose time came (call it when nextCheck says). */
  check(): void {
    const now = this.now();
    for (const [session, at] of [...this.timed]) if (at <= now) this.update(session, true);
  }

  private take(read: LogRead): void {
    const { session } = read;
    if (read.gone) {
      if (this.entries.delete(session)) {
        this.timed.delete(session);
        this.emitter.fire({ session, live: true }, this.reportListenerError);
      }
      return;
    }
    let entry = this.entries.get(session);
    if (read.sync) {
      const { current, info, infoAfterPlan } = read.sync;
      // A rescan (Refresh, the watcher's poll) repeats what was read: what the lines said stands.
      if (entry && !read.sync.reset && entry.plan === current && entry.info === info) return;
      entry ??= this.create(session);
      entry.health.seed(current, info ? healthInfo(info) : undefined, infoAfterPlan);
      entry.plan = current;
      entry.info = info;
      // A file met for the first time at activation is no news; one the watcher announces is.
      this.update(session, read.sync.announce);
      return;
    }
    if (read.records.length === 0) return;
    const known = entry ?? this.create(session);
    read.records.forEach((record, i) => {
      if (record.type === 'session/info') {
        known.health.info(healthInfo(record));
        known.info = record;
      } else if (record.source?.superseded !== true) {
        // A superseded mirrored list joins the history without being the plan.
        known.health.plan(record, read.offsets?.[i]);
        known.plan = record;
      }
    });
    this.update(session, true);
  }

  private create(session: string): Entry {
    const entry: Entry = { health: new SessionHealth(), told: '[]', plan: undefined, info: undefined };
    this.entries.set(session, entry);
    return entry;
  }

  private update(session: string, live: boolean): void {
    const entry = this.entries.get(session);
    if (!entry) return;
    const now = this.now();
    const next = entry.health.nextCheck(now, this.settings);
    if (next === undefined) this.timed.delete(session);
    else this.timed.set(session, next);
    const told = JSON.stringify(entry.health.signals(now, this.settings));
    if (told === entry.told) return;
    entry.told = told;
    this.emitter.fire({ session, live }, this.reportListenerError);
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
    this.entries.clear();
    this.timed.clear();
  }
}

// Every session's plan health, kept in step with the log by its one reader: each line read
// goes to that session's SessionHealth (health.ts), in file order, and costs the items of the
// versions it compares, never a history replay. A file's first look (activation) seeds it
// from what the tail read found: the current plan and the newest session/info line.
// No I/O, no vscode import; the time rules (stalled) are checked when `nextCheck` says.
import { Emitter, type Disposable } from './emitter';
import { DEFAULT_HEALTH_SETTINGS, SessionHealth, type HealthInfo, type HealthSettings, type HealthSignal } from './health';
import type { LogEvent, SessionInfoRecord } from './logRecord';
import type { LogRead, SessionLog } from './sessionLog';

/**
 * How many versions back a session known only from a first look is read (once, when it is
 * shown) to find what only a comparison of versions says: its dropped and reopened items.
 */
export const HEALTH_BACKFILL_VERSIONS = 100;

export interface HealthBookOptions {
  now?: () => number;
  reportListenerError?: (error: unknown) => void;
  /** Dismissed dropped items remembered from an earlier window: session → `${at}\n${text}`. */
  dismissed?: Readonly<Record<string, readonly string[]>>;
  /** Called with every session's dismissed items when the user dismisses one. */
  onDismissed?: (dismissed: Record<string, string[]>) => void;
}

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
  infoAfterPlan: boolean;
  /** Known only from a first look (no line read since): a backfill may read its past once. */
  seededOnly: boolean;
  /**
   * A first look's state is kept but not yet compared: most sessions found at activation are
   * never asked about, so they cost nothing until a view, a line or the clock needs them.
   */
  unseeded: boolean;
  backfilled: boolean;
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
  private readonly now: () => number;
  private readonly reportListenerError: (error: unknown) => void;
  private readonly dismissed = new Map<string, Set<string>>();

  /** Fires when a session's signals changed. */
  readonly onDidChange = this.emitter.event;

  constructor(
    private readonly log: Pick<SessionLog, 'onDidRead'> & Partial<Pick<SessionLog, 'readBackward'>>,
    private readonly options: HealthBookOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.reportListenerError = options.reportListenerError ?? (() => {});
    for (const [session, keys] of Object.entries(options.dismissed ?? {})) this.dismissed.set(session, new Set(keys));
    this.subscription = log.onDidRead((read) => this.take(read));
  }

  /** The session's signals now, most urgent first; [] for a session with nothing to say. */
  signals(session: string): HealthSignal[] {
    const entry = this.entries.get(session);
    if (!entry) return [];
    this.ready(session, entry);
    return entry.health.signals(this.now(), this.settings);
  }

  /** New thresholds for stalled: every session is looked at again. */
  configure(settings: HealthSettings): void {
    if (settings.stallCalls === this.settings.stallCalls && settings.stallMinutes === this.settings.stallMinutes) return;
    this.settings = settings;
    for (const [session, entry] of this.entries) if (!entry.unseeded) this.update(session, false);
  }

  /** The user dismissed dropped items of a session: remembered, by the version that dropped each. */
  dismiss(session: string, items: readonly string[]): void {
    const entry = this.entries.get(session);
    if (!entry) return;
    this.ready(session, entry);
    const taken = entry.health.dismiss(items);
    if (taken.size === 0) return;
    let keys = this.dismissed.get(session);
    for (const [content, at] of taken) {
      if (at === undefined) continue;
      keys ??= new Set();
      keys.add(`${at}\n${content}`);
    }
    if (keys) this.dismissed.set(session, keys);
    this.options.onDismissed?.(Object.fromEntries([...this.dismissed].map(([key, set]) => [key, [...set]])));
    this.update(session, true);
  }

  /**
   * For a session known only from a first look (after a reload): reads back at most
   * HEALTH_BACKFILL_VERSIONS versions, once, and compares them as if they had been read
   * line by line, so its dropped and reopened items are what they were before the reload
   * (less those the user dismissed). Bounded; a no-op once a line of the session was read.
   */
  async backfill(session: string): Promise<void> {
    const entry = this.entries.get(session);
    const readBackward = this.log.readBackward?.bind(this.log);
    if (!entry || !entry.seededOnly || entry.backfilled || !readBackward || !entry.plan) return;
    entry.backfilled = true;
    const { plan, info, infoAfterPlan } = entry;
    const versions: Array<{ event: LogEvent; at: number }> = [];
    await readBackward(session, (event, at) => {
      if (event.source?.superseded !== true) versions.push({ event, at });
      return versions.length >= HEALTH_BACKFILL_VERSIONS;
    });
    // Lines read meanwhile compared versions themselves: what they said stands.
    if (this.entries.get(session) !== entry || !entry.seededOnly || entry.plan !== plan || versions.length < 2) return;
    const health = new SessionHealth();
    versions.reverse().forEach(({ event, at }, i) => {
      if (i === versions.length - 1 && info && !infoAfterPlan) health.info(healthInfo(info));
      health.plan(event, at);
    });
    if (info && infoAfterPlan) health.info(healthInfo(info));
    for (const key of this.dismissed.get(session) ?? []) {
      const split = key.indexOf('\n');
      health.dismissAt(key.slice(split + 1), Number(key.slice(0, split)));
    }
    entry.health = health;
    entry.unseeded = false;
    // What the past holds is not news: no notification.
    this.update(session, false);
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
        this.dismissed.delete(session);
        this.emitter.fire({ session, live: true }, this.reportListenerError);
      }
      return;
    }
    let entry = this.entries.get(session);
    if (read.sync) {
      const { current, info, infoAfterPlan } = read.sync;
      // A rescan (Refresh, the watcher's poll) repeats what was read: what the lines said stands.
      if (entry && !read.sync.reset && entry.plan === current && entry.info === info) return;
      const before = entry;
      entry ??= this.create(session);
      entry.plan = current;
      entry.info = info;
      entry.infoAfterPlan = infoAfterPlan;
      entry.seededOnly = true;
      entry.backfilled = false;
      entry.unseeded = true;
      // Compared now only when it may be news (the watcher found the file, it had signals
      // shown) or the clock may still change it (a running turn, recorded to less than the
      // stall time ago); else when first asked.
      if (read.sync.announce || (before !== undefined && before.told !== '[]') || this.onTheClock(current, info)) {
        this.seedNow(entry);
        // A file met for the first time at activation is no news; one the watcher announces is.
        this.update(session, read.sync.announce);
      } else {
        this.timed.delete(session);
      }
      return;
    }
    if (read.records.length === 0) return;
    const known = entry ?? this.create(session);
    this.ready(session, known);
    known.seededOnly = false;
    read.records.forEach((record, i) => {
      if (record.type === 'session/info') {
        known.health.info(healthInfo(record));
        known.info = record;
        known.infoAfterPlan = true;
      } else if (record.source?.superseded !== true) {
        // A superseded mirrored list joins the history without being the plan.
        known.health.plan(record, read.offsets?.[i]);
        known.plan = record;
        known.infoAfterPlan = false;
      }
    });
    this.update(session, true);
  }

  /** Whether a time rule may still change a session found at a first look. */
  private onTheClock(current: LogEvent | undefined, info: SessionInfoRecord | undefined): boolean {
    const running = info?.turn ? info.turn.state === 'running' : (current?.todos.some((todo) => todo.status === 'in_progress') ?? false);
    if (!running) return false;
    const last = Math.max(Date.parse(current?.ts ?? '') || 0, Date.parse(info?.ts ?? '') || 0);
    return last + this.settings.stallMinutes * 60_000 > this.now();
  }

  /** Applies a first look's state kept for later; what it shows is no news. */
  private ready(session: string, entry: Entry): void {
    if (!entry.unseeded) return;
    this.seedNow(entry);
    const now = this.now();
    const next = entry.health.nextCheck(now, this.settings);
    if (next === undefined) this.timed.delete(session);
    else this.timed.set(session, next);
    entry.told = JSON.stringify(entry.health.signals(now, this.settings));
  }

  private seedNow(entry: Entry): void {
    entry.health.seed(entry.plan, entry.info ? healthInfo(entry.info) : undefined, entry.infoAfterPlan);
    entry.unseeded = false;
  }

  private create(session: string): Entry {
    const entry: Entry = { health: new SessionHealth(), told: '[]', plan: undefined, info: undefined, infoAfterPlan: false, seededOnly: false, unseeded: false, backfilled: false };
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

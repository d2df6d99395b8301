// Every session's plan health, kept in step with the log by its one reader: each line read
// goes to that session's SessionHealth (health.ts), in file order, and costs the items of the
// versions it compares, never a history replay. A file's first look (activation) seeds it
// from what the tail read found: the current plan and the newest session/info line.
// No I/O, no vscode import; the time rules (stalled) are checked when `nextCheck` says.
import { Emitter, type Disposable, type Event } from '../emitter';
import { DEFAULT_HEALTH_SETTINGS, SessionHealth, byUrgency, type HealthInfo, type HealthSettings, type HealthSignal } from './health';
import type { PlanRecord, SessionInfoRecord } from '../log/logRecord';
import type { LogRead, SessionLog, SessionTail } from '../log/sessionLog';
import type { SessionColumn } from '../log/sessionRecords';

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
  /**
   * The session's state for comparing versions; undefined for a session known only from a
   * first look whose signals no clock can change (most of those found at activation): its
   * signals are kept (`told`), its state read back from the file's tail when a line, a
   * dismissal or new settings need it.
   */
  health: SessionHealth | undefined;
  /** What the signals were when last told, to tell only real changes (JSON). */
  told: string;
  /** The end of the first look's read: a rescan that tells the same end repeats it, and the tail up to it seeds the state again. */
  end: number;
  /** Known only from a first look (no line read since): a backfill may read its past once. */
  seededOnly: boolean;
  backfilled: boolean;
}

const NO_SIGNALS = '[]';

/**
 * An entry known only from a first look, without its state in memory (most sessions after a
 * reload): its end alone when it has no signals, else its end and its told signals in one
 * flat text (`${end}${told}`, the told text starting at its '[').
 */
type Packed = number | string;

function endOf(kept: Entry | Packed): number {
  return typeof kept === 'number' ? kept : typeof kept === 'string' ? Number(kept.slice(0, kept.indexOf('['))) : kept.end;
}

function toldOf(kept: Entry | Packed): string {
  return typeof kept === 'number' ? NO_SIGNALS : typeof kept === 'string' ? kept.slice(kept.indexOf('[')) : kept.told;
}

/** The kinds, turn ends and stall reasons a told text names by their place here (anything else by its text). */
const TOLD_KINDS: readonly string[] = ['waiting', 'stopped-open', 'dropped', 'reworded', 'reopened', 'stalled', 'done', 'request-open'];
const TOLD_HOWS: readonly string[] = ['ended', 'cancelled', 'failed'];
const TOLD_STALLS: readonly string[] = ['calls', 'time', 'idle'];

/** A known text as its place in `known`, else the text. */
function placeOf(known: readonly string[], text: string): number | string {
  const at = known.indexOf(text);
  return at < 0 ? text : at;
}

/**
 * Signals as kept and compared: one shared text for none (most sessions), else each signal as
 * a short tuple [kind, since, stall, how, items, at, rest] without its trailing nulls, known
 * kinds, turn ends and stall reasons by their place, a canonical time as ms, a stall of a known
 * reason as one number (reason's place + 3 × calls).
 */
export function toldText(signals: readonly HealthSignal[]): string {
  if (signals.length === 0) return NO_SIGNALS;
  const tuples = signals.map(({ kind, since, at, how, items, stall, ...rest }) => {
    const ms = Date.parse(since);
    const reason = stall ? TOLD_STALLS.indexOf(stall.reason) : -1;
    const packedStall = stall ? (reason >= 0 && Number.isSafeInteger(stall.calls) && stall.calls >= 0 && Number.isSafeInteger(reason + 3 * stall.calls) ? reason + 3 * stall.calls : [stall.reason, stall.calls]) : null;
    const tuple: unknown[] = [
      placeOf(TOLD_KINDS, kind),
      !Number.isNaN(ms) && new Date(ms).toISOString() === since ? ms : since,
      packedStall,
      how !== undefined ? placeOf(TOLD_HOWS, how) : null,
      items ?? null,
      at ?? null,
      Object.keys(rest).length > 0 ? rest : null,
    ];
    while (tuple.length > 2 && tuple[tuple.length - 1] === null) tuple.pop();
    return tuple;
  });
  // Kept per session: one flat string, not the pieces JSON.stringify may leave joined.
  return Buffer.from(JSON.stringify(tuples)).toString();
}

/** The signals of a told text, as they were told. */
export function toldSignals(text: string): HealthSignal[] {
  if (text === NO_SIGNALS) return [];
  return (JSON.parse(text) as unknown[][]).map(([kind, since, stall, how, items, at, rest]) => {
    const signal = { ...(rest as object | null), kind: typeof kind === 'number' ? TOLD_KINDS[kind] : kind, since: typeof since === 'number' ? new Date(since).toISOString() : since } as HealthSignal;
    if (at !== null && at !== undefined) signal.at = at as number;
    if (how !== null && how !== undefined) signal.how = (typeof how === 'number' ? TOLD_HOWS[how] : how) as HealthSignal['how'];
    if (items !== null && items !== undefined) signal.items = items as string[];
    if (typeof stall === 'number') signal.stall = { reason: TOLD_STALLS[stall % 3] as 'calls' | 'time' | 'idle', calls: Math.floor(stall / 3) };
    else if (Array.isArray(stall)) signal.stall = { reason: stall[0] as 'calls' | 'time' | 'idle', calls: stall[1] as number };
    return signal;
  });
}

export function healthInfo(record: SessionInfoRecord): HealthInfo {
  return {
    ts: record.ts,
    turn: record.turn ? { state: record.turn.state, since: record.turn.since } : undefined,
    activity: record.activity ? { calls: record.activity.calls, at: record.activity.at } : undefined,
    pending: record.pending ? { tool: record.pending.tool, call: record.pending.call, since: record.pending.since, approval: record.pending.approval === true } : undefined,
  };
}

export class HealthBook implements Disposable {
  /** Each session's entry: whole while its state is in memory or was ever more than a first look, else packed. */
  private readonly entries: SessionColumn<Entry | Packed>;
  /** Sessions a time rule may change (a running turn with open items): the only ones a check looks at. */
  private readonly timed = new Map<string, number>();
  private readonly emitter = new Emitter<HealthChange>();
  private readonly clockEmitter = new Emitter<void>();
  private readonly subscription: Disposable;
  private settings: HealthSettings = DEFAULT_HEALTH_SETTINGS;
  private readonly now: () => number;
  private readonly reportListenerError: (error: unknown) => void;
  private readonly dismissed = new Map<string, Set<string>>();
  /** First looks kept whole, only where the log cannot read them back (tailNow). */
  private readonly kept = new Map<string, SessionTail>();

  /** Fires when a session's signals changed. */
  readonly onDidChange = this.emitter.event;
  /**
   * Fires when a session's next check moved without its signals changing (a call that
   * started waiting, a turn that ran on): the caller's one timer is set again from nextCheck.
   */
  readonly onDidChangeNextCheck = this.clockEmitter.event;

  constructor(
    private readonly log: Pick<SessionLog, 'onDidRead'> & Partial<Pick<SessionLog, 'readBackward' | 'tailNow' | 'records'>>,
    private readonly options: HealthBookOptions = {},
  ) {
    // In its field of the reader's shared session record, where the log has them.
    this.entries = log.records?.column<Entry | Packed>('health') ?? new Map<string, Entry | Packed>();
    this.now = options.now ?? Date.now;
    this.reportListenerError = options.reportListenerError ?? (() => {});
    for (const [session, keys] of Object.entries(options.dismissed ?? {})) this.dismissed.set(session, new Set(keys));
    this.subscription = log.onDidRead((read) => this.take(read));
  }

  /** The session's signals now, most urgent first; [] for a session with nothing to say. */
  signals(session: string): HealthSignal[] {
    const extra = this.more?.signals(session) ?? [];
    const entry = this.entries.get(session);
    if (entry === undefined) return extra;
    const own = typeof entry === 'object' && entry.health ? entry.health.signals(this.now(), this.settings) : toldSignals(toldOf(entry));
    return extra.length === 0 ? own : [...own, ...extra].sort(byUrgency);
  }

  private more: { signals(session: string): HealthSignal[] } | undefined;

  /** Signals derived elsewhere (the user's requests: request-open), told with these. */
  include(book: { signals(session: string): HealthSignal[]; onDidChange: Event<string> }): Disposable {
    this.more = book;
    return book.onDidChange((session) => this.emitter.fire({ session, live: true }, this.reportListenerError));
  }

  /** New thresholds for stalled and waiting: every session is looked at again. */
  configure(settings: HealthSettings): void {
    if (settings.stallCalls === this.settings.stallCalls && settings.stallMinutes === this.settings.stallMinutes && settings.waitSeconds === this.settings.waitSeconds) return;
    this.settings = settings;
    for (const [session, kept] of [...this.entries]) {
      // A first look without signals and off the clock stays so (stalled needs a running turn within the stall time, waiting a call that waits).
      if (typeof kept === 'number' || (typeof kept === 'object' && !kept.health && kept.told === NO_SIGNALS)) continue;
      const entry = this.entry(session);
      if (!entry) continue;
      this.update(session, false);
      if (entry.seededOnly && !entry.backfilled && this.readsBack() && !this.timed.has(session)) entry.health = undefined;
      this.pack(session, entry);
    }
  }

  /** The user dismissed dropped items of a session: remembered, by the version that dropped each. */
  dismiss(session: string, items: readonly string[]): void {
    const entry = this.entry(session);
    if (!entry) return;
    const taken = this.ready(session, entry).dismiss(items);
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
    const entry = this.entry(session);
    const readBackward = this.log.readBackward?.bind(this.log);
    if (!entry || !entry.seededOnly || entry.backfilled || !readBackward) return;
    const { end } = entry;
    const tail = this.log.tailNow?.(session, end) ?? this.kept.get(session);
    if (!tail?.current) return;
    entry.backfilled = true;
    const { info, infoAfterPlan } = tail;
    const versions: Array<{ event: PlanRecord; at: number }> = [];
    await readBackward(
      session,
      (event, at) => {
        if (event.source?.superseded !== true) versions.push({ event, at });
        return versions.length >= HEALTH_BACKFILL_VERSIONS;
      },
      end,
    );
    // Lines read meanwhile compared versions themselves: what they said stands.
    if (this.entries.get(session) !== entry || !entry.seededOnly || entry.end !== end || versions.length < 2) return;
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
    // What the past holds is not news: no notification.
    this.update(session, false);
  }

  /** How many sessions' states for comparing versions are in memory (the others keep their signals only). */
  get statesInMemory(): number {
    let count = 0;
    for (const entry of this.entries.values()) if (typeof entry === 'object' && entry.health) count++;
    return count;
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
        this.kept.delete(session);
        this.timed.delete(session);
        this.dismissed.delete(session);
        this.emitter.fire({ session, live: true }, this.reportListenerError);
      }
      return;
    }
    if (read.sync) {
      const { current, info, infoAfterPlan } = read.sync;
      // A rescan (Refresh, the watcher's poll) repeats what was read: what the lines said stands.
      const kept = this.entries.get(session);
      if (kept !== undefined && !read.sync.reset && endOf(kept) === read.sync.end) return;
      let entry = this.entry(session);
      const before = entry;
      entry ??= this.create(session);
      entry.end = read.sync.end;
      entry.seededOnly = true;
      entry.backfilled = false;
      // Compared now, once: the signals a first look gives are kept, the state only while a clock may change them.
      const health = new SessionHealth();
      health.seed(current, info ? healthInfo(info) : undefined, infoAfterPlan);
      entry.health = health;
      // Told only when it may be news (the watcher found the file, it had signals shown) or
      // the clock may still change it (a running turn, recorded to less than the stall time ago).
      const tell = read.sync.announce || (before !== undefined && before.told !== NO_SIGNALS) || this.onTheClock(current, info);
      // A file met for the first time at activation is no news; one the watcher announces is.
      if (tell) this.update(session, read.sync.announce);
      else {
        entry.told = toldText(health.signals(this.now(), this.settings));
        this.timed.delete(session);
      }
      if (this.readsBack()) {
        if (!tell || !this.timed.has(session)) entry.health = undefined;
        this.kept.delete(session);
      } else {
        this.kept.set(session, { current, info, infoAfterPlan });
      }
      this.pack(session, entry);
      return;
    }
    if (read.records.length === 0) return;
    const known = this.entry(session) ?? this.create(session);
    const health = this.ready(session, known);
    known.seededOnly = false;
    this.kept.delete(session);
    read.records.forEach((record, i) => {
      if (record.type === 'session/info') {
        health.info(healthInfo(record));
      } else if (record.type === 'todo/write' && record.source?.superseded !== true) {
        // A superseded foreign list joins the history without being the plan.
        health.plan(record, read.offsets?.[i]);
      } else if (record.type === 'permission/ask') {
        health.ask(record);
      } else if (record.type === 'permission/answer') {
        health.answered(record.id, record.ts);
      }
    });
    this.update(session, true);
  }

  /** Whether a session's first look can be read back from its file (else it is kept: `kept`). */
  private readsBack(): boolean {
    return this.log.tailNow !== undefined && (this.log as { readsNow?: boolean }).readsNow === true;
  }

  /** Whether a time rule may still change a session found at a first look. */
  private onTheClock(current: PlanRecord | undefined, info: SessionInfoRecord | undefined): boolean {
    // A call that waits: the wait rule's time may still come.
    if (info?.pending) return true;
    const running = info?.turn ? info.turn.state === 'running' : (current?.todos.some((todo) => todo.status === 'in_progress') ?? false);
    if (!running) return false;
    const last = Math.max(Date.parse(current?.ts ?? '') || 0, Date.parse(info?.ts ?? '') || 0);
    return last + this.settings.stallMinutes * 60_000 > this.now();
  }

  /** The session's state: a first look's read back from the file's tail (up to where that look ended) when not in memory. */
  private ready(session: string, entry: Entry): SessionHealth {
    if (entry.health) return entry.health;
    const tail = this.log.tailNow?.(session, entry.end) ?? this.kept.get(session);
    const health = new SessionHealth();
    if (tail) health.seed(tail.current, tail.info ? healthInfo(tail.info) : undefined, tail.infoAfterPlan);
    entry.health = health;
    return health;
  }

  /** The session's entry, whole (a packed one is unpacked and kept so until packed again). */
  private entry(session: string): Entry | undefined {
    const kept = this.entries.get(session);
    if (kept === undefined || typeof kept === 'object') return kept;
    const entry: Entry = { health: undefined, told: toldOf(kept), end: endOf(kept), seededOnly: true, backfilled: false };
    this.entries.set(session, entry);
    return entry;
  }

  /** Packs an entry known only from a first look whose state is not in memory. */
  private pack(session: string, entry: Entry): void {
    if (entry.health !== undefined || !entry.seededOnly || entry.backfilled || this.entries.get(session) !== entry) return;
    // One flat string, not the pieces a concatenation leaves joined (kept per session).
    this.entries.set(session, entry.told === NO_SIGNALS ? entry.end : Buffer.from(`${entry.end}${entry.told}`).toString());
  }

  private create(session: string): Entry {
    const entry: Entry = { health: new SessionHealth(), told: NO_SIGNALS, end: -1, seededOnly: false, backfilled: false };
    this.entries.set(session, entry);
    return entry;
  }

  private update(session: string, live: boolean): void {
    const entry = this.entry(session);
    if (!entry) return;
    const health = this.ready(session, entry);
    const now = this.now();
    const next = health.nextCheck(now, this.settings);
    const before = this.timed.get(session);
    if (next === undefined) this.timed.delete(session);
    else this.timed.set(session, next);
    const told = toldText(health.signals(now, this.settings));
    if (told === entry.told) {
      if (next !== before) this.clockEmitter.fire(undefined, this.reportListenerError);
      return;
    }
    entry.told = told;
    this.emitter.fire({ session, live }, this.reportListenerError);
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
    this.clockEmitter.dispose();
    this.entries.clear();
    this.timed.clear();
  }
}

// A book of per-session state kept in step with the log's one reader: a session's past is
// read once, backwards and bounded, the first time the session is asked for; every line the
// reader meets afterwards is fed on, once, in file order. Lines met while the past is read
// are held and fed after it. No vscode import.
import { Emitter, type Disposable } from '../emitter';
import type { LogRecord } from '../log/logRecord';
import type { LogRead, SessionLog } from '../log/sessionLog';

/** What a book keeps per session: fed records in file order, says whether it changed. */
export interface SessionState {
  feed(record: LogRecord): boolean;
  /** Whether the state must stay in memory (it says something the views show unasked, e.g. a signal). */
  keep?(): boolean;
}

/**
 * How many sessions' states a book keeps beyond those that must stay (the most recently
 * asked for): another is read again from the log when asked.
 */
export const BOOK_SESSIONS_KEPT = 32;

interface Entry<S> {
  state: S;
  /** Byte offset of the newest line fed: a line at or before it is not fed again. */
  fedUpTo: number;
  ready: Promise<void>;
  /** Reads met while the past is read; undefined once it is in. */
  buffered: LogRead[] | undefined;
}

export class SessionBook<S extends SessionState> implements Disposable {
  private readonly sessions = new Map<string, Entry<S>>();
  private readonly changeEmitter = new Emitter<string>();
  private readonly subscription: Disposable;
  /** Fires with a session's key when its state changed. */
  readonly onDidChange = this.changeEmitter.event;

  /**
   * @param create a fresh state for a session
   * @param enough says, walking back, that the past read so far is enough (bounds the read)
   * @param afterFeed called after each feed: of the past (`past` true, once it is in) and of each read after
   */
  constructor(
    private readonly log: SessionLog,
    private readonly create: () => S,
    private readonly enough: () => (record: LogRecord) => boolean,
    private readonly afterFeed?: (session: string, state: S, past: boolean) => void,
  ) {
    this.subscription = log.onDidRead((read) => this.take(read));
  }

  /** The session's state, its past read (the first ask reads it). */
  async get(session: string): Promise<S> {
    return (await this.entry(session)).state;
  }

  /** The state if its past is in, for views that paint now; the first ask starts reading it (a change follows). */
  known(session: string): S | undefined {
    const entry = this.sessions.get(session);
    if (!entry) {
      this.entry(session).catch(() => undefined);
      return undefined;
    }
    return entry.buffered ? undefined : entry.state;
  }

  /** The state as far as it is read, without starting a read. */
  peek(session: string): S | undefined {
    const entry = this.sessions.get(session);
    return entry && !entry.buffered ? entry.state : undefined;
  }

  private async entry(session: string): Promise<Entry<S>> {
    let entry = this.sessions.get(session);
    if (!entry) {
      const created: Entry<S> = { state: this.create(), fedUpTo: -1, ready: Promise.resolve(), buffered: [] };
      entry = created;
      this.sessions.set(session, created);
      created.ready = this.backfill(session, created);
      this.trim();
    } else {
      // Most recently asked for: to the end of the order.
      this.sessions.delete(session);
      this.sessions.set(session, entry);
    }
    await entry.ready;
    return entry;
  }

  /** How many sessions' states are in memory. */
  get size(): number {
    return this.sessions.size;
  }

  /** Drops the least recently asked-for states beyond BOOK_SESSIONS_KEPT, but never one being read or one that must stay. */
  private trim(): void {
    let over = this.sessions.size - BOOK_SESSIONS_KEPT;
    for (const [session, entry] of this.sessions) {
      if (over <= 0) return;
      if (entry.buffered || entry.state.keep?.() === true) continue;
      this.sessions.delete(session);
      over--;
    }
  }

  private async backfill(session: string, entry: Entry<S>): Promise<void> {
    const past: Array<{ record: LogRecord; at: number }> = [];
    const enough = this.enough();
    await this.log.readRecordsBackward(session, (record, at) => {
      past.push({ record, at });
      return enough(record);
    });
    let changed = false;
    for (const { record, at } of past.reverse()) {
      changed = entry.state.feed(record) || changed;
      entry.fedUpTo = Math.max(entry.fedUpTo, at);
    }
    const buffered = entry.buffered ?? [];
    entry.buffered = undefined;
    for (const read of buffered) changed = this.feed(entry, read) || changed;
    this.afterFeed?.(session, entry.state, true);
    if (changed) this.changeEmitter.fire(session);
  }

  private take(read: LogRead): void {
    const entry = this.sessions.get(read.session);
    if (!entry) return;
    if (read.gone || read.sync?.reset) {
      this.sessions.delete(read.session);
      this.changeEmitter.fire(read.session);
      return;
    }
    if (entry.buffered) {
      entry.buffered.push(read);
      return;
    }
    if (this.feed(entry, read)) this.changeEmitter.fire(read.session);
    this.afterFeed?.(read.session, entry.state, false);
  }

  private feed(entry: Entry<S>, read: LogRead): boolean {
    let changed = false;
    read.records.forEach((record, i) => {
      const at = read.offsets?.[i];
      if (at !== undefined && at <= entry.fedUpTo) return;
      changed = entry.state.feed(record) || changed;
      if (at !== undefined) entry.fedUpTo = at;
    });
    return changed;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changeEmitter.dispose();
    this.sessions.clear();
  }
}

// The "Needs you" queue kept in step with the health book: each read of a session and each
// change of its signals looks at that one session again, so the queue never walks every
// session nor re-reads a history. Time rules (stalled) reach it through the health book's
// own change event, fired when its clock says (HealthBook.nextCheck): no timer of its own.
// Pure: no vscode, no I/O.
import { Emitter, type Disposable, type Event } from '../emitter';
import type { HealthSignal } from './health';
import type { HealthChange } from './healthBook';
import { needsYouQueue, needsYouRank, type NeedsYou } from './needsYou';
import type { LogRead } from '../log/sessionLog';
import type { SessionColumn, SessionRecords } from '../log/sessionRecords';

/** What the book needs of the health book: a session's signals, and when they change. */
export interface SignalBook {
  signals(session: string): readonly HealthSignal[];
  readonly onDidChange: Event<HealthChange>;
}

export class NeedsYouBook implements Disposable {
  /**
   * Each session in the queue, with a number that stands for what the queue shows of it (its
   * most urgent signal that waits on the user: its urgency, since when, how, how many items),
   * to tell a change from a repeat; nothing more (the signal is the health book's, asked again
   * when the queue is read).
   */
  private readonly entries: SessionColumn<number>;
  private readonly emitter = new Emitter<void>();
  private readonly subscriptions: Disposable[];

  /** Fires when the queue changed: a session joined or left it, or its reason changed. */
  readonly onDidChange = this.emitter.event;

  /**
   * `log` is the log's one reader: subscribe after the health book, so a read is looked at
   * once the health book has taken it (a first look at activation changes the health book
   * without telling; the read tells this book).
   */
  constructor(
    log: { readonly onDidRead: Event<LogRead>; readonly records?: SessionRecords },
    private readonly health: SignalBook,
    private readonly reportListenerError: (error: unknown) => void = () => {},
  ) {
    // In its field of the reader's shared session record, where the log has them.
    this.entries = log.records?.column<number>('needsYou') ?? new Map<string, number>();
    this.subscriptions = [log.onDidRead((read) => this.look(read.session)), health.onDidChange(({ session }) => this.look(session))];
  }

  /** The queue, most urgent first, then the one waiting longest (made when asked: the book keeps no entries). */
  queue(): readonly NeedsYou[] {
    return needsYouQueue([...this.entries.keys()], (session) => this.health.signals(session));
  }

  /** How many sessions wait on the user. */
  get size(): number {
    return this.entries.size;
  }

  /** The session's place in the queue, if it is there. */
  get(session: string): NeedsYou | undefined {
    return this.entries.has(session) ? needsYouQueue([session], (key) => this.health.signals(key))[0] : undefined;
  }

  private look(session: string): void {
    const entry = needsYouQueue([session], (key) => this.health.signals(key))[0];
    const kept = this.entries.get(session);
    if (entry === undefined) {
      if (kept === undefined) return;
      this.entries.delete(session);
    } else {
      // What the queue shows of it: a stall's growing count of tool calls is no change to the queue.
      const shown = placeHash(entry.signal);
      if (kept === shown) return;
      this.entries.set(session, shown);
    }
    this.emitter.fire(undefined, this.reportListenerError);
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.emitter.dispose();
    this.entries.clear();
  }
}

/**
 * What the queue shows of a signal (its urgency, since when, how, how many items) as a small
 * integer (FNV-1a of its text, 30 bits: held in the record as it is, no object or text).
 */
export function placeHash(signal: HealthSignal): number {
  const text = `${needsYouRank(signal)}\n${signal.since}\n${signal.how ?? ''}\n${signal.items?.length ?? ''}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash & 0x3fffffff;
}

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
export interface SignalSource {
  signals(session: string): readonly HealthSignal[];
  readonly onDidChange: Event<HealthChange>;
}

export class NeedsYouBook implements Disposable {
  /**
   * Each session in the queue, with one short text of what the queue shows of it (its most
   * urgent signal that waits on the user: place by urgency, since when, how, how many items):
   * a session's place, its change test and its order, and nothing more (the signal itself is
   * the health book's, asked again when the queue is read).
   */
  private readonly entries: SessionColumn<string>;
  /** The sessions in queue order, once asked for (undefined: changed since). */
  private ordered: string[] | undefined;
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
    private readonly health: SignalSource,
    private readonly reportListenerError: (error: unknown) => void = () => {},
  ) {
    // In its field of the reader's shared session record, where the log has them.
    this.entries = log.records?.column<string>('needsYou') ?? new Map<string, string>();
    this.subscriptions = [log.onDidRead((read) => this.look(read.session)), health.onDidChange(({ session }) => this.look(session))];
  }

  /** The queue, most urgent first, then the one waiting longest (each entry made when asked: the book keeps none). */
  queue(): readonly NeedsYou[] {
    this.ordered ??= [...this.entries.keys()].sort((a, b) => byPlace(this.entries.get(a) ?? '', this.entries.get(b) ?? '') || (a < b ? -1 : a > b ? 1 : 0));
    return this.ordered.flatMap((session) => {
      const entry = this.get(session);
      return entry ? [entry] : [];
    });
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
      const text = placeText(entry.signal);
      if (kept === text) return;
      this.entries.set(session, text);
    }
    this.ordered = undefined;
    this.emitter.fire(undefined, this.reportListenerError);
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.emitter.dispose();
    this.entries.clear();
  }
}

/** A queued signal as the book keeps it: its urgency, since when, how, and how many items, in one flat text. */
function placeText(signal: HealthSignal): string {
  const { how, since, items } = signal;
  // One flat string, not the pieces a template may leave joined (kept per session).
  return Buffer.from(`${needsYouRank(signal)}\n${since}\n${how ?? ''}\n${items?.length ?? ''}`).toString();
}

/** The queue's order of two kept texts: by urgency, then the one waiting longest. */
function byPlace(a: string, b: string): number {
  const [rankA = '', sinceA = ''] = a.split('\n', 2);
  const [rankB = '', sinceB = ''] = b.split('\n', 2);
  return Number(rankA) - Number(rankB) || (sinceA < sinceB ? -1 : sinceA > sinceB ? 1 : 0);
}

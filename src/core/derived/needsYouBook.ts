// The "Needs you" queue kept in step with the health book: each read of a session and each
// change of its signals looks at that one session again, so the queue never walks every
// session nor re-reads a history. Time rules (stalled) reach it through the health book's
// own change event, fired when its clock says (HealthBook.nextCheck): no timer of its own.
// Pure: no vscode, no I/O.
import { Emitter, type Disposable, type Event } from '../emitter';
import type { HealthSignal } from './health';
import type { HealthChange } from './healthBook';
import { needsYouQueue, type NeedsYou } from './needsYou';
import type { LogRead } from '../log/sessionLog';

/** What the book needs of the health book: a session's signals, and when they change. */
export interface SignalSource {
  signals(session: string): readonly HealthSignal[];
  readonly onDidChange: Event<HealthChange>;
}

export class NeedsYouBook implements Disposable {
  /** Each session in the queue, with its most urgent signal that waits on the user and what the queue shows of it. */
  private readonly entries = new Map<string, { entry: NeedsYou; text: string }>();
  private ordered: NeedsYou[] | undefined;
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
    log: { readonly onDidRead: Event<LogRead> },
    private readonly health: SignalSource,
    private readonly reportListenerError: (error: unknown) => void = () => {},
  ) {
    this.subscriptions = [log.onDidRead((read) => this.look(read.session)), health.onDidChange(({ session }) => this.look(session))];
  }

  /** The queue, most urgent first, then the one waiting longest. */
  queue(): readonly NeedsYou[] {
    this.ordered ??= needsYouQueue([...this.entries.keys()], (session) => {
      const kept = this.entries.get(session);
      return kept ? [kept.entry.signal] : [];
    });
    return this.ordered;
  }

  /** How many sessions wait on the user. */
  get size(): number {
    return this.entries.size;
  }

  /** The session's place in the queue, if it is there. */
  get(session: string): NeedsYou | undefined {
    return this.entries.get(session)?.entry;
  }

  private look(session: string): void {
    const entry = needsYouQueue([session], (key) => this.health.signals(key))[0];
    const kept = this.entries.get(session);
    if (entry === undefined) {
      if (!kept) return;
      this.entries.delete(session);
    } else {
      // What the queue shows of it: a stall's growing count of tool calls is no change to the queue.
      const { kind, how, since, items } = entry.signal;
      const text = JSON.stringify([kind, how, since, items?.length]);
      if (kept?.text === text) return;
      this.entries.set(session, { entry, text });
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

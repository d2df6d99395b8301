// The in-memory view of every session's current plan, kept in step with the
// session log: the tool writes through it, the file watcher feeds it appends made
// by other processes, and the UI and the exported API read it and listen to it.
// Data flows one way: write → log → event → listeners.
import { Emitter, type Disposable } from './emitter';
import type { Todo } from './plan';
import type { LogEvent, SessionLog } from './sessionLog';

export class PlanStore implements Disposable {
  private readonly current = new Map<string, LogEvent>();
  private readonly writeEmitter = new Emitter<LogEvent>();
  private readonly changeEmitter = new Emitter<void>();

  /** Fires for every new snapshot, written here or appended by another process. */
  readonly onDidWrite = this.writeEmitter.event;
  /** Fires when the set of sessions or any current plan changed. */
  readonly onDidChange = this.changeEmitter.event;

  constructor(
    readonly log: SessionLog,
    private readonly reportListenerError: (error: unknown) => void = () => {},
  ) {}

  /** Reads every session's current plan (a tail read each, never the whole history). */
  async load(): Promise<void> {
    const summaries = await this.log.sessions();
    this.current.clear();
    for (const summary of summaries) {
      if (summary.current) this.current.set(summary.key, summary.current);
    }
    this.changeEmitter.fire(undefined, this.reportListenerError);
  }

  /** Appends a snapshot; the events fire only once it is saved. */
  async write(session: string, todos: Todo[]): Promise<LogEvent> {
    const event = await this.log.append(session, todos);
    this.accept([event]);
    return event;
  }

  /** Takes in what another process appended to a session's log since the last look. */
  async ingest(session: string): Promise<void> {
    const events = await this.log.readNew(session);
    if (events.length === 0) {
      if (!this.current.has(session)) {
        const event = await this.log.current(session);
        if (event) this.accept([event]);
      }
      return;
    }
    this.accept(events);
  }

  /** Drops a session whose log disappeared. */
  forget(session: string): void {
    if (this.current.delete(session)) this.changeEmitter.fire(undefined, this.reportListenerError);
  }

  /** Deletes a session's log, and only that file. */
  async remove(session: string): Promise<void> {
    await this.log.remove(session);
    this.forget(session);
  }

  get(session: string): LogEvent | undefined {
    return this.current.get(session);
  }

  /** Sessions with a plan, the most recently written first. */
  list(): LogEvent[] {
    return [...this.current.values()].sort((a, b) => (a.ts < b.ts ? 1 : a.ts > b.ts ? -1 : 0));
  }

  latest(): LogEvent | undefined {
    return this.list()[0];
  }

  history(session: string): Promise<LogEvent[]> {
    return this.log.history(session);
  }

  private accept(events: readonly LogEvent[]): void {
    for (const event of events) {
      // Log order is the truth: the last appended snapshot is current, whatever its clock says.
      this.current.set(event.session, event);
      this.writeEmitter.fire(event, this.reportListenerError);
    }
    this.changeEmitter.fire(undefined, this.reportListenerError);
  }

  dispose(): void {
    this.writeEmitter.dispose();
    this.changeEmitter.dispose();
  }
}

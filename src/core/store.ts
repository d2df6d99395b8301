// The in-memory view of every session's current plan, kept in step with the session log
// by the log's one reader: whatever the reader finds (this window's writes, other
// processes' appends, files that appear or vanish) comes through `take`, in file order.
// The UI and the exported API read it and listen to it.
// Data flows one way: write → log → reader → store → listeners.
import { isAgentParticipant, isVscodeChatAgent } from './participants';
import { foreignSessionKey } from './sessionKey';
import type { AgentId } from './foreign';
import { Emitter, type Disposable } from './emitter';
import type { Todo } from './plan';
import type { HistoryPage, LogEvent, LogRead, PlanVersion, SessionInfoRecord, SessionLog } from './sessionLog';

/** How many versions a tooltip's "for 5 min" looks back at most: its cost must not follow the history. */
export const STATUS_WALK_LIMIT = 1000;
/** More rows than a Sessions view shows at once: a load paints when this many are in. */
export const SESSIONS_SCREENFUL = 50;

/** What the store knows about a session besides its plan. */
export interface SessionDetails {
  /** The agent whose plan this is; undefined for todo_write's own plans. */
  agent: AgentId | undefined;
  /** The chat's title, when the foreign program has made one. */
  title: string | undefined;
  /** The uuid of the Copilot chat this session is, when known (from a mirrored line or the chat's info). */
  chat: string | undefined;
  /**
   * The plan is from an earlier turn: the session's newest turn (from its session/info
   * line) made no plan call and comes after the turn of the current plan.
   */
  earlierTurn: boolean;
  /** A subagent's session: the Agent Plan session of the session that started it. */
  parent: string | undefined;
  /** Whether the newest turn is running, where the program records turns (a subagent's "running"). */
  running: boolean;
}

interface Entry {
  event: LogEvent;
  /** Place in this machine's order of writes: higher is more recent. */
  rank: number;
}

export class PlanStore implements Disposable {
  private readonly current = new Map<string, Entry>();
  private readonly infos = new Map<string, SessionInfoRecord>();
  /** Sessions whose newest info line comes after their current plan in the file. */
  private readonly infoAfterPlan = new Set<string>();
  /** The last plan of each session whose file vanished, so a file restored as it was is not news. */
  private readonly vanished = new Map<string, string>();
  private readonly writeEmitter = new Emitter<LogEvent>();
  private readonly changeEmitter = new Emitter<void>();
  private readonly subscription: Disposable;
  private lastRank = 0;
  /** The latest session (undefined: none), unless topStale says to look again. */
  private top: string | undefined;
  private topStale = false;
  private loading = 0;
  private loadedOnce = false;
  private changedWhileLoading = false;
  /** During a load: the latest session when the views last painted. */
  private paintedLatest: string | undefined;

  /** Fires for every new snapshot, written here or appended by another process. */
  readonly onDidWrite = this.writeEmitter.event;
  /** Fires when the set of sessions or any current plan changed. */
  readonly onDidChange = this.changeEmitter.event;

  constructor(
    readonly log: SessionLog,
    private readonly reportListenerError: (error: unknown) => void = () => {},
  ) {
    log.reportListenerErrorsTo(reportListenerError);
    this.subscription = log.onDidRead((read) => this.take(read));
  }

  /**
   * Reads every session's current plan (a tail read each, never the whole history), through
   * the log's reader: a write that lands meanwhile is read after the tail it follows, so it
   * is never replaced by an older plan. `first`, the session the Plan view showed last, is
   * read before the folder is even listed. Rejects when the log folder cannot be read.
   */
  async load(options: { first?: string } = {}): Promise<void> {
    if (this.loading++ === 0) this.paintedLatest = this.latest()?.session;
    try {
      // A store's first load needs every file's state, also those the log had read for another listener.
      const restate = !this.loadedOnce;
      this.loadedOnce = true;
      await this.log.sessions({ first: options.first, firstPage: SESSIONS_SCREENFUL, onFirstPage: () => this.paintDeferred(), restate });
    } finally {
      this.loading--;
      if (this.loading === 0) this.paintDeferred();
    }
  }

  /** Appends a snapshot; the events fire when the reader reads it back, before this resolves. */
  write(session: string, todos: Todo[]): Promise<LogEvent> {
    return this.log.append(session, todos);
  }

  /** Reads what was appended to a session's log since the last look (the watcher's entry). */
  async ingest(session: string): Promise<void> {
    await this.log.readNew(session);
  }

  /** Deletes a session's log, and only that file. */
  async remove(session: string): Promise<void> {
    await this.log.remove(session);
  }

  /** How many sessions have a plan (list().length without sorting them). */
  get size(): number {
    return this.current.size;
  }

  get(session: string): LogEvent | undefined {
    return this.current.get(session)?.event;
  }

  /** Sessions with a plan, the most recently written first (in this machine's order of writes). */
  list(): LogEvent[] {
    return [...this.current.entries()]
      .sort(([keyA, a], [keyB, b]) => (comesFirst(keyA, a, keyB, b) ? -1 : comesFirst(keyB, b, keyA, a) ? 1 : 0))
      .map(([, entry]) => entry.event);
  }

  latest(): LogEvent | undefined {
    if (this.topStale) {
      this.top = undefined;
      for (const [session, entry] of this.current) this.considerForTop(session, entry);
      this.topStale = false;
    }
    return this.top === undefined ? undefined : this.current.get(this.top)?.event;
  }

  /** Sets a session's entry and keeps the latest known without a scan (a load sets thousands). */
  private setEntry(session: string, entry: Entry): void {
    const before = this.current.get(session);
    this.current.set(session, entry);
    if (this.topStale) return;
    if (session === this.top) {
      if (before && entry.rank < before.rank) this.topStale = true;
      return;
    }
    this.considerForTop(session, entry);
  }

  /** Makes `session` the latest if it comes before the latest known. */
  private considerForTop(session: string, entry: Entry): void {
    const top = this.top === undefined ? undefined : this.current.get(this.top);
    if (this.top === undefined || !top || comesFirst(session, entry, this.top, top)) this.top = session;
  }

  private deleteEntry(session: string): void {
    this.current.delete(session);
    if (session === this.top) this.topStale = true;
  }

  details(session: string): SessionDetails {
    const event = this.current.get(session)?.event;
    const info = this.infos.get(session);
    const turn = info?.latestTurn;
    const planTurn = event?.source?.turn;
    // A VS Code chat answered by another extension's participant is not the agent's chat.
    const otherParticipant = info !== undefined && isVscodeChatAgent(info.source.agent) && info.participant !== undefined && !isAgentParticipant(info.source.agent, info.participant);
    return {
      agent: event?.source?.agent ?? (otherParticipant ? undefined : info?.source.agent),
      title: info?.title !== undefined && info.title.trim() !== '' ? info.title : undefined,
      chat: isVscodeChatAgent(event?.source?.agent) ? event?.source?.session : isVscodeChatAgent(info?.source.agent) ? info?.source.session : undefined,
      // A mirrored plan knows its turn; todo_write's does not, but an info line written after
      // it that names a newer turn without a plan call says the same.
      earlierTurn:
        turn !== undefined && !turn.planned && (planTurn !== undefined ? turn.index > planTurn : event !== undefined && this.infoAfterPlan.has(session)),
      // Subagents are a terminal agent's (never a VS Code chat's): their parent maps like them.
      parent: info?.parent !== undefined && !isVscodeChatAgent(info.source.agent) ? foreignSessionKey(info.source.agent, info.parent) : undefined,
      running: info?.turn?.state === 'running',
    };
  }

  /** Every version of a session, oldest first: the whole file (the API's getHistory). */
  history(session: string): Promise<LogEvent[]> {
    return this.log.history(session);
  }

  /** Up to `limit` versions, newest first, before an earlier page's oldest `at` if given. */
  page(session: string, limit: number, before?: number): Promise<HistoryPage> {
    return this.log.page(session, limit, before);
  }

  /** The version whose line starts at `at`, if it is still in the log. */
  versionAt(session: string, at: number): Promise<LogEvent | undefined> {
    return this.log.versionAt(session, at);
  }

  /**
   * Since when an item has had the status it has in `from` (default: the current plan):
   * walks back while the item keeps that status, over at most STATUS_WALK_LIMIT versions
   * (then `atLeast`: it has held it longer). Undefined when the item is not in that plan.
   */
  async statusSince(
    session: string,
    content: string,
    from?: PlanVersion,
    cancelled: () => boolean = () => false,
  ): Promise<{ since: string; atLeast: boolean } | undefined> {
    const start = from?.event ?? this.get(session);
    const status = start?.todos.find((todo) => todo.content === content)?.status;
    if (!start || status === undefined) return undefined;
    let since = start.ts;
    let walked = 0;
    let atLeast = false;
    await this.log.readBackward(
      session,
      (event) => {
        // A superseded mirrored list never was the plan on screen.
        if (event.source?.superseded === true) return cancelled();
        if (event.todos.find((todo) => todo.content === content)?.status !== status) return true;
        since = event.ts;
        if (++walked >= STATUS_WALK_LIMIT) atLeast = true;
        return atLeast || cancelled();
      },
      from?.at,
    );
    return { since, atLeast };
  }

  private take(read: LogRead): void {
    const { session } = read;
    if (read.gone) {
      const last = this.current.get(session)?.event;
      if (last) this.vanished.set(session, JSON.stringify(last));
      this.deleteEntry(session);
      this.infos.delete(session);
      this.infoAfterPlan.delete(session);
      this.changed();
      return;
    }
    if (read.sync) {
      const known = this.current.get(session);
      // A rescan repeats what is already here: nothing changed, nothing to redraw.
      if (known && known.event === read.sync.current && this.infos.get(session) === read.sync.info) return;
      if (read.sync.info) this.infos.set(session, read.sync.info);
      if (read.sync.infoAfterPlan) this.infoAfterPlan.add(session);
      else this.infoAfterPlan.delete(session);
      const event = read.sync.current;
      if (event) {
        // A file's modification time places it among the others; one the watcher just met is news.
        const rank = read.sync.announce ? this.nextRank() : read.sync.modifiedMs;
        this.lastRank = Math.max(this.lastRank, rank);
        this.setEntry(session, { event, rank });
        const restored = this.vanished.has(session) && this.vanished.get(session) === JSON.stringify(event);
        this.vanished.delete(session);
        if (read.sync.announce && !restored) this.writeEmitter.fire(event, this.reportListenerError);
      } else {
        this.deleteEntry(session);
      }
      this.changed();
      return;
    }
    for (const record of read.records) {
      if (record.type === 'session/info') {
        this.infos.set(session, record);
        this.infoAfterPlan.add(session);
        continue;
      }
      // A user's request or a link is not a plan (requests.ts follows them).
      if (record.type !== 'todo/write') continue;
      // A superseded mirrored snapshot joins the history but does not replace the current plan.
      if (record.source?.superseded !== true) {
        this.setEntry(session, { event: record, rank: this.nextRank() });
        this.infoAfterPlan.delete(session);
      }
      this.writeEmitter.fire(record, this.reportListenerError);
    }
    this.changed();
  }

  /** This machine's order of writes: the clock here, never running backwards. */
  private nextRank(): number {
    this.lastRank = Math.max(Date.now(), this.lastRank + 0.001);
    return this.lastRank;
  }

  /** Paints what a load has held back so far. */
  private paintDeferred(): void {
    if (!this.changedWhileLoading) return;
    this.changedWhileLoading = false;
    this.changeEmitter.fire(undefined, this.reportListenerError);
  }

  private changed(): void {
    if (this.loading > 0) {
      // Load reads the session shown last and then the newest files first: a change that
      // brings a new latest plan paints at once, and so does the first screenful of the
      // Sessions view (paintDeferred); the many that follow paint once at the end.
      const latest = this.latest()?.session;
      if (latest === this.paintedLatest) {
        this.changedWhileLoading = true;
        return;
      }
      this.paintedLatest = latest;
    }
    this.changeEmitter.fire(undefined, this.reportListenerError);
  }

  dispose(): void {
    this.subscription.dispose();
    this.writeEmitter.dispose();
    this.changeEmitter.dispose();
  }
}

/** The order of list() and latest(): higher rank first, then the key, for a stable order. */
function comesFirst(sessionA: string, a: Entry, sessionB: string, b: Entry): boolean {
  return a.rank > b.rank || (a.rank === b.rank && sessionA < sessionB);
}

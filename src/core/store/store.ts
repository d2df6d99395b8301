// The in-memory view of every session's current plan, kept in step with the session log
// by the log's one reader: whatever the reader finds (this window's writes, other
// processes' appends, files that appear or vanish) comes through `take`, in file order.
// The UI and the exported API read it and listen to it.
// Data flows one way: write → log → reader → store → listeners.
import { isAgentParticipant, isVscodeChatAgent } from '../plan/participants';
import { foreignSessionKey } from '../log/sessionKey';
import type { AgentId } from '../foreign';
import { Emitter, type Disposable } from '../emitter';
import type { PlanItem, Todo } from '../plan/plan';
import type { HistoryPage, PlanRecord, LogRead, PlanVersion, SessionInfoRecord, SessionLog } from '../log/sessionLog';
import type { SessionColumn, SessionRecords } from '../log/sessionRecords';

/** How many versions a tooltip's "for 5 min" looks back at most: its cost must not follow the history. */
export const STATUS_WALK_LIMIT = 1000;
/** More rows than a Sessions view shows at once: a load paints when this many are in. */
export const SESSIONS_SCREENFUL = 50;
/**
 * How many sessions' whole plans stay in memory, the most recently used (the Plan view's,
 * a timeline's, the newest writes); any other session is a summary, its plan read back
 * from its file's tail when asked.
 */
export const FULL_PLANS_KEPT = 32;

/** How many first items read back (the titles of rows met at a first look) stay in memory: a few screens of rows. */
export const TITLES_KEPT = 1_024;

/** What the store knows about a session besides its plan. */
export interface SessionDetails {
  /** The agent whose plan this is; undefined for todo_write's own plans. */
  agent: AgentId | undefined;
  /** The chat's title, when the foreign program has made one. */
  title: string | undefined;
  /** The text of the session's first request (one line), when its program recorded it: the name when there is no title. */
  request: string | undefined;
  /** The uuid of the Copilot chat this session is, when known (from a foreign line or the chat's info). */
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

const COUNTS = new Map<string, PlanRecord['counts']>();

/** One frozen object per distinct counts: summaries share them. */
function sharedCounts(counts: PlanRecord['counts']): PlanRecord['counts'] {
  const key = JSON.stringify(counts);
  let shared = COUNTS.get(key);
  if (shared === undefined) {
    shared = Object.freeze({ ...counts });
    if (COUNTS.size < 4096) COUNTS.set(key, shared);
  }
  return shared;
}

/** A session's entry: its current plan without the items (a summary), what a Sessions row shows. */
type Entry = SummaryEvent;

/** What the store keeps of a session's newest session/info line: what its details need. */
interface InfoFacts {
  agent: AgentId;
  /** The foreign session (a Copilot chat's uuid). */
  session: string;
  title: string | undefined;
  request: string | undefined;
  latestTurn: { index: number; planned: boolean } | undefined;
  otherParticipant: boolean;
  parent: string | undefined;
  running: boolean;
  /** The folder the session ran in, as its program recorded it. */
  cwd: string | undefined;
}

function infoFacts(info: SessionInfoRecord): InfoFacts {
  return {
    agent: info.source.agent,
    session: info.source.session,
    title: info.title !== undefined && info.title.trim() !== '' ? info.title : undefined,
    request: info.request,
    latestTurn: info.latestTurn ? { index: info.latestTurn.index, planned: info.latestTurn.planned } : undefined,
    // A VS Code chat answered by another extension's participant is not a Copilot chat.
    otherParticipant: isVscodeChatAgent(info.source.agent) && info.participant !== undefined && !isAgentParticipant(info.source.agent, info.participant),
    // Subagents are a terminal agent's (never a VS Code chat's): their parent maps like them.
    parent: info.parent !== undefined && !isVscodeChatAgent(info.source.agent) ? foreignSessionKey(info.source.agent, info.parent) : undefined,
    running: info.turn?.state === 'running',
    cwd: info.cwd,
  };
}

/**
 * A session's current plan as a summary: every field of the plan but its items, which are
 * read back (through the store, from the file's tail) when asked for. `firstItem` serves a
 * row's title: kept for a plan written while this window runs, read back when first asked for
 * one met at a first look (most sessions after a reload: their texts were 85 bytes a session
 * kept for rows that are rarely shown), then kept in the store's bounded cache of titles.
 */
export abstract class SummaryEvent implements PlanRecord {
  get v(): 1 {
    return 1;
  }
  get type(): 'todo/write' {
    return 'todo/write';
  }
  readonly session: string;
  declare readonly source?: PlanRecord['source'];
  declare readonly at?: string;

  // Not fields of the plan (JSON and comparisons see the plan's fields only).
  /** The store that reads the items back: on the prototype of that store's own subclass, not in each summary. */
  protected abstract get store(): PlanStore;
  /** The plan's time, as ms since the epoch when it is in the canonical ISO form (a number is held in the object, a text is not). */
  readonly #ts: number | string;
  /** Shared by every summary with the same counts (they are few). */
  readonly #counts: PlanRecord['counts'];
  /** Place in this machine's order of writes: higher is more recent. */
  readonly #rank: number;
  /** The first item's text; null: the plan has none; undefined: not kept (read back when asked). */
  readonly #firstItem: string | null | undefined;

  /** The first item's text (what names a session without a title). */
  get firstItem(): string | undefined {
    const kept = this.#firstItem;
    if (kept !== undefined) return kept ?? undefined;
    return this.store.firstItemOf(this.session);
  }

  get rank(): number {
    return this.#rank;
  }

  get ts(): string {
    return typeof this.#ts === 'number' ? new Date(this.#ts).toISOString() : this.#ts;
  }

  get counts(): PlanRecord['counts'] {
    return this.#counts;
  }

  constructor(session: string, event: PlanRecord, rank: number, keepFirstItem = true) {
    this.#rank = rank;
    const ms = Date.parse(event.ts);
    this.#ts = !Number.isNaN(ms) && new Date(ms).toISOString() === event.ts ? ms : event.ts;
    // The key the store holds it under (one string for both).
    this.session = session;
    this.#counts = sharedCounts(event.counts);
    if (event.source !== undefined) (this as { source?: PlanRecord['source'] }).source = event.source;
    if (event.at !== undefined) (this as { at?: string }).at = event.at;
    this.#firstItem = keepFirstItem ? (event.todos[0]?.content ?? null) : undefined;
  }

  /** The items, read back when not in memory ([] when the file cannot be read). */
  get todos(): PlanItem[] {
    const full = this.store.get(this.session);
    return full && full !== this ? full.todos : [];
  }
}

/** The summaries of one store: the store on their prototype. */
function summaryClass(store: PlanStore): new (session: string, event: PlanRecord, rank: number, keepFirstItem?: boolean) => SummaryEvent {
  return class extends SummaryEvent {
    protected get store(): PlanStore {
      return store;
    }
  };
}

export class PlanStore implements Disposable {
  /** Each session's entry, in its field of the reader's shared session record. */
  private readonly current: SessionColumn<Entry>;
  /** Whole plans in memory, the least recently used first (FULL_PLANS_KEPT of them, unless the log cannot read back). */
  private readonly full = new Map<string, PlanRecord>();
  private readonly infos = new Map<string, InfoFacts>();
  /** Sessions whose newest info line comes after their current plan in the file. */
  private readonly infoAfterPlan = new Set<string>();
  /** The last plan of each session whose file vanished, so a file restored as it was is not news. */
  private readonly vanished = new Map<string, string>();
  private readonly writeEmitter = new Emitter<PlanRecord>();
  private readonly changeEmitter = new Emitter<string | undefined>();
  private readonly subscription: Disposable;
  /** This store's summaries. */
  private readonly Summary: new (session: string, event: PlanRecord, rank: number, keepFirstItem?: boolean) => SummaryEvent;
  /** First items read back for summaries met at a first look, the least recently used first (TITLES_KEPT of them; null: no items). */
  private readonly titles = new Map<string, string | null>();
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
    this.current = (log.records as SessionRecords | undefined)?.column<Entry>('plan') ?? new Map<string, Entry>();
    this.Summary = summaryClass(this);
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
    if (this.loading++ === 0) this.paintedLatest = this.latestSession();
    try {
      // A store's first load needs every file's state, also those the log had read for another listener.
      const restate = !this.loadedOnce;
      this.loadedOnce = true;
      await this.log.sessions({ first: options.first, firstPage: SESSIONS_SCREENFUL, onFirstPage: () => this.paintDeferred(), restate, plans: false });
    } finally {
      this.loading--;
      if (this.loading === 0) this.paintDeferred();
    }
  }

  /** Appends a snapshot; the events fire when the reader reads it back, before this resolves. */
  write(session: string, todos: Todo[]): Promise<PlanRecord> {
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

  /** The session's current plan, whole: from memory, or read back from its file's tail (then kept, as recently used). */
  get(session: string): PlanRecord | undefined {
    const entry = this.current.get(session);
    if (!entry) return undefined;
    const kept = this.full.get(session);
    if (kept) {
      // Most recently used: to the end of the order.
      this.full.delete(session);
      this.full.set(session, kept);
      return kept;
    }
    const read = this.log.tailNow(session)?.current;
    if (!read || read.ts !== entry.ts) return entry;
    this.keepFull(read);
    return read;
  }

  /**
   * The session's current plan as a row shows it (counts, time, first item): the whole plan
   * where in memory, else its summary. Reads no file and leaves what stays in memory as it was,
   * so a list of rows never pushes out the plans on screen (`get` reads the items back).
   */
  summary(session: string): PlanRecord | undefined {
    return this.full.get(session) ?? this.current.get(session);
  }

  /** How many sessions' whole plans are in memory (the rest are summaries). */
  get fullPlans(): number {
    return this.full.size;
  }

  /**
   * Sessions with a plan, the most recently written first (in this machine's order of
   * writes): whole plans where in memory, else summaries (their items read when asked).
   */
  list(): PlanRecord[] {
    return [...this.current.entries()]
      .sort(([keyA, a], [keyB, b]) => (comesFirst(keyA, a, keyB, b) ? -1 : comesFirst(keyB, b, keyA, a) ? 1 : 0))
      .map(([session, entry]) => this.full.get(session) ?? entry);
  }

  latest(): PlanRecord | undefined {
    const session = this.latestSession();
    return session === undefined ? undefined : this.get(session);
  }

  /** The latest session's key, without reading its plan. */
  private latestSession(): string | undefined {
    if (this.topStale) {
      this.top = undefined;
      for (const [session, entry] of this.current) this.considerForTop(session, entry);
      this.topStale = false;
    }
    return this.top === undefined || !this.current.has(this.top) ? undefined : this.top;
  }

  /** Keeps a whole plan in memory as the most recently used; `ifRoom`: only while fewer than FULL_PLANS_KEPT are. */
  private keepFull(event: PlanRecord, ifRoom = false): void {
    if (ifRoom && this.log.readsNow && this.full.size >= FULL_PLANS_KEPT && !this.full.has(event.session)) return;
    this.full.delete(event.session);
    this.full.set(event.session, event);
    // Without a synchronous read back, every plan stays.
    if (!this.log.readsNow) return;
    for (const session of this.full.keys()) {
      if (this.full.size <= FULL_PLANS_KEPT) break;
      this.full.delete(session);
    }
  }

  /**
   * The first item of a session's current plan, read back from the file's tail when not in
   * memory (a summary met at a first look), then kept among the TITLES_KEPT most recently asked.
   */
  firstItemOf(session: string): string | undefined {
    const cached = this.titles.get(session);
    if (cached !== undefined) {
      this.titles.delete(session);
      this.titles.set(session, cached);
      return cached ?? undefined;
    }
    const plan = this.full.get(session) ?? this.log.tailNow(session)?.current;
    if (!plan) return undefined;
    const first = plan.todos[0]?.content ?? null;
    this.titles.set(session, first);
    for (const key of this.titles.keys()) {
      if (this.titles.size <= TITLES_KEPT) break;
      this.titles.delete(key);
    }
    return first ?? undefined;
  }

  /** Sets a session's entry and keeps the latest known without a scan (a load sets thousands). */
  private setEntry(session: string, entry: Entry): void {
    this.titles.delete(session);
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
    this.titles.delete(session);
    this.current.delete(session);
    this.full.delete(session);
    if (session === this.top) this.topStale = true;
  }

  details(session: string): SessionDetails {
    const event = this.current.get(session);
    const info = this.infos.get(session);
    const turn = info?.latestTurn;
    const planTurn = event?.source?.turn;
    return {
      agent: event?.source?.agent ?? (info?.otherParticipant ? undefined : info?.agent),
      title: info?.title,
      request: info?.request,
      chat: isVscodeChatAgent(event?.source?.agent) ? event?.source?.session : isVscodeChatAgent(info?.agent) ? info?.session : undefined,
      // A foreign plan knows its turn; todo_write's does not, but an info line written after
      // it that names a newer turn without a plan call says the same. A turn still running may
      // yet write its plan: only one that ended without writing it leaves the plan behind (a
      // banner raised at each turn's start and gone at its first plan call is a false alarm).
      earlierTurn:
        turn !== undefined && !turn.planned && info?.running !== true && (planTurn !== undefined ? turn.index > planTurn : event !== undefined && this.infoAfterPlan.has(session)),
      parent: info?.parent,
      running: info?.running ?? false,
    };
  }

  /** The folder the session ran in, as its program recorded it (a terminal agent's); undefined when unknown. */
  folderOf(session: string): string | undefined {
    return this.infos.get(session)?.cwd;
  }

  /** Every version of a session, oldest first: the whole file (the API's getHistory). */
  history(session: string): Promise<PlanRecord[]> {
    return this.log.history(session);
  }

  /** Up to `limit` versions, newest first, before an earlier page's oldest `at` if given. */
  page(session: string, limit: number, before?: number): Promise<HistoryPage> {
    return this.log.page(session, limit, before);
  }

  /** The version whose line starts at `at`, if it is still in the log. */
  versionAt(session: string, at: number): Promise<PlanRecord | undefined> {
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
        // A superseded foreign list never was the plan on screen.
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
      const last = this.current.get(session);
      if (last) this.vanished.set(session, fingerprint(last));
      this.deleteEntry(session);
      this.infos.delete(session);
      this.infoAfterPlan.delete(session);
      this.changed(session);
      return;
    }
    if (read.sync) {
      // A rescan repeats what is already here: nothing changed, nothing to redraw.
      // The log restates (reset false) only what it read before: a session this store holds already is no news.
      if (!read.sync.reset && (this.current.has(session) || this.infos.has(session))) return;
      if (read.sync.info) this.infos.set(session, infoFacts(read.sync.info));
      if (read.sync.infoAfterPlan) this.infoAfterPlan.add(session);
      else this.infoAfterPlan.delete(session);
      const event = read.sync.current;
      if (event) {
        // A file's modification time places it among the others; one the watcher just met is news.
        const rank = read.sync.announce ? this.nextRank() : read.sync.modifiedMs;
        this.lastRank = Math.max(this.lastRank, rank);
        // A session met at a first look keeps no title text: a row that shows it reads it back once.
        this.setEntry(session, new this.Summary(session, event, rank, read.sync.announce || !this.log.readsNow));
        this.keepFull(event, true);
        const restored = this.vanished.has(session) && this.vanished.get(session) === fingerprint(event);
        this.vanished.delete(session);
        if (read.sync.announce && !restored) this.writeEmitter.fire(event, this.reportListenerError);
      } else {
        this.deleteEntry(session);
      }
      this.changed(session);
      return;
    }
    for (const record of read.records) {
      if (record.type === 'session/info') {
        this.infos.set(session, infoFacts(record));
        this.infoAfterPlan.add(session);
        continue;
      }
      // A user's request or a link is not a plan (requests.ts follows them).
      if (record.type !== 'todo/write') continue;
      // A superseded foreign snapshot joins the history but does not replace the current plan.
      if (record.source?.superseded !== true) {
        this.setEntry(session, new this.Summary(session, record, this.nextRank()));
        this.keepFull(record);
        this.infoAfterPlan.delete(session);
      }
      this.writeEmitter.fire(record, this.reportListenerError);
    }
    this.changed(session);
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

  private changed(session: string): void {
    if (this.loading > 0) {
      // Load reads the session shown last and then the newest files first: a change that
      // brings a new latest plan paints at once, and so does the first screenful of the
      // Sessions view (paintDeferred); the many that follow paint once at the end.
      const latest = this.latestSession();
      if (latest === this.paintedLatest) {
        this.changedWhileLoading = true;
        return;
      }
      this.paintedLatest = latest;
      this.changeEmitter.fire(undefined, this.reportListenerError);
      return;
    }
    this.changeEmitter.fire(session, this.reportListenerError);
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

/** What tells a plan from another without holding its items: a restored file's plan is the one it had. */
function fingerprint(event: PlanRecord): string {
  return JSON.stringify([event.ts, event.counts, event.source, event.at]);
}

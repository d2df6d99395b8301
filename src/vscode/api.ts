// The value `activate` returns: what other extensions (and the integration tests)
// can read of the plans and the sidebar, and the stream of new snapshots.
import type { DisplayState } from '../core/store/display';
import type { Event } from '../core/emitter';
import type { ItemStatus, PlanCounts, PlanItem } from '../core/plan/plan';
import type { PlanRecord } from '../core/log/sessionLog';
import type { PlanStore } from '../core/store/store';
import type { HealthBook } from '../core/derived/healthBook';
import type { FileBook, ItemFile } from '../core/derived/itemFiles';
import { emptyFigures, type Ledger } from '../core/derived/ledger';
import type { LedgerBook } from '../core/derived/ledgerBook';
import type { FileChange } from '../core/derived/itemChanges';
import type { Answers, PendingRequest } from './answers/answers';
import type { ItemChangesReader } from '../node/itemChangesReader';
export type { Ledger, ItemLedger, LedgerFigures } from '../core/derived/ledger';
import type { RequestBook, UserRequest } from '../core/derived/requests';
import type { HealthKind, StopHow } from '../core/derived/health';
import type { AgentId, PlanSource } from '../core/foreign';
import { statusIcon } from './plan/planTree';
import { planHeader, planMessage } from './plan/planHeader';

/**
 * One saved snapshot: the canonical result `{ todos, counts }` with its session and time.
 * A foreign plan (from another agent) also carries its `source` (and may hold cancelled or
 * blocked items, counted in `counts.cancelled`/`counts.blocked`).
 */
export interface PlanSnapshot {
  session: string;
  ts: string;
  todos: PlanItem[];
  counts: PlanCounts;
  source?: PlanSource;
}

/** Versions per page of getVersions when the caller names no limit. */
const DEFAULT_PAGE = 100;

/** What is known of a session besides its plan. */
export interface SessionInfo {
  session: string;
  /** The agent whose plan it is; undefined for todo_write's own sessions. */
  agent: AgentId | undefined;
  /** The chat's title, when known. */
  title: string | undefined;
  /** The text of the session's first request (one line), when its agent recorded it. */
  request: string | undefined;
  /** The plan is from an earlier turn than the session's latest request. */
  earlierTurn: boolean;
  /** The session whose plan this one continues (Continue in New Chat), once read. */
  continuedFrom?: string;
  /** The sessions that continue this one's plan, once read. */
  continuedIn?: string[];
  /** A subagent's session: the session that started it (the Sessions view lists it there). */
  parent: string | undefined;
  /** The session's newest turn is running, where its program records turns. */
  running: boolean;
}

/** What the Plan view shows right now. */
export interface PlanViewState {
  session: string | undefined;
  followingLatest: boolean;
  /** Set when an older version is shown: when it was saved, and how many versions are newer. */
  version: { ts: string; behind: number } | undefined;
  description: string | undefined;
  badge: number | undefined;
  /** The line above the rows (an older version, a cleared plan), if any. */
  message: string | undefined;
  items: Array<{ content: string; status: ItemStatus; icon: string }>;
  /** The user's own requests shown below the plan (read so far), oldest first. */
  requests: UserRequest[];
}

/** A session's plan health: where its plan stops matching the work (README, "Plan health"). */
export interface PlanHealth {
  signals: Array<{
    kind: HealthKind;
    /** stopped-open: how the turn ended. */
    how?: StopHow;
    /** ISO time this machine saw it. */
    since: string;
    /** Byte offset of the version that started it. */
    at?: number;
    /** The item texts concerned (reworded: the old text, then the new one, per item). */
    items?: string[];
    /** waiting: the tool call that waits, and whether the agent's record says it asks for approval. */
    wait?: { tool: string; approval: boolean };
  }>;
}

export interface AgentPlanApi {
  /** Fires after every saved snapshot, from this window or appended by another process. */
  readonly onDidWritePlan: Event<PlanSnapshot>;
  /** Every session's current plan, the most recently written first. */
  listSessions(): PlanSnapshot[];
  /** A session's current plan; without a session, the plan the sidebar shows. */
  getPlan(session?: string): PlanSnapshot | undefined;
  /** Every snapshot of a session, oldest first (reads the whole log: getVersions pages instead). */
  getHistory(session: string): Promise<PlanSnapshot[]>;
  /**
   * Up to `limit` (default 100) versions, newest first, each with `at`, its address in the
   * log; `before` (an `at` of an earlier page) continues further back. Bounded by the page,
   * however long the history.
   */
  getVersions(session: string, options?: { limit?: number; before?: number }): Promise<{ versions: Array<PlanSnapshot & { at: number }>; more: boolean }>;
  /** The folder of the session logs (JSON Lines, one file per session). */
  readonly logFolder: string;
  /** The log file of a session. */
  logFile(session: string): string;
  /** What the Plan view shows right now. */
  getViewState(): PlanViewState;
  /** The agent, title and turn state of a session. */
  getSessionInfo(session: string): SessionInfo;
  /** A session's plan health signals, most urgent first. */
  getHealth(session: string): PlanHealth;
  /** The connected agents' tool calls waiting for the user's answer, oldest first (src/vscode/answers/). */
  getPendingRequests(): PendingRequest[];
  /** Answers one (as the user's click would): true when the agent's hook took the answer; a Deny's message goes to the model. */
  answerRequest(id: string, answer: 'allow' | 'deny', message?: string): Promise<boolean>;
  /** Fires with a session's key when its signals changed. */
  readonly onDidChangeHealth: Event<string>;
  /** The user's requests of a session not yet taken into a plan, oldest first (reads its past once). */
  getRequests(session: string): Promise<UserRequest[]>;
  /** What each item of the session's current plan changed, and the files written while none was in progress (reads its past once). */
  getChangedFiles(session: string): Promise<ChangedFiles>;
  /**
   * What each item of the session cost while it was in progress: time, tool calls, tokens
   * (`undefined`: the agent recorded none), cost where recorded; shared parts, the session's
   * part (no item in progress), the part whose item is not known, and the total (reads its past once).
   */
  getLedger(session: string): Promise<Ledger>;
  /**
   * What each item of the session's current plan changed in its working tree while it was in
   * progress, from the snapshots Agent Plan takes when the in-progress items change (the stretch
   * still open runs to now): files with lines added and removed as `git diff --numstat` counts
   * them; `shared` where other items were in progress too, `meanwhile` where the agent's own
   * records do not name the file for the item (the user, a shell command, another agent).
   * `session`: the whole session, first snapshot to now. `recorded: 'none'`: no snapshot bounds
   * the item's work ("changes not recorded": a non-git folder, history from before, git missing).
   */
  getItemChanges(session: string): Promise<ItemChangesResult>;
}

export interface ItemChangeFile {
  /** Relative to the working tree's top folder, `/`-separated. */
  path: string;
  /** Lines added and removed; undefined for a binary file (numstat's `-`). */
  added: number | undefined;
  removed: number | undefined;
  /** The path before a rename. */
  from?: string;
  shared?: true;
  meanwhile?: true;
}

export interface ItemChangesResult {
  items: Array<{ content: string; recorded: 'all' | 'part' | 'none'; files: ItemChangeFile[] }>;
  session: Array<{ path: string; added: number | undefined; removed: number | undefined; from?: string }>;
}

function changeFile(file: FileChange): ItemChangeFile {
  const copy: ItemChangeFile = { path: file.path, added: file.added, removed: file.removed };
  if (file.from !== undefined) copy.from = file.from;
  if (file.shared) copy.shared = true;
  if (file.meanwhile) copy.meanwhile = true;
  return copy;
}

export interface ChangedFile {
  /** As the agent named it: absolute, or relative to its workspace. */
  path: string;
  /** Another item was in progress too when it was written. */
  shared: boolean;
  /** The tool calls that wrote it. */
  writes: number;
}

export interface ChangedFiles {
  /** The current plan's items, in order, each with its files in the order first written. */
  items: Array<{ content: string; files: ChangedFile[] }>;
  /** Files written while no item was in progress. */
  session: ChangedFile[];
  /** Files written while the items in progress are not known (the agent's record did not tell). */
  unknown: ChangedFile[];
}

const changedFile = (file: ItemFile): ChangedFile => ({ path: file.path, shared: file.shared, writes: file.writes });

function snapshot(event: PlanRecord): PlanSnapshot {
  const result: PlanSnapshot = {
    session: event.session,
    ts: event.ts,
    todos: event.todos.map((todo) => ({ content: todo.content, status: todo.status })),
    counts: { ...event.counts },
  };
  if (event.source) result.source = { ...event.source };
  return result;
}

/** The API's copy of a session's health signals. */
function healthOf(health: HealthBook, session: string): PlanHealth {
  return {
    signals: health.signals(session).map((signal) => {
      const copy: PlanHealth['signals'][number] = { kind: signal.kind, since: signal.since };
      if (signal.how !== undefined) copy.how = signal.how;
      if (signal.at !== undefined) copy.at = signal.at;
      if (signal.items !== undefined) copy.items = [...signal.items];
      if (signal.wait !== undefined) copy.wait = { tool: signal.wait.tool, approval: signal.wait.approval };
      return copy;
    }),
  };
}

/** What the Plan view shows now, as the API gives it. */
function viewState(display: DisplayState, store: PlanStore, requests: RequestBook): ReturnType<AgentPlanApi['getViewState']> {
  const event = display.event;
  const version = display.shownVersion;
  return {
    session: display.session,
    followingLatest: display.followingLatest,
    version: version ? { ts: version.event.ts, behind: version.behind } : undefined,
    ...planHeader(event),
    message: planMessage(display, store),
    items: (event?.todos ?? []).map((todo) => ({ content: todo.content, status: todo.status, icon: statusIcon(todo.status).id })),
    requests: event && !version ? requests.known(event.session) : [],
  };
}

/** What the API reads: the plans, what is derived from their logs, and where the logs are. */
export interface ApiDeps {
  store: PlanStore;
  display: DisplayState;
  health: HealthBook;
  requests: RequestBook;
  files: FileBook;
  ledgers?: LedgerBook;
  /** What each item changed, from the working tree's snapshots. */
  changes?: ItemChangesReader;
  /** The requests of connected agents waiting for an answer. */
  answers?: Answers;
  logFolder: string;
  logFile: (session: string) => string;
}

export function createApi({ store, display, health, requests, files, ledgers, changes, answers, logFolder, logFile }: ApiDeps): AgentPlanApi {
  return {
    onDidWritePlan: (listener) => store.onDidWrite((event) => listener(snapshot(event))),
    listSessions: () => store.list().map(snapshot),
    getPlan: (session) => {
      const event = session === undefined ? display.event : store.get(session);
      return event ? snapshot(event) : undefined;
    },
    getHistory: async (session) => (await store.history(session)).map(snapshot),
    getVersions: async (session, options = {}) => {
      const limit = Number.isSafeInteger(options.limit) && (options.limit ?? 0) > 0 ? (options.limit as number) : DEFAULT_PAGE;
      const page = await store.page(session, limit, Number.isSafeInteger(options.before) ? options.before : undefined);
      return { versions: page.versions.map(({ event, at }) => ({ ...snapshot(event), at })), more: page.more };
    },
    logFolder,
    logFile,
    getViewState: () => viewState(display, store, requests),
    getSessionInfo: (session) => {
      const links = requests.links(session);
      return { session, ...store.details(session), ...(links.from !== undefined ? { continuedFrom: links.from } : {}), ...(links.to.length > 0 ? { continuedIn: links.to } : {}) };
    },
    getHealth: (session) => healthOf(health, session),
    getPendingRequests: () => answers?.pending() ?? [],
    answerRequest: async (id, answer, message) => (answers !== undefined && typeof id === 'string' && (answer === 'allow' || answer === 'deny') ? answers.answer(id, answer, typeof message === 'string' ? message : undefined) : false),
    onDidChangeHealth: (listener) => health.onDidChange(({ session }) => listener(session)),
    getRequests: (session) => requests.list(session),
    getChangedFiles: async (session) => {
      const book = await files.get(session);
      const todos = store.get(session)?.todos ?? [];
      return { items: todos.map((todo) => ({ content: todo.content, files: book.of(todo.content).map(changedFile) })), session: book.session().map(changedFile), unknown: book.unknown().map(changedFile) };
    },
    getLedger: async (session) => {
      const ledger = ledgers ? (await ledgers.get(session)).ledger(Date.now()) : undefined;
      return ledger ?? { items: [], session: emptyFigures(), unknown: emptyFigures(), total: emptyFigures(), elapsedMs: 0 };
    },
    getItemChanges: async (session) => {
      const todos = store.get(session)?.todos ?? [];
      if (!changes) return { items: todos.map((todo) => ({ content: todo.content, recorded: 'none' as const, files: [] })), session: [] };
      const read = await changes.read(session, todos.map((todo) => todo.content), { now: true });
      return {
        items: read.items.map((item) => ({ content: item.content, recorded: item.recorded, files: item.files.map(changeFile) })),
        session: read.session.map((file) => {
          const { path, added, removed, from } = changeFile(file);
          return from !== undefined ? { path, added, removed, from } : { path, added, removed };
        }),
      };
    },
  };
}

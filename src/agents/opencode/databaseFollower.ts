// Follows an agent's SQLite database (opencode, Kilo CLI), read-only, and hands the plans of
// this workspace's sessions to Agent Plan's log.
//
// - Reader: `node:sqlite` of the extension host's own Node (no native addon, no copy of the
//   database). Opened read-only with no busy timeout and no transaction held between
//   queries: in WAL mode a reader never blocks the writer, and a busy or locked database is
//   retried a moment later, never reported as broken. A Node without `node:sqlite` gives one
//   line in the output channel and no source.
// - Nothing is created next to the database: a read-only connection to a WAL database makes
//   `-wal` and `-shm` files when they are missing, so the database is opened that way only
//   while both exist (the agent has it open, or left them); with neither, it is opened as
//   immutable (the main file alone holds every committed page then); with one of the two,
//   the scan waits for the agent to finish creating or removing them.
// - Idle is idle: the database's folder is watched; a change is queried only when the size or
//   time of the database or its `-wal` differ from the last scan. With working events nothing
//   runs on a timer; where the folder's events may not arrive (a network or shared file
//   system), a stat-only poll runs every 5 s and backs off to once a minute while nothing changes. Queries ask only for what changed (a cursor on `time_updated`).
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Disposable } from '../../core/emitter';
import { FolderWatch } from '../follow/folderWatch';
import { Backoff, eventsUnreliable } from '../../node/eventSupport';
import { isBusy, loadSqlite, type SqliteModule } from '../follow/sqlite';
import {
  followTurn,
  isUserMessage,
  requestFromParts,
  plansFromParts,
  sessionInfo,
  todoTableMismatch,
  workspaceSessions,
  type OpencodeAgent,
  type OpencodeMessageRow,
  type OpencodePartRow,
  type OpencodeTurn,
  type OpencodeSessionRow,
  type OpencodeTodoRow,
} from './parser';
import type { PlanSink, UnknownShape } from '../../core/foreign';
import { notePlanParts, writesFromParts } from './writes';
import { usageFromMessages } from './usage';
import { followWaitingCalls, type WaitingCallsState } from './waitingCalls';

export interface SqliteFollowerOptions {
  agent: OpencodeAgent;
  /** The agent's database file. */
  dbFile: string;
  workspaceFolders: readonly string[];
  /** Stored with the cursor: a cursor of another version is ignored (everything is read again). */
  parserVersion: string;
  sink: PlanSink;
  /** A file of Agent Plan's own storage where the cursor is kept. */
  cursorFile: string;
  onUnknownShape?(file: string, shape: UnknownShape): void;
  onError?(error: unknown, file?: string): void;
  /** One line for the output channel (the source is off, or waits). */
  onPolling?(reason: string): void;
  /** Minimum time between two queries. Default 250 ms. */
  throttleMs?: number;
  /**
   * Where the database's folder raises no file events (a network or shared file system): the
   * first interval of the stat-only poll, which backs off to `maxPollMs` while nothing
   * changes. Default 5 s; 0 turns polling off. With working events nothing runs on a timer.
   */
  pollMs?: number;
  /** The longest interval of the poll. Default 60 s. */
  maxPollMs?: number;
  /** Poll, for this reason, whatever the file system (tests). */
  pollReason?: string;
  /** How soon a busy or locked database is asked again. Default 1000 ms. */
  busyRetryMs?: number;
  sqlite?: SqliteModule | string;
}

interface Cursor {
  v: 1;
  parserVersion: string;
  /** The database's identity (dev:ino): another file means every row is new. */
  identity: string;
  /** Rows updated at or after these times are asked for next (opencode times are ms). */
  sessionsFrom: number;
  partsFrom: number;
  messagesFrom: number;
  /** Parts already handed on whose time is `partsFrom` (the next query asks for that time again). */
  partsAtCursor: string[];
  /** This workspace's sessions, with the title last handed on, the newest turn and its calls without an end. */
  sessions: Record<string, { title?: string; request?: string; cwd: string; turn?: OpencodeTurn; waiting?: WaitingCallsState; said?: string }>;
  /** Sessions whose todo table was found to differ (reported once). */
  mismatched: string[];
  /** Per session, the part ids of its completed plan calls (what a write counts before it). */
  plans?: Record<string, string[]>;
}

export class SqliteFollower implements Disposable {
  private readonly watch: FolderWatch;
  private readonly sqlite: SqliteModule | undefined;
  private cursor: Cursor | undefined;
  private lastLook: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private poll: NodeJS.Timeout | undefined;
  private polling: Backoff | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private lastScan = 0;
  private disposed = false;

  constructor(private readonly options: SqliteFollowerOptions) {
    const sqlite = options.sqlite ?? loadSqlite();
    if (typeof sqlite === 'string') {
      options.onPolling?.(`${sqlite}: ${options.agent}'s plans are not followed`);
      this.sqlite = undefined;
    } else {
      this.sqlite = sqlite;
    }
    const base = path.basename(options.dbFile);
    this.watch = new FolderWatch((file) => {
      if (file === undefined || path.basename(file).startsWith(base)) this.schedule();
    });
  }

  start(): void {
    if (this.sqlite === undefined || this.disposed) return;
    const folder = path.dirname(this.options.dbFile);
    // Each scan re-watches the folder (made later, or re-created); events drive the scans.
    this.watch.reconcile([folder]);
    const pollMs = this.options.pollMs ?? 5000;
    const reason = pollMs > 0 ? (this.options.pollReason ?? eventsUnreliable(folder)) : undefined;
    if (reason !== undefined) {
      const maxMs = Math.max(pollMs, this.options.maxPollMs ?? 60_000);
      this.polling = new Backoff(pollMs, maxMs);
      this.options.onPolling?.(`polling ${this.options.dbFile} every ${pollMs / 1000} s, backing off to ${maxMs / 1000} s while nothing changes: ${reason}`);
      this.pollAfter(pollMs);
    }
    this.schedule();
  }

  /** One stat-only look after `ms`, then the next one, sooner when it found a change. */
  private pollAfter(ms: number): void {
    this.poll = setTimeout(() => {
      this.poll = undefined;
      const before = this.lastLook;
      void this.scanNow().then(() => {
        if (!this.disposed && this.polling) this.pollAfter(this.polling.next(this.lastLook !== before));
      });
    }, ms);
    this.poll.unref();
  }

  /** Queries now even when nothing seems changed; resolves when caught up. */
  async refresh(): Promise<void> {
    if (this.sqlite === undefined) return;
    this.lastLook = undefined;
    await this.scanNow();
  }

  dispose(): void {
    this.disposed = true;
    this.watch.dispose();
    if (this.timer) clearTimeout(this.timer);
    if (this.poll) clearTimeout(this.poll);
  }

  private schedule(delay?: number): void {
    if (this.disposed || this.timer) return;
    const throttle = this.options.throttleMs ?? 250;
    const wait = delay ?? Math.max(0, this.lastScan + throttle - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.scanNow();
    }, wait);
  }

  private async scanNow(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        this.lastScan = Date.now();
        try {
          await this.scan();
        } catch (error) {
          if (isBusy(error)) {
            this.lastLook = undefined;
            this.schedule(this.options.busyRetryMs ?? 1000);
          } else {
            this.options.onError?.(error, this.options.dbFile);
          }
        }
      } while (this.again && !this.disposed);
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** The database's files as they are now: undefined when it does not exist. */
  private async look(): Promise<{ key: string; identity: string; mode: 'shared' | 'immutable' | 'wait' } | undefined> {
    const { dbFile } = this.options;
    const stat = async (file: string) => fsp.stat(file).catch(() => undefined);
    const [db, wal, shm] = await Promise.all([stat(dbFile), stat(`${dbFile}-wal`), stat(`${dbFile}-shm`)]);
    if (!db?.isFile()) return undefined;
    const mode = wal && shm ? 'shared' : !wal && !shm ? 'immutable' : 'wait';
    const key = JSON.stringify([db.dev, db.ino, db.size, db.mtimeMs, wal?.size, wal?.mtimeMs, mode]);
    return { key, identity: `${db.dev}:${db.ino}`, mode };
  }

  private async scan(): Promise<void> {
    const sqlite = this.sqlite;
    if (sqlite === undefined || this.disposed) return;
    // The folder may have been made since the last scan (the agent's first run): watch it itself.
    this.watch.reconcile([path.dirname(this.options.dbFile)]);
    const look = await this.look();
    if (look === undefined || look.key === this.lastLook) return;
    if (look.mode === 'wait') {
      // The agent is opening or closing the database: look again shortly.
      this.schedule(this.options.busyRetryMs ?? 1000);
      return;
    }
    const cursor = await this.loadCursor(look.identity);
    const { dbFile, agent, workspaceFolders, sink } = this.options;
    const location = look.mode === 'shared' ? dbFile : new URL(`${pathToFileURL(dbFile).href}?immutable=1`);
    let sessionRows: OpencodeSessionRow[];
    const partRows: OpencodePartRow[] = [];
    const messageRows: OpencodeMessageRow[] = [];
    let todoRows: OpencodeTodoRow[] = [];
    const toolCalls = new Map<string, number>();
    const requests = new Map<string, string>();
    const db = new sqlite.DatabaseSync(location, { readOnly: true, timeout: 0 });
    try {
      sessionRows = db
        .prepare('SELECT id, directory, title, time_updated FROM session WHERE time_updated >= ? ORDER BY time_updated')
        .all(cursor.sessionsFrom) as OpencodeSessionRow[];
      for (const row of workspaceSessions(sessionRows, workspaceFolders)) {
        cursor.sessions[row.id] ??= { cwd: row.directory };
      }
      const ids = Object.keys(cursor.sessions);
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        const rows = db
          .prepare(
            `SELECT id, session_id, time_updated, data FROM part WHERE session_id IN (${chunk.map(() => '?').join(',')}) AND time_updated >= ? AND data LIKE '%"type":"tool"%'`,
          )
          .all(...chunk, cursor.partsFrom) as OpencodePartRow[];
        partRows.push(...rows.filter((row) => !(row.time_updated === cursor.partsFrom && cursor.partsAtCursor.includes(row.id))));
        messageRows.push(
          ...(db
            .prepare(`SELECT id, session_id, time_updated, data FROM message WHERE session_id IN (${chunk.map(() => '?').join(',')}) AND time_updated >= ?`)
            .all(...chunk, cursor.messagesFrom) as OpencodeMessageRow[]),
        );
      }
      for (const [session, text] of firstRequests(db, messageRows, cursor)) requests.set(session, text);
      for (const row of messageRows) {
        const counted = db.prepare(`SELECT count(*) AS n FROM part WHERE message_id = ? AND data LIKE '%"type":"tool"%'`).all(row.id)[0] as { n?: number } | undefined;
        toolCalls.set(row.id, typeof counted?.n === 'number' ? counted.n : 0);
      }
      const planned = [...new Set(partRows.map((p) => p.session_id))];
      if (planned.length > 0) {
        todoRows = db
          .prepare(`SELECT session_id, content, status, priority, position FROM todo WHERE session_id IN (${planned.map(() => '?').join(',')})`)
          .all(...planned) as OpencodeTodoRow[];
      }
    } finally {
      db.close();
    }
    // Sessions first (their titles name them in the Sessions view, with their turn), then their plans.
    const changed = new Map<string, OpencodeSessionRow>();
    for (const row of [...partRows, ...messageRows]) {
      const known = cursor.sessions[row.session_id];
      if (known !== undefined) changed.set(row.session_id, { id: row.session_id, directory: known.cwd, title: known.title ?? '', time_updated: 0 });
    }
    for (const row of sessionRows) if (cursor.sessions[row.id] !== undefined) changed.set(row.id, row);
    for (const row of changed.values()) {
      const known = cursor.sessions[row.id];
      if (known === undefined) continue;
      const parts = partRows.filter((p) => p.session_id === row.id);
      const turn = followTurn(known.turn, messageRows.filter((m) => m.session_id === row.id), parts);
      const waiting = followWaitingCalls(known.waiting, turn, parts);
      const info = sessionInfo(agent, row);
      const request = known.request ?? requests.get(row.id);
      if (request !== undefined) info.request = request;
      if (turn !== undefined) {
        info.turn = { index: turn.index, state: turn.state };
        info.calls = turn.calls.length;
        if (waiting.pending !== undefined) info.pending = waiting.pending;
      }
      const said = JSON.stringify(info);
      if (said !== known.said) await sink.updateSession(info);
      cursor.sessions[row.id] = {
        cwd: row.directory,
        ...(info.title !== undefined ? { title: info.title } : {}),
        ...(request !== undefined ? { request } : {}),
        ...(turn !== undefined ? { turn } : {}),
        ...(waiting.state !== undefined ? { waiting: waiting.state } : {}),
        said,
      };
    }
    const { plans, unknown } = plansFromParts(agent, partRows, new Set(Object.keys(cursor.sessions)));
    for (const shape of unknown) this.options.onUnknownShape?.(dbFile, shape);
    if (plans.length > 0) await sink.importPlans(plans);
    const planParts = (cursor.plans ??= {});
    for (const session of Object.keys(cursor.sessions)) planParts[session] ??= [];
    notePlanParts(partRows, planParts);
    const writes = writesFromParts(agent, partRows, planParts);
    if (writes.length > 0) await sink.importWrites(writes);
    const usage = usageFromMessages(agent, messageRows, planParts, (id) => toolCalls.get(id) ?? 0);
    if (usage.length > 0) await sink.importUsage?.(usage);
    for (const session of new Set(plans.map((p) => p.source.session))) {
      const newest = [...plans].reverse().find((p) => p.source.session === session);
      const rows = todoRows.filter((r) => r.session_id === session);
      const mismatch = newest && !cursor.mismatched.includes(session) ? todoTableMismatch(rows, newest.items) : undefined;
      if (mismatch !== undefined) {
        cursor.mismatched.push(session);
        this.options.onUnknownShape?.(dbFile, { line: 0, detail: `session ${session}: ${mismatch}` });
      }
    }
    // Equal times may still gain rows: the next query starts at the newest time seen (the
    // sink recognizes a call it has already imported).
    cursor.sessionsFrom = Math.max(cursor.sessionsFrom, ...sessionRows.map((r) => r.time_updated).filter(Number.isFinite));
    const partsFrom = Math.max(cursor.partsFrom, ...partRows.map((r) => r.time_updated).filter(Number.isFinite));
    const atCursor = partRows.filter((r) => r.time_updated === partsFrom).map((r) => r.id);
    cursor.partsAtCursor = partsFrom === cursor.partsFrom ? [...cursor.partsAtCursor, ...atCursor] : atCursor;
    cursor.partsFrom = partsFrom;
    cursor.messagesFrom = Math.max(cursor.messagesFrom, ...messageRows.map((r) => r.time_updated).filter(Number.isFinite));
    await this.saveCursor(cursor);
    this.lastLook = look.key;
  }

  private async loadCursor(identity: string): Promise<Cursor> {
    const fresh = (): Cursor => ({ v: 1, parserVersion: this.options.parserVersion, identity, sessionsFrom: 0, partsFrom: 0, messagesFrom: 0, partsAtCursor: [], sessions: {}, mismatched: [] });
    if (this.cursor?.identity === identity) return this.cursor;
    let cursor = fresh();
    try {
      const value = JSON.parse(await fsp.readFile(this.options.cursorFile, 'utf8')) as Partial<Cursor>;
      if (
        value.v === 1 &&
        value.parserVersion === this.options.parserVersion &&
        value.identity === identity &&
        typeof value.sessionsFrom === 'number' &&
        typeof value.partsFrom === 'number' &&
        typeof value.messagesFrom === 'number' &&
        Array.isArray(value.partsAtCursor) &&
        typeof value.sessions === 'object' &&
        value.sessions !== null &&
        Array.isArray(value.mismatched)
      ) {
        cursor = value as Cursor;
      }
    } catch {
      // No cursor yet (or unreadable): read everything once; the sink keeps it idempotent.
    }
    this.cursor = cursor;
    return cursor;
  }

  private async saveCursor(cursor: Cursor): Promise<void> {
    const file = this.options.cursorFile;
    const temp = `${file}.${process.pid}.tmp`;
    await fsp.mkdir(path.dirname(file), { recursive: true });
    await fsp.writeFile(temp, JSON.stringify(cursor), 'utf8');
    await fsp.rename(temp, file);
  }
}

/** True when `file` exists as a file now (for the start line in the output channel). */
export function databaseExists(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The first request of each session whose cursor does not know it yet: the text parts of
 * its first user message among `messages` (ids ascend in time), read from `part`.
 */
function firstRequests(db: { prepare(sql: string): { all(...params: unknown[]): unknown[] } }, messages: readonly OpencodeMessageRow[], cursor: Cursor): Map<string, string> {
  const found = new Map<string, string>();
  const tried = new Set<string>();
  for (const row of [...messages].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const known = cursor.sessions[row.session_id];
    if (known === undefined || known.request !== undefined || tried.has(row.session_id) || !isUserMessage(row.data)) continue;
    tried.add(row.session_id);
    const parts = db.prepare(`SELECT data FROM part WHERE message_id = ? AND data LIKE '%"type":"text"%' ORDER BY id`).all(row.id) as { data?: unknown }[];
    const text = requestFromParts(parts.map((part) => part.data));
    if (text !== undefined) found.set(row.session_id, text);
  }
  return found;
}

// Follows an agent's SQLite database (opencode, Kilo CLI), read-only, and hands the plans of
// this workspace's sessions to Agent Plan's log.
//
// - Reader: `node:sqlite` of the extension host's own Node (no native addon, no copy of the
//   database). Opened read-only with no busy timeout; each pass is one read transaction (one
//   snapshot), ended before anything is handed on: in WAL mode a reader never blocks the
//   writer, and a busy or locked database is retried a moment later, never reported as
//   broken. A Node without `node:sqlite` gives one line in the output channel and no source.
// - The host's thread stays free: `node:sqlite` answers synchronously, so every query is a
//   keyset page of at most 500 rows by an index the schema has (sessions by id, a session's
//   messages by (time_created, id), its parts by rowid in `part_session_idx`, a message's
//   parts by (message_id, id), todos by position), smaller while pages are slow; the pass
//   yields to the event loop after ~12 ms of work, and parses its rows in runs between yields.
//   A message's tool calls are counted from the tool parts read (kept in the cursor), never by
//   a query per message.
// - Only regular files are opened: a FIFO (or socket, device) named like the database, its
//   `-wal` or `-shm` is reported once and skipped (SQLite would block the thread opening it).
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
import { FolderWatch } from '../../node/folderWatch';
import { Backoff, eventsUnreliable } from '../../node/eventSupport';
import { isBusy, loadSqlite, ScanPacer, ScanStopped, type SqliteDatabase, type SqliteModule } from '../follow/sqlite';
import { notRegularFile, readRegularFileText } from '../../node/regularFile';
import {
  byIdTime,
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
import type { ForeignPlan, ForeignSessionInfo, ForeignUsage, ForeignWrite, PlanSink, UnknownShape } from '../../core/foreign';
import { notePlanParts, writesFromParts } from './writes';
import { usageFromMessages } from './usage';
import { followWaitingCalls, type WaitingCalls, type WaitingCallsState } from './waitingCalls';

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
  sessions: Record<string, SessionCursor>;
  /** Sessions whose todo table was found to differ (reported once). */
  mismatched: string[];
  /** Per session, the part ids of its completed plan calls (what a write counts before it). */
  plans?: Record<string, string[]>;
  /** Per message (the newest MAX_COUNTED_MESSAGES), the ids of its tool parts read so far: its usage's calls. */
  calls?: Record<string, string[]>;
}

interface SessionCursor {
  title?: string;
  request?: string;
  cwd: string;
  turn?: OpencodeTurn;
  waiting?: WaitingCallsState;
  said?: string;
}

/** The database's files: how to open it, or why not. */
type Look = { key: string; identity: string } & ({ mode: 'shared' | 'immutable' | 'wait' } | { mode: 'refused'; refused: Error });

/** What one session's rows of a pass give, handed on once the database is closed. */
interface SessionPass {
  id: string;
  info: ForeignSessionInfo;
  entry: SessionCursor;
  plans: ForeignPlan[];
  writes: ForeignWrite[];
  usage: ForeignUsage[];
  mismatch?: string;
}

interface Pass {
  sessions: SessionPass[];
}

/** Rows as the paged queries return them, with their keys. */
type KeyedMessage = { id: string; session_id: string; time_created: number; time_updated: number; data: string | null };
type KeyedPart = { k: number; id: string; message_id: string; session_id: string; time_updated: number; data: string | null };
type OpencodeRow = (OpencodeMessageRow & { kind: 'message' }) | (OpencodePartRow & { kind: 'part' });

/** A first request is made of at most this many text parts. */
const MAX_REQUEST_PARTS = 100;
/** Tool calls are counted for at most this many messages (the newest): one not completed by then has lost its count. */
const MAX_COUNTED_MESSAGES = 1000;
/** The cursor file is Agent Plan's own, but read only as a regular file of bounded size. */
const MAX_CURSOR_BYTES = 64 * 1024 * 1024;

/** Keeps the tool-call counts of the newest MAX_COUNTED_MESSAGES messages. */
function pruneCalls(calls: Record<string, string[]>): void {
  const ids = Object.keys(calls);
  if (ids.length <= MAX_COUNTED_MESSAGES) return;
  for (const id of ids.sort(byIdTime).slice(0, ids.length - MAX_COUNTED_MESSAGES)) delete calls[id];
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
  /** The key of a path refused (not a regular file) and reported, while it stays so. */
  private refused: string | undefined;

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
          if (error instanceof ScanStopped) return;
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
  private async look(): Promise<Look | undefined> {
    const { dbFile } = this.options;
    const stat = async (file: string) => fsp.stat(file).catch(() => undefined);
    const [db, wal, shm] = await Promise.all([stat(dbFile), stat(`${dbFile}-wal`), stat(`${dbFile}-shm`)]);
    if (db === undefined) return undefined;
    // SQLite opens these paths itself, synchronously: a FIFO there would hold the host's thread.
    for (const [file, found] of [[dbFile, db], [`${dbFile}-wal`, wal], [`${dbFile}-shm`, shm]] as const) {
      if (found !== undefined && !found.isFile()) return { key: JSON.stringify([file, found.mode]), identity: '', mode: 'refused', refused: notRegularFile(file, found) };
    }
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
    if (look?.mode !== 'refused') this.refused = undefined;
    if (look === undefined || look.key === this.lastLook) return;
    if (look.mode === 'refused') {
      // Reported once while it stays so; never opened.
      if (this.refused !== look.key) this.options.onError?.(look.refused, this.options.dbFile);
      this.refused = look.key;
      this.lastLook = look.key;
      return;
    }
    if (look.mode === 'wait') {
      // The agent is opening or closing the database: look again shortly.
      this.schedule(this.options.busyRetryMs ?? 1000);
      return;
    }
    const cursor = await this.loadCursor(look.identity);
    const { dbFile } = this.options;
    const location = look.mode === 'shared' ? dbFile : new URL(`${pathToFileURL(dbFile).href}?immutable=1`);
    const pacer = new ScanPacer(() => this.disposed);
    let pass: Pass;
    const db = new sqlite.DatabaseSync(location, { readOnly: true, timeout: 0 });
    try {
      // One snapshot for the whole pass (the cursor's times hold for every session at once). A
      // WAL reader never blocks the writer; it only keeps a checkpoint from passing its snapshot
      // until the COMMIT below, which comes before anything is handed on.
      db.prepare('BEGIN').all();
      pass = await this.read(db, cursor, pacer);
    } finally {
      try {
        db.prepare('COMMIT').all();
      } catch {
        // No transaction left (BEGIN failed): closing is enough.
      }
      db.close();
    }
    await this.handOn(pass, cursor);
    await this.saveCursor(cursor);
    this.lastLook = look.key;
  }

  /** Reads what changed since the cursor, session by session, in pages; parses it in runs. Only the cursor's times and call counts move here. */
  private async read(db: SqliteDatabase, cursor: Cursor, pacer: ScanPacer): Promise<Pass> {
    const { agent, workspaceFolders, dbFile } = this.options;
    const statements = new Map<string, ReturnType<SqliteDatabase['prepare']>>();
    const query = (sql: string, ...params: Array<string | number>): unknown[] => {
      let statement = statements.get(sql);
      if (statement === undefined) statements.set(sql, (statement = db.prepare(sql)));
      return statement.all(...params);
    };
    // Sessions, keyed by id; those updated since the cursor are this pass's.
    const sessionRows = new Map<string, OpencodeSessionRow>();
    let sessionsFrom = cursor.sessionsFrom;
    await pacer.pages<OpencodeSessionRow>(
      (after, limit) => query('SELECT id, directory, title, time_updated FROM session WHERE id > ? ORDER BY id LIMIT ?', after?.id ?? '', limit) as OpencodeSessionRow[],
      (rows) => {
        const updated = rows.filter((row) => row.time_updated >= cursor.sessionsFrom);
        for (const row of updated) if (Number.isFinite(row.time_updated)) sessionsFrom = Math.max(sessionsFrom, row.time_updated);
        for (const row of workspaceSessions(updated, workspaceFolders)) cursor.sessions[row.id] ??= { cwd: row.directory };
        for (const row of updated) if (cursor.sessions[row.id] !== undefined) sessionRows.set(row.id, row);
      },
    );
    const followed = new Set(Object.keys(cursor.sessions));
    const calls = (cursor.calls ??= {});
    const planParts = (cursor.plans ??= {});
    let partsFrom = cursor.partsFrom;
    let partsAtMax: string[] = [];
    let messagesFrom = cursor.messagesFrom;
    const sessions: SessionPass[] = [];
    for (const id of followed) {
      const known = cursor.sessions[id]!;
      // Messages by the (session, time_created, id) index; data only of those updated since the cursor.
      const messages: OpencodeMessageRow[] = [];
      await pacer.pages<KeyedMessage>(
        (after, limit) =>
          query(
            'SELECT id, session_id, time_created, time_updated, CASE WHEN time_updated >= ? THEN data END AS data FROM message WHERE session_id = ? AND (time_created, id) > (?, ?) ORDER BY time_created, id LIMIT ?',
            cursor.messagesFrom,
            id,
            after?.time_created ?? -Number.MAX_SAFE_INTEGER,
            after?.id ?? '',
            limit,
          ) as KeyedMessage[],
        (rows) => {
          for (const row of rows) {
            if (typeof row.data !== 'string') continue;
            messages.push({ id: row.id, session_id: row.session_id, time_updated: row.time_updated, data: row.data });
            if (Number.isFinite(row.time_updated)) messagesFrom = Math.max(messagesFrom, row.time_updated);
          }
        },
      );
      // Parts by the session index (its rows in rowid order); data only of tool parts updated since the cursor.
      const parts: OpencodePartRow[] = [];
      await pacer.pages<KeyedPart>(
        (after, limit) =>
          query(
            `SELECT rowid AS k, id, message_id, session_id, time_updated, CASE WHEN time_updated >= ? AND data LIKE '%"type":"tool"%' THEN data END AS data FROM part WHERE session_id = ? AND rowid > ? ORDER BY rowid LIMIT ?`,
            cursor.partsFrom,
            id,
            after?.k ?? -Number.MAX_SAFE_INTEGER,
            limit,
          ) as KeyedPart[],
        (rows) => {
          for (const row of rows) {
            if (typeof row.data !== 'string') continue;
            // A message's tool calls, counted from the parts as they are read (kept in the cursor until it completes).
            const counted = (calls[row.message_id] ??= []);
            if (!counted.includes(row.id)) counted.push(row.id);
            if (row.time_updated === cursor.partsFrom && cursor.partsAtCursor.includes(row.id)) continue;
            parts.push({ id: row.id, session_id: row.session_id, time_updated: row.time_updated, data: row.data });
            if (!Number.isFinite(row.time_updated)) continue;
            if (row.time_updated > partsFrom) {
              partsFrom = row.time_updated;
              partsAtMax = [row.id];
            } else if (row.time_updated === partsFrom) partsAtMax.push(row.id);
          }
        },
      );
      const row = sessionRows.get(id);
      if (messages.length === 0 && parts.length === 0 && row === undefined) continue;
      sessions.push(await this.parseSession(query, pacer, { id, known, row, messages, parts, followed, planParts, calls, agent, dbFile }));
    }
    cursor.sessionsFrom = sessionsFrom;
    cursor.partsAtCursor = partsFrom === cursor.partsFrom ? [...cursor.partsAtCursor, ...partsAtMax] : partsAtMax;
    cursor.partsFrom = partsFrom;
    cursor.messagesFrom = messagesFrom;
    pruneCalls(calls);
    return { sessions };
  }

  /** One session's rows of this pass, parsed in runs (each run as the whole would be, in id order). */
  private async parseSession(
    query: (sql: string, ...params: Array<string | number>) => unknown[],
    pacer: ScanPacer,
    input: {
      id: string;
      known: SessionCursor;
      row: OpencodeSessionRow | undefined;
      messages: OpencodeMessageRow[];
      parts: OpencodePartRow[];
      followed: ReadonlySet<string>;
      planParts: Record<string, string[]>;
      calls: Record<string, string[]>;
      agent: OpencodeAgent;
      dbFile: string;
    },
  ): Promise<SessionPass> {
    const { id, known, messages, parts, followed, planParts, calls, agent, dbFile } = input;
    messages.sort((a, b) => byIdTime(a.id, b.id));
    parts.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const row = input.row ?? { id, directory: known.cwd, title: known.title ?? '', time_updated: 0 };
    // Its first request, from the text parts of the first user message read (by the (message_id, id) index).
    let request = known.request;
    const firstUser = request === undefined ? messages.find((m) => isUserMessage(m.data)) : undefined;
    if (firstUser !== undefined) {
      const datas: string[] = [];
      await pacer.pages<{ id: string; data: string | null }>(
        (after, limit) =>
          query(`SELECT id, CASE WHEN data LIKE '%"type":"text"%' THEN data END AS data FROM part WHERE message_id = ? AND id > ? ORDER BY id LIMIT ?`, firstUser.id, after?.id ?? '', limit) as Array<{ id: string; data: string | null }>,
        (rows) => {
          for (const r of rows) if (typeof r.data === 'string' && datas.length < MAX_REQUEST_PARTS) datas.push(r.data);
        },
      );
      request = requestFromParts(datas);
    }
    // The turn, from messages and parts together in id-time order.
    const events: OpencodeRow[] = [...messages.map((m) => ({ ...m, kind: 'message' as const })), ...parts.map((p) => ({ ...p, kind: 'part' as const }))].sort((a, b) => byIdTime(a.id, b.id));
    let turn = known.turn;
    await pacer.inRuns(events, (run) => {
      turn = followTurn(
        turn,
        run.filter((e) => e.kind === 'message'),
        run.filter((e) => e.kind === 'part'),
      );
    });
    let waiting: WaitingCalls = followWaitingCalls(known.waiting, turn, []);
    await pacer.inRuns(parts, (run) => {
      waiting = followWaitingCalls(waiting.state ?? known.waiting, turn, run);
    });
    const info = sessionInfo(agent, row);
    if (request !== undefined) info.request = request;
    if (turn !== undefined) {
      info.turn = { index: turn.index, state: turn.state };
      info.calls = turn.calls.length;
      if (waiting.pending !== undefined) info.pending = waiting.pending;
    }
    // Plans and writes, part by part in id order; a write counts the plan parts before it.
    const plans: ForeignPlan[] = [];
    const writes: ForeignWrite[] = [];
    const unknown: UnknownShape[] = [];
    planParts[id] ??= [];
    await pacer.inRuns(parts, (run) => {
      const out = plansFromParts(agent, run, followed);
      plans.push(...out.plans);
      unknown.push(...out.unknown);
      notePlanParts(run, planParts);
      writes.push(...writesFromParts(agent, run, planParts));
    });
    for (const shape of unknown) this.options.onUnknownShape?.(dbFile, shape);
    const usage: ForeignUsage[] = [];
    await pacer.inRuns(messages, (run) => usage.push(...usageFromMessages(agent, run, planParts, (message) => calls[message]?.length ?? 0)));
    // The todo table: the check of the newest list (by its (session_id, position) key).
    let mismatch: string | undefined;
    const newest = plans.at(-1);
    if (newest !== undefined) {
      const todo: OpencodeTodoRow[] = [];
      await pacer.pages<OpencodeTodoRow>(
        (after, limit) =>
          query('SELECT session_id, content, status, priority, position FROM todo WHERE session_id = ? AND position > ? ORDER BY position LIMIT ?', id, after?.position ?? -Number.MAX_SAFE_INTEGER, limit) as OpencodeTodoRow[],
        (rows) => todo.push(...rows),
      );
      mismatch = todoTableMismatch(todo, newest.items);
    }
    const entry: SessionCursor = {
      cwd: row.directory,
      ...(info.title !== undefined ? { title: info.title } : {}),
      ...(request !== undefined ? { request } : {}),
      ...(turn !== undefined ? { turn } : {}),
      ...(waiting.state !== undefined ? { waiting: waiting.state } : {}),
    };
    return { id, info, entry, plans, writes, usage, ...(mismatch !== undefined ? { mismatch } : {}) };
  }

  /** Hands each session's news to the sink, session by session (the database is closed by now). */
  private async handOn(pass: Pass, cursor: Cursor): Promise<void> {
    const { sink, dbFile } = this.options;
    for (const session of pass.sessions) {
      const known = cursor.sessions[session.id];
      if (known === undefined) continue;
      // Its title names it in the Sessions view (with its turn) before its plans arrive.
      const said = JSON.stringify(session.info);
      if (said !== known.said) await sink.updateSession(session.info);
      cursor.sessions[session.id] = { ...session.entry, said };
      if (session.plans.length > 0) await sink.importPlans(session.plans);
      if (session.writes.length > 0) await sink.importWrites(session.writes);
      if (session.usage.length > 0) await sink.importUsage?.(session.usage);
      if (session.mismatch !== undefined && !cursor.mismatched.includes(session.id)) {
        cursor.mismatched.push(session.id);
        this.options.onUnknownShape?.(dbFile, { line: 0, detail: `session ${session.id}: ${session.mismatch}` });
      }
    }
  }

  private async loadCursor(identity: string): Promise<Cursor> {
    const fresh = (): Cursor => ({ v: 1, parserVersion: this.options.parserVersion, identity, sessionsFrom: 0, partsFrom: 0, messagesFrom: 0, partsAtCursor: [], sessions: {}, mismatched: [] });
    if (this.cursor?.identity === identity) return this.cursor;
    let cursor = fresh();
    try {
      const value = JSON.parse(await readRegularFileText(this.options.cursorFile, MAX_CURSOR_BYTES)) as Partial<Cursor>;
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

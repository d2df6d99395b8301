// What opencode's database (and Kilo CLI's, the same schema) gives the log, read by the shared
// SqliteFollower (src/agents/follow/sqliteFollower.ts), which decides when and keeps the cursor.
//
// Every query is a keyset page of at most 500 rows by an index the schema has (sessions by id,
// a session's messages by (time_created, id), its parts by rowid in `part_session_idx`, a
// message's parts by (message_id, id), todos by position), smaller while pages are slow; rows
// are parsed in runs between the pacer's yields. A message's tool calls are counted from the
// tool parts read (kept in the cursor), never by a query per message. Queries ask only for what
// changed (a cursor on `time_updated`).
import type { ScanPacer, SqliteDatabase } from '../follow/sqlite';
import { SqliteFollower, type SqliteFollowerOptions, type SqliteReader } from '../follow/sqliteFollower';
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
} from './opencodeParser';
import type { ForeignPlan, ForeignSessionInfo, ForeignUsage, ForeignWrite, PlanSink, UnknownShape } from '../../core/foreign';
import { notePlanParts, writesFromParts } from './opencodeWrites';
import { usageFromMessages } from './opencodeUsage';
import { followWaitingCalls, type WaitingCalls, type WaitingCallsState } from './opencodeWaiting';

export interface OpencodeFollowerOptions extends Omit<SqliteFollowerOptions<OpencodeCursor, Pass>, 'name' | 'reader'> {
  agent: OpencodeAgent;
  workspaceFolders: readonly string[];
  sink: PlanSink;
  onUnknownShape?: (file: string, shape: UnknownShape) => void;
}

/** Follows one opencode-style database (opencode's, or Kilo CLI's). */
export function opencodeFollower(options: OpencodeFollowerOptions): SqliteFollower<OpencodeCursor, Pass> {
  const { agent, workspaceFolders, sink, onUnknownShape, ...rest } = options;
  return new SqliteFollower({ ...rest, name: agent, reader: new OpencodeReader({ agent, workspaceFolders, sink, dbFile: options.dbFile, onUnknownShape }) });
}

/** The reader's part of the cursor. */
export interface OpencodeCursor {
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

export interface Pass {
  sessions: SessionPass[];
}

/** Rows as the paged queries return them, with their keys. */
type KeyedMessage = { id: string; session_id: string; time_created: number; time_updated: number; data: string | null };
type KeyedPart = { k: number; id: string; message_id: string; session_id: string; time_updated: number; data: string | null };
type OpencodeRow = (OpencodeMessageRow & { kind: 'message' }) | (OpencodePartRow & { kind: 'part' });

/**
 * Messages updated this long before the cursor are read again: a row's `time_updated` is set
 * by the agent before its write is committed, so a message stamped earlier may be committed
 * after one stamped later (a turn's end after the user message's summary). Re-read rows change
 * nothing twice (the turn, usage by id).
 */
const MESSAGE_LOOKBACK_MS = 10_000;
/** A first request is made of at most this many text parts. */
const MAX_REQUEST_PARTS = 100;
/** Tool calls are counted for at most this many messages (the newest): one not completed by then has lost its count. */
const MAX_COUNTED_MESSAGES = 1000;

/** Keeps the tool-call counts of the newest MAX_COUNTED_MESSAGES messages. */
function pruneCalls(calls: Record<string, string[]>): void {
  const ids = Object.keys(calls);
  if (ids.length <= MAX_COUNTED_MESSAGES) return;
  for (const id of ids.sort(byIdTime).slice(0, ids.length - MAX_COUNTED_MESSAGES)) delete calls[id];
}

interface ReaderOptions {
  agent: OpencodeAgent;
  workspaceFolders: readonly string[];
  sink: PlanSink;
  dbFile: string;
  onUnknownShape: ((file: string, shape: UnknownShape) => void) | undefined;
}

class OpencodeReader implements SqliteReader<OpencodeCursor, Pass> {
  constructor(private readonly options: ReaderOptions) {}

  freshCursor(): OpencodeCursor {
    return { sessionsFrom: 0, partsFrom: 0, messagesFrom: 0, partsAtCursor: [], sessions: {}, mismatched: [] };
  }

  isCursor(value: Record<string, unknown>): boolean {
    return (
      typeof value['sessionsFrom'] === 'number' &&
      typeof value['partsFrom'] === 'number' &&
      typeof value['messagesFrom'] === 'number' &&
      Array.isArray(value['partsAtCursor']) &&
      typeof value['sessions'] === 'object' &&
      value['sessions'] !== null &&
      Array.isArray(value['mismatched'])
    );
  }

  /** Reads what changed since the cursor, session by session, in pages; parses it in runs. Only the cursor's times and call counts move here. */
  async read(db: SqliteDatabase, cursor: OpencodeCursor, pacer: ScanPacer): Promise<Pass> {
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
            cursor.messagesFrom - MESSAGE_LOOKBACK_MS,
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
  async handOn(pass: Pass, cursor: OpencodeCursor): Promise<void> {
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
}

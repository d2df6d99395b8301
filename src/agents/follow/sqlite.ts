// Reading an agent's SQLite database with `node:sqlite` of the extension host's own Node (no
// native addon): the module, how the database's files say it may be opened (read-only,
// creating nothing beside it), which errors mean "busy, try again later", and the pacing that
// keeps the host's thread free. The follower of a database is sqliteFollower.ts.
import * as fsp from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { notRegularFile } from '../../node/regularFile';

/** The part of `node:sqlite` used here (a test may hand in another implementation). */
export interface SqliteModule {
  DatabaseSync: new (location: string | URL, options: { readOnly: boolean; timeout?: number }) => SqliteDatabase;
}
export interface SqliteDatabase {
  prepare(sql: string): { all(...params: Array<string | number>): unknown[] };
  close(): void;
}

/** `node:sqlite` of this Node, or why there is none. */
export function loadSqlite(): SqliteModule | string {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('node:sqlite') as SqliteModule;
  } catch (error) {
    return `node:sqlite is not available in this Node ${process.version} (${error instanceof Error ? error.message : String(error)})`;
  }
}

/**
 * How a database may be opened now, from its files alone:
 * - `shared`: both `-wal` and `-shm` are there (the agent has it open, or left them): a
 *   read-only WAL reader, which never blocks the writer and creates nothing;
 * - `immutable`: neither is there: the main file holds every committed page; opened as
 *   immutable (no lock the agent could wait on, nothing created beside it);
 * - `wait`: one of the two alone (the agent is creating or removing them), or with
 *   `journal`, a `-journal` there (a rollback-mode agent is writing): look again later;
 * - `refused`: the file, its `-wal`, `-shm` or `-journal` is not a regular file (SQLite opens
 *   these paths itself, synchronously: a FIFO there would hold the host's thread).
 * `key` changes when the database's content may have; `identity` is the file's (dev:ino).
 */
export type DatabaseLook = { key: string; identity: string } & ({ mode: 'shared' | 'immutable' | 'wait' } | { mode: 'refused'; refused: Error });

/** The database's files as they are now: undefined when it does not exist. `journal`: a `-journal` file means the agent is writing. */
export async function lookDatabase(dbFile: string, options: { journal?: boolean } = {}): Promise<DatabaseLook | undefined> {
  const stat = async (file: string) => fsp.stat(file).catch(() => undefined);
  const [db, wal, shm, journal] = await Promise.all([stat(dbFile), stat(`${dbFile}-wal`), stat(`${dbFile}-shm`), options.journal ? stat(`${dbFile}-journal`) : undefined]);
  if (db === undefined) return undefined;
  for (const [file, found] of [[dbFile, db], [`${dbFile}-wal`, wal], [`${dbFile}-shm`, shm], [`${dbFile}-journal`, journal]] as const) {
    if (found !== undefined && !found.isFile()) return { key: JSON.stringify([file, found.mode]), identity: '', mode: 'refused', refused: notRegularFile(file, found) };
  }
  const mode = journal !== undefined ? 'wait' : wal && shm ? 'shared' : !wal && !shm ? 'immutable' : 'wait';
  const key = JSON.stringify([db.dev, db.ino, db.size, db.mtimeMs, wal?.size, wal?.mtimeMs, mode]);
  return { key, identity: `${db.dev}:${db.ino}`, mode };
}

/** Opens the database read-only, without a busy timeout, as its look says (`shared` or `immutable`). */
export function openDatabase(sqlite: SqliteModule, dbFile: string, mode: 'shared' | 'immutable'): SqliteDatabase {
  const location = mode === 'shared' ? dbFile : new URL(`${pathToFileURL(dbFile).href}?immutable=1`);
  return new sqlite.DatabaseSync(location, { readOnly: true, timeout: 0 });
}

/** SQLite result codes that mean "try again later". */
const BUSY_CODES = new Set([5, 6, 261, 262, 517]);

export function isBusy(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const errcode = (error as { errcode?: unknown }).errcode;
  if (typeof errcode === 'number' && BUSY_CODES.has(errcode)) return true;
  const message = error instanceof Error ? error.message : '';
  return /database is (locked|busy)|SQLITE_BUSY|SQLITE_LOCKED/i.test(message);
}

/** The most rows one query asks for. */
export const MAX_PAGE_ROWS = 500;
const MIN_PAGE_ROWS = 16;
/** A page that takes longer than this halves the next one; one much faster doubles it again. */
const SLOW_PAGE_MS = 4;
/** Work done on the host's thread between two yields to its event loop. */
const SLICE_MS = 12;

/** The pass was stopped (the follower was disposed) at a yield. */
export class ScanStopped extends Error {}

/**
 * Keeps the extension host's thread free while a database is read: `node:sqlite` answers
 * synchronously, so every query reads one page (≤ MAX_PAGE_ROWS rows, fewer while pages are
 * slow) and the pass yields to the event loop once ~12 ms of work have passed.
 */
export class ScanPacer {
  pageRows = MAX_PAGE_ROWS;
  private sliceStart = performance.now();

  constructor(private readonly stopped: () => boolean = () => false) {}

  /** Runs one page's query with the current page size, and adapts the size to how long it took. */
  page<T>(query: (limit: number) => T[]): T[] {
    const started = performance.now();
    const rows = query(this.pageRows);
    const took = performance.now() - started;
    if (took > SLOW_PAGE_MS) this.pageRows = Math.max(MIN_PAGE_ROWS, this.pageRows >> 1);
    else if (took < SLOW_PAGE_MS / 4) this.pageRows = Math.min(MAX_PAGE_ROWS, this.pageRows * 2);
    return rows;
  }

  /** Yields to the event loop when the current slice of work is long enough; throws ScanStopped when stopped. */
  async breathe(): Promise<void> {
    if (performance.now() - this.sliceStart < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.sliceStart = performance.now();
    if (this.stopped()) throw new ScanStopped('stopped');
  }

  /**
   * Reads a keyset in pages: `query(after, limit)` returns the rows after the last row of the
   * previous page (undefined for the first), in key order; each page goes to `onPage`.
   */
  async pages<R>(query: (after: R | undefined, limit: number) => R[], onPage: (rows: R[]) => void): Promise<void> {
    let after: R | undefined;
    for (;;) {
      let limit = 0;
      const rows = this.page((n) => {
        limit = n;
        return query(after, n);
      });
      if (rows.length > 0) onPage(rows);
      await this.breathe();
      if (rows.length < limit) return;
      after = rows[rows.length - 1];
    }
  }

  /** Hands `rows` to `work` in runs of at most `maxRows` rows or about `maxChars` of `data`, yielding between runs. */
  async inRuns<R extends { data?: string | null }>(rows: readonly R[], work: (run: R[]) => void, maxRows = 200, maxChars = 1 << 20): Promise<void> {
    let start = 0;
    while (start < rows.length) {
      let end = start;
      let chars = 0;
      while (end < rows.length && end - start < maxRows && (end === start || chars < maxChars)) {
        chars += rows[end]?.data?.length ?? 0;
        end++;
      }
      work(rows.slice(start, end));
      start = end;
      await this.breathe();
    }
  }
}

// Reading an agent's SQLite database with `node:sqlite` of the extension host's own Node (no
// native addon): the module, and which errors mean "busy, try again later".

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

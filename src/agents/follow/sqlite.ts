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

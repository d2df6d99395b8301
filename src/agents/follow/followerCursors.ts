// Where a follower keeps how far it has read each followed file: one JSON file per
// followed file in Agent Plan's own storage, named by a hash of its path (never the raw
// path), written through a temp file and a rename so a crash leaves the old cursor whole.
import { createHash } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { readRegularFileText } from '../../node/regularFile';

/** A cursor file longer than this is not one Agent Plan wrote (parser states are small): it is read as none. */
const MAX_CURSOR_BYTES = 16 * 1024 * 1024;

const CURSOR_VERSION = 1;
const CURSOR_FILE = /^[0-9a-f]{32}\.json$/;

/** What is persisted per followed file. */
export interface Cursor {
  v: 1;
  /** The followed file's path (inside the cursor file only; the cursor's own name is a hash). */
  file: string;
  parserVersion: string;
  identity: string;
  /** Bytes of the file consumed: the end of the last complete line handed to the parser. */
  offset: number;
  /** Complete lines consumed, for line numbers in reports the follower makes itself. */
  lines: number;
  parserState: unknown;
  /** The last session info handed to the sink, as JSON, so a restart does not repeat it. */
  info?: string;
}

/** The name of the cursor file for a followed file: never the raw path. */
export function cursorFileName(file: string): string {
  return `${createHash('sha256').update(file, 'utf8').digest('hex').slice(0, 32)}.json`;
}

/** A cursor at the start of a file. */
export function startCursor(file: string, parserVersion: string, identity: string): Cursor {
  return { v: CURSOR_VERSION, file, parserVersion, identity, offset: 0, lines: 0, parserState: undefined };
}

export class CursorStore {
  constructor(private readonly dir: string) {}

  /** The saved cursor of `file`, if there is a valid one. */
  async load(file: string): Promise<Cursor | undefined> {
    try {
      const cursor = parseCursor(await readRegularFileText(this.fileOf(file), MAX_CURSOR_BYTES));
      return cursor?.file === file ? cursor : undefined;
    } catch {
      return undefined;
    }
  }

  /** Saves a cursor; rejects when it cannot (the caller reports it and reads again later). */
  async save(cursor: Cursor): Promise<void> {
    const target = this.fileOf(cursor.file);
    const temp = `${target}.${process.pid}.tmp`;
    await fsp.mkdir(this.dir, { recursive: true });
    await fsp.writeFile(temp, JSON.stringify(cursor), 'utf8');
    await fsp.rename(temp, target);
  }

  async remove(file: string): Promise<void> {
    await fsp.rm(this.fileOf(file), { force: true }).catch(() => undefined);
  }

  /** Removes leftover temp files and the cursors of files `keep` does not want. */
  async prune(keep: (file: string) => boolean, stopped: () => boolean): Promise<void> {
    let names: string[];
    try {
      names = await fsp.readdir(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (stopped()) return;
      const full = path.join(this.dir, name);
      if (name.endsWith('.tmp')) {
        await fsp.rm(full, { force: true }).catch(() => undefined);
        continue;
      }
      if (!CURSOR_FILE.test(name)) continue;
      const cursor = parseCursor(await readRegularFileText(full, MAX_CURSOR_BYTES).catch(() => ''));
      if (cursor && keep(cursor.file)) continue;
      await fsp.rm(full, { force: true }).catch(() => undefined);
    }
  }

  private fileOf(file: string): string {
    return path.join(this.dir, cursorFileName(file));
  }
}

function parseCursor(text: string): Cursor | undefined {
  try {
    const value = JSON.parse(text) as Partial<Cursor> | null;
    if (
      value &&
      value.v === CURSOR_VERSION &&
      typeof value.file === 'string' &&
      typeof value.parserVersion === 'string' &&
      typeof value.identity === 'string' &&
      Number.isSafeInteger(value.offset) &&
      (value.offset ?? -1) >= 0 &&
      Number.isSafeInteger(value.lines) &&
      (value.info === undefined || typeof value.info === 'string')
    ) {
      return value as Cursor;
    }
  } catch {
    // A torn or foreign cursor file: start over.
  }
  return undefined;
}

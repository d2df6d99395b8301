// Follows an agent's SQLite database, read-only: when to read it, how to open it, and the
// cursor kept between reads. What is read, and what is handed to the log, is the agent's
// reader (opencode's schema, read for opencode and Kilo CLI: src/agents/opencode/opencodeReader.ts).
//
// - Reader: `node:sqlite` of the extension host's own Node (no native addon, no copy of the
//   database). Opened read-only with no busy timeout; each pass is one read transaction (one
//   snapshot), ended before anything is handed on: in WAL mode a reader never blocks the
//   writer, and a busy or locked database is retried a moment later, never reported as
//   broken. A Node without `node:sqlite` gives one line in the output channel and no follower.
// - The host's thread stays free: the reader queries in keyset pages and parses in runs
//   through a ScanPacer (sqlite.ts), which yields to the event loop after ~12 ms of work.
// - Only regular files are opened, and nothing is created next to the database (sqlite.ts,
//   lookDatabase): a path that is no regular file is reported once and skipped.
// - Idle is idle: the database's folder is watched; a change is queried only when the size or
//   time of the database or its `-wal` differ from the last scan. With working events nothing
//   runs on a timer; where the folder's events may not arrive (a network or shared file
//   system), a stat-only poll runs every 5 s and backs off to once a minute while nothing changes.
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import type { Disposable } from '../../core/emitter';
import { FolderWatch } from '../../node/folderWatch';
import { Backoff, eventsUnreliable } from '../../node/eventSupport';
import { readRegularFileText } from '../../node/regularFile';
import { isBusy, loadSqlite, lookDatabase, openDatabase, ScanPacer, ScanStopped, type SqliteDatabase, type SqliteModule } from './sqlite';

/** What an agent reads from its database; the follower decides when, and keeps the cursor. */
export interface SqliteReader<C extends object, P> {
  /** The reader's part of the cursor of a database read from its start. */
  freshCursor(): C;
  /** Whether a stored cursor's reader part is whole (else the database is read again from its start). */
  isCursor(stored: Record<string, unknown>): boolean;
  /** Reads what changed since `cursor` within one snapshot (`db` is open); only the cursor moves here. */
  read(db: SqliteDatabase, cursor: C, pacer: ScanPacer): Promise<P>;
  /** Hands the pass on once the database is closed; may move the cursor. */
  handOn(pass: P, cursor: C): Promise<void>;
}

export interface SqliteFollowerOptions<C extends object, P> {
  /** Who is followed, for the output channel (an agent's id). */
  name: string;
  /** The agent's database file. */
  dbFile: string;
  reader: SqliteReader<C, P>;
  /** Stored with the cursor: a cursor of another version is ignored (everything is read again). */
  parserVersion: string;
  /** A file of Agent Plan's own storage where the cursor is kept. */
  cursorFile: string;
  onError?(error: unknown, file?: string): void;
  /** One line for the output channel (the follower is off, or waits). */
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

/** The cursor as stored: which database and parser it is of, and the reader's part. */
type Cursor<C> = { v: 1; parserVersion: string; identity: string } & C;

/** The cursor file is Agent Plan's own, but read only as a regular file of bounded size. */
const MAX_CURSOR_BYTES = 64 * 1024 * 1024;

export class SqliteFollower<C extends object, P> implements Disposable {
  private readonly watch: FolderWatch;
  private readonly sqlite: SqliteModule | undefined;
  private cursor: Cursor<C> | undefined;
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

  constructor(private readonly options: SqliteFollowerOptions<C, P>) {
    const sqlite = options.sqlite ?? loadSqlite();
    if (typeof sqlite === 'string') {
      options.onPolling?.(`${sqlite}: ${options.name}'s plans are not followed`);
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

  private async scan(): Promise<void> {
    const sqlite = this.sqlite;
    if (sqlite === undefined || this.disposed) return;
    const { dbFile, reader } = this.options;
    // The folder may have been made since the last scan (the agent's first run): watch it itself.
    this.watch.reconcile([path.dirname(dbFile)]);
    const look = await lookDatabase(dbFile);
    if (look?.mode !== 'refused') this.refused = undefined;
    if (look === undefined || look.key === this.lastLook) return;
    if (look.mode === 'refused') {
      // Reported once while it stays so; never opened.
      if (this.refused !== look.key) this.options.onError?.(look.refused, dbFile);
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
    const pacer = new ScanPacer(() => this.disposed);
    let pass: P;
    const db = openDatabase(sqlite, dbFile, look.mode);
    try {
      // One snapshot for the whole pass (the cursor's times hold for every session at once). A
      // WAL reader never blocks the writer; it only keeps a checkpoint from passing its snapshot
      // until the COMMIT below, which comes before anything is handed on.
      db.prepare('BEGIN').all();
      pass = await reader.read(db, cursor, pacer);
    } finally {
      try {
        db.prepare('COMMIT').all();
      } catch {
        // No transaction left (BEGIN failed): closing is enough.
      }
      db.close();
    }
    await reader.handOn(pass, cursor);
    await this.saveCursor(cursor);
    this.lastLook = look.key;
  }

  private async loadCursor(identity: string): Promise<Cursor<C>> {
    const { parserVersion, reader } = this.options;
    if (this.cursor?.identity === identity) return this.cursor;
    let cursor: Cursor<C> = { v: 1, parserVersion, identity, ...reader.freshCursor() };
    try {
      const value = JSON.parse(await readRegularFileText(this.options.cursorFile, MAX_CURSOR_BYTES)) as unknown;
      if (typeof value === 'object' && value !== null) {
        const stored = value as Record<string, unknown>;
        if (stored['v'] === 1 && stored['parserVersion'] === parserVersion && stored['identity'] === identity && reader.isCursor(stored)) cursor = stored as Cursor<C>;
      }
    } catch {
      // No cursor yet (or unreadable): read everything once; the sink keeps it idempotent.
    }
    this.cursor = cursor;
    return cursor;
  }

  private async saveCursor(cursor: Cursor<C>): Promise<void> {
    const file = this.options.cursorFile;
    const temp = `${file}.${process.pid}.tmp`;
    await fsp.mkdir(path.dirname(file), { recursive: true });
    await fsp.writeFile(temp, JSON.stringify(cursor), 'utf8');
    await fsp.rename(temp, file);
  }
}

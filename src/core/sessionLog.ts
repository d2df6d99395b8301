// The per-session plan log: append-only JSON Lines, one file per session (see logRecord.ts
// for the format, logFiles.ts for the names). The current plan is the last valid
// `todo/write` line. A line without its trailing '\n' is torn (a crash mid-append) and
// ignored; any other line that does not parse or validate is skipped and reported, never
// fatal. Other programs may append lines in this format (one write per line, O_APPEND).
//
// ONE reader: every line reaches listeners through `onDidRead`, read back from the file
// past a per-file cursor, whoever wrote it. An append writes its line and then reads the
// file on from the cursor, so its own event fires in file order with anyone else's.
// Appends, reads past the cursor and removes of one file run one at a time.
import { Emitter } from './emitter';
import { describeFsError, errorCode, type LogFileSystem } from './fileSystem';
import { FileQueue } from './fileQueue';
import { NEWLINE, decodeUtf8, scanBackward, scanForward, MAX_LINE_BYTES, type RawLine } from './lineScan';
import { logFileFor, logFolder, sessionOfFileName } from './logFiles';
import { isSessionKey } from './sessionKey';
import {
  SESSION_INFO_EVENT,
  infoRecord,
  isCurrentPlan,
  isPlanEvent,
  parseLogRecord,
  planEvent,
  type LogEvent,
  type LogRecord,
  type SessionInfoRecord,
} from './logRecord';
import { LogReports } from './logReports';
import type { PlanItem, Todo } from './plan';
import { validateTodoInput } from './validate';
import type { AgentId, PlanSource } from '../sources/types';

export { LOG_FORMAT_VERSION, TODO_WRITE_EVENT, SESSION_INFO_EVENT, parseLogEvent, parseLogRecord } from './logRecord';
export type { LogEvent, LogRecord, SessionInfoRecord } from './logRecord';
export { LOG_FILE_EXTENSION } from './logFiles';
export { READ_CHUNK_BYTES, MAX_LINE_BYTES } from './lineScan';

/** How long an unfinished last line must stay unchanged before it counts as torn. */
const TORN_SETTLE_MS = 2;
const TORN_SETTLE_ATTEMPTS = 20;
/** Tail reads in flight at once in sessions(): many sessions must not exhaust file handles. */
const SESSIONS_READ_CONCURRENCY = 16;
const SESSIONS_STAT_CONCURRENCY = 64;
/** How many lines before the current plan a tail read looks at for the session's info line. */
const INFO_LOOKBACK_LINES = 64;

export interface SessionSummary {
  /** The session key (also the file name without `.jsonl`). */
  key: string;
  file: string;
  /** File size in bytes. */
  size: number;
  /** The session's last valid event; undefined when the file holds none. */
  current: LogEvent | undefined;
  /** The newest session/info line seen, when the tail read met one. */
  info: SessionInfoRecord | undefined;
  /** When the file was last written, as this machine's file system says (0 when unknown). */
  modifiedMs: number;
}

/** One version of a session's plan and its address: the byte offset where its line starts. */
export interface PlanVersion {
  event: LogEvent;
  at: number;
}

export interface HistoryPage {
  /** Newest first. */
  versions: PlanVersion[];
  /** Older versions exist before the last one. */
  more: boolean;
}

/** What the one reader found in a session's file. */
export interface LogRead {
  session: string;
  /**
   * Lines appended since the last look, in file order, own and foreign alike. They are new
   * writes: listeners announce them.
   */
  records: LogRecord[];
  /**
   * Set on a first look at a file (or after it was cut short): its state as it stands, not
   * new writes. `modifiedMs` places it among the others by this machine's clock.
   */
  sync?: {
    current: LogEvent | undefined;
    info: SessionInfoRecord | undefined;
    modifiedMs: number;
    /** Found by the watcher's look (readNew): the current plan is news to the listeners. */
    announce: boolean;
    /** The file was cut short or replaced since the last look: what was read of it before is void. */
    reset: boolean;
  };
  /** The file is gone (deleted through the log or by anyone else). */
  gone?: boolean;
}

export interface SessionLogOptions {
  now?: () => Date;
  /** A skipped line: reported once per (file, byte offset). */
  onCorrupt?: (file: string, detail: string, offset: number) => void;
  /** A file or the folder could not be read (missing files are normal and not reported). */
  onReadError?: (file: string, reason: string) => void;
}

/** A write (or delete) that failed; `message` is a short reason such as "no space left on device". */
export class LogWriteError extends Error {
  override name = 'LogWriteError';
}

export interface SessionsOptions {
  /** A session to read before anything else (the one a view showed last). */
  first?: string;
  /** How many of the newest sessions make the first page, read before any older one. */
  firstPage?: number;
  /** Called once the first page is in. */
  onFirstPage?: () => void;
}

/** A session file and when it was last written. */
interface Stamped {
  key: string;
  modifiedMs: number;
}

/** What the reader has consumed of one file. */
interface Cursor {
  /** Byte offset just after the last complete line read. */
  offset: number;
  current: LogEvent | undefined;
  info: SessionInfoRecord | undefined;
}

interface Tail {
  current: LogEvent | undefined;
  info: SessionInfoRecord | undefined;
  size: number;
  completeEnd: number;
}

export class SessionLog {
  private readonly now: () => Date;
  private readonly cursors = new Map<string, Cursor>();
  private readonly queue = new FileQueue();
  private readonly reports: LogReports;
  private readonly readEmitter = new Emitter<LogRead>();
  private listenerError: (error: unknown) => void = () => {};

  /** Everything the reader finds, in the order it finds it. */
  readonly onDidRead = this.readEmitter.event;

  /** The log folder, normalized. */
  readonly dir: string;

  constructor(
    dir: string,
    private readonly fs: LogFileSystem,
    options: SessionLogOptions = {},
  ) {
    this.dir = logFolder(dir);
    this.now = options.now ?? (() => new Date());
    this.reports = new LogReports(options.onCorrupt, options.onReadError);
  }

  /** Where a throwing onDidRead listener is reported. */
  reportListenerErrorsTo(report: (error: unknown) => void): void {
    this.listenerError = report;
  }

  /** The log file of a session. Throws a TypeError for anything but a session key. */
  fileFor(session: string): string {
    return logFileFor(this.dir, session);
  }

  /**
   * Appends one todo_write snapshot and reads it back; resolves with the event as read.
   * Rejects with a LogWriteError whose message is a short reason when the file system
   * fails; with a TypeError for a bad key or todos (a bug: callers validate first).
   */
  async append(session: string, todos: readonly Todo[]): Promise<LogEvent> {
    const file = this.fileFor(session);
    const checked = validateTodoInput({ todos });
    if (!checked.ok) throw new TypeError(`SessionLog.append: ${checked.error}`);
    return this.appendPlanEvent(file, planEvent(session, this.now().toISOString(), checked.todos));
  }

  /** Appends a plan mirrored from another agent (items already mapped and trimmed). */
  async appendMirrored(session: string, items: readonly PlanItem[], source: PlanSource, at?: string): Promise<LogEvent> {
    const file = this.fileFor(session);
    return this.appendPlanEvent(file, planEvent(session, this.now().toISOString(), items, source, at));
  }

  /** Appends a session/info line. */
  async appendInfo(
    session: string,
    source: { agent: AgentId; session: string },
    title: string | undefined,
    latestTurn: { index: number; planned: boolean } | undefined,
  ): Promise<SessionInfoRecord> {
    const file = this.fileFor(session);
    const record = infoRecord(session, this.now().toISOString(), source, title, latestTurn);
    const read = await this.appendRecord(file, session, record);
    return read.type === 'session/info' ? read : record;
  }

  private async appendPlanEvent(file: string, event: LogEvent): Promise<LogEvent> {
    const read = await this.appendRecord(file, event.session, event);
    return isPlanEvent(read) ? read : event;
  }

  /** Writes the record's line, reads the file on from the cursor, and returns the line as read back. */
  private appendRecord(file: string, session: string, record: LogRecord): Promise<LogRecord> {
    const line = JSON.stringify(record);
    return this.queue.run(file, async () => {
      // The cursor must stand before our line, so that reading on from it meets the line.
      if (!this.cursors.has(file)) {
        await this.readLocked(file, session);
        if (!this.cursors.has(file)) this.cursors.set(file, { offset: 0, current: undefined, info: undefined });
      }
      await this.writeLine(file, line);
      const records = await this.readLocked(file, session);
      return records.find((read) => JSON.stringify(read) === line) ?? record;
    });
  }

  /** The session's last valid event, read backwards from the end of the file. */
  async current(session: string): Promise<LogEvent | undefined> {
    const file = this.fileFor(session);
    await this.queue.settled(file);
    return (await this.readTail(file, session))?.current;
  }

  /**
   * Hands valid events to `visit` from the newest back, until it returns true; reads
   * only as far back as needed, so a question about the recent past stays cheap.
   * `before` starts the walk at an earlier version instead (its `at`; that version excluded).
   */
  async readBackward(session: string, visit: (event: LogEvent, at: number) => boolean, before?: number): Promise<void> {
    await this.readRecordsBackward(session, (record, at) => isPlanEvent(record) && visit(record, at), before);
  }

  /** readBackward over every record type (plans and session/info lines). */
  async readRecordsBackward(session: string, visit: (record: LogRecord, at: number) => boolean, before?: number): Promise<void> {
    const file = this.fileFor(session);
    await this.queue.settled(file);
    try {
      const size = await this.fs.size(file);
      if (size === undefined) return;
      await scanBackward(this.fs, file, Math.min(size, before ?? size), (line) => {
        const record = this.parseLine(file, session, line);
        return record !== undefined && visit(record, line.start);
      });
    } catch (error) {
      this.reports.readFailed(file, error);
    }
  }

  /**
   * Up to `limit` versions of a session, newest first, read backwards from the end (or
   * from `before`, the `at` of the oldest version of an earlier page): the cost follows
   * `limit`, never the length of the history.
   */
  async page(session: string, limit: number, before?: number): Promise<HistoryPage> {
    const versions: PlanVersion[] = [];
    let more = false;
    await this.readBackward(
      session,
      (event, at) => {
        if (versions.length >= limit) {
          more = true;
          return true;
        }
        versions.push({ event, at });
        return false;
      },
      before,
    );
    return { versions, more };
  }

  /**
   * The version whose line starts at byte `at` (a PlanVersion's address); undefined when
   * no plan line starts there (the log was deleted, or `at` is not from a page).
   */
  async versionAt(session: string, at: number): Promise<LogEvent | undefined> {
    const file = this.fileFor(session);
    if (!Number.isSafeInteger(at) || at < 0) return undefined;
    await this.queue.settled(file);
    try {
      const size = await this.fs.size(file);
      if (size === undefined || at >= size) return undefined;
      if (at > 0 && (await this.fs.readRange(file, at - 1, 1))[0] !== NEWLINE) return undefined;
      let found: LogEvent | undefined;
      await scanForward(this.fs, file, at, size, (line) => {
        const record = this.parseLine(file, session, line);
        if (record && isPlanEvent(record)) found = record;
        return true;
      });
      return found;
    } catch (error) {
      this.reports.readFailed(file, error);
      return undefined;
    }
  }

  /** Every valid event of the session, oldest first. */
  async history(session: string): Promise<LogEvent[]> {
    const file = this.fileFor(session);
    await this.queue.settled(file);
    const events: LogEvent[] = [];
    try {
      const size = await this.fs.size(file);
      if (size === undefined) return [];
      await scanForward(this.fs, file, 0, size, (line) => {
        const record = this.parseLine(file, session, line);
        if (record && isPlanEvent(record)) events.push(record);
      });
    } catch (error) {
      this.reports.readFailed(file, error);
    }
    return events;
  }

  /**
   * Every `<key>.jsonl` in the folder with its current event, the most recently written
   * first (by the file's modification time on this machine, never the lines' clocks).
   * Goes through the reader: a file seen for the first time is synced, one seen before is
   * read on from its cursor, and a file that vanished is reported gone. `first` (the
   * session a view showed last) is read before anything else, before even the folder
   * listing, so a view can paint it at once however many sessions there are.
   */
  async sessions(options: SessionsOptions = {}): Promise<SessionSummary[]> {
    const { first } = options;
    const early = first !== undefined && isSessionKey(first) ? await this.summary(first, await this.modifiedMs(this.fileFor(first))) : undefined;
    let names: string[];
    try {
      names = await this.fs.readdir(this.dir);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') {
        throw new Error(`could not read ${this.dir}: ${describeFsError(error, this.dir)}`, { cause: error });
      }
      names = [];
    }
    const keys = names.flatMap((name) => {
      const key = sessionOfFileName(name);
      return key === undefined || (early !== undefined && key === early.key) ? [] : [key];
    });
    // Files read before that are no longer listed are gone (a Refresh after deletions).
    if (this.cursors.size > 0) {
      const listed = new Set(keys);
      if (early) listed.add(early.key);
      for (const file of [...this.cursors.keys()]) {
        const session = sessionOfFileName(file.slice(this.dir.length + 1));
        if (session !== undefined && !listed.has(session)) await this.queue.run(file, () => this.readLocked(file, session));
      }
    }
    // What a view shows first is read first: the most recently written files.
    const stamped = await this.stamp(keys);
    const byTime = (a: Stamped, b: Stamped): number => b.modifiedMs - a.modifiedMs || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
    // The newest alone first (found without sorting), so the Plan view can paint it before the others are in.
    let newestAt = -1;
    for (let i = 0; i < stamped.length; i++) if (newestAt < 0 || byTime(stamped[i]!, stamped[newestAt]!) < 0) newestAt = i;
    const newest = stamped[newestAt];
    const head = newest ? [await this.summary(newest.key, newest.modifiedMs)] : [];
    const rest = stamped.filter((_, i) => i !== newestAt).sort(byTime);
    const read = ({ key, modifiedMs }: Stamped) => this.summary(key, modifiedMs);
    // Then the first page, all of it before anything older, so a list can show it already in order.
    const pageLength = Math.max(0, (options.firstPage ?? 0) - 1);
    const page = await mapWithLimit(rest.slice(0, pageLength), SESSIONS_READ_CONCURRENCY, read);
    if (pageLength > 0) options.onFirstPage?.();
    const summaries = [early, ...head, ...page].concat(await mapWithLimit(rest.slice(pageLength), SESSIONS_READ_CONCURRENCY, read));
    return summaries.filter((s): s is SessionSummary => s !== undefined).sort(byRecency);
  }

  private summary(session: string, modifiedMs: number): Promise<SessionSummary | undefined> {
    const file = this.fileFor(session);
    return this.queue.run(file, async () => {
      const before = this.cursors.get(file);
      await this.readLocked(file, session, { modifiedMs });
      const cursor = this.cursors.get(file);
      if (!cursor) return undefined;
      // A file read before: its state again, for listeners that came later (a second store, Refresh).
      if (cursor === before) {
        this.tell({ session, records: [], sync: { current: cursor.current, info: cursor.info, modifiedMs, announce: false, reset: false } });
      }
      return { key: session, file, size: cursor.offset, current: cursor.current, info: cursor.info, modifiedMs };
    });
  }

  /**
   * Reads what was appended to the session's file since the last look (and tells the
   * listeners); returns its events, oldest first. The first look at a file, and a file
   * that shrank, yield its current event only (bounded cost, and all a view needs); later
   * calls continue from there. A partial last line waits for the next call. A deleted file
   * yields [].
   */
  async readNew(session: string): Promise<LogEvent[]> {
    const file = this.fileFor(session);
    return this.queue.run(file, async () => {
      const before = this.cursors.get(file);
      const records = await this.readLocked(file, session, { announce: true });
      const cursor = this.cursors.get(file);
      // A new cursor means a sync (first look, or the file was cut): its current event only.
      if (cursor !== before) return cursor?.current ? [cursor.current] : [];
      return records.filter(isPlanEvent);
    });
  }

  /** The newest session/info line the reader has seen for a session, if any. */
  knownInfo(session: string): SessionInfoRecord | undefined {
    return this.cursors.get(this.fileFor(session))?.info;
  }

  /** Deletes the session's log. Missing is fine; other failures reject with a LogWriteError. */
  remove(session: string): Promise<void> {
    const file = this.fileFor(session);
    return this.queue.run(file, async () => {
      try {
        await this.fs.remove(file);
      } catch (error) {
        if (errorCode(error) !== 'ENOENT') throw new LogWriteError(describeFsError(error, file), { cause: error });
      }
      await this.readLocked(file, session);
    });
  }

  /**
   * The reader, run inside the file's queue: new complete lines past the cursor, a sync
   * on a first look or a file cut short, or "gone". Tells the listeners and returns the
   * new records.
   */
  private async readLocked(
    file: string,
    session: string,
    look: { modifiedMs?: number; announce?: boolean } = {},
  ): Promise<LogRecord[]> {
    let size: number | undefined;
    try {
      size = await this.fs.size(file);
    } catch (error) {
      this.reports.readFailed(file, error);
      return [];
    }
    const cursor = this.cursors.get(file);
    if (size === undefined) {
      if (cursor) {
        this.cursors.delete(file);
        this.reports.forgetFile(file);
        this.tell({ session, records: [], gone: true });
      }
      return [];
    }
    if (!cursor || size < cursor.offset) {
      if (cursor) this.reports.forgetFile(file);
      const tail = await this.readTail(file, session, size);
      if (!tail) return [];
      this.cursors.set(file, { offset: tail.completeEnd, current: tail.current, info: tail.info });
      const modifiedMs = look.modifiedMs ?? (await this.modifiedMs(file));
      const announce = look.announce ?? false;
      const reset = cursor !== undefined;
      this.tell({ session, records: [], sync: { current: tail.current, info: tail.info, modifiedMs, announce, reset } });
      return [];
    }
    if (size === cursor.offset) return [];
    const records: LogRecord[] = [];
    try {
      cursor.offset = await scanForward(this.fs, file, cursor.offset, size, (line) => {
        const record = this.parseLine(file, session, line);
        if (!record) return;
        records.push(record);
        if (isCurrentPlan(record)) cursor.current = record;
        else if (!isPlanEvent(record)) cursor.info = record;
      });
    } catch (error) {
      this.reports.readFailed(file, error);
    }
    if (records.length > 0) this.tell({ session, records });
    return records;
  }

  private tell(read: LogRead): void {
    this.readEmitter.fire(read, this.listenerError);
  }

  private async stamp(keys: readonly string[]): Promise<Stamped[]> {
    if (this.fs.modifiedMsMany) {
      try {
        const times = await this.fs.modifiedMsMany(keys.map((key) => this.fileFor(key)));
        return keys.map((key, i) => ({ key, modifiedMs: times[i] ?? 0 }));
      } catch {
        // fall back to one at a time
      }
    }
    return mapWithLimit(keys, SESSIONS_STAT_CONCURRENCY, async (key) => ({ key, modifiedMs: await this.modifiedMs(this.fileFor(key)) }));
  }

  private async modifiedMs(file: string): Promise<number> {
    try {
      return (await this.fs.modifiedMs?.(file)) ?? 0;
    } catch {
      return 0;
    }
  }

  /**
   * Whether the file ends inside a line. Another process's append can be seen half
   * copied in, which looks the same as a crash's torn line; the difference is that
   * it keeps growing. So an unfinished end counts as torn only once the size holds
   * still for a moment (a few short waits; a torn line from a crash never changes).
   */
  private async endsTorn(file: string, size: number): Promise<boolean> {
    let current = size;
    for (let attempt = 0; ; attempt++) {
      if (current === 0) return false;
      if ((await this.fs.readRange(file, current - 1, 1))[0] === NEWLINE) return false;
      if (attempt >= TORN_SETTLE_ATTEMPTS) return true;
      await new Promise((resolve) => setTimeout(resolve, TORN_SETTLE_MS));
      const next = (await this.fs.size(file)) ?? 0;
      if (next === current && attempt >= 1) return true;
      current = next;
    }
  }

  private async writeLine(file: string, line: string): Promise<void> {
    try {
      const size = await this.fs.size(file);
      if (size === undefined) await this.fs.mkdirp(this.dir);
      // A torn last line (crash mid-append) must not swallow this record.
      const torn = await this.endsTorn(file, size ?? 0);
      await this.fs.appendText(file, (torn ? '\n' : '') + line + '\n');
    } catch (error) {
      throw new LogWriteError(describeFsError(error, file), { cause: error });
    }
  }

  /**
   * The last valid event, the newest session/info line near it, the size read and the end
   * of the last complete line.
   */
  private async readTail(file: string, session: string, knownSize?: number): Promise<Tail | undefined> {
    try {
      const size = knownSize ?? (await this.fs.size(file));
      if (size === undefined) return undefined;
      let current: LogEvent | undefined;
      let info: SessionInfoRecord | undefined;
      let linesPastPlan = 0;
      const completeEnd = await scanBackward(this.fs, file, size, (line) => {
        if (current) linesPastPlan++;
        // Past the current plan only a session/info line is of use: others are not parsed.
        if (current && !mayBeInfoLine(line)) return linesPastPlan >= INFO_LOOKBACK_LINES;
        const record = this.parseLine(file, session, line);
        if (record && isCurrentPlan(record)) current ??= record;
        else if (record && !isPlanEvent(record)) info ??= record;
        return current !== undefined && (info !== undefined || linesPastPlan >= INFO_LOOKBACK_LINES);
      });
      return { current, info, size, completeEnd };
    } catch (error) {
      this.reports.readFailed(file, error);
      return undefined;
    }
  }

  /** The record on a line, or undefined (blank lines silently, anything else reported). */
  private parseLine(file: string, session: string, line: RawLine): LogRecord | undefined {
    if (!line.bytes) {
      this.reports.skippedLine(file, line.start, `line longer than ${MAX_LINE_BYTES} bytes`);
      return undefined;
    }
    const text = decodeUtf8(line.bytes);
    if (text === undefined) {
      this.reports.skippedLine(file, line.start, 'not valid UTF-8');
      return undefined;
    }
    if (text.trim() === '') return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.reports.skippedLine(file, line.start, 'not valid JSON');
      return undefined;
    }
    const record = parseLogRecord(value, session);
    if (typeof record === 'string') {
      this.reports.skippedLine(file, line.start, record);
      return undefined;
    }
    return record;
  }

  dispose(): void {
    this.readEmitter.dispose();
  }
}

const INFO_MARK = Buffer.from(SESSION_INFO_EVENT);

/** Where a record's type stands in the lines this format writes: `{"v":1,"type":"…"` (JSON.stringify keeps key order). */
const TYPE_WITHIN_BYTES = 40;

/** Whether a line could be a session/info record: its type's name is near its start. */
function mayBeInfoLine(line: RawLine): boolean {
  if (line.bytes === undefined) return false;
  const head = line.bytes.subarray(0, TYPE_WITHIN_BYTES);
  return Buffer.from(head.buffer, head.byteOffset, head.byteLength).includes(INFO_MARK);
}

function byRecency(a: SessionSummary, b: SessionSummary): number {
  if (a.modifiedMs !== b.modifiedMs) return b.modifiedMs - a.modifiedMs;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

async function mapWithLimit<T, R>(items: readonly T[], limit: number, map: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await map(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

// The per-session plan log: append-only JSON Lines, one file per session, one
// `todo/write` event (the full snapshot) per line:
//
//   {"v":1,"type":"todo/write","ts":"<ISO 8601>","session":"<key>","todos":[...],"counts":{...}}
//
// File: <dir>/<key>.jsonl, key = 32 lowercase hex characters. The current plan is the last
// valid event. A line without its trailing '\n' is torn (a crash mid-append) and ignored;
// any other line that does not parse or validate is skipped and reported, never fatal.
// Other programs may append lines in this format (one write per line, O_APPEND).
import * as path from 'node:path';
import { describeFsError, errorCode, type LogFileSystem } from './fileSystem';
import { countTodos, type Counts, type Todo } from './plan';
import { isSessionKey } from './sessionKey';
import { validateTodoInput } from './validate';

export const LOG_FORMAT_VERSION = 1;
export const TODO_WRITE_EVENT = 'todo/write';
export const LOG_FILE_EXTENSION = '.jsonl';

/** Read granularity of the tail scan; the current plan costs about one chunk. */
export const READ_CHUNK_BYTES = 64 * 1024;
/**
 * Far above the longest valid line (100 items × 1000 characters, each at most 6 bytes
 * escaped, is ~600 KB); longer lines are skipped without being buffered whole.
 */
/** How long an unfinished last line must stay unchanged before it counts as torn. */
const TORN_SETTLE_MS = 2;
const TORN_SETTLE_ATTEMPTS = 20;

export const MAX_LINE_BYTES = 4 * 1024 * 1024;
/** Tail reads in flight at once in sessions(): many sessions must not exhaust file handles. */
const SESSIONS_READ_CONCURRENCY = 16;
/** Own lines remembered for readNew when another writer interleaved; older ones are dropped. */
const MAX_PENDING_OWN_LINES = 256;

export interface LogEvent {
  v: 1;
  type: 'todo/write';
  ts: string;
  session: string;
  todos: Todo[];
  counts: Counts;
}

export interface SessionSummary {
  /** The session key (also the file name without `.jsonl`). */
  key: string;
  file: string;
  /** File size in bytes. */
  size: number;
  /** The session's last valid event; undefined when the file holds none. */
  current: LogEvent | undefined;
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

const NEWLINE = 0x0a;
const FILE_NAME = /^([0-9a-f]{32})\.jsonl$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** What this instance has consumed of one file, for readNew. */
interface Cursor {
  /** Byte offset just after the last complete line seen. */
  offset: number;
  /** Lines this instance wrote that readNew has not passed yet (see append). */
  pendingOwn: string[];
}

/** One complete line; `bytes` is undefined when it exceeded MAX_LINE_BYTES. */
interface RawLine {
  start: number;
  bytes: Uint8Array | undefined;
}

export class SessionLog {
  private readonly now: () => Date;
  private readonly cursors = new Map<string, Cursor>();
  /** Tail of each file's operation chain: appends, removes and readNew run one at a time. */
  private readonly chains = new Map<string, Promise<void>>();
  private readonly reportedCorrupt = new Map<string, Set<number>>();
  private readonly reportedReadErrors = new Set<string>();

  constructor(
    readonly dir: string,
    private readonly fs: LogFileSystem,
    private readonly options: SessionLogOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
  }

  /** The log file of a session. Throws a TypeError for anything but a session key. */
  fileFor(session: string): string {
    if (!isSessionKey(session)) {
      throw new TypeError('SessionLog: a session key must be 32 lowercase hex characters');
    }
    return path.join(this.dir, session + LOG_FILE_EXTENSION);
  }

  /**
   * Appends one snapshot. Appends to a file run in call order. Rejects with a LogWriteError
   * whose message is a short reason when the file system fails; with a TypeError for a bad
   * key or todos (a bug: callers validate first).
   */
  async append(session: string, todos: readonly Todo[]): Promise<LogEvent> {
    const file = this.fileFor(session);
    const checked = validateTodoInput({ todos });
    if (!checked.ok) throw new TypeError(`SessionLog.append: ${checked.error}`);
    const event: LogEvent = {
      v: LOG_FORMAT_VERSION,
      type: TODO_WRITE_EVENT,
      ts: this.now().toISOString(),
      session,
      todos: checked.todos,
      counts: countTodos(checked.todos),
    };
    const line = JSON.stringify(event);
    return this.serialize(file, async () => {
      await this.writeLine(file, line);
      return event;
    });
  }

  /** The session's last valid event, read backwards from the end of the file. */
  async current(session: string): Promise<LogEvent | undefined> {
    const file = this.fileFor(session);
    await this.settled(file);
    const tail = await this.readTail(file, session);
    if (tail) this.startCursor(file, tail.completeEnd);
    return tail?.event;
  }

  /**
   * Hands valid events to `visit` from the newest back, until it returns true; reads
   * only as far back as needed, so a question about the recent past stays cheap.
   */
  async readBackward(session: string, visit: (event: LogEvent) => boolean): Promise<void> {
    const file = this.fileFor(session);
    await this.settled(file);
    try {
      const size = await this.fs.size(file);
      if (size === undefined) return;
      await this.scanBackward(file, size, (line) => {
        const event = this.parseLine(file, session, line);
        return event !== undefined && visit(event);
      });
    } catch (error) {
      this.readFailed(file, error);
    }
  }

  /** Every valid event of the session, oldest first. */
  async history(session: string): Promise<LogEvent[]> {
    const file = this.fileFor(session);
    await this.settled(file);
    const events: LogEvent[] = [];
    try {
      const size = await this.fs.size(file);
      if (size === undefined) return [];
      const end = await this.scanForward(file, 0, size, (line) => {
        const event = this.parseLine(file, session, line);
        if (event) events.push(event);
      });
      this.startCursor(file, end);
    } catch (error) {
      this.readFailed(file, error);
    }
    return events;
  }

  /** Every `<key>.jsonl` in the folder with its current event, most recently written first. */
  async sessions(): Promise<SessionSummary[]> {
    let names: string[];
    try {
      names = await this.fs.readdir(this.dir);
    } catch (error) {
      this.readFailed(this.dir, error);
      return [];
    }
    const keys = names.flatMap((name) => FILE_NAME.exec(name)?.[1] ?? []);
    const summaries = await mapWithLimit(
      keys,
      SESSIONS_READ_CONCURRENCY,
      async (session): Promise<SessionSummary | undefined> => {
        const file = this.fileFor(session);
        await this.settled(file);
        const tail = await this.readTail(file, session);
        if (!tail) return undefined;
        this.startCursor(file, tail.completeEnd);
        return { key: session, file, size: tail.size, current: tail.event };
      },
    );
    return summaries.filter((s): s is SessionSummary => s !== undefined).sort(bySessionRecency);
  }

  /**
   * Events appended to the session's file since this instance last looked, oldest first;
   * meant for a file watcher. Lines this instance appended itself are not returned (its
   * caller already has them). Only complete lines count: a partial last line waits for the
   * next call.
   *
   * The first look at a file (no earlier append/current/history/sessions/readNew on it by
   * this instance), and a file that shrank, yield its current event only (bounded cost,
   * and all a view of the plan needs); later calls continue from there. A deleted file
   * yields [].
   */
  readNew(session: string): Promise<LogEvent[]> {
    const file = this.fileFor(session);
    return this.serialize(file, () => this.readNewInOrder(file, session));
  }

  /** Deletes the session's log. Missing is fine; other failures reject with a LogWriteError. */
  remove(session: string): Promise<void> {
    const file = this.fileFor(session);
    return this.serialize(file, async () => {
      try {
        await this.fs.remove(file);
      } catch (error) {
        if (errorCode(error) !== 'ENOENT') throw new LogWriteError(describeFsError(error, file), { cause: error });
      } finally {
        this.cursors.delete(file);
        this.reportedCorrupt.delete(file);
      }
    });
  }

  private serialize<T>(file: string, task: () => Promise<T>): Promise<T> {
    const previous = this.chains.get(file) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.chains.set(file, tail);
    void tail.then(() => {
      if (this.chains.get(file) === tail) this.chains.delete(file);
    });
    return result;
  }

  /** Waits for this instance's queued writes, so a read after an append sees it. */
  private async settled(file: string): Promise<void> {
    await this.chains.get(file);
  }

  /**
   * Whether the file ends inside a line. Another process's append can be seen half
   * copied in, which looks the same as a crash's torn line; the difference is that
   * it keeps growing. So an unfinished end counts as torn only once the size holds
   * still for a moment (a few short waits; a torn line from a crash never changes).
   */
  private async endsTorn(file: string, size: number): Promise<{ torn: boolean; size: number }> {
    let current = size;
    for (let attempt = 0; ; attempt++) {
      if (current === 0) return { torn: false, size: current };
      if ((await this.fs.readRange(file, current - 1, 1))[0] === NEWLINE) return { torn: false, size: current };
      if (attempt >= TORN_SETTLE_ATTEMPTS) return { torn: true, size: current };
      await new Promise((resolve) => setTimeout(resolve, TORN_SETTLE_MS));
      const next = (await this.fs.size(file)) ?? 0;
      if (next === current && attempt >= 1) return { torn: true, size: current };
      current = next;
    }
  }

  private async writeLine(file: string, line: string): Promise<void> {
    let before: number;
    let text: string;
    try {
      const size = await this.fs.size(file);
      if (size === undefined) await this.fs.mkdirp(this.dir);
      before = size ?? 0;
      // A torn last line (crash mid-append) must not swallow this record.
      const torn = await this.endsTorn(file, before);
      before = torn.size;
      text = (torn.torn ? '\n' : '') + line + '\n';
      await this.fs.appendText(file, text);
    } catch (error) {
      throw new LogWriteError(describeFsError(error, file), { cause: error });
    }
    // The record is saved; what follows only keeps readNew from returning it.
    let after: number | undefined;
    try {
      after = await this.fs.size(file);
    } catch {
      after = undefined;
    }
    const cursor = this.cursors.get(file);
    // Size grew by exactly our bytes: nobody else wrote in between, so our record ends the
    // file and the cursor may jump over it (when there was nothing unread before it).
    const alone = after === before + Buffer.byteLength(text, 'utf8');
    if (alone && (cursor === undefined || cursor.offset === before)) {
      this.cursors.set(file, { offset: after ?? 0, pendingOwn: [] });
    } else if (cursor) {
      cursor.pendingOwn.push(line);
      if (cursor.pendingOwn.length > MAX_PENDING_OWN_LINES) cursor.pendingOwn.shift();
    }
  }

  private async readNewInOrder(file: string, session: string): Promise<LogEvent[]> {
    let size: number | undefined;
    try {
      size = await this.fs.size(file);
    } catch (error) {
      this.readFailed(file, error);
      return [];
    }
    const cursor = this.cursors.get(file);
    if (size === undefined) {
      this.cursors.delete(file);
      return [];
    }
    if (!cursor || size < cursor.offset) {
      if (cursor) this.reportedCorrupt.delete(file);
      const tail = await this.readTail(file, session, size);
      if (!tail) return [];
      this.cursors.set(file, { offset: tail.completeEnd, pendingOwn: [] });
      return tail.event ? [tail.event] : [];
    }
    if (size === cursor.offset) return [];
    const events: LogEvent[] = [];
    try {
      cursor.offset = await this.scanForward(file, cursor.offset, size, (line) => {
        const text = line.bytes && cursor.pendingOwn.length > 0 ? decode(line.bytes) : undefined;
        const own = text === undefined ? -1 : cursor.pendingOwn.indexOf(text);
        if (own >= 0) {
          cursor.pendingOwn.splice(own, 1);
          return;
        }
        const event = this.parseLine(file, session, line);
        if (event) events.push(event);
      });
    } catch (error) {
      this.readFailed(file, error);
    }
    return events;
  }

  /** The last valid event plus the size read and the end of the last complete line. */
  private async readTail(
    file: string,
    session: string,
    knownSize?: number,
  ): Promise<{ event: LogEvent | undefined; size: number; completeEnd: number } | undefined> {
    try {
      const size = knownSize ?? (await this.fs.size(file));
      if (size === undefined) return undefined;
      let event: LogEvent | undefined;
      const completeEnd = await this.scanBackward(file, size, (line) => {
        event = this.parseLine(file, session, line);
        return event !== undefined;
      });
      return { event, size, completeEnd };
    } catch (error) {
      this.readFailed(file, error);
      return undefined;
    }
  }

  private startCursor(file: string, offset: number): void {
    if (!this.cursors.has(file)) this.cursors.set(file, { offset, pendingOwn: [] });
  }

  /**
   * Hands complete lines to `onLine` from the last to the first, until it returns true.
   * Bytes after the last '\n' are a torn line and skipped. Returns the offset just after
   * the last '\n' (0 when there is none).
   */
  private async scanBackward(file: string, size: number, onLine: (line: RawLine) => boolean): Promise<number> {
    let completeEnd = 0;
    let found = false;
    // Bytes of the line being assembled, which continues into later chunks; in file order.
    let pieces: Uint8Array[] = [];
    let piecesLength = 0;
    let tooLong = false;
    const emit = (start: number, head: Uint8Array): boolean => {
      const length = head.length + piecesLength;
      const bytes = tooLong || length > MAX_LINE_BYTES ? undefined : Buffer.concat([head, ...pieces], length);
      pieces = [];
      piecesLength = 0;
      tooLong = false;
      return onLine({ start, bytes });
    };
    let end = size;
    while (end > 0) {
      const start = Math.max(0, end - READ_CHUNK_BYTES);
      const chunk = await this.fs.readRange(file, start, end - start);
      // The file shrank under us: what we hold no longer lines up.
      if (chunk.length !== end - start) return completeEnd;
      let segmentEnd = chunk.length;
      let newline = chunk.lastIndexOf(NEWLINE, segmentEnd - 1);
      while (newline !== -1) {
        if (found) {
          if (emit(start + newline + 1, chunk.subarray(newline + 1, segmentEnd))) return completeEnd;
        } else {
          found = true;
          completeEnd = start + newline + 1;
        }
        segmentEnd = newline;
        newline = segmentEnd === 0 ? -1 : chunk.lastIndexOf(NEWLINE, segmentEnd - 1);
      }
      if (found && segmentEnd > 0) {
        if (tooLong || piecesLength + segmentEnd > MAX_LINE_BYTES) {
          tooLong = true;
          pieces = [];
          piecesLength = 0;
        } else {
          pieces.unshift(chunk.subarray(0, segmentEnd));
          piecesLength += segmentEnd;
        }
      }
      end = start;
    }
    if (found) emit(0, new Uint8Array(0));
    return completeEnd;
  }

  /**
   * Hands complete lines in [from, to) to `onLine` in order; a partial last line is left.
   * Returns the offset just after the last complete line.
   */
  private async scanForward(
    file: string,
    from: number,
    to: number,
    onLine: (line: RawLine) => void,
  ): Promise<number> {
    let lineStart = from;
    let pieces: Uint8Array[] = [];
    let piecesLength = 0;
    let tooLong = false;
    let position = from;
    while (position < to) {
      const chunk = await this.fs.readRange(file, position, Math.min(READ_CHUNK_BYTES, to - position));
      if (chunk.length === 0) break;
      let segmentStart = 0;
      let newline = chunk.indexOf(NEWLINE, segmentStart);
      while (newline !== -1) {
        const length = piecesLength + newline - segmentStart;
        const bytes =
          tooLong || length > MAX_LINE_BYTES
            ? undefined
            : Buffer.concat([...pieces, chunk.subarray(segmentStart, newline)], length);
        onLine({ start: lineStart, bytes });
        pieces = [];
        piecesLength = 0;
        tooLong = false;
        segmentStart = newline + 1;
        lineStart = position + segmentStart;
        newline = chunk.indexOf(NEWLINE, segmentStart);
      }
      if (segmentStart < chunk.length) {
        if (tooLong || piecesLength + chunk.length - segmentStart > MAX_LINE_BYTES) {
          tooLong = true;
          pieces = [];
          piecesLength = 0;
        } else {
          pieces.push(chunk.subarray(segmentStart));
          piecesLength += chunk.length - segmentStart;
        }
      }
      position += chunk.length;
    }
    return lineStart;
  }

  /** The event on a line, or undefined (blank lines silently, anything else reported). */
  private parseLine(file: string, session: string, line: RawLine): LogEvent | undefined {
    if (!line.bytes) {
      this.corrupt(file, line.start, `line longer than ${MAX_LINE_BYTES} bytes`);
      return undefined;
    }
    const text = decode(line.bytes);
    if (text === undefined) {
      this.corrupt(file, line.start, 'not valid UTF-8');
      return undefined;
    }
    if (text.trim() === '') return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.corrupt(file, line.start, 'not valid JSON');
      return undefined;
    }
    const event = parseLogEvent(value, session);
    if (typeof event === 'string') {
      this.corrupt(file, line.start, event);
      return undefined;
    }
    return event;
  }

  private corrupt(file: string, offset: number, problem: string): void {
    let seen = this.reportedCorrupt.get(file);
    if (!seen) this.reportedCorrupt.set(file, (seen = new Set()));
    if (seen.has(offset)) return;
    seen.add(offset);
    this.options.onCorrupt?.(file, `skipped the line at byte ${offset}: ${problem}`, offset);
  }

  private readFailed(file: string, error: unknown): void {
    if (errorCode(error) === 'ENOENT') return;
    const reason = describeFsError(error, file);
    const key = `${file}\n${reason}`;
    if (this.reportedReadErrors.has(key)) return;
    this.reportedReadErrors.add(key);
    this.options.onReadError?.(file, reason);
  }
}

/**
 * Checks a parsed log line and returns the event (fresh copies, unknown fields dropped),
 * or what is wrong with it. `session` is the key the line's file belongs to.
 */
export function parseLogEvent(value: unknown, session: string): LogEvent | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const record = value as Record<string, unknown>;
  if (record['v'] !== LOG_FORMAT_VERSION) return `unsupported format version ${JSON.stringify(record['v'])}`;
  if (record['type'] !== TODO_WRITE_EVENT) return `unknown event type ${JSON.stringify(record['type'])}`;
  const ts = record['ts'];
  if (typeof ts !== 'string' || Number.isNaN(Date.parse(ts))) return '`ts` is not a timestamp';
  if (record['session'] !== session) return '`session` does not match the file name';
  const checked = validateTodoInput({ todos: record['todos'] });
  if (!checked.ok) return `invalid todos (${checked.error})`;
  const counts = countTodos(checked.todos);
  const stored = record['counts'];
  if (
    typeof stored !== 'object' ||
    stored === null ||
    (stored as Record<string, unknown>)['pending'] !== counts.pending ||
    (stored as Record<string, unknown>)['inProgress'] !== counts.inProgress ||
    (stored as Record<string, unknown>)['completed'] !== counts.completed
  ) {
    return '`counts` do not match `todos`';
  }
  return { v: LOG_FORMAT_VERSION, type: TODO_WRITE_EVENT, ts, session, todos: checked.todos, counts };
}

function decode(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

function bySessionRecency(a: SessionSummary, b: SessionSummary): number {
  const ta = a.current ? Date.parse(a.current.ts) : Number.NEGATIVE_INFINITY;
  const tb = b.current ? Date.parse(b.current.ts) : Number.NEGATIVE_INFINITY;
  if (ta !== tb) return tb - ta;
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

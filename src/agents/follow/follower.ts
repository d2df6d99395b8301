// Follows other programs' session files, reading only their new bytes, and hands the plans
// found in them to Agent Plan's log. Every agent's follower uses it; each brings a locator
// (which files belong to this workspace) and a parser factory (what a line means).
//
// Usage:
//   const follower = new Follower({
//     locator,                                   // SessionFileLocator: list() + watchFolders()
//     createParser: (file, state) => parser,     // resumes from `state` when given
//     parserVersion: 'my-agent/1',               // a new version re-reads every file from byte 0
//     sink,                                      // PlanSink: importPlans + updateSession
//     cursorDir: path.join(storage, 'cursors', 'my-agent'),
//     onUnknownShape: (file, shape) => log.warn(...), onError: (error, file) => log.error(...),
//   });
//   follower.start();                            // first scan at once, then watch (a poll where events do not arrive)
//   await follower.refresh();                    // open every file now; resolves when caught up
//   follower.dispose();                          // stops watching; nothing is read after it
//
// Reads only: nothing is ever written next to the followed files. Cursors (byte offset,
// file identity, parser state) live in `cursorDir` (followerCursors.ts); folders are
// watched through folderWatch.ts and files opened through followedFiles.ts. A cursor
// advances only after the sink has saved what came before it, so a crash or a failing
// sink re-reads those bytes and the sink's idempotence keeps that safe; a truncated or
// replaced file (shorter, or a new dev+ino) is read from byte 0.
//
// Idle is idle: while the folders' events arrive, no timer touches any file; a scan opens
// only files whose size or modification time changed since they were read (one stat each),
// and Refresh opens them all. Where events are known not to arrive (a network or shared
// file system), scans run on a timer that backs off while nothing changes.
import * as fs from 'node:fs';
import type { Disposable } from '../../core/emitter';
import { MAX_FOREIGN_LINE_BYTES } from '../../core/log/lineScan';
import { Backoff, eventsUnreliable } from '../../node/eventSupport';
import { FolderWatch } from '../../node/folderWatch';
import { lookAt, nodeFollowedFileReader, type FileLook, type FollowedFileReader, type OpenedFile } from './followedFiles';
import { CursorStore, startCursor, type Cursor } from './followerCursors';
import type { ParseOutput, PlanSink, SessionParser, UnknownShape } from '../../core/foreign';

export { cursorFileName } from './followerCursors';
export { nodeFollowedFileReader, type FollowedFileReader, type OpenedFile } from './followedFiles';

/** Which files of one foreign program belong to this workspace. */
export interface SessionFileLocator {
  /** Absolute paths of the files to follow now. A missing folder gives [], never a rejection. */
  list(): Promise<readonly string[]>;
  /**
   * Folders whose changes may mean new files or new bytes. A missing one is watched through
   * its nearest existing parent, so creating it later is noticed. Asked again after each scan.
   */
  watchFolders(): readonly string[];
}

export interface FollowerOptions {
  locator: SessionFileLocator;
  /** A parser for `file`; resumes from `state` (a value its `state()` returned) when given. */
  createParser(file: string, state?: unknown): SessionParser;
  /** Stored with each cursor; a cursor written under another version is ignored (the file is read again). */
  parserVersion: string;
  sink: PlanSink;
  /** A folder of Agent Plan's own storage for this follower's cursors; created when needed. */
  cursorDir: string;
  /** A line the parser did not recognize; the parser reports each shape once per file. */
  onUnknownShape?(file: string, shape: UnknownShape): void;
  /**
   * A read, sink or cursor failure; the follower keeps going and retries on the next change.
   * A file's read or sink failure is reported once while it repeats (a busy session lock,
   * a full disk), and again only after that file has gone through.
   */
  onError?(error: unknown, file?: string): void;
  /** Minimum time between two scans; the first change is handled at once. Default 250 ms. */
  throttleMs?: number;
  /**
   * How often the watched folders are checked (no file is touched for it), and the first
   * interval of a poll where events do not arrive. Default 5000 ms; 0 turns both off.
   */
  pollMs?: number;
  /** The longest interval a poll backs off to while nothing changes. Default 60 s. */
  maxPollMs?: number;
  /** Poll even where events arrive (tests of the poll path); the text says why. */
  pollReason?: string;
  /** The follower polls from now on, and why (a line for the output channel). */
  onPolling?(reason: string): void;
  /** Reads of followed files; default node:fs. */
  reader?: FollowedFileReader;
}

interface FileState {
  cursor: Cursor;
  parser: SessionParser;
  /**
   * Bytes after `cursor.offset` already read but not yet ending in a newline (not persisted),
   * as the chunks they came in: joined once, when the line's newline arrives, so following a
   * long line costs its length, not its length times its chunks. (Decoding each chunk as it
   * comes was tried: a streaming TextDecoder and the join of its strings cost more.)
   */
  partial: Buffer[];
  /** How many bytes `partial` holds. */
  partialLength: number;
  /** The file as it was when last read to its end: a scan leaves it closed while a stat still says so. */
  seen?: FileLook;
  /** True while a line longer than MAX_FOREIGN_LINE_BYTES is being skipped up to its newline. */
  skipping: boolean;
}

const READ_CHUNK_BYTES = 1 << 20;
/** A held line at least this long yields to the event loop between its copy and its decode. */
const YIELD_LINE_BYTES = 4 << 20;
const NEWLINE = 0x0a;

export class Follower implements Disposable {
  private readonly throttleMs: number;
  private readonly pollMs: number;
  private readonly reader: FollowedFileReader;
  private readonly files = new Map<string, FileState>();
  /** Files the last scan listed. */
  private listed = new Set<string>();
  private readonly watch: FolderWatch;
  private readonly cursors: CursorStore;
  private pollTimer: NodeJS.Timeout | undefined;
  private watchTimer: NodeJS.Timeout | undefined;
  private throttleTimer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private lastRunAt = -Infinity;
  private fullScanWanted = false;
  private readonly dirty = new Set<string>();
  private waiters: (() => void)[] = [];
  private started = false;
  private disposed = false;
  private cursorsPruned = false;
  private readonly readErrors = new Map<string, string>();
  /** Per file, the sink failure last reported: the same failure again (a full disk, a busy lock) is not reported on every pass. */
  private readonly sinkErrors = new Map<string, string>();
  /** Where events do not arrive: the scan on a timer, and how long it waits next. */
  private polling: Backoff | undefined;
  /** The folders the watch was last set to, to notice when the locator names others (a new day). */
  private watchKey = '';
  /** The next scan opens every file (Refresh), not only those a stat says changed. */
  private openAll = false;
  /** Whether the current scan found anything new (a poll backs off while it does not). */
  private found = false;

  constructor(private readonly options: FollowerOptions) {
    this.throttleMs = options.throttleMs ?? 250;
    this.pollMs = options.pollMs ?? 5000;
    this.reader = options.reader ?? nodeFollowedFileReader;
    this.watch = new FolderWatch((file) => this.schedule(file));
    this.cursors = new CursorStore(options.cursorDir);
  }

  /** Starts the first scan at once, then watches (or polls, where events do not arrive). Calling it again does nothing. */
  start(): void {
    if (this.started || this.disposed) return;
    this.started = true;
    if (this.pollMs > 0) {
      const reason = this.options.pollReason ?? this.options.locator.watchFolders().map(eventsUnreliable).find((r) => r !== undefined);
      if (reason !== undefined) {
        this.polling = new Backoff(this.pollMs, Math.max(this.pollMs, this.options.maxPollMs ?? 60_000));
        this.options.onPolling?.(`polling every ${this.pollMs / 1000} s, backing off to ${(this.options.maxPollMs ?? 60_000) / 1000} s while nothing changes: ${reason}`);
      } else {
        // Costs no file system call: only asks the locator which folders it names now.
        this.watchTimer = setInterval(() => {
          if (JSON.stringify(this.options.locator.watchFolders()) !== this.watchKey) this.schedule();
        }, this.pollMs);
        this.watchTimer.unref();
      }
    }
    this.schedule();
  }

  /** Scans now, opening every file (not waiting for the throttle), and resolves once caught up. Never rejects. */
  refresh(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.waiters.push(resolve);
      this.fullScanWanted = true;
      this.openAll = true;
      if (this.throttleTimer) {
        clearTimeout(this.throttleTimer);
        this.throttleTimer = undefined;
      }
      if (!this.running) this.runNow();
    });
  }

  /** The files followed now (for diagnostics and tests). */
  followedFiles(): string[] {
    return [...this.listed].sort();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    clearInterval(this.watchTimer);
    clearTimeout(this.pollTimer);
    clearTimeout(this.throttleTimer);
    this.watch.dispose();
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  /** A change somewhere (`file` when known): handled at once, or after the throttle interval. */
  private schedule(file?: string): void {
    if (this.disposed) return;
    if (file !== undefined && this.listed.has(file)) this.dirty.add(file);
    else this.fullScanWanted = true;
    if (this.running || this.throttleTimer) return;
    const wait = this.lastRunAt + this.throttleMs - Date.now();
    if (wait <= 0) this.runNow();
    else {
      this.throttleTimer = setTimeout(() => {
        this.throttleTimer = undefined;
        this.runNow();
      }, wait);
      this.throttleTimer.unref();
    }
  }

  private runNow(): void {
    this.lastRunAt = Date.now();
    clearTimeout(this.pollTimer);
    this.pollTimer = undefined;
    const waiters = this.waiters.splice(0);
    this.found = false;
    this.running = this.scan()
      .catch((error: unknown) => this.options.onError?.(error))
      .finally(() => {
        this.running = undefined;
        for (const resolve of waiters) resolve();
        if (this.disposed) return;
        if (this.waiters.length > 0) this.runNow();
        else if (this.fullScanWanted || this.dirty.size > 0) this.schedule();
        else if (this.polling) {
          this.pollTimer = setTimeout(() => this.schedule(), this.polling.next(this.found));
          this.pollTimer.unref();
        }
      });
  }

  private async scan(): Promise<void> {
    let targets: string[];
    let openAll = true;
    if (this.fullScanWanted) {
      this.fullScanWanted = false;
      openAll = this.openAll;
      this.openAll = false;
      this.dirty.clear();
      // Watch before listing, so what appears after the listing still raises an event. A
      // listing can make the locator name new folders, or folders may have appeared under a
      // watched parent in the meantime (mkdir -p): watch again and list again until it settles.
      this.watchKey = JSON.stringify(this.options.locator.watchFolders());
      let watched = this.watch.reconcile(this.options.locator.watchFolders());
      let listed: readonly string[] = [];
      for (let round = 0; round < 8 && !this.disposed; round++) {
        listed = await this.options.locator.list();
        this.watchKey = JSON.stringify(this.options.locator.watchFolders());
        const now = this.watch.reconcile(this.options.locator.watchFolders());
        if (now === watched) break;
        watched = now;
      }
      const next = new Set(listed);
      for (const file of this.listed) {
        if (next.has(file)) continue;
        await this.forget(file);
        this.found = true;
      }
      if ([...next].some((file) => !this.listed.has(file))) this.found = true;
      this.listed = next;
      targets = [...next];
    } else {
      targets = [...this.dirty];
      this.dirty.clear();
    }
    for (const file of targets) {
      if (this.disposed) return;
      if (!openAll && (await this.unchanged(file))) continue;
      await this.follow(file);
    }
    if (!this.cursorsPruned && !this.disposed) {
      this.cursorsPruned = true;
      await this.cursors.prune((file) => this.listed.has(file) || fs.existsSync(file), () => this.disposed);
    }
  }

  /** One stat says the file is as it was when last read to its end: nothing to open. */
  private async unchanged(file: string): Promise<boolean> {
    const seen = this.files.get(file)?.seen;
    if (!seen) return false;
    const now = await (this.reader.look ? this.reader.look(file) : lookAt(file));
    return now !== undefined && now.identity === seen.identity && now.size === seen.size && now.modifiedMs === seen.modifiedMs;
  }

  /** Reads what is new in `file` and hands it on. */
  private async follow(file: string): Promise<void> {
    let opened: OpenedFile | undefined;
    try {
      opened = await this.reader.open(file);
      this.readErrors.delete(file);
    } catch (error) {
      // A file we may not read (EACCES, …) is reported once, not on every poll.
      const key = errorKey(error);
      if (this.readErrors.get(file) !== key) {
        this.readErrors.set(file, key);
        this.options.onError?.(error, file);
      }
      return;
    }
    if (!opened) {
      await this.forget(file);
      return;
    }
    try {
      let state = this.files.get(file) ?? (await this.load(file, opened.identity));
      if (state.cursor.identity !== opened.identity || opened.size < state.cursor.offset + state.partialLength) {
        // Replaced or truncated: this is another file now, read it from the start.
        state = this.fresh(file, opened.identity);
      }
      this.files.set(file, state);
      state.seen = undefined;
      let position = state.cursor.offset + state.partialLength;
      if (position < opened.size) this.found = true;
      while (position < opened.size && !this.disposed) {
        const bytes = await opened.read(position, Math.min(READ_CHUNK_BYTES, opened.size - position));
        if (bytes.length === 0) break;
        position += bytes.length;
        const saved = await this.consume(file, state, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
        if (!saved) return;
      }
      if (position === opened.size) state.seen = { identity: opened.identity, size: opened.size, modifiedMs: opened.modifiedMs };
    } catch (error) {
      this.options.onError?.(error, file);
    } finally {
      await opened.close().catch(() => undefined);
    }
  }

  /** Splits `bytes` into complete lines, feeds the parser, hands results to the sink, saves the cursor. */
  private async consume(file: string, state: FileState, bytes: Buffer): Promise<boolean> {
    // No newline yet: the chunk joins the held line.
    const lastNewline = bytes.lastIndexOf(NEWLINE);
    if (lastNewline < 0) {
      this.holdPartial(state, bytes);
      return true;
    }
    const lines: string[] = [];
    let skippedAt: number | undefined;
    const firstNewline = bytes.indexOf(NEWLINE);
    if (state.skipping) {
      // The tail of an over-long line: the parser sees an empty line, so line numbers hold.
      state.skipping = false;
      skippedAt = state.cursor.lines + 1;
      lines.push('');
    } else if (state.partialLength > 0) {
      const whole = Buffer.concat([...state.partial, bytes.subarray(0, firstNewline)], state.partialLength + firstNewline);
      // The copy and the decode of a long line are each one long step: not both in one turn of the event loop.
      if (whole.length >= YIELD_LINE_BYTES) await new Promise((resolve) => setImmediate(resolve));
      lines.push(whole.toString('utf8'));
    } else {
      lines.push(bytes.toString('utf8', 0, firstNewline));
    }
    for (let start = firstNewline + 1; start <= lastNewline; ) {
      const end = bytes.indexOf(NEWLINE, start);
      lines.push(bytes.toString('utf8', start, end));
      start = end + 1;
    }
    const heldLength = state.partialLength;

    let output: ParseOutput;
    try {
      output = state.parser.push(lines);
    } catch (error) {
      // Parsers never throw by contract; if one does, these lines are skipped rather than looped on.
      this.options.onError?.(error, file);
      output = { plans: [], unknown: [] };
    }
    try {
      if (this.disposed) return false;
      if (output.plans.length > 0) await this.options.sink.importPlans(output.plans);
      // After the plans: a write is given to the items of the version its record puts it after.
      if (output.writes && output.writes.length > 0) await this.options.sink.importWrites(output.writes);
      if (output.usage && output.usage.length > 0) await this.options.sink.importUsage?.(output.usage);
      const info = output.info ? JSON.stringify(output.info) : undefined;
      if (output.info && info !== state.cursor.info) {
        await this.options.sink.updateSession(output.info);
        state.cursor.info = info;
      }
    } catch (error) {
      // Nothing advances: the next change or poll resumes from the last saved cursor.
      this.files.delete(file);
      const key = errorKey(error);
      if (this.sinkErrors.get(file) !== key) {
        this.sinkErrors.set(file, key);
        this.options.onError?.(error, file);
      }
      return false;
    }
    this.sinkErrors.delete(file);
    if (skippedAt !== undefined) {
      this.options.onUnknownShape?.(file, { line: skippedAt, detail: `line longer than ${MAX_FOREIGN_LINE_BYTES} bytes` });
    }
    for (const shape of output.unknown) this.options.onUnknownShape?.(file, shape);
    state.cursor.offset += heldLength + lastNewline + 1;
    state.cursor.lines += lines.length;
    state.cursor.parserState = state.parser.state();
    this.dropPartial(state);
    // A copy: a view would keep the whole chunk, lines before it included, alive while the line waits.
    if (lastNewline + 1 < bytes.length) this.holdPartial(state, Buffer.from(bytes.subarray(lastNewline + 1)));
    await this.save(state.cursor);
    return true;
  }

  /** Keeps the bytes of an unfinished line in memory, so only bytes after them are read next. */
  private holdPartial(state: FileState, data: Buffer): void {
    if (state.skipping || state.partialLength + data.length > MAX_FOREIGN_LINE_BYTES) {
      // Inside an over-long line: its bytes are passed over (counted, not held); the cursor
      // saved on disk still points at its start until its newline arrives.
      state.skipping = true;
      state.cursor.offset += state.partialLength + data.length;
      this.dropPartial(state);
      return;
    }
    // A chunk with no newline is all this line's: held as it is, not copied.
    state.partial.push(data);
    state.partialLength += data.length;
  }

  private dropPartial(state: FileState): void {
    state.partial = [];
    state.partialLength = 0;
  }

  private fresh(file: string, identity: string): FileState {
    return { cursor: startCursor(file, this.options.parserVersion, identity), parser: this.options.createParser(file), partial: [], partialLength: 0, skipping: false };
  }

  /** The saved cursor for `file` when it is valid for this file and parser; a fresh start otherwise. */
  private async load(file: string, identity: string): Promise<FileState> {
    const cursor = await this.cursors.load(file);
    if (!cursor || cursor.parserVersion !== this.options.parserVersion) return this.fresh(file, identity);
    let parser: SessionParser;
    try {
      parser = this.options.createParser(file, cursor.parserState);
    } catch {
      return this.fresh(file, identity);
    }
    return { cursor, parser, partial: [], partialLength: 0, skipping: false };
  }

  private async save(cursor: Cursor): Promise<void> {
    if (this.disposed) return;
    try {
      await this.cursors.save(cursor);
    } catch (error) {
      // The next start re-reads from the last saved cursor; the sink skips what it has.
      this.options.onError?.(error, cursor.file);
    }
  }

  /** A file that is gone: its cursor goes too (if it comes back, it is read from the start). */
  private async forget(file: string): Promise<void> {
    this.files.delete(file);
    this.readErrors.delete(file);
    this.sinkErrors.delete(file);
    this.listed.delete(file);
    await this.cursors.remove(file);
  }
}

function errorKey(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : String(error);
}

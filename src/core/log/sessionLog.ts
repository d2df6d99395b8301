// The per-session plan log: append-only JSON Lines, one file per session. The current plan
// is the last valid `todo/write` line. A line without its trailing '\n' is torn (a crash
// mid-append) and ignored; any other line that does not parse or validate is skipped and
// reported, never fatal. Other programs may append lines in this format (one write per
// line, O_APPEND).
//
// ONE reader: every line reaches listeners through `onDidRead`, read back from the file
// past a per-file cursor, whoever wrote it. An append writes its line and then reads the
// file on from the cursor, so its own event fires in file order with anyone else's.
// Appends, reads past the cursor and removes of one file run one at a time.
//
// The parts, one job each: logRecord.ts (the line format), logFiles.ts (file names),
// logAppend.ts (one whole line appended), lineScan.ts (byte scanners), logLines.ts (the
// record on a line, a file's tail), logHistory.ts (the past, read on request),
// fileQueue.ts (one operation per file at a time), logReports.ts (damage, reported once).
import { Emitter } from '../emitter';
import { describeFsError, errorCode, type FileStamp, type LogFileSystem } from './fileSystem';
import { FileQueue } from './fileQueue';
import { MAX_LOG_LINE_BYTES, scanForward } from './lineScan';
import { LogWriteError, appendLine } from './logAppend';
import { logFileFor, logFolder, sessionOfFileName } from './logFiles';
import { LogHistory, type HistoryPage } from './logHistory';
import { LogLines, type Tail } from './logLines';
import { RecentImports, importKey } from './logRepeats';
import { fileWriteRecord, infoRecord, isCurrentPlan, isInfoRecord, isPlanEvent, planEvent, sessionLinkRecord, userRequestRecord, type FileWriteRecord, type PlanRecord, type LogRecord, type SessionFacts, type SessionInfoRecord, type UserRequestRecord } from './logRecord';
import { isUsage, usageRecord, type UsageFacts, type UsageRecord } from './usageRecord';
import { isSnapshot, snapshotRecord, type SnapshotFacts, type SnapshotRecord } from './snapshotRecord';
import { permissionAnswerRecord, permissionAskRecord, type PermissionAnswerFacts, type PermissionAskFacts } from './permissionRecord';
import { LogReports } from './logReports';
import type { PlanItem, Todo } from '../plan/plan';
import { isSessionKey } from './sessionKey';
import { SessionRecords } from './sessionRecords';
import { isValidated, validateTodoInput } from '../plan/validate';
import type { AgentId, PlanSource } from '../foreign';

export { LOG_FORMAT_VERSION, TODO_WRITE_EVENT, SESSION_INFO_EVENT, parseLogEvent, parseLogRecord } from './logRecord';
export type { PlanRecord, LogRecord, SessionInfoRecord, UserRequestRecord } from './logRecord';
export { LOG_FILE_EXTENSION } from './logFiles';
export { READ_CHUNK_BYTES, MAX_LOG_LINE_BYTES } from './lineScan';
export { LogWriteError } from './logAppend';
export type { HistoryPage, PlanVersion } from './logHistory';

/** Tail reads in flight at once in sessions(): many sessions must not exhaust file handles. */
const SESSIONS_READ_CONCURRENCY = 16;
const SESSIONS_STAT_CONCURRENCY = 64;
export interface SessionSummary {
  /** The session key (also the file name without `.jsonl`). */
  key: string;
  file: string;
  /** File size in bytes. */
  size: number;
  /** The session's last valid event; undefined when the file holds none. */
  current: PlanRecord | undefined;
  /** The newest session/info line seen, when the tail read met one. */
  info: SessionInfoRecord | undefined;
  /** When the file was last written, as this machine's file system says (0 when unknown). */
  modifiedMs: number;
}

/** What the one reader found in a session's file. */
export interface LogRead {
  session: string;
  /**
   * Lines appended since the last look, in file order, own and foreign alike. They are new
   * writes: listeners announce them.
   */
  records: LogRecord[];
  /** The byte offset where each of `records` starts, in the same order. */
  offsets?: number[];
  /**
   * Set on a first look at a file (or after it was cut short): its state as it stands, not
   * new writes. `modifiedMs` places it among the others by this machine's clock.
   */
  sync?: {
    current: PlanRecord | undefined;
    info: SessionInfoRecord | undefined;
    /** The info line comes after the current plan in the file. */
    infoAfterPlan: boolean;
    modifiedMs: number;
    /** Found by the watcher's look (readNew): the current plan is news to the listeners. */
    announce: boolean;
    /** The file was cut short or replaced since the last look: what was read of it before is void. */
    reset: boolean;
    /** The end of the last complete line read: the same file state tells the same end. */
    end: number;
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

export interface SessionsOptions {
  /** A session to read before anything else (the one a view showed last). */
  first?: string;
  /** How many of the newest sessions make the first page, read before any older one. */
  firstPage?: number;
  /** Called once the first page is in. */
  onFirstPage?: () => void;
  /**
   * Tell the listeners the state of files that did not change since the reader last looked
   * (a listener that came later, such as a new store, needs them); otherwise such files
   * cost their one stat and nothing else.
   */
  restate?: boolean;
  /**
   * Whether the summaries returned hold each file's current plan and info line (default):
   * a file read before is read back from its tail for them. A caller that listens to the
   * reader (the store) passes false: files that did not change then cost their stat only.
   */
  plans?: boolean;
}

/** A session file and what its one stat of this pass said (size undefined: not known yet). */
interface Stamped {
  key: string;
  modifiedMs: number;
  size?: number | undefined;
}

/** One look of the reader at a file: what the caller knows, and (synced) what a first look found. */
interface Look {
  modifiedMs?: number;
  announce?: boolean;
  size?: number | undefined;
  synced?: SessionTail;
}

/** A folder's modification time taken within this much of now may still change unseen (coarse clocks). */
const FOLDER_TIME_SETTLE_MS = 2_000;

/**
 * What the reader has consumed of one file: a few numbers, whatever the file holds (what
 * the file says is read back from its tail when asked: tailNow).
 */
interface Cursor {
  /** Byte offset just after the last complete line read. */
  offset: number;
  /** The last records' import keys: a repeated import read on from here is no new write (undefined: none yet). */
  recent?: RecentImports;
  /** The file's state, kept only where the file system cannot read it back synchronously (tailNow). */
  kept?: SessionTail;
}

/** What a tail read of a session found: its current plan and the newest session/info line near it. */
export interface SessionTail {
  current: PlanRecord | undefined;
  info: SessionInfoRecord | undefined;
  /** The info line comes after the current plan in the file. */
  infoAfterPlan: boolean;
}

export class SessionLog {
  private readonly now: () => Date;
  /** One record per session, shared with the store and the books that follow this reader (sessionRecords.ts). */
  readonly records = new SessionRecords();
  /** Each file's cursor: its offset alone (a number, most files), or a Cursor where it keeps more. */
  private readonly cursors = this.records.column<Cursor | number>('cursor');
  private readonly queue = new FileQueue();
  private readonly reports: LogReports;
  private readonly lines: LogLines;
  private readonly past: LogHistory;
  private readonly readEmitter = new Emitter<LogRead>();
  private listenerError: (error: unknown) => void = () => {};
  /** The folder's modification time at the last listing, when it can be trusted to show the next change. */
  private listedFolderMs: number | undefined;
  /** What the last poll's stat said of each session's file, to tell a change from a file that stays as it is. */
  private readonly polled = new Map<string, FileStamp>();
  /** How many reads the listeners were told of: a poll that told none found nothing new. */
  private told = 0;

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
    this.lines = new LogLines(fs, this.reports);
    const files = { fileFor: (session: string) => this.fileFor(session), settled: (file: string) => this.queue.settled(file) };
    this.past = new LogHistory(fs, files, this.lines, this.reports);
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
   * fails; with a TypeError for a bad key or todos (a bug: callers validate first). A list
   * validateTodoInput returned (todo_write's way in) is appended as it is, not checked again.
   */
  async append(session: string, todos: readonly Todo[]): Promise<PlanRecord> {
    const file = this.fileFor(session);
    return this.appendPlanEvent(file, planEvent(session, this.now().toISOString(), isValidated(todos) ? todos : checkedTodos(todos)));
  }

  /** Appends a foreign plan (from another agent) (items already mapped and trimmed). */
  async appendForeign(session: string, items: readonly PlanItem[], source: PlanSource, at?: string): Promise<PlanRecord> {
    const file = this.fileFor(session);
    return this.appendPlanEvent(file, planEvent(session, this.now().toISOString(), items, source, at));
  }

  /** Appends a session/info line. */
  async appendInfo(session: string, source: { agent: AgentId; session: string }, facts: SessionFacts): Promise<SessionInfoRecord> {
    const file = this.fileFor(session);
    const record = infoRecord(session, this.now().toISOString(), source, facts);
    const read = await this.appendRecord(file, session, record);
    return read.type === 'session/info' ? read : record;
  }

  /** Appends a session/link line: the session continues `from` another, or was continued `to` one. */
  async appendLink(session: string, link: { from: string } | { to: string }): Promise<void> {
    await this.appendRecord(this.fileFor(session), session, sessionLinkRecord(session, this.now().toISOString(), link));
  }

  /** Appends a file/write line: the files an agent's tool call wrote (or a plan-less subagent's, `subagent`), and the items in progress then. */
  async appendWrite(session: string, source: { agent: AgentId; session: string; call: string }, files: readonly string[], items: readonly string[] | null, at?: string, subagent = false): Promise<FileWriteRecord> {
    const record = fileWriteRecord(session, this.now().toISOString(), source, files, items, at, subagent);
    const read = await this.appendRecord(this.fileFor(session), session, record);
    return read.type === 'file/write' ? read : record;
  }

  /** Appends a model/usage line (the facts checked with usageProblem first). */
  async appendUsage(session: string, source: { agent: AgentId; session: string; call: string }, facts: UsageFacts, items: readonly string[] | null, at?: string): Promise<UsageRecord> {
    const record = usageRecord(session, this.now().toISOString(), source, facts, items, at);
    const read = await this.appendRecord(this.fileFor(session), session, record);
    return isUsage(read) ? read : record;
  }

  /** Appends a tree/snapshot line (the facts checked with snapshotProblem first). */
  async appendSnapshot(session: string, facts: SnapshotFacts): Promise<SnapshotRecord> {
    const record = snapshotRecord(session, this.now().toISOString(), facts);
    const read = await this.appendRecord(this.fileFor(session), session, record);
    return isSnapshot(read) ? read : record;
  }

  /** Appends a permission/ask or permission/answer line (the facts checked with permissionAskProblem / permissionAnswerProblem first). */
  async appendPermission(session: string, facts: { ask: PermissionAskFacts } | { answer: PermissionAnswerFacts }): Promise<LogRecord> {
    const ts = this.now().toISOString();
    const record = 'ask' in facts ? permissionAskRecord(session, ts, facts.ask) : permissionAnswerRecord(session, ts, facts.answer);
    return this.appendRecord(this.fileFor(session), session, record);
  }

  /** Appends a user/request line (the text checked with requestTextProblem first). */
  async appendRequest(session: string, id: string, text: string, withdrawn = false): Promise<UserRequestRecord> {
    const record = userRequestRecord(session, this.now().toISOString(), id, text, withdrawn);
    const read = await this.appendRecord(this.fileFor(session), session, record);
    return read.type === 'user/request' ? read : record;
  }

  private async appendPlanEvent(file: string, event: PlanRecord): Promise<PlanRecord> {
    const read = await this.appendRecord(file, event.session, event);
    return isPlanEvent(read) ? read : event;
  }

  /** Writes the record's line, reads the file on from the cursor, and returns the line as read back. */
  private appendRecord(file: string, session: string, record: LogRecord): Promise<LogRecord> {
    const line = JSON.stringify(record);
    // Every line the log holds is one its reader reads back: a longer one would be skipped,
    // so whatever it carries would never show, and an import would be made again and again.
    const bytes = line.length * 3 + 1 > MAX_LOG_LINE_BYTES ? new TextEncoder().encode(line).length + 1 : 0;
    if (bytes > MAX_LOG_LINE_BYTES) return Promise.reject(lineTooLong(record.type, bytes));
    return this.queue.run(file, async () => {
      // The cursor must stand before our line, so that reading on from it meets the line.
      if (!this.cursors.has(session)) {
        await this.readLocked(file, session);
        if (!this.cursors.has(session)) this.setCursor(session, { offset: 0, ...(this.readsNow ? {} : { kept: { current: undefined, info: undefined, infoAfterPlan: false } }) });
      }
      await appendLine(this.fs, this.dir, file, line, this.cursorOf(session)?.offset);
      const records = await this.readLocked(file, session);
      // Alone, the line read back is ours; among other writers' lines, it is the one that reads the same.
      return (records.length === 1 ? records[0] : records.find((read) => JSON.stringify(read) === line)) ?? record;
    });
  }

  /**
   * Reads the session's file on from the cursor now, so listeners meet what other
   * processes appended (an import checks the log this way before it appends).
   */
  async catchUp(session: string): Promise<void> {
    const file = this.fileFor(session);
    await this.queue.run(file, () => this.readLocked(file, session));
  }

  /** Whether tailNow can read (the file system reads synchronously). */
  get readsNow(): boolean {
    return this.fs.readRangeNow !== undefined;
  }

  /**
   * The session's state as the reader has read it (up to its cursor, or up to byte `end`),
   * read back synchronously from the file's tail; undefined when the file system cannot read
   * synchronously, the reader has not read the file, or the read failed.
   */
  tailNow(session: string, end?: number): SessionTail | undefined {
    const file = this.fileFor(session);
    const cursor = this.cursorOf(session);
    if (cursor?.kept && end === undefined) return cursor.kept;
    const size = end ?? cursor?.offset;
    if (size === undefined) return undefined;
    const tail = this.lines.tailNow(file, session, size);
    return tail && { current: tail.current, info: tail.info, infoAfterPlan: tail.infoAfterPlan };
  }

  /** The session's last valid event, read backwards from the end of the file. */
  async current(session: string): Promise<PlanRecord | undefined> {
    const file = this.fileFor(session);
    await this.queue.settled(file);
    return (await this.readTail(file, session))?.current;
  }

  // The past, read on request (logHistory.ts): it moves no cursor and tells no listener.

  /** Plans from the newest back until `visit` returns true; `before` starts at an earlier version's `at`. */
  readBackward(session: string, visit: (event: PlanRecord, at: number) => boolean, before?: number): Promise<void> {
    return this.past.versions(session, visit, before);
  }

  /** readBackward over every record type (plans and session/info lines). */
  readRecordsBackward(session: string, visit: (record: LogRecord, at: number) => boolean, before?: number): Promise<void> {
    return this.past.records(session, visit, before);
  }

  /** Up to `limit` versions, newest first, before an earlier page's oldest `at` if given. */
  page(session: string, limit: number, before?: number): Promise<HistoryPage> {
    return this.past.page(session, limit, before);
  }

  /** The version whose line starts at byte `at`, if one does. */
  versionAt(session: string, at: number): Promise<PlanRecord | undefined> {
    return this.past.versionAt(session, at);
  }

  /** Every valid event of the session, oldest first (the whole file). */
  history(session: string): Promise<PlanRecord[]> {
    return this.past.all(session);
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
    const { first, restate = false, plans = true } = options;
    const early = first !== undefined && isSessionKey(first) ? await this.summary({ key: first, modifiedMs: await this.modifiedMs(this.fileFor(first)) }, restate, plans) : undefined;
    // Taken before the listing, so an entry added after it changes what the next poll sees.
    const folderMs = await this.modifiedMs(this.dir);
    let names: string[];
    try {
      names = await this.fs.readdir(this.dir);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') {
        throw new Error(`could not read ${this.dir}: ${describeFsError(error, this.dir)}`, { cause: error });
      }
      names = [];
    }
    this.listedFolderMs = folderMs > 0 && Date.now() - folderMs > FOLDER_TIME_SETTLE_MS ? folderMs : undefined;
    const keys = names.flatMap((name) => {
      const key = sessionOfFileName(name);
      return key === undefined || (early !== undefined && key === early.key) ? [] : [key];
    });
    // Files read before that are no longer listed are gone (a Refresh after deletions).
    if (this.cursors.size > 0) {
      const listed = new Set(keys);
      if (early) listed.add(early.key);
      for (const session of [...this.cursors.keys()]) {
        const file = this.fileFor(session);
        if (!listed.has(session)) await this.queue.run(file, () => this.readLocked(file, session));
      }
    }
    // What a view shows first is read first: the most recently written files.
    const stamped = await this.stamp(keys);
    // The newest alone first (found without sorting), so the Plan view can paint it before the others are in.
    let newestAt = -1;
    for (let i = 0; i < stamped.length; i++) if (newestAt < 0 || byRecency(stamped[i]!, stamped[newestAt]!) < 0) newestAt = i;
    const newest = stamped[newestAt];
    const head = newest ? [await this.summary(newest, restate, plans)] : [];
    const rest = stamped.filter((_, i) => i !== newestAt).sort(byRecency);
    const read = (stamp: Stamped) => this.summary(stamp, restate, plans);
    // Then the first page, all of it before anything older, so a list can show it already in order.
    const pageLength = Math.max(0, (options.firstPage ?? 0) - 1);
    const page = await mapWithLimit(rest.slice(0, pageLength), SESSIONS_READ_CONCURRENCY, read);
    if (pageLength > 0) options.onFirstPage?.();
    const summaries = [early, ...head, ...page].concat(await mapWithLimit(rest.slice(pageLength), SESSIONS_READ_CONCURRENCY, read));
    return summaries.filter((s): s is SessionSummary => s !== undefined).sort(byRecency);
  }

  private summary({ key: session, modifiedMs, size }: Stamped, restate: boolean, plans: boolean): Promise<SessionSummary | undefined> {
    const file = this.fileFor(session);
    return this.queue.run(file, async () => {
      const before = this.cursors.has(session);
      const look: Look = { modifiedMs, size };
      await this.readLocked(file, session, look);
      const cursor = this.cursorOf(session);
      if (!cursor) return undefined;
      // A file read before: its state again, for listeners that came later (a second store).
      const tail = look.synced ?? cursor.kept ?? (restate || plans ? await this.readTail(file, session, cursor.offset) : undefined);
      if (before && !look.synced && restate && tail) {
        const { current, info, infoAfterPlan } = tail;
        this.tell({ session, records: [], sync: { current, info, infoAfterPlan, modifiedMs, announce: false, reset: false, end: cursor.offset } });
      }
      return { key: session, file, size: cursor.offset, current: tail?.current, info: tail?.info, modifiedMs };
    });
  }

  /**
   * Reads what was appended to the session's file since the last look (and tells the
   * listeners); returns its events, oldest first. The first look at a file, and a file
   * that shrank, yield its current event only (bounded cost, and all a view needs); later
   * calls continue from there. A partial last line waits for the next call. A deleted file
   * yields [].
   */
  async readNew(session: string): Promise<PlanRecord[]> {
    const file = this.fileFor(session);
    return this.queue.run(file, async () => {
      const look: Look = { announce: true };
      const records = await this.readLocked(file, session, look);
      // A sync (first look, or the file was cut): its current event only; a file gone: nothing.
      if (look.synced || !this.cursors.has(session)) return look.synced?.current ? [look.synced.current] : [];
      return records.filter(isPlanEvent);
    });
  }

  /**
   * The look for file systems whose events do not arrive, as cheap as it can be while
   * nothing changes: the folder's modification time first (an entry added or removed
   * changes it: then the folder is listed again), then one stat of each file read before;
   * only a file whose size or modification time changed since the last poll is read, and
   * only what is new in it. Resolves true when anything changed.
   */
  async poll(): Promise<boolean> {
    const toldBefore = this.told;
    const folderMs = await this.modifiedMs(this.dir);
    let sessions = [...this.cursors.keys()];
    if (this.listedFolderMs === undefined || folderMs !== this.listedFolderMs) {
      // An entry was added or removed (or the folder's time could not be trusted): list it again.
      let names: string[] = [];
      try {
        names = await this.fs.readdir(this.dir);
      } catch (error) {
        if (errorCode(error) !== 'ENOENT') {
          this.reports.readFailed(this.dir, error);
          return false;
        }
      }
      this.listedFolderMs = folderMs > 0 && Date.now() - folderMs > FOLDER_TIME_SETTLE_MS ? folderMs : undefined;
      const listed = names.flatMap((name) => {
        const key = sessionOfFileName(name);
        return key === undefined ? [] : [key];
      });
      sessions = [...new Set([...sessions, ...listed])];
    }
    const stamps = await this.stampFiles(sessions.map((session) => this.fileFor(session)));
    for (let i = 0; i < sessions.length; i++) {
      const session = sessions[i] as string;
      const file = this.fileFor(session);
      const stamp = stamps[i];
      const before = this.polled.get(session);
      const cursor = this.cursorOf(session);
      if (stamp === undefined) this.polled.delete(session);
      else this.polled.set(session, stamp);
      if (stamp === undefined && !cursor) continue;
      const same = stamp !== undefined && (before ? before.size === stamp.size && before.modifiedMs === stamp.modifiedMs : stamp.size === cursor?.offset);
      if (same) continue;
      // A file met for the first time is news, as when the watcher meets it.
      await this.queue.run(file, () => this.readLocked(file, session, { announce: true, size: stamp?.size }));
    }
    return this.told !== toldBefore;
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
  private async readLocked(file: string, session: string, look: Look = {}): Promise<LogRecord[]> {
    const cursor = this.cursorOf(session);
    // A size from this pass's one stat serves unless it says the file went away or shrank:
    // an append may have landed since that stat, so such news is checked with a fresh stat.
    let size = look.size;
    if (size === undefined || (cursor && size < cursor.offset)) {
      try {
        size = await this.fs.size(file);
      } catch (error) {
        this.reports.readFailed(file, error);
        return [];
      }
    }
    if (size === undefined) {
      if (cursor) {
        this.cursors.delete(session);
        this.polled.delete(session);
        this.reports.forgetFile(file);
        this.tell({ session, records: [], gone: true });
      }
      return [];
    }
    if (!cursor || size < cursor.offset) {
      if (cursor) this.reports.forgetFile(file);
      const tail = await this.readTail(file, session, size);
      if (!tail) return [];
      const { current, info, infoAfterPlan } = tail;
      this.setCursor(session, { offset: tail.completeEnd, ...(tail.recentImports.some((key) => key !== undefined) ? { recent: new RecentImports(tail.recentImports) } : {}), ...(this.readsNow ? {} : { kept: { current, info, infoAfterPlan } }) });
      look.synced = tail;
      const modifiedMs = look.modifiedMs ?? (await this.modifiedMs(file));
      const announce = look.announce ?? false;
      const reset = cursor !== undefined;
      this.tell({ session, records: [], sync: { current, info, infoAfterPlan, modifiedMs, announce, reset, end: tail.completeEnd } });
      return [];
    }
    if (size === cursor.offset) return [];
    const records: LogRecord[] = [];
    const offsets: number[] = [];
    try {
      cursor.offset = await scanForward(this.fs, file, cursor.offset, size, (line) => {
        const record = this.lines.parse(file, session, line);
        if (!record) return;
        // Only a file that holds imports needs their window.
        if (!cursor.recent && importKey(record) !== undefined) cursor.recent = new RecentImports();
        if (cursor.recent?.isRepeat(record)) return;
        records.push(record);
        offsets.push(line.start);
        const kept = cursor.kept;
        if (!kept) return;
        if (isCurrentPlan(record)) {
          kept.current = record;
          kept.infoAfterPlan = false;
        } else if (isInfoRecord(record)) {
          kept.info = record;
          kept.infoAfterPlan = true;
        }
      });
    } catch (error) {
      this.reports.readFailed(file, error);
    }
    this.setCursor(session, cursor);
    if (records.length > 0) this.tell({ session, records, offsets });
    return records;
  }

  /** The file's cursor as an object (a new one where only its offset is kept): set it back with setCursor. */
  private cursorOf(session: string): Cursor | undefined {
    const kept = this.cursors.get(session);
    return typeof kept === 'number' ? { offset: kept } : kept;
  }

  /** Keeps a cursor: its offset alone when that is all it holds. */
  private setCursor(session: string, cursor: Cursor): void {
    this.cursors.set(session, cursor.recent !== undefined || cursor.kept !== undefined ? cursor : cursor.offset);
  }

  private tell(read: LogRead): void {
    this.told++;
    this.readEmitter.fire(read, this.listenerError);
  }

  /** One stat of each session's file: its time orders the sessions, its size spares the reader a second stat. */
  private async stamp(keys: readonly string[]): Promise<Stamped[]> {
    if (this.fs.statMany) {
      try {
        const stamps = await this.fs.statMany(keys.map((key) => this.fileFor(key)));
        return keys.map((key, i) => ({ key, modifiedMs: stamps[i]?.modifiedMs ?? 0, size: stamps[i]?.size }));
      } catch {
        // fall back to one at a time
      }
    }
    return mapWithLimit(keys, SESSIONS_STAT_CONCURRENCY, async (key) => ({ key, modifiedMs: await this.modifiedMs(this.fileFor(key)) }));
  }

  /** One stat of each file (undefined: gone), in one call where the file system offers it. */
  private async stampFiles(files: readonly string[]): Promise<(FileStamp | undefined)[]> {
    if (this.fs.statMany) {
      try {
        return await this.fs.statMany(files);
      } catch {
        // fall back to one at a time
      }
    }
    return mapWithLimit(files, SESSIONS_STAT_CONCURRENCY, async (file) => {
      try {
        const size = await this.fs.size(file);
        return size === undefined ? undefined : { size, modifiedMs: await this.modifiedMs(file) };
      } catch {
        return undefined;
      }
    });
  }

  private async modifiedMs(file: string): Promise<number> {
    try {
      return (await this.fs.modifiedMs?.(file)) ?? 0;
    } catch {
      return 0;
    }
  }

  private async readTail(file: string, session: string, knownSize?: number): Promise<Tail | undefined> {
    let size = knownSize;
    try {
      size ??= await this.fs.size(file);
    } catch (error) {
      this.reports.readFailed(file, error);
      return undefined;
    }
    return size === undefined ? undefined : this.lines.tail(file, session, size);
  }

  dispose(): void {
    this.readEmitter.dispose();
  }
}

/** The most recently written first; the key breaks ties, for a stable order. */
function byRecency(a: Stamped, b: Stamped): number {
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

/** A list from a caller other than todo_write's way in, checked as todo_write's input is. */
function checkedTodos(todos: readonly Todo[]): Todo[] {
  const checked = validateTodoInput({ todos });
  if (!checked.ok) throw new TypeError(`SessionLog.append: ${checked.error}`);
  return checked.todos;
}

/** The refusal of a line longer than the log's reader reads; its text is stable. */
function lineTooLong(type: string, bytes: number): Error {
  return Object.assign(new Error(`a ${type} line of ${bytes} bytes is longer than the log reads (${MAX_LOG_LINE_BYTES} bytes); not written`), { code: 'ELINETOOLONG' });
}

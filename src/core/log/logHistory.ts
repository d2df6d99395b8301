// Reading a session's past: versions walked back from the end (or from an earlier
// version), a page of them, one version by its address, or all of them. It never moves
// the reader's cursors and tells no listener: history is read on request, for a view.
// A version's address (`at`) is the byte offset where its line starts; the log is
// append-only, so an address stays valid while the file lives. A repeated import is no
// version (logRepeats.ts): every walk here leaves it out.
import type { LogFileSystem } from './fileSystem';
import { NEWLINE, scanBackward, scanForward } from './lineScan';
import type { LogLines } from './logLines';
import { isPlanEvent, type PlanRecord, type LogRecord } from './logRecord';
import { BackwardRepeats, RecentImports } from './logRepeats';
import type { LogReports } from './logReports';

/** One version of a session's plan and its address: the byte offset where its line starts. */
export interface PlanVersion {
  event: PlanRecord;
  at: number;
}

export interface HistoryPage {
  /** Newest first. */
  versions: PlanVersion[];
  /** Older versions exist before the last one. */
  more: boolean;
}

export interface HistoryFiles {
  /** The log file of a session (throws for anything but a key). */
  fileFor(session: string): string;
  /** Resolves once the file's pending appends are done. */
  settled(file: string): Promise<void>;
}

export class LogHistory {
  constructor(
    private readonly fs: LogFileSystem,
    private readonly files: HistoryFiles,
    private readonly lines: LogLines,
    private readonly reports: LogReports,
  ) {}

  /**
   * Hands records to `visit` from the newest back, until it returns true; reads only as
   * far back as needed. `before` starts the walk at an earlier version instead (its `at`;
   * that version excluded).
   */
  async records(session: string, visit: (record: LogRecord, at: number) => boolean, before?: number): Promise<void> {
    const file = this.files.fileFor(session);
    await this.files.settled(file);
    try {
      const size = await this.fs.size(file);
      if (size === undefined) return;
      const repeats = new BackwardRepeats<number>();
      let stopped = false;
      await scanBackward(this.fs, file, Math.min(size, before ?? size), (line) => {
        const record = this.lines.parse(file, session, line);
        if (record === undefined) return false;
        stopped = repeats.push(record, line.start).some((decided) => visit(decided.record, decided.at));
        return stopped;
      });
      if (!stopped) repeats.flush().some((decided) => visit(decided.record, decided.at));
    } catch (error) {
      this.reports.readFailed(file, error);
    }
  }

  /** `records` over plans only. */
  async versions(session: string, visit: (event: PlanRecord, at: number) => boolean, before?: number): Promise<void> {
    await this.records(session, (record, at) => isPlanEvent(record) && visit(record, at), before);
  }

  /**
   * Up to `limit` versions, newest first, read backwards from the end (or from `before`,
   * the `at` of the oldest version of an earlier page): the cost follows `limit`, never
   * the length of the history.
   */
  async page(session: string, limit: number, before?: number): Promise<HistoryPage> {
    const versions: PlanVersion[] = [];
    let more = false;
    await this.versions(
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
   * The version whose line starts at byte `at`; undefined when no plan line starts there
   * (the log was deleted, or `at` is not an address from a page).
   */
  async versionAt(session: string, at: number): Promise<PlanRecord | undefined> {
    const file = this.files.fileFor(session);
    if (!Number.isSafeInteger(at) || at < 0) return undefined;
    await this.files.settled(file);
    try {
      const size = await this.fs.size(file);
      if (size === undefined || at >= size) return undefined;
      if (at > 0 && (await this.fs.readRange(file, at - 1, 1))[0] !== NEWLINE) return undefined;
      let found: PlanRecord | undefined;
      await scanForward(this.fs, file, at, size, (line) => {
        const record = this.lines.parse(file, session, line);
        if (record && isPlanEvent(record)) found = record;
        return true;
      });
      return found;
    } catch (error) {
      this.reports.readFailed(file, error);
      return undefined;
    }
  }

  /** Every version, oldest first: the whole file. */
  async all(session: string): Promise<PlanRecord[]> {
    const file = this.files.fileFor(session);
    await this.files.settled(file);
    const events: PlanRecord[] = [];
    try {
      const size = await this.fs.size(file);
      if (size === undefined) return [];
      const recent = new RecentImports();
      await scanForward(this.fs, file, 0, size, (line) => {
        const record = this.lines.parse(file, session, line);
        if (record && !recent.isRepeat(record) && isPlanEvent(record)) events.push(record);
      });
    } catch (error) {
      this.reports.readFailed(file, error);
    }
    return events;
  }
}

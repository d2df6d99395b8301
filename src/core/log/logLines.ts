// What the lines of a session's file hold: the record on one line (damage reported, never
// thrown) and the tail of a file (its current plan and the session/info line near it).
// A repeated import is never the current plan (logRepeats.ts): a foreign plan at the end
// is current once the window of records before it holds no line of the same call.
import type { LogFileSystem } from './fileSystem';
import { MAX_LOG_LINE_BYTES, decodeUtf8, scanBackward, scanBackwardNow, type RawLine } from './lineScan';
import { SESSION_INFO_EVENT, isCurrentPlan, isInfoRecord, parseLogRecord, type PlanRecord, type LogRecord, type SessionInfoRecord } from './logRecord';
import { BackwardRepeats, REPEAT_WINDOW, importKey } from './logRepeats';
import type { LogReports } from './logReports';

/** How many lines before the current plan a tail read looks at for the session's info line. */
const INFO_LOOKBACK_LINES = 64;
/** Where a record's type stands in the lines this format writes: `{"v":1,"type":"…"` (JSON.stringify keeps key order). */
const TYPE_WITHIN_BYTES = 40;
const INFO_MARK = Buffer.from(SESSION_INFO_EVENT);

export interface Tail {
  current: PlanRecord | undefined;
  info: SessionInfoRecord | undefined;
  /** The info line comes after the current plan in the file. */
  infoAfterPlan: boolean;
  /** The end of the last complete line. */
  completeEnd: number;
  /** The import keys of the newest records read (up to REPEAT_WINDOW, oldest first), for a reader going on from the end. */
  recentImports: Array<string | undefined>;
}

export class LogLines {
  constructor(
    private readonly fs: LogFileSystem,
    private readonly reports: LogReports,
  ) {}

  /** The record on a line, or undefined (blank lines silently, anything else reported). */
  parse(file: string, session: string, line: RawLine): LogRecord | undefined {
    if (!line.bytes) {
      this.reports.skippedLine(file, line.start, `line longer than ${MAX_LOG_LINE_BYTES} bytes`);
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

  /**
   * The last valid plan of the first `size` bytes, the newest session/info line near it,
   * and the end of the last complete line; undefined when the file cannot be read.
   */
  async tail(file: string, session: string, size: number): Promise<Tail | undefined> {
    try {
      const scan = this.tailScan(file, session);
      return scan.finish(await scanBackward(this.fs, file, size, scan.onLine));
    } catch (error) {
      this.reports.readFailed(file, error);
      return undefined;
    }
  }

  /** tail() read synchronously, where the file system can (undefined: it cannot, or the read failed). */
  tailNow(file: string, session: string, size: number): Tail | undefined {
    const readRangeNow = this.fs.readRangeNow?.bind(this.fs);
    if (!readRangeNow) return undefined;
    try {
      const scan = this.tailScan(file, session);
      return scan.finish(scanBackwardNow((start, length) => readRangeNow(file, start, length), size, scan.onLine));
    } catch (error) {
      this.reports.readFailed(file, error);
      return undefined;
    }
  }

  /** What a tail read does with each line, newest first, and what it found once the scan ends. */
  private tailScan(file: string, session: string): { onLine: (line: RawLine) => boolean; finish: (completeEnd: number) => Tail } {
    let current: PlanRecord | undefined;
    let info: SessionInfoRecord | undefined;
    let linesPastPlan = 0;
    let infoAfterPlan = false;
    const repeats = new BackwardRepeats<undefined>();
    const newestKeys: Array<string | undefined> = [];
    // Records as the repeat filter lets them out, newest first.
    const take = (record: LogRecord): void => {
      if (current) {
        linesPastPlan++;
        if (isInfoRecord(record)) info ??= record;
      } else if (isCurrentPlan(record)) {
        current = record;
      } else if (isInfoRecord(record) && !info) {
        info = record;
        infoAfterPlan = true;
      }
    };
    const onLine = (line: RawLine): boolean => {
      if (current) {
        linesPastPlan++;
        // Past the current plan only a session/info line is of use: others are not parsed.
        if (!mayBeInfoLine(line)) return linesPastPlan >= INFO_LOOKBACK_LINES;
        const record = this.parse(file, session, line);
        if (record && isInfoRecord(record)) info ??= record;
        return info !== undefined || linesPastPlan >= INFO_LOOKBACK_LINES;
      }
      const record = this.parse(file, session, line);
      if (!record) return false;
      if (newestKeys.length < REPEAT_WINDOW) newestKeys.push(importKey(record));
      for (const decided of repeats.push(record, undefined)) take(decided.record);
      // Found: what the filter still holds is older than the plan, and only its info lines matter.
      if (current) for (const held of repeats.flush()) take(held.record);
      return current !== undefined && (info !== undefined || linesPastPlan >= INFO_LOOKBACK_LINES);
    };
    const finish = (completeEnd: number): Tail => {
      if (!current) for (const held of repeats.flush()) take(held.record);
      return { current, info, infoAfterPlan, completeEnd, recentImports: newestKeys.reverse() };
    };
    return { onLine, finish };
  }
}

/** Whether a line could be a session/info record: its type's name is near its start. */
function mayBeInfoLine(line: RawLine): boolean {
  if (line.bytes === undefined) return false;
  const head = line.bytes.subarray(0, TYPE_WITHIN_BYTES);
  return Buffer.from(head.buffer, head.byteOffset, head.byteLength).includes(INFO_MARK);
}

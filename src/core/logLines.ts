// What the lines of a session's file hold: the record on one line (damage reported, never
// thrown) and the tail of a file (its current plan and the session/info line near it).
import type { LogFileSystem } from './fileSystem';
import { MAX_LINE_BYTES, decodeUtf8, scanBackward, type RawLine } from './lineScan';
import { SESSION_INFO_EVENT, isCurrentPlan, isPlanEvent, parseLogRecord, type LogEvent, type LogRecord, type SessionInfoRecord } from './logRecord';
import type { LogReports } from './logReports';

/** How many lines before the current plan a tail read looks at for the session's info line. */
const INFO_LOOKBACK_LINES = 64;
/** Where a record's type stands in the lines this format writes: `{"v":1,"type":"…"` (JSON.stringify keeps key order). */
const TYPE_WITHIN_BYTES = 40;
const INFO_MARK = Buffer.from(SESSION_INFO_EVENT);

export interface Tail {
  current: LogEvent | undefined;
  info: SessionInfoRecord | undefined;
  /** The info line comes after the current plan in the file. */
  infoAfterPlan: boolean;
  /** The end of the last complete line. */
  completeEnd: number;
}

export class LogLines {
  constructor(
    private readonly fs: LogFileSystem,
    private readonly reports: LogReports,
  ) {}

  /** The record on a line, or undefined (blank lines silently, anything else reported). */
  parse(file: string, session: string, line: RawLine): LogRecord | undefined {
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

  /**
   * The last valid plan of the first `size` bytes, the newest session/info line near it,
   * and the end of the last complete line; undefined when the file cannot be read.
   */
  async tail(file: string, session: string, size: number): Promise<Tail | undefined> {
    try {
      let current: LogEvent | undefined;
      let info: SessionInfoRecord | undefined;
      let linesPastPlan = 0;
      let infoAfterPlan = false;
      const completeEnd = await scanBackward(this.fs, file, size, (line) => {
        if (current) linesPastPlan++;
        // Past the current plan only a session/info line is of use: others are not parsed.
        if (current && !mayBeInfoLine(line)) return linesPastPlan >= INFO_LOOKBACK_LINES;
        const record = this.parse(file, session, line);
        if (record && isCurrentPlan(record)) current ??= record;
        else if (record && !isPlanEvent(record) && !info) {
          info = record;
          infoAfterPlan = current === undefined;
        }
        return current !== undefined && (info !== undefined || linesPastPlan >= INFO_LOOKBACK_LINES);
      });
      return { current, info, infoAfterPlan, completeEnd };
    } catch (error) {
      this.reports.readFailed(file, error);
      return undefined;
    }
  }
}

/** Whether a line could be a session/info record: its type's name is near its start. */
function mayBeInfoLine(line: RawLine): boolean {
  if (line.bytes === undefined) return false;
  const head = line.bytes.subarray(0, TYPE_WITHIN_BYTES);
  return Buffer.from(head.buffer, head.byteOffset, head.byteLength).includes(INFO_MARK);
}

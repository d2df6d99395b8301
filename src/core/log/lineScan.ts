// Byte scanners over a log file: complete lines forwards or backwards, in bounded chunks,
// never buffering a line longer than MAX_LOG_LINE_BYTES. No parsing, no policy.
import type { LogFileSystem } from './fileSystem';

/** Read granularity of the scans; the current plan costs about one chunk. */
export const READ_CHUNK_BYTES = 64 * 1024;
/**
 * The longest line of Agent Plan's own log that is read. Far above the longest valid line
 * (100 items × 1000 characters, each at most 6 bytes escaped, is ~600 KB); longer lines are
 * skipped without being buffered whole.
 */
export const MAX_LOG_LINE_BYTES = 4 * 1024 * 1024;
/**
 * The longest line of another agent's session file that is parsed: its lines carry whole tool
 * inputs and outputs (files, patches, images), so far longer than a log line. A longer line is
 * reported and skipped rather than held in memory.
 */
export const MAX_FOREIGN_LINE_BYTES = 64 * 1024 * 1024;

export const NEWLINE = 0x0a;

/** One complete line (without its '\n'); `bytes` is undefined when it exceeded MAX_LOG_LINE_BYTES. */
export interface RawLine {
  start: number;
  bytes: Uint8Array | undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Hands complete lines before `size` to `onLine` from the last to the first, until it
 * returns true. Bytes after the last '\n' are a torn line and skipped. Returns the offset
 * just after the last '\n' (0 when there is none).
 */
export async function scanBackward(
  fs: LogFileSystem,
  file: string,
  size: number,
  onLine: (line: RawLine) => boolean,
): Promise<number> {
  const steps = backwardSteps(size, onLine);
  let step = steps.next();
  while (!step.done) step = steps.next(await fs.readRange(file, step.value.start, step.value.length));
  return step.value;
}

/** scanBackward with a synchronous read (a tail read where the caller cannot wait). */
export function scanBackwardNow(
  readRange: (start: number, length: number) => Uint8Array,
  size: number,
  onLine: (line: RawLine) => boolean,
): number {
  const steps = backwardSteps(size, onLine);
  let step = steps.next();
  while (!step.done) step = steps.next(readRange(step.value.start, step.value.length));
  return step.value;
}

/** The scan itself: yields each range it needs read and is handed its bytes. */
function* backwardSteps(size: number, onLine: (line: RawLine) => boolean): Generator<{ start: number; length: number }, number, Uint8Array> {
  let completeEnd = 0;
  let found = false;
  // Bytes of the line being assembled, which continues into later chunks; in file order.
  let pieces: Uint8Array[] = [];
  let piecesLength = 0;
  let tooLong = false;
  const emit = (start: number, head: Uint8Array): boolean => {
    const length = head.length + piecesLength;
    // A line inside one chunk is handed over in place; only one that spans chunks is copied.
    const bytes = tooLong || length > MAX_LOG_LINE_BYTES ? undefined : pieces.length === 0 ? head : Buffer.concat([head, ...pieces], length);
    pieces = [];
    piecesLength = 0;
    tooLong = false;
    return onLine({ start, bytes });
  };
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - READ_CHUNK_BYTES);
    const chunk = yield { start, length: end - start };
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
      if (tooLong || piecesLength + segmentEnd > MAX_LOG_LINE_BYTES) {
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
 * Hands complete lines in [from, to) to `onLine` in order, until it returns true; a
 * partial last line is left. Returns the offset just after the last line handed over.
 */
export async function scanForward(
  fs: LogFileSystem,
  file: string,
  from: number,
  to: number,
  onLine: (line: RawLine) => boolean | void,
): Promise<number> {
  let lineStart = from;
  let pieces: Uint8Array[] = [];
  let piecesLength = 0;
  let tooLong = false;
  let position = from;
  while (position < to) {
    const chunk = await fs.readRange(file, position, Math.min(READ_CHUNK_BYTES, to - position));
    if (chunk.length === 0) break;
    let segmentStart = 0;
    let newline = chunk.indexOf(NEWLINE, segmentStart);
    while (newline !== -1) {
      const length = piecesLength + newline - segmentStart;
      const bytes =
        tooLong || length > MAX_LOG_LINE_BYTES ? undefined : Buffer.concat([...pieces, chunk.subarray(segmentStart, newline)], length);
      const stop = onLine({ start: lineStart, bytes });
      pieces = [];
      piecesLength = 0;
      tooLong = false;
      segmentStart = newline + 1;
      lineStart = position + segmentStart;
      if (stop === true) return lineStart;
      newline = chunk.indexOf(NEWLINE, segmentStart);
    }
    if (segmentStart < chunk.length) {
      if (tooLong || piecesLength + chunk.length - segmentStart > MAX_LOG_LINE_BYTES) {
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

// One line appended to a log file, whole: a single write, and a fresh line first when the
// file ends in a torn one (a crash mid-append), so the torn bytes never swallow the record.
import { describeFsError, type LogFileSystem } from './fileSystem';
import { NEWLINE } from './lineScan';

/**
 * How long an unfinished last line must hold still before it counts as torn: longer than
 * another process's append can stall between two pages on a loaded machine (with 2 ms, four
 * writers on two busy cores once left an empty line).
 */
const TORN_SETTLE_MS = 50;
/** How often the file's size is looked at meanwhile. */
const TORN_LOOK_MS = 5;
/** An unfinished line still growing after this long counts as torn all the same. */
const TORN_GROWTH_MS = 1000;

/** A write (or delete) that failed; `message` is a short reason such as "no space left on device". */
export class LogWriteError extends Error {
  override name = 'LogWriteError';
}

/**
 * Appends `line` and its '\n' to `file` (creating `dir` if needed); rejects with a
 * LogWriteError. `readTo`, where a reader has read the file to (the end of a complete
 * line), spares the check for a torn end when the file has not grown since.
 */
export async function appendLine(fs: LogFileSystem, dir: string, file: string, line: string, readTo?: number): Promise<void> {
  try {
    const size = await fs.size(file);
    if (size === undefined) await fs.mkdirp(dir);
    const torn = size !== undefined && size === readTo ? false : await endsTorn(fs, file, size ?? 0);
    await fs.appendText(file, (torn ? '\n' : '') + line + '\n');
  } catch (error) {
    throw new LogWriteError(describeFsError(error, file), { cause: error });
  }
}

/**
 * Whether the file ends inside a line. Another process's append can be seen half copied
 * in, which looks the same as a crash's torn line; the difference is that it keeps
 * growing. So an unfinished end counts as torn only once the size holds still for
 * TORN_SETTLE_MS (a torn line from a crash never changes: the first append after it waits that once).
 */
async function endsTorn(fs: LogFileSystem, file: string, size: number): Promise<boolean> {
  const started = Date.now();
  let current = size;
  let stillSince = started;
  for (;;) {
    if (current === 0) return false;
    if ((await fs.readRange(file, current - 1, 1))[0] === NEWLINE) return false;
    const now = Date.now();
    if (now - stillSince >= TORN_SETTLE_MS || now - started >= TORN_GROWTH_MS) return true;
    await new Promise((resolve) => setTimeout(resolve, TORN_LOOK_MS));
    const next = (await fs.size(file)) ?? 0;
    if (next !== current) {
      current = next;
      stillSince = Date.now();
    }
  }
}

// One line appended to a log file, whole: a single write, and a fresh line first when the
// file ends in a torn one (a crash mid-append), so the torn bytes never swallow the record.
import { describeFsError, type LogFileSystem } from './fileSystem';
import { NEWLINE } from './lineScan';

/** How long an unfinished last line must stay unchanged before it counts as torn. */
const TORN_SETTLE_MS = 2;
const TORN_SETTLE_ATTEMPTS = 20;

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
 * growing. So an unfinished end counts as torn only once the size holds still for a
 * moment (a few short waits; a torn line from a crash never changes).
 */
async function endsTorn(fs: LogFileSystem, file: string, size: number): Promise<boolean> {
  let current = size;
  for (let attempt = 0; ; attempt++) {
    if (current === 0) return false;
    if ((await fs.readRange(file, current - 1, 1))[0] === NEWLINE) return false;
    if (attempt >= TORN_SETTLE_ATTEMPTS) return true;
    await new Promise((resolve) => setTimeout(resolve, TORN_SETTLE_MS));
    const next = (await fs.size(file)) ?? 0;
    if (next === current && attempt >= 1) return true;
    current = next;
  }
}

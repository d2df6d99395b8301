// The few file operations the session log needs, so the core stays free of any host API
// and tests can substitute a fake (a full disk, a counting wrapper).
//
// Failures reject with Node-style errors: an Error with a `code` such as 'ENOENT',
// 'ENOSPC', 'EACCES', 'EISDIR', 'ENOTREGULAR' (a FIFO, socket or device, never opened) and ideally `path`.

export interface LogFileSystem {
  /** Creates the folder and its parents; no-op when it exists. */
  mkdirp(dir: string): Promise<void>;
  /** Size in bytes, or undefined when nothing exists at `path`. */
  size(path: string): Promise<number | undefined>;
  /** Up to `length` bytes from byte `start`; fewer at end of file. */
  readRange(path: string, start: number, length: number): Promise<Uint8Array>;
  /**
   * readRange, synchronously: a plan dropped from memory read back where the caller cannot
   * wait (a tail read, a fraction of a millisecond). Without it every plan stays in memory.
   */
  readRangeNow?(path: string, start: number, length: number): Uint8Array;
  /** Appends `text` (UTF-8) with O_APPEND in one write, creating the file if needed. */
  appendText(path: string, text: string): Promise<void>;
  /** Entry names in `dir`; rejects with ENOENT when it does not exist. */
  readdir(dir: string): Promise<string[]>;
  /**
   * Creates the file holding `text` only if nothing exists at `path` (an exclusive create,
   * atomic across processes): true when created, false when it existed; rejects with
   * ENOENT when the folder is missing. Without it, the log takes no cross-process locks.
   */
  createExclusive?(path: string, text: string): Promise<boolean>;
  /** Sets the file's modification time to now (a lock holder's sign of life); rejects with ENOENT when it does not exist. */
  touch?(path: string): Promise<void>;
  /** Deletes the file; rejects with ENOENT when it does not exist. */
  remove(path: string): Promise<void>;
  /** When the file (or folder) was last written (ms since the epoch, this machine's clock), or undefined. */
  modifiedMs?(path: string): Promise<number | undefined>;
  /**
   * One stat of each of many files (a faster path for thousands): its size and when it was
   * last written, or undefined for one that is gone.
   */
  statMany?(paths: readonly string[]): Promise<(FileStamp | undefined)[]>;
}

/** What one stat of a file tells: enough to order files and to see whether one changed. */
export interface FileStamp {
  size: number;
  /** ms since the epoch, this machine's clock. */
  modifiedMs: number;
}

/** The `code` of a Node-style error, if any. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** A short reason a person (or the model) can act on, e.g. "no space left on device". */
export function describeFsError(error: unknown, path: string): string {
  const errPath = typeof error === 'object' && error !== null ? (error as { path?: unknown }).path : undefined;
  const where = typeof errPath === 'string' && errPath !== '' ? errPath : path;
  switch (errorCode(error)) {
    case 'ENOSPC':
      return 'no space left on device';
    case 'EDQUOT':
      return 'disk quota exceeded';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'read-only file system';
    case 'EISDIR':
      return `${where} is a directory`;
    case 'ENOTDIR':
      return `a parent of ${where} is not a directory`;
    case 'EEXIST':
      return `${where} already exists and is not a directory`;
    case 'ENOENT':
      return `${where} does not exist`;
    case 'EMFILE':
    case 'ENFILE':
      return 'too many open files';
    case 'EIO':
      return 'input/output error';
    case 'EFBIG':
      return 'file too large';
    case 'ENAMETOOLONG':
      return 'file name too long';
    case 'ENOTREGULAR':
      return `${where} is not a regular file (a FIFO, socket or device)`;
    default: {
      const message = error instanceof Error ? error.message : String(error);
      return message === '' ? 'unknown error' : message;
    }
  }
}

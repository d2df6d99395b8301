// Appends accepted calls to this process's own file in the inbox folder: one whole line per
// call in one write (O_APPEND), the file created 0600 in a folder created 0700, nothing
// written past the bounds. A failed write never leaves a partial line behind.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { INBOX_BOUNDS, INBOX_FULL, SHORT_WRITE, ioReason } from './inboxBounds';
import { inboxFileName } from './inboxLine';

export type AppendResult = { ok: true } | { ok: false; reason: string };

const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

export class InboxWriter {
  private file: { fd: number; path: string; size: number } | undefined;

  constructor(
    readonly folder: string,
    private readonly name: () => string,
  ) {}

  static forProcess(folder: string, now: Date, pid: number, random: string): InboxWriter {
    return new InboxWriter(folder, () => inboxFileName(now, pid, random));
  }

  /** The file this process writes, once it has written one line. */
  get filePath(): string | undefined {
    return this.file?.path;
  }

  append(line: string): AppendResult {
    const bytes = Buffer.from(line, 'utf8');
    try {
      if (this.file !== undefined && this.file.size + bytes.length > INBOX_BOUNDS.maxFileBytes) return { ok: false, reason: INBOX_FULL.file };
      const full = folderFull(this.folder, bytes.length, this.file === undefined);
      if (full !== undefined) return { ok: false, reason: full };
      const file = this.file ?? this.open();
      return writeWhole(file, bytes);
    } catch (error) {
      return { ok: false, reason: ioReason(error) };
    }
  }

  close(): void {
    if (this.file === undefined) return;
    try {
      fs.closeSync(this.file.fd);
    } catch {
      // Closing at exit: nothing left to do about it.
    }
    this.file = undefined;
  }

  private open(): { fd: number; path: string; size: number } {
    fs.mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    const file = path.join(this.folder, this.name());
    const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | fs.constants.O_EXCL | O_NOFOLLOW, 0o600);
    // The mode given to open is masked by the umask; the file holds the user's plans, so make sure.
    if (process.platform !== 'win32') fs.fchmodSync(fd, 0o600);
    this.file = { fd, path: file, size: 0 };
    return this.file;
  }
}

/** One write of the whole line; a short write is taken back, so the file never ends in half a line. */
function writeWhole(file: { fd: number; size: number }, bytes: Buffer): AppendResult {
  let written = 0;
  try {
    written = fs.writeSync(file.fd, bytes, 0, bytes.length);
  } catch (error) {
    takeBack(file);
    return { ok: false, reason: ioReason(error) };
  }
  if (written !== bytes.length) {
    takeBack(file);
    return { ok: false, reason: SHORT_WRITE };
  }
  file.size += bytes.length;
  return { ok: true };
}

function takeBack(file: { fd: number; size: number }): void {
  try {
    // Only this process writes its file, so its size before the write is where the last line ended.
    fs.ftruncateSync(file.fd, file.size);
  } catch {
    // The next append still starts after a whole line if the write itself wrote nothing.
  }
}

/** Why the folder cannot take `adding` more bytes (and one more file when `newFile`), or undefined. */
function folderFull(folder: string, adding: number, newFile: boolean): string | undefined {
  let dir: fs.Dir;
  try {
    dir = fs.opendirSync(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let files = newFile ? 1 : 0;
  let bytes = adding;
  try {
    for (let entry = dir.readSync(); entry !== null; entry = dir.readSync()) {
      files++;
      if (files > INBOX_BOUNDS.maxFolderFiles) return INBOX_FULL.folderFiles;
      if (!entry.isFile()) continue;
      try {
        bytes += fs.lstatSync(path.join(folder, entry.name)).size;
      } catch {
        continue; // removed meanwhile
      }
      if (bytes > INBOX_BOUNDS.maxFolderBytes) return INBOX_FULL.folderBytes;
    }
  } finally {
    dir.closeSync();
  }
  return undefined;
}

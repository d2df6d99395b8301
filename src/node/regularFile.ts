// The one way Agent Plan opens a file to read it: only a regular file. Every file it reads
// (git's files, other agents' transcripts, its own logs and cursors) may have been replaced
// by another program with a FIFO, a socket or a device. Opening a FIFO that has no writer
// never returns and holds one of the four libuv threads every extension in the host shares;
// a device can be endless. So: a stat first (nothing that is not a regular file is opened),
// then an open with O_NONBLOCK (a FIFO swapped in after the stat opens at once instead of
// blocking), then an fstat of the handle (what was opened is what is read).
import * as fsSync from 'node:fs';
import * as fsp from 'node:fs/promises';

/** The error `code` of a path that names something other than a regular file. */
export const NOT_REGULAR_FILE = 'ENOTREGULAR';

const READ_FLAGS = fsSync.constants.O_RDONLY | (fsSync.constants.O_NONBLOCK ?? 0);
const APPEND_FLAGS =
  fsSync.constants.O_WRONLY | fsSync.constants.O_APPEND | fsSync.constants.O_CREAT | (fsSync.constants.O_NONBLOCK ?? 0);

/** What kind of thing a stat names, in words for the report. */
function kindOf(stat: fsSync.Stats | fsSync.BigIntStats): string {
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isDirectory()) return 'a folder';
  return 'not a regular file';
}

/** A Node-style error for `path` naming something that is not a regular file; its message is stable. */
export function notRegularFile(path: string, stat: fsSync.Stats | fsSync.BigIntStats): NodeJS.ErrnoException {
  const kind = kindOf(stat);
  const error: NodeJS.ErrnoException = new Error(
    kind === 'not a regular file' ? `${path} is not a regular file; skipped` : `${path} is ${kind}, not a regular file; skipped`,
  );
  // A folder keeps the code every caller already knows for it.
  error.code = stat.isDirectory() ? 'EISDIR' : NOT_REGULAR_FILE;
  error.path = path;
  return error;
}

/**
 * Opens `path` for reading only if it is a regular file; rejects with a Node-style error
 * (ENOENT when nothing is there, NOT_REGULAR_FILE or EISDIR otherwise) and never blocks on a
 * FIFO. The caller closes the handle.
 */
export async function openRegularFile(path: string): Promise<fsp.FileHandle> {
  const before = await fsp.stat(path);
  if (!before.isFile()) throw notRegularFile(path, before);
  const handle = await fsp.open(path, READ_FLAGS);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw notRegularFile(path, stat);
    return handle;
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

/** openRegularFile, synchronously (a tail read where the caller cannot wait); the caller closes the fd. */
export function openRegularFileSync(path: string): number {
  const before = fsSync.statSync(path);
  if (!before.isFile()) throw notRegularFile(path, before);
  const fd = fsSync.openSync(path, READ_FLAGS);
  try {
    const stat = fsSync.fstatSync(fd);
    if (!stat.isFile()) throw notRegularFile(path, stat);
    return fd;
  } catch (error) {
    fsSync.closeSync(fd);
    throw error;
  }
}

/**
 * Opens `path` to append, creating it as a regular file when missing; an existing FIFO,
 * socket or device is refused (opening a FIFO to write blocks until a reader comes).
 */
export async function openRegularFileToAppend(path: string): Promise<fsp.FileHandle> {
  const before = await fsp.stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (before !== undefined && !before.isFile()) throw notRegularFile(path, before);
  const handle = await fsp.open(path, APPEND_FLAGS);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw notRegularFile(path, stat);
    return handle;
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

/**
 * The whole text of a regular file (UTF-8), at most `maxBytes` of it: for small files
 * (cursors, an agent's project list). Rejects like openRegularFile, and with EFBIG when
 * the file is longer than `maxBytes`.
 */
export async function readRegularFileText(path: string, maxBytes: number): Promise<string> {
  const handle = await openRegularFile(path);
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) {
      const error: NodeJS.ErrnoException = new Error(`${path} is longer than ${maxBytes} bytes; skipped`);
      error.code = 'EFBIG';
      error.path = path;
      throw error;
    }
    return (await readAll(handle, size)).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** The first `size` bytes of an open file (fewer when it is shorter by now), read from its start. */
export async function readAll(handle: fsp.FileHandle, size: number): Promise<Buffer> {
  const buffer = Buffer.alloc(size);
  let filled = 0;
  while (filled < size) {
    const { bytesRead } = await handle.read(buffer, filled, size - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

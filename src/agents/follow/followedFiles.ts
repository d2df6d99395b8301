// How a follower opens the files it follows: identity (dev:ino) and size come from the
// open handle, so a file swapped in between cannot mix two files' bytes.
import * as fsp from 'node:fs/promises';
import { readFully } from '../../node/nodeFileSystem';
import { openRegularFile } from '../../node/regularFile';

/** One followed file opened for reading: its identity and size at open, and reads from the same handle. */
export interface OpenedFile {
  /** dev:ino of the open file: a different value means the path now names another file. */
  readonly identity: string;
  readonly size: number;
  /** When it was last written, as the open handle's stat says (ms since the epoch). */
  readonly modifiedMs: number;
  read(start: number, length: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** One stat of a followed file: enough to tell whether it changed since it was last read. */
export interface FileLook {
  identity: string;
  size: number;
  modifiedMs: number;
}

/** How the follower reads followed files; tests wrap it to count bytes. */
export interface FollowedFileReader {
  /** Opens `file` for reading, or resolves undefined when nothing is there. */
  open(file: string): Promise<OpenedFile | undefined>;
  /** One stat, without opening: undefined when no file is there. Default: node:fs. */
  look?(file: string): Promise<FileLook | undefined>;
}

/** One stat of `file` through node:fs; undefined when no file is there. */
export async function lookAt(file: string): Promise<FileLook | undefined> {
  try {
    const stat = await fsp.stat(file, { bigint: true });
    return stat.isFile() ? { identity: `${stat.dev}:${stat.ino}`, size: Number(stat.size), modifiedMs: Number(stat.mtimeMs) } : undefined;
  } catch {
    return undefined;
  }
}

/** FollowedFileReader over node:fs. */
export const nodeFollowedFileReader: FollowedFileReader = {
  look: lookAt,
  async open(file: string): Promise<OpenedFile | undefined> {
    let handle: fsp.FileHandle;
    try {
      // A FIFO, socket or device is refused unopened: the follower reports it once per file.
      handle = await openRegularFile(file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
      throw error;
    }
    try {
      const stat = await handle.stat({ bigint: true });
      return {
        identity: `${stat.dev}:${stat.ino}`,
        size: Number(stat.size),
        modifiedMs: Number(stat.mtimeMs),
        read: (start: number, length: number) => readFully(handle, start, length),
        close: () => handle.close(),
      };
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  },
};

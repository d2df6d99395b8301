// How a follower opens the files it follows: identity (dev:ino) and size come from the
// open handle, so a file swapped in between cannot mix two files' bytes.
import * as fsp from 'node:fs/promises';
import { readFully } from './nodeFileSystem';

/** One followed file opened for reading: its identity and size at open, and reads from the same handle. */
export interface OpenedFile {
  /** dev:ino of the open file: a different value means the path now names another file. */
  readonly identity: string;
  readonly size: number;
  read(start: number, length: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** How the follower reads followed files; tests wrap it to count bytes. */
export interface FollowedFileReader {
  /** Opens `file` for reading, or resolves undefined when nothing is there. */
  open(file: string): Promise<OpenedFile | undefined>;
}

/** FollowedFileReader over node:fs. */
export const nodeFollowedFileReader: FollowedFileReader = {
  async open(file: string): Promise<OpenedFile | undefined> {
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(file, 'r');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw error;
    }
    try {
      const stat = await handle.stat({ bigint: true });
      if (!stat.isFile()) {
        await handle.close();
        return undefined;
      }
      return {
        identity: `${stat.dev}:${stat.ino}`,
        size: Number(stat.size),
        read: (start: number, length: number) => readFully(handle, start, length),
        close: () => handle.close(),
      };
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  },
};

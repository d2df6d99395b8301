// LogFileSystem over node:fs/promises: what the extension host (local or remote) uses.
// Every read and append goes through regularFile.ts: a FIFO, socket or device is refused.
import * as fsSync from 'node:fs';
import * as fs from 'node:fs/promises';
import type { FileStamp, LogFileSystem } from '../core/log/fileSystem';
import { openRegularFile, openRegularFileSync, openRegularFileToAppend } from './regularFile';

export class NodeFileSystem implements LogFileSystem {
  async mkdirp(dir: string): Promise<void> {
    await fs.mkdir(dir, { recursive: true });
  }

  async size(path: string): Promise<number | undefined> {
    try {
      return (await fs.stat(path)).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async modifiedMs(path: string): Promise<number | undefined> {
    try {
      return (await fs.stat(path)).mtimeMs;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /**
   * Thousands of stats, synchronously in slices: a promise per stat costs several times the
   * stat itself; a slice of 500 holds the thread well under 10 ms before it yields.
   */
  async statMany(paths: readonly string[]): Promise<(FileStamp | undefined)[]> {
    const stamps = new Array<FileStamp | undefined>(paths.length);
    for (let start = 0; start < paths.length; start += 500) {
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      for (let i = start; i < Math.min(paths.length, start + 500); i++) {
        const stat = fsSync.statSync(paths[i] as string, { throwIfNoEntry: false });
        stamps[i] = stat ? { size: stat.size, modifiedMs: stat.mtimeMs } : undefined;
      }
    }
    return stamps;
  }

  async readRange(path: string, start: number, length: number): Promise<Uint8Array> {
    const handle = await openRegularFile(path);
    try {
      return await readFully(handle, start, length);
    } finally {
      await handle.close();
    }
  }

  readRangeNow(path: string, start: number, length: number): Uint8Array {
    const fd = openRegularFileSync(path);
    try {
      const buffer = Buffer.alloc(length);
      let filled = 0;
      while (filled < length) {
        const bytesRead = fsSync.readSync(fd, buffer, filled, length - filled, start + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return buffer.subarray(0, filled);
    } finally {
      fsSync.closeSync(fd);
    }
  }

  async appendText(path: string, text: string): Promise<void> {
    // fs.appendFile splits large data into 512 KiB writes; one write() keeps a record whole
    // for concurrent O_APPEND writers. The loop only runs again after a short write.
    const data = Buffer.from(text, 'utf8');
    const handle = await openRegularFileToAppend(path);
    try {
      let written = 0;
      while (written < data.length) {
        const { bytesWritten } = await handle.write(data, written, data.length - written);
        written += bytesWritten;
      }
    } finally {
      await handle.close();
    }
  }

  async createExclusive(path: string, text: string): Promise<boolean> {
    try {
      await fs.writeFile(path, text, { flag: 'wx' });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
  }

  readdir(dir: string): Promise<string[]> {
    return fs.readdir(dir);
  }

  async touch(path: string): Promise<void> {
    const now = new Date();
    await fs.utimes(path, now, now);
  }

  remove(path: string): Promise<void> {
    return fs.unlink(path);
  }
}

export const nodeFileSystem: LogFileSystem = new NodeFileSystem();

/** Up to `length` bytes from `start`, fewer only at the end of the file (a read may return less than asked). */
export async function readFully(handle: fs.FileHandle, start: number, length: number): Promise<Uint8Array> {
  const buffer = Buffer.alloc(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, start + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

// Listing and first lines of JSONL session files, with node:fs. Read-only; a missing folder lists nothing.
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { openRegularFile } from '../../node/regularFile';

/** `*.jsonl` files directly in `folder` (absolute, sorted); [] when it is missing. */
export async function jsonlFilesIn(folder: string, accept: (name: string) => boolean = () => true): Promise<string[]> {
  let entries;
  try {
    entries = await fsp.readdir(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.jsonl') && accept(entry.name))
    .map((entry) => path.join(folder, entry.name))
    .sort();
}

/** The first line of `file` without its newline, or undefined while it has none (or the file is gone). */
export async function readFirstLine(file: string, maxBytes: number): Promise<string | undefined> {
  let handle: fsp.FileHandle;
  try {
    handle = await openRegularFile(file);
  } catch {
    return undefined;
  }
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    while (total < maxBytes) {
      const chunk = Buffer.alloc(Math.min(16 * 1024, maxBytes - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, total);
      if (bytesRead === 0) return undefined;
      const part = chunk.subarray(0, bytesRead);
      const newline = part.indexOf(0x0a);
      if (newline >= 0) {
        chunks.push(part.subarray(0, newline));
        return Buffer.concat(chunks).toString('utf8');
      }
      chunks.push(part);
      total += bytesRead;
    }
    // A first line this long is no session_meta line we know: decide "not ours" by giving it as is.
    return Buffer.concat(chunks).toString('utf8');
  } catch {
    return undefined;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

// Shared test scaffolding: real temp folders, and file systems that count or fail.
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { LogFileSystem } from '../../src/core/fileSystem';
import { nodeFileSystem } from '../../src/node/nodeFileSystem';

/** A fresh folder under the OS temp dir, removed after the current suite. */
export function useTempDir(): { readonly path: string } {
  const holder = { path: '' };
  beforeEach(async () => {
    holder.path = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-plan-unit-'));
  });
  afterEach(async () => {
    await fs.chmod(holder.path, 0o700).catch(() => undefined);
    await fs.rm(holder.path, { recursive: true, force: true });
  });
  return holder;
}

/** Wraps a file system and counts what goes through it. */
export class CountingFileSystem implements LogFileSystem {
  bytesRead = 0;
  reads = 0;
  appends = 0;

  constructor(private readonly inner: LogFileSystem = nodeFileSystem) {}

  mkdirp(dir: string): Promise<void> {
    return this.inner.mkdirp(dir);
  }
  size(p: string): Promise<number | undefined> {
    return this.inner.size(p);
  }
  async readRange(p: string, start: number, length: number): Promise<Uint8Array> {
    const bytes = await this.inner.readRange(p, start, length);
    this.reads++;
    this.bytesRead += bytes.length;
    return bytes;
  }
  appendText(p: string, text: string): Promise<void> {
    this.appends++;
    return this.inner.appendText(p, text);
  }
  readdir(dir: string): Promise<string[]> {
    return this.inner.readdir(dir);
  }
  remove(p: string): Promise<void> {
    return this.inner.remove(p);
  }
  async modifiedMs(p: string): Promise<number | undefined> {
    return this.inner.modifiedMs?.(p);
  }
}

/** A Node-style error, as the real file system would reject with. */
export function fsError(code: string, message: string, errPath?: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}`), { code, ...(errPath ? { path: errPath } : {}) });
}

/** Delegates everything to the real file system except appendText, which fails. */
export class FailingAppendFileSystem extends CountingFileSystem {
  constructor(private readonly error: Error) {
    super();
  }
  override async appendText(): Promise<void> {
    this.appends++;
    throw this.error;
  }
}

export const KEY_A = 'a'.repeat(32);
export const KEY_B = '0123456789abcdef0123456789abcdef';

// Only regular files are opened: a FIFO, a socket or a device is refused before any open
// (opening a FIFO with no writer would never return), by every reader that goes through
// src/node/regularFile.ts. POSIX only: mkfifo makes the FIFOs.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { describeFsError } from '../../../src/core/log/fileSystem';
import { discoverWorktrees } from '../../../src/core/worktrees/worktrees';
import { nodeFollowedFileReader } from '../../../src/agents/follow/followedFiles';
import { readFirstLine } from '../../../src/agents/follow/jsonlFiles';
import { nodeFileSystem } from '../../../src/node/nodeFileSystem';
import { NOT_REGULAR_FILE, openRegularFile, openRegularFileSync, readRegularFileText } from '../../../src/node/regularFile';
import { useTempDir } from '../../lib/temp';

const posix = process.platform !== 'win32';

/** Fails the test instead of hanging it when a read blocks on a FIFO. */
async function within<T>(what: string, promise: Promise<T>, ms = 5000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not return: it blocked on a FIFO`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe('regular files only', function () {
  const tmp = useTempDir();
  before(function () {
    if (!posix) this.skip();
  });

  function fifo(name: string): string {
    const file = path.join(tmp.path, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    execFileSync('mkfifo', [file]);
    return file;
  }

  it('opens and reads a regular file', async () => {
    const file = path.join(tmp.path, 'plain.txt');
    fs.writeFileSync(file, 'hello\n');
    const handle = await openRegularFile(file);
    assert.equal((await handle.stat()).size, 6);
    await handle.close();
    fs.closeSync(openRegularFileSync(file));
    assert.equal(await readRegularFileText(file, 100), 'hello\n');
    await assert.rejects(readRegularFileText(file, 3), { code: 'EFBIG' });
  });

  it('refuses a FIFO, a socket and a device with a stable reason, without opening them', async () => {
    const pipe = fifo('pipe');
    await assert.rejects(within('openRegularFile', openRegularFile(pipe)), { code: NOT_REGULAR_FILE, message: `${pipe} is a FIFO, not a regular file; skipped` });
    assert.throws(() => openRegularFileSync(pipe), { code: NOT_REGULAR_FILE });
    await assert.rejects(within('readRegularFileText', readRegularFileText(pipe, 100)), { code: NOT_REGULAR_FILE });
    await assert.rejects(openRegularFile('/dev/zero'), { code: NOT_REGULAR_FILE, message: '/dev/zero is a device, not a regular file; skipped' });
    await assert.rejects(openRegularFile(tmp.path), { code: 'EISDIR' });
    await assert.rejects(openRegularFile(path.join(tmp.path, 'missing')), { code: 'ENOENT' });
    const socketPath = path.join(tmp.path, 's.sock');
    const server = net.createServer().listen(socketPath);
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      await assert.rejects(openRegularFile(socketPath), { message: `${socketPath} is a socket, not a regular file; skipped` });
    } finally {
      server.close();
    }
    assert.equal(describeFsError(Object.assign(new Error('x'), { code: NOT_REGULAR_FILE }), pipe), `${pipe} is not a regular file (a FIFO, socket or device)`);
  });

  it("the log's file system neither reads nor appends to a FIFO", async () => {
    const pipe = fifo('sessions/s.jsonl');
    await assert.rejects(within('readRange', nodeFileSystem.readRange(pipe, 0, 10)), { code: NOT_REGULAR_FILE });
    assert.throws(() => nodeFileSystem.readRangeNow!(pipe, 0, 10), { code: NOT_REGULAR_FILE });
    await assert.rejects(within('appendText', nodeFileSystem.appendText(pipe, 'x\n')), { code: NOT_REGULAR_FILE });
  });

  it('a FIFO transcript is refused by the follower reader and the first-line reader', async () => {
    const pipe = fifo('projects/a/session.jsonl');
    await assert.rejects(within('follower open', nodeFollowedFileReader.open(pipe)), { code: NOT_REGULAR_FILE });
    assert.equal(await within('readFirstLine', readFirstLine(pipe, 1000)), undefined);
  });

  it('worktree discovery passes over a FIFO .git (and a FIFO HEAD) instead of blocking', async () => {
    const repo = path.join(tmp.path, 'repo');
    fifo('repo/.git');
    assert.equal(await within('discovery', discoverWorktrees(nodeFileSystem, repo)), undefined);
    // A real repository whose HEAD is a FIFO: found, with no branch.
    const real = path.join(tmp.path, 'real');
    fs.mkdirSync(path.join(real, '.git'), { recursive: true });
    fifo('real/.git/HEAD');
    const found = await within('discovery', discoverWorktrees(nodeFileSystem, real));
    assert.deepEqual(found?.worktrees, [{ path: real, main: true, exists: true }]);
  });
});

// The per-session import lock over real files: exclusive, released at once, taken over
// from a dead, stale or too slow owner, never blocking for long.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LogFileSystem } from '../../src/core/fileSystem';
import { SessionLocks, type SessionLockOptions } from '../../src/core/sessionLock';
import { hashIdentity } from '../../src/core/sessionKey';
import { processAlive } from '../../src/node/lockOwner';
import { NodeFileSystem } from '../../src/node/nodeFileSystem';
import { CountingFileSystem, useTempDir } from './helpers';

const KEY = hashIdentity('lock-test');
const nodeFs = new NodeFileSystem();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('session locks', () => {
  const tmp = useTempDir();
  const locksDir = () => path.join(tmp.path, '.locks');
  const locks = (options: Partial<SessionLockOptions> = {}, fileSystem: LogFileSystem = nodeFs) =>
    new SessionLocks(fileSystem, locksDir(), { pid: process.pid, host: 'here', isAlive: () => true, ...options });

  it('holds the lock file during the task and removes it at once; the folder is made when needed', async () => {
    const lock = locks();
    const file = lock.fileFor(KEY);
    assert.equal(file, path.join(locksDir(), `${KEY}.lock`));
    let during: unknown;
    const result = await lock.run(KEY, async () => {
      during = JSON.parse(fs.readFileSync(file, 'utf8'));
      return 42;
    });
    assert.equal(result, 42);
    assert.equal((during as { pid: number }).pid, process.pid);
    assert.equal(fs.existsSync(file), false);
    assert.deepEqual(lock.stats, { taken: 1, waits: 0, takeovers: 0, unlocked: 0 });
  });

  it('two holders (two processes sharing the folder) never run their tasks at once', async () => {
    const a = locks({ pid: 1001 });
    const b = locks({ pid: 1002 });
    let inside = 0;
    let most = 0;
    const task = async () => {
      inside++;
      most = Math.max(most, inside);
      await sleep(2);
      inside--;
    };
    await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).run(KEY, task)));
    assert.equal(most, 1);
    assert.equal(a.stats.taken + b.stats.taken, 20);
    assert.ok(a.stats.waits + b.stats.waits > 0, 'one waited for the other');
    assert.equal(a.stats.takeovers + b.stats.takeovers, 0);
  });

  it('a task that throws releases the lock and passes the error on', async () => {
    const lock = locks();
    await assert.rejects(lock.run(KEY, () => Promise.reject(new Error('boom'))), /boom/);
    assert.equal(fs.existsSync(lock.fileFor(KEY)), false);
  });

  it("takes over at once a lock whose owner process is gone (this host), and judges another host's by age", async () => {
    fs.mkdirSync(locksDir(), { recursive: true });
    const lock = locks({ isAlive: (pid) => pid !== 4242 });
    fs.writeFileSync(lock.fileFor(KEY), JSON.stringify({ pid: 4242, host: 'here', at: Date.now(), token: '4242.1' }));
    const started = Date.now();
    await lock.run(KEY, async () => undefined);
    assert.ok(Date.now() - started < 100, 'no wait for a dead owner');
    assert.equal(lock.stats.takeovers, 1);

    fs.writeFileSync(lock.fileFor(KEY), JSON.stringify({ pid: 4242, host: 'elsewhere', at: Date.now() - 60_000, token: '4242.2' }));
    await lock.run(KEY, async () => undefined);
    assert.equal(lock.stats.takeovers, 2, 'stale by age');
  });

  it('never blocks for long: a live owner that holds on is taken over after the wait bound', async () => {
    fs.mkdirSync(locksDir(), { recursive: true });
    const lock = locks({ waitMs: 60, staleMs: 60_000 });
    fs.writeFileSync(lock.fileFor(KEY), JSON.stringify({ pid: 1, host: 'here', at: Date.now(), token: '1.1' }));
    const started = Date.now();
    await lock.run(KEY, async () => undefined);
    const waited = Date.now() - started;
    assert.ok(waited >= 55 && waited < 1000, `waited ${waited} ms`);
    assert.deepEqual(lock.stats, { taken: 1, waits: 1, takeovers: 1, unlocked: 0 });
  });

  it('an empty or unreadable lock file is judged by its age', async () => {
    fs.mkdirSync(locksDir(), { recursive: true });
    const lock = locks({ staleMs: 1000, waitMs: 5000 });
    const file = lock.fileFor(KEY);
    fs.writeFileSync(file, '');
    const old = new Date(Date.now() - 10_000);
    fs.utimesSync(file, old, old);
    const started = Date.now();
    await lock.run(KEY, async () => undefined);
    assert.ok(Date.now() - started < 500);
    fs.writeFileSync(file, 'not a lock');
    fs.utimesSync(file, old, old);
    await lock.run(KEY, async () => undefined);
    assert.equal(lock.stats.takeovers, 2);
  });

  it('releases only its own lock: one taken over meanwhile stays', async () => {
    const lock = locks();
    const file = lock.fileFor(KEY);
    const other = JSON.stringify({ pid: 7, host: 'here', at: Date.now(), token: '7.1' });
    await lock.run(KEY, async () => {
      fs.writeFileSync(file, other);
    });
    assert.equal(fs.readFileSync(file, 'utf8'), other);
  });

  it('without an exclusive create, or when the folder cannot hold a lock, the task runs unlocked', async () => {
    const plain = new CountingFileSystem();
    const lock = locks({}, plain);
    assert.equal(await lock.run(KEY, async () => 'ran'), 'ran');
    assert.equal(lock.stats.unlocked, 1);

    fs.writeFileSync(path.join(tmp.path, 'file'), '');
    const blocked = new SessionLocks(nodeFs, path.join(tmp.path, 'file', 'locks'), { pid: 1, host: 'here', isAlive: () => true });
    assert.equal(await blocked.run(KEY, async () => 'ran'), 'ran');
    assert.equal(blocked.stats.unlocked, 1);
  });

  it('a lock that cannot be removed (a folder in its place) holds a step up for twice the wait bound at most', async () => {
    const lock = locks({ waitMs: 40, staleMs: 60_000 });
    fs.mkdirSync(lock.fileFor(KEY), { recursive: true });
    const started = Date.now();
    assert.equal(await lock.run(KEY, async () => 'ran'), 'ran');
    const waited = Date.now() - started;
    assert.ok(waited >= 75 && waited < 1000, `waited ${waited} ms`);
    assert.equal(lock.stats.unlocked, 1);
  });

  it('a lock file name comes from a session key only', () => {
    assert.throws(() => locks().fileFor('../x'), TypeError);
    assert.throws(() => locks().fileFor(KEY.toUpperCase()), TypeError);
  });

  it('processAlive: this process runs, a pid that cannot exist does not', () => {
    assert.equal(processAlive(process.pid), true);
    assert.equal(processAlive(-1), false);
    assert.equal(processAlive(2 ** 31), false);
  });
});

// The per-session import lock over real files: exclusive, released at once, taken over
// from a dead owner (this host) or one that stopped refreshing it (another host), never
// from a live one by time.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LogFileSystem } from '../../src/core/log/fileSystem';
import { SessionLocks, type SessionLockOptions } from '../../src/core/log/sessionLock';
import { hashIdentity } from '../../src/core/log/sessionKey';
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
    assert.deepEqual(lock.stats, { taken: 1, waits: 0, takeovers: 0, staleTakeovers: 0, unlocked: 0 });
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

  it('takes over at once a lock whose owner process is gone (this host)', async () => {
    fs.mkdirSync(locksDir(), { recursive: true });
    const lock = locks({ isAlive: (pid) => pid !== 4242 });
    fs.writeFileSync(lock.fileFor(KEY), JSON.stringify({ pid: 4242, host: 'here', at: Date.now(), token: '4242.1' }));
    const started = Date.now();
    await lock.run(KEY, async () => undefined);
    assert.ok(Date.now() - started < 100, 'no wait for a dead owner');
    assert.deepEqual(lock.stats, { taken: 1, waits: 0, takeovers: 1, staleTakeovers: 0, unlocked: 0 });
    assert.deepEqual(fs.readdirSync(locksDir()), [], 'no lock and no takeover marker left behind');
  });

  it('never takes over a live owner of this host by time: it waits, however long, until the owner releases', async () => {
    fs.mkdirSync(locksDir(), { recursive: true });
    const lock = locks({ remoteStaleMs: 20 });
    const file = lock.fileFor(KEY);
    fs.writeFileSync(file, JSON.stringify({ pid: 1, host: 'here', at: Date.now() - 3_600_000, token: '1.1' }));
    const old = new Date(Date.now() - 3_600_000);
    fs.utimesSync(file, old, old);
    const started = Date.now();
    setTimeout(() => fs.unlinkSync(file), 300);
    await lock.run(KEY, async () => undefined);
    const waited = Date.now() - started;
    assert.ok(waited >= 290, `waited ${waited} ms for the live owner`);
    assert.deepEqual(lock.stats, { taken: 1, waits: 1, takeovers: 0, staleTakeovers: 0, unlocked: 0 });
  });

  it("another host's holder keeps its lock by refreshing it while it works; one that stops refreshing is taken over", async () => {
    const there = locks({ host: 'there', pid: 77, heartbeatMs: 15 });
    const here = locks({ remoteStaleMs: 120 });
    let order: string[] = [];
    const slow = there.run(KEY, async () => {
      order.push('there starts');
      await sleep(500);
      order.push('there ends');
    });
    await sleep(20);
    await here.run(KEY, async () => {
      order.push('here');
    });
    await slow;
    assert.deepEqual(order, ['there starts', 'there ends', 'here'], 'the refreshed lock was waited for');
    assert.equal(here.stats.takeovers, 0);

    // A holder of another machine that stopped (its lock no longer changes) is judged gone after remoteStaleMs.
    order = [];
    fs.writeFileSync(here.fileFor(KEY), JSON.stringify({ pid: 77, host: 'there', at: Date.now(), token: '77.9' }));
    const started = Date.now();
    await here.run(KEY, async () => undefined);
    const waited = Date.now() - started;
    assert.ok(waited >= 110 && waited < 2000, `waited ${waited} ms`);
    assert.deepEqual(here.stats, { taken: 2, waits: 2, takeovers: 1, staleTakeovers: 1, unlocked: 0 });
  });

  it('an empty or unreadable lock file is taken over once it has not changed for remoteStaleMs', async () => {
    fs.mkdirSync(locksDir(), { recursive: true });
    const lock = locks({ remoteStaleMs: 60 });
    const file = lock.fileFor(KEY);
    fs.writeFileSync(file, '');
    const started = Date.now();
    await lock.run(KEY, async () => undefined);
    assert.ok(Date.now() - started >= 55);
    fs.writeFileSync(file, 'not a lock');
    await lock.run(KEY, async () => undefined);
    assert.equal(lock.stats.takeovers, 2);
    assert.equal(lock.stats.staleTakeovers, 2);
  });

  it('several waiters that find the same dead lock take it over once between them, and never two hold it', async () => {
    fs.mkdirSync(locksDir(), { recursive: true });
    const waiters = Array.from({ length: 6 }, (_, i) => locks({ pid: 2000 + i, isAlive: (pid) => pid !== 4242 }));
    const file = waiters[0]!.fileFor(KEY);
    let inside = 0;
    let most = 0;
    const task = async () => {
      inside++;
      most = Math.max(most, inside);
      await sleep(3);
      inside--;
    };
    for (let round = 0; round < 20; round++) {
      fs.writeFileSync(file, JSON.stringify({ pid: 4242, host: 'here', at: Date.now(), token: `4242.${round}` }));
      await Promise.all(waiters.map((waiter) => waiter.run(KEY, task)));
    }
    assert.equal(most, 1, 'one holder at a time');
    assert.equal(waiters.reduce((sum, waiter) => sum + waiter.stats.takeovers, 0), 20, 'one takeover per dead lock');
    assert.deepEqual(fs.readdirSync(locksDir()), []);
  });

  it('a takeover marker left by a waiter whose process died is cleared, and the lock it names taken over', async () => {
    fs.mkdirSync(locksDir(), { recursive: true });
    const file = locks().fileFor(KEY);
    const dead = JSON.stringify({ pid: 4242, host: 'here', at: Date.now(), token: '4242.1' });
    fs.writeFileSync(file, dead);
    // A marker of a waiter that died (pid 4343) stands where this waiter's own would go.
    const names: string[] = [];
    const spy = new (class extends NodeFileSystem {
      override async createExclusive(target: string, text: string): Promise<boolean> {
        if (target.endsWith('.takeover') && names.length === 0) {
          names.push(target);
          fs.writeFileSync(target, JSON.stringify({ pid: 4343, host: 'here', at: Date.now(), token: '4343.1' }));
        }
        return super.createExclusive(target, text);
      }
    })();
    const again = locks({ isAlive: (pid) => pid !== 4242 && pid !== 4343 }, spy);
    await again.run(KEY, async () => undefined);
    assert.equal(names.length, 1, 'the dead marker was met');
    assert.equal(again.stats.takeovers, 1);
    assert.deepEqual(fs.readdirSync(locksDir()), []);
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

  it('a lock that cannot be removed (a folder in its place) holds a step up for remoteStaleMs, then it runs unlocked', async () => {
    const lock = locks({ remoteStaleMs: 40 });
    fs.mkdirSync(lock.fileFor(KEY), { recursive: true });
    const started = Date.now();
    assert.equal(await lock.run(KEY, async () => 'ran'), 'ran');
    const waited = Date.now() - started;
    assert.ok(waited >= 35 && waited < 1000, `waited ${waited} ms`);
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

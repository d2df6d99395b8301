// The per-session import lock over real files: exclusive, released at once, taken over
// from a dead owner (this host), from an earlier boot, an earlier life of our pid or a
// reused pid at once, or one that stopped refreshing it; never from a live refreshing one;
// a wait that gives up after its bound, polling with a bounded backoff.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LogFileSystem } from '../../../../src/core/log/fileSystem';
import { MAX_PAUSE_MS, SESSION_LOCK_BUSY_TEXT, SessionLockBusyError, SessionLocks, sessionLockBusyText, type SessionLockOptions } from '../../../../src/core/log/sessionLock';
import { hashIdentity } from '../../../../src/core/log/sessionKey';
import { nodeLockOwner, processAlive, processStartMs, readBootId, startMsFromStat } from '../../../../src/node/lockOwner';
import { NodeFileSystem } from '../../../../src/node/nodeFileSystem';
import { CountingFileSystem } from '../../helpers';
import { useTempDir } from '../../../lib/temp';
import { sleep } from '../../../lib/wait';

const KEY = hashIdentity('lock-test');
const nodeFs = new NodeFileSystem();

/** A clock that moves only when the locks pause: minutes of waiting in milliseconds. */
function fakeClock(start = 1_000_000) {
  let time = start;
  const pauses: number[] = [];
  return {
    pauses,
    now: () => time,
    pause: async (ms: number) => {
      pauses.push(ms);
      time += ms;
      await Promise.resolve();
    },
    elapsed: () => time - start,
  };
}

/** A lock of this host as this version writes it. */
const lockText = (owner: { pid: number; token?: string; boot?: string; started?: number; refreshMs?: number }) =>
  JSON.stringify({ host: 'here', at: Date.now(), token: `${owner.pid}.1.old`, ...owner });

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
    assert.deepEqual(lock.stats, { taken: 1, waits: 0, takeovers: 0, staleTakeovers: 0, unlocked: 0, gaveUp: 0 });
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
    assert.deepEqual(lock.stats, { taken: 1, waits: 0, takeovers: 1, staleTakeovers: 0, unlocked: 0, gaveUp: 0 });
    assert.deepEqual(fs.readdirSync(locksDir()), [], 'no lock and no takeover marker left behind');
  });

  it('never takes over a live owner of this host that names itself (boot id, start time) by time: it waits, however long, until the owner releases', async () => {
    fs.mkdirSync(locksDir(), { recursive: true });
    const lock = locks({ remoteStaleMs: 20 });
    const file = lock.fileFor(KEY);
    // No refresh said (a file system without touch): only its identity tells, and it says alive.
    fs.writeFileSync(file, JSON.stringify({ pid: 1, host: 'here', at: Date.now() - 3_600_000, token: '1.1', boot: 'boot-now', started: 777 }));
    const old = new Date(Date.now() - 3_600_000);
    fs.utimesSync(file, old, old);
    const started = Date.now();
    setTimeout(() => fs.unlinkSync(file), 300);
    await lock.run(KEY, async () => undefined);
    const waited = Date.now() - started;
    assert.ok(waited >= 290, `waited ${waited} ms for the live owner`);
    assert.deepEqual(lock.stats, { taken: 1, waits: 1, takeovers: 0, staleTakeovers: 0, unlocked: 0, gaveUp: 0 });
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
    assert.deepEqual(here.stats, { taken: 2, waits: 2, takeovers: 1, staleTakeovers: 1, unlocked: 0, gaveUp: 0 });
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

  describe('who holds a lock of this host: boot id, pid, start time, token', () => {
    const ALIVE = 4242;
    const identity = (more: Partial<SessionLockOptions> = {}) =>
      locks({ bootId: 'boot-now', startedAt: 5, isAlive: (pid) => pid === ALIVE, startTimeOf: (pid) => (pid === ALIVE ? 777 : undefined), ...more });
    const place = (text: string) => {
      fs.mkdirSync(locksDir(), { recursive: true });
      fs.writeFileSync(path.join(locksDir(), `${KEY}.lock`), text);
    };
    /** Runs a step and how long it took; a wait on a live holder would need the file removed. */
    const timed = async (lock: SessionLocks) => {
      const started = Date.now();
      await lock.run(KEY, async () => undefined);
      return Date.now() - started;
    };

    it('takes at once a lock whose pid runs but started at another time (a reused pid)', async () => {
      place(lockText({ pid: ALIVE, boot: 'boot-now', started: 111, refreshMs: 1000 }));
      const lock = identity();
      const ms = await timed(lock);
      assert.ok(ms < 100, `took ${ms} ms`);
      assert.deepEqual(lock.stats, { taken: 1, waits: 0, takeovers: 1, staleTakeovers: 0, unlocked: 0, gaveUp: 0 });
      assert.deepEqual(fs.readdirSync(locksDir()), []);
    });

    it('waits for a lock whose pid runs and started when the lock says', async () => {
      place(lockText({ pid: ALIVE, boot: 'boot-now', started: 777, refreshMs: 1000 }));
      const lock = identity();
      setTimeout(() => fs.unlinkSync(lock.fileFor(KEY)), 150);
      const ms = await timed(lock);
      assert.ok(ms >= 140, `waited ${ms} ms for the live holder`);
      assert.deepEqual(lock.stats, { taken: 1, waits: 1, takeovers: 0, staleTakeovers: 0, unlocked: 0, gaveUp: 0 });
    });

    it('takes at once a lock of an earlier boot, whatever its pid', async () => {
      place(lockText({ pid: ALIVE, boot: 'boot-before', started: 777, refreshMs: 1000 }));
      const lock = identity();
      assert.ok((await timed(lock)) < 100);
      assert.equal(lock.stats.takeovers, 1);
      assert.equal(lock.stats.waits, 0);
    });

    it('takes at once a lock with our own pid and a token none of our holdings has (an earlier life of this pid)', async () => {
      place(lockText({ pid: process.pid, token: `${process.pid}.1.earlier`, boot: 'boot-now', started: 5, refreshMs: 1000 }));
      const lock = identity();
      assert.ok((await timed(lock)) < 100);
      assert.equal(lock.stats.takeovers, 1);
      // A lock of this process held now (another SessionLocks of the same pid) is waited for.
      const other = identity();
      const order: string[] = [];
      const holding = other.run(KEY, async () => {
        order.push('holder starts');
        await sleep(100);
        order.push('holder ends');
      });
      await sleep(10);
      await lock.run(KEY, async () => {
        order.push('waiter');
      });
      await holding;
      assert.deepEqual(order, ['holder starts', 'holder ends', 'waiter']);
      assert.equal(lock.stats.takeovers, 1, 'our live holding was not taken');
    });

    it('a lock of this host unrefreshed for localStaleMs (30 s) is judged gone, though its pid runs; a refreshed one is waited for', async () => {
      place(lockText({ pid: ALIVE, boot: 'boot-now', started: 777, refreshMs: 1000 }));
      const clock = fakeClock();
      const lock = identity({ now: clock.now, pause: clock.pause });
      await lock.run(KEY, async () => undefined);
      assert.ok(clock.elapsed() >= 30_000 && clock.elapsed() < 30_000 + MAX_PAUSE_MS, `judged gone after ${clock.elapsed()} ms`);
      assert.deepEqual(lock.stats, { taken: 1, waits: 1, takeovers: 1, staleTakeovers: 1, unlocked: 0, gaveUp: 0 });

      // A holder of this host that refreshes its lock keeps it past the bound.
      const holder = locks({ pid: 5001, heartbeatMs: 15 });
      const waiter = locks({ localStaleMs: 120, isAlive: () => true });
      const order: string[] = [];
      const slow = holder.run(KEY, async () => {
        order.push('holder starts');
        await sleep(500);
        order.push('holder ends');
      });
      await sleep(20);
      await waiter.run(KEY, async () => {
        order.push('waiter');
      });
      await slow;
      assert.deepEqual(order, ['holder starts', 'holder ends', 'waiter']);
      assert.equal(waiter.stats.takeovers, 0);
    });

    it('gives up after 5 minutes on the same live holding, with the stable text, running nothing and leaving the lock', async () => {
      const text = lockText({ pid: ALIVE, boot: 'boot-now', started: 777 });
      place(text);
      const clock = fakeClock();
      const lock = identity({ now: clock.now, pause: clock.pause });
      let ran = false;
      const started = Date.now();
      const error = await lock.run(KEY, async () => (ran = true)).then(
        () => assert.fail('the step should give up'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof SessionLockBusyError);
      assert.equal(error.message, `The session log ${KEY} is locked by another process (pid ${ALIVE}); gave up after 300 s.`);
      assert.equal(error.message, sessionLockBusyText(KEY, ALIVE, 300_000));
      assert.equal(SESSION_LOCK_BUSY_TEXT, 'The session log {key} is locked by another process (pid {pid}); gave up after {seconds} s.');
      assert.equal(ran, false);
      assert.ok(clock.elapsed() >= 300_000 && clock.elapsed() < 300_000 + MAX_PAUSE_MS, `gave up after ${clock.elapsed()} ms`);
      assert.equal(fs.readFileSync(lock.fileFor(KEY), 'utf8'), text, 'the holder keeps its lock');
      assert.deepEqual(fs.readdirSync(locksDir()), [`${KEY}.lock`]);
      assert.deepEqual(lock.stats, { taken: 0, waits: 1, takeovers: 0, staleTakeovers: 0, unlocked: 0, gaveUp: 1 });
      process.stdout.write(`      (5 minutes of waiting: ${clock.pauses.length} looks, ${Date.now() - started} ms of real time)\n`);

      // The backoff: from a few ms, doubling, never past 250 ms.
      assert.ok(clock.pauses[0]! <= 3, `first pause ${clock.pauses[0]} ms`);
      assert.ok(Math.max(...clock.pauses) <= MAX_PAUSE_MS);
      assert.equal(MAX_PAUSE_MS, 250);
      assert.ok(clock.pauses.slice(10).every((ms) => ms === MAX_PAUSE_MS), 'at 250 ms after a few looks');
      assert.ok(clock.pauses.length < 300_000 / 200, `${clock.pauses.length} looks in 5 minutes`);
    });

    it('a holding that changes restarts the bound: each holder is waited for up to 5 minutes', async () => {
      place(lockText({ pid: ALIVE, token: 'a', boot: 'boot-now', started: 777 }));
      const clock = fakeClock();
      let swapped = false;
      const lock = identity({
        now: clock.now,
        pause: async (ms) => {
          await clock.pause(ms);
          if (!swapped && clock.elapsed() > 200_000) {
            swapped = true;
            place(lockText({ pid: ALIVE, token: 'b', boot: 'boot-now', started: 777 }));
          }
        },
      });
      await assert.rejects(lock.run(KEY, async () => undefined), SessionLockBusyError);
      assert.ok(clock.elapsed() >= 500_000, `gave up after ${clock.elapsed()} ms`);
    });

    it('a young lock of an older version (no boot id, no start time) whose pid runs is waited for; a dead pid frees it at once', async () => {
      place(JSON.stringify({ pid: ALIVE, host: 'here', at: Date.now(), token: `${ALIVE}.1` }));
      const lock = identity();
      setTimeout(() => fs.unlinkSync(lock.fileFor(KEY)), 150);
      const ms = await timed(lock);
      assert.ok(ms >= 140, `waited ${ms} ms: a lock taken just now may be a live step's`);
      assert.equal(lock.stats.takeovers, 0);
      place(JSON.stringify({ pid: 4343, host: 'here', at: Date.now(), token: '4343.1' }));
      assert.ok((await timed(lock)) < 100, 'a dead pid frees it at once');
      assert.equal(lock.stats.takeovers, 1);
    });

    it('a lock of an older version naming a live (reused) pid is judged by its age: taken at once when older than localStaleMs, never waited on for 5 minutes', async () => {
      // Taken 40 s ago by this machine's clock: older than any step could be.
      place(JSON.stringify({ pid: ALIVE, host: 'here', at: Date.now() - 40_000, token: `${ALIVE}.1` }));
      const lock = identity();
      const ms = await timed(lock);
      assert.ok(ms < 100, `took ${ms} ms`);
      assert.deepEqual(lock.stats, { taken: 1, waits: 0, takeovers: 1, staleTakeovers: 1, unlocked: 0, gaveUp: 0 });
      assert.deepEqual(fs.readdirSync(locksDir()), []);

      // One whose time cannot be trusted (ahead of this clock) is taken once it has not changed for localStaleMs, again and again.
      const clock = fakeClock();
      const again = identity({ now: clock.now, pause: clock.pause });
      for (let round = 0; round < 3; round++) {
        const started = clock.elapsed();
        place(JSON.stringify({ pid: ALIVE, host: 'here', at: clock.now() + 1000, token: `${ALIVE}.${round}` }));
        await again.run(KEY, async () => undefined);
        const waited = clock.elapsed() - started;
        assert.ok(waited >= 30_000 && waited < 30_000 + MAX_PAUSE_MS, `round ${round}: judged gone after ${waited} ms`);
      }
      assert.deepEqual(again.stats, { taken: 3, waits: 3, takeovers: 3, staleTakeovers: 3, unlocked: 0, gaveUp: 0 });
    });

    it('writes who holds it: host, boot id, pid, start time, token and its refresh', async () => {
      const lock = identity();
      let during: Record<string, unknown> = {};
      await lock.run(KEY, async () => {
        during = JSON.parse(fs.readFileSync(lock.fileFor(KEY), 'utf8')) as Record<string, unknown>;
      });
      assert.deepEqual(Object.keys(during).sort(), ['at', 'boot', 'host', 'pid', 'refreshMs', 'started', 'token']);
      assert.equal(during.boot, 'boot-now');
      assert.equal(during.started, 5);
      assert.equal(during.refreshMs, 1000);
    });
  });

  it("the node owner: the boot id and each process's start time are read from /proc on Linux", function () {
    assert.equal(startMsFromStat('123 (a) b (c)) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 4567 19 20'), 45670);
    assert.equal(startMsFromStat('garbage'), undefined);
    const owner = nodeLockOwner();
    if (process.platform !== 'linux') {
      assert.equal(owner.startTimeOf, undefined);
      return;
    }
    assert.match(readBootId() ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(owner.bootId, readBootId());
    assert.equal(owner.startedAt, processStartMs(process.pid));
    assert.equal(owner.startTimeOf?.(process.pid), owner.startedAt);
    assert.ok((processStartMs(process.ppid) ?? Infinity) <= owner.startedAt!, 'the parent started first');
    assert.equal(processStartMs(2 ** 31), undefined);
  });

  it('processAlive: this process runs, a pid that cannot exist does not', () => {
    assert.equal(processAlive(process.pid), true);
    assert.equal(processAlive(-1), false);
    assert.equal(processAlive(2 ** 31), false);
  });
});

// A short lock per session log, shared by every process that imports into one log folder
// (two windows on one workspace run two extension hosts over the same storage). It makes
// "is this call in the log already? then append it" one step across processes.
//
// The lock is a file `<folder>/<session key>.lock` made with an exclusive create and
// removed as soon as the step is done (a read past the reader's cursor and an append:
// milliseconds). Its content names its holder: the host, the machine's boot id, the pid,
// the process's start time, and a token unique to this holding. While it works, the holder
// refreshes the file's time every `heartbeatMs`. A live holder is never overtaken because
// the machine's load keeps it from running for a few seconds (a lock passed on by a short
// timeout is how two windows came to write the same call). What frees a lock:
// - on this machine, the holder is gone, judged at once: the lock is of an earlier boot
//   (another boot id); its pid is ours but its token is none of our live holdings (an
//   earlier life of this pid); its pid does not run; or its pid runs but started at
//   another time (a pid reused after a restart). A lock of this machine that says its
//   holder refreshes it and whose file has not changed for `localStaleMs` (30 s, thirty
//   missed refreshes) is gone too: its holder is stuck, or is not the holder.
//   A lock written before boot ids were recorded (no boot id, start time or refresh) whose
//   pid runs is judged by its age: taken when it was taken `localStaleMs` ago by this machine's
//   clock (its `at`), or has not changed for as long. No step holds a lock that long, and a
//   pid that runs may well be a later process's (pids are reused across restarts).
// - a holder on another machine (a folder shared by two machines) refreshes its lock the
//   same way; a lock whose file has not changed for `remoteStaleMs`, as this waiter's own
//   clock sees it (no two machines' clocks are compared), is gone.
//   A file that cannot be read as a lock is judged the same way.
// The wait is bounded: a step that has waited `maxWaitMs` (5 minutes) for the same holding
// gives up with a SessionLockBusyError (SESSION_LOCK_BUSY_TEXT), having written nothing.
// The waiter polls with a backoff from 2 ms to 250 ms.
// A lock judged gone is removed by one waiter only: the one that creates the takeover
// marker named after that lock's exact content (`<key>.<digest>.takeover`, an exclusive
// create), which then removes the lock if it still reads the same, and then the marker.
// A lock's content is unique to one holding, so a later lock is never removed for an
// earlier one. A marker left by a waiter that died in those microseconds is judged like a
// lock (its owner gone) and removed.
// The todo_write tool does not use it: each chat has one writer.
import * as path from 'node:path';
import { errorCode, type LogFileSystem } from './fileSystem';
import { hashIdentity, isSessionKey } from './sessionKey';

/** Who holds a lock (or a takeover marker), as written in its file. */
interface LockOwner {
  pid: number;
  host: string;
  /** When it was taken, ms since the epoch (the owner's clock: of this machine, it tells an older version's lock's age). */
  at: number;
  /** Tells this holding apart from a later one of the same process. */
  token: string;
  /** The owner machine's boot id, where its host has one (absent in locks of older versions). */
  boot?: string;
  /** The owner process's start time, as its host reads it (absent in locks of older versions). */
  started?: number;
  /** How often the owner refreshes the file's time while it holds it; absent when it does not. */
  refreshMs?: number;
}

export interface SessionLockOptions {
  /** This process: its id and the machine it runs on. */
  pid: number;
  host: string;
  /** The machine's boot id (Linux), read once; undefined where there is none. */
  bootId?: string;
  /** This process's start time, as `startTimeOf` reads another process's (so the two compare). */
  startedAt?: number;
  /** Whether a process of this host still runs (a dead owner's lock is taken over at once). */
  isAlive(pid: number): boolean;
  /**
   * The start time of a running process of this host, in the unit of `startedAt`; undefined
   * when it cannot be read (then a live pid is judged by `isAlive` alone).
   */
  startTimeOf?(pid: number): number | undefined;
  /**
   * A lock of another machine (or one that cannot be read) whose file has not changed for
   * this long, by this process's clock, is judged gone. Default 10,000 ms.
   */
  remoteStaleMs?: number;
  /**
   * A lock of this machine whose owner says it refreshes it and whose file has not changed
   * for this long is judged gone. Default 30,000 ms.
   */
  localStaleMs?: number;
  /** How often a holder refreshes its lock file's time while its step runs. Default 1,000 ms. */
  heartbeatMs?: number;
  /** A step that waited this long for the same holding gives up (SessionLockBusyError). Default 300,000 ms. */
  maxWaitMs?: number;
  now?: () => number;
  /** Waits between two looks at a held lock (tests pass a fake clock's). */
  pause?: (ms: number) => Promise<void>;
}

/** What the locks did, for tests and diagnostics. */
export interface LockStats {
  taken: number;
  /** Times a step found the lock held and waited. */
  waits: number;
  /** Locks taken over: their holder was gone, or they stopped changing. */
  takeovers: number;
  /** Of the takeovers, the locks judged gone because they stopped changing (unrefreshed, or unreadable). */
  staleTakeovers: number;
  /** Steps run without a lock (the file system offers no exclusive create, or the lock cannot be made or removed). */
  unlocked: number;
  /** Steps that gave up waiting (SessionLockBusyError). */
  gaveUp: number;
}

/** The text of a SessionLockBusyError: `{key}`, `{pid}` and `{seconds}` are filled in. */
export const SESSION_LOCK_BUSY_TEXT = 'The session log {key} is locked by another process (pid {pid}); gave up after {seconds} s.';

export function sessionLockBusyText(key: string, pid: number | undefined, waitedMs: number): string {
  return SESSION_LOCK_BUSY_TEXT.replace('{key}', key)
    .replace('{pid}', pid === undefined ? 'unknown' : String(pid))
    .replace('{seconds}', String(Math.round(waitedMs / 1000)));
}

/** A step gave up waiting for a session's lock; nothing was written. The next change tries again. */
export class SessionLockBusyError extends Error {
  readonly code = 'ESESSIONLOCKBUSY';
  constructor(
    readonly session: string,
    readonly pid: number | undefined,
    waitedMs: number,
  ) {
    super(sessionLockBusyText(session, pid, waitedMs));
    this.name = 'SessionLockBusyError';
  }
}

/** A lock or marker file as read: its exact text, its owner when it reads as one, and its time. */
interface Seen {
  text: string;
  owner: LockOwner | undefined;
  modifiedMs: number | undefined;
}

/** What a waiter has watched of one holding: since when (its own clock) the file has not changed. */
interface Watched {
  text: string;
  modifiedMs: number | undefined;
  since: number;
}

/** The waits between two looks at a held lock: doubling from the first to the last. */
export const MIN_PAUSE_MS = 2;
export const MAX_PAUSE_MS = 250;

/**
 * The tokens of the locks and markers this process holds now, whichever SessionLocks made
 * them: a lock with our pid and another token is of an earlier process with our pid.
 */
const liveTokens = new Set<string>();

export class SessionLocks {
  readonly stats: LockStats = { taken: 0, waits: 0, takeovers: 0, staleTakeovers: 0, unlocked: 0, gaveUp: 0 };
  private readonly remoteStaleMs: number;
  private readonly localStaleMs: number;
  private readonly heartbeatMs: number;
  private readonly maxWaitMs: number;
  private readonly now: () => number;
  private readonly pause: (ms: number) => Promise<void>;
  private holdings = 0;

  constructor(
    private readonly fs: LogFileSystem,
    /** The folder of the lock files (Agent Plan's own; created when needed). */
    private readonly dir: string,
    private readonly options: SessionLockOptions,
  ) {
    this.remoteStaleMs = options.remoteStaleMs ?? 10_000;
    this.localStaleMs = options.localStaleMs ?? 30_000;
    this.heartbeatMs = options.heartbeatMs ?? 1000;
    this.maxWaitMs = options.maxWaitMs ?? 300_000;
    this.now = options.now ?? Date.now;
    this.pause = options.pause ?? pause;
  }

  /** The lock file of a session. Throws a TypeError for anything but a session key. */
  fileFor(session: string): string {
    if (!isSessionKey(session)) throw new TypeError('SessionLocks: a session key must be 32 lowercase hex characters');
    return path.join(this.dir, `${session}.lock`);
  }

  /**
   * Runs `task` holding the session's lock, and releases it at once. Rejects with a
   * SessionLockBusyError, without running `task`, when another holding kept it for `maxWaitMs`.
   */
  async run<T>(session: string, task: () => Promise<T>): Promise<T> {
    const file = this.fileFor(session);
    const owner = await this.acquire(session, file);
    const heartbeat = owner?.refreshMs !== undefined ? setInterval(() => void this.fs.touch?.(file).catch(() => undefined), this.heartbeatMs) : undefined;
    try {
      return await task();
    } finally {
      if (heartbeat) clearInterval(heartbeat);
      if (owner) await this.release(file, owner);
    }
  }

  /** A new holding's owner; its token counts as live until `forget`. */
  private newOwner(refreshes: boolean): LockOwner {
    const owner: LockOwner = { pid: this.options.pid, host: this.options.host, at: this.now(), token: `${this.options.pid}.${++this.holdings}.${Math.random().toString(36).slice(2, 10)}` };
    if (this.options.bootId !== undefined) owner.boot = this.options.bootId;
    if (this.options.startedAt !== undefined) owner.started = this.options.startedAt;
    if (refreshes) owner.refreshMs = this.heartbeatMs;
    liveTokens.add(owner.token);
    return owner;
  }

  private async acquire(session: string, file: string): Promise<LockOwner | undefined> {
    const create = this.fs.createExclusive?.bind(this.fs);
    if (!create) {
      this.stats.unlocked++;
      return undefined;
    }
    let waited = false;
    let watched: Watched | undefined;
    /** The holding waited for (its owner's token, or the file's text) and since when. */
    let holding: { id: string; pid: number | undefined; since: number } | undefined;
    let pauseMs = MIN_PAUSE_MS;
    for (let attempt = 0; ; attempt++) {
      // Live before the create: a waiter of this process must never judge it an earlier life's.
      const owner = this.newOwner(this.fs.touch !== undefined);
      let created: boolean;
      try {
        created = await create(file, JSON.stringify(owner));
      } catch (error) {
        liveTokens.delete(owner.token);
        if (errorCode(error) === 'ENOENT' && attempt === 0) {
          try {
            await this.fs.mkdirp(this.dir);
            continue;
          } catch {
            // falls through to running unlocked
          }
        }
        // A folder that cannot hold a lock must not stop the import: the append reports its own failure.
        this.stats.unlocked++;
        return undefined;
      }
      if (created) {
        this.stats.taken++;
        return owner;
      }
      liveTokens.delete(owner.token);
      const held = await this.read(file);
      if (!held) continue; // released between the create and the read: try again at once
      watched = this.watch(watched, held);
      const verdict = this.judge(held, watched);
      if (verdict !== 'alive') {
        const outcome = await this.takeOver(file, held);
        if (outcome === 'failed') {
          // A lock that cannot be removed (a folder in its place): the step goes on without it.
          this.stats.unlocked++;
          return undefined;
        }
        if (outcome === 'removed') {
          this.stats.takeovers++;
          if (verdict === 'stale') this.stats.staleTakeovers++;
        }
        if (outcome === 'removed' || outcome === 'gone') {
          watched = undefined;
          continue;
        }
      }
      const id = held.owner?.token ?? held.text;
      if (holding?.id !== id) holding = { id, pid: held.owner?.pid, since: this.now() };
      else if (this.now() - holding.since >= this.maxWaitMs) {
        this.stats.gaveUp++;
        throw new SessionLockBusyError(session, holding.pid, this.maxWaitMs);
      }
      if (!waited) {
        waited = true;
        this.stats.waits++;
      }
      await this.pause(Math.min(MAX_PAUSE_MS, pauseMs + Math.floor((Math.random() * pauseMs) / 2)));
      pauseMs = Math.min(MAX_PAUSE_MS, pauseMs * 2);
    }
  }

  /** The waiter's watch of a holding: restarted whenever the file changes. */
  private watch(watched: Watched | undefined, seen: Seen): Watched {
    if (watched && watched.text === seen.text && watched.modifiedMs === seen.modifiedMs) return watched;
    return { text: seen.text, modifiedMs: seen.modifiedMs, since: this.now() };
  }

  /**
   * Whether a lock's (or marker's) holder is alive. On this machine its identity tells at
   * once (boot id, pid and token, pid and start time), and a holder that refreshes its
   * lock is gone once it has been silent for `localStaleMs`, an older version's once it is
   * that old (or silent that long); another machine's holding, or
   * a file that reads as no owner, is gone once it has not changed for `remoteStaleMs`.
   */
  private judge(seen: Seen, watched: Watched): 'alive' | 'dead' | 'stale' {
    const owner = seen.owner;
    if (owner && owner.host === this.options.host) {
      if (owner.boot !== undefined && this.options.bootId !== undefined && owner.boot !== this.options.bootId) return 'dead';
      if (owner.pid === this.options.pid) {
        if (!liveTokens.has(owner.token)) return 'dead';
      } else {
        if (!this.options.isAlive(owner.pid)) return 'dead';
        if (owner.started !== undefined && this.options.startTimeOf) {
          const started = this.options.startTimeOf(owner.pid);
          if (started !== undefined && started !== owner.started) return 'dead';
        }
        // An older version's lock: its identity cannot tell a reused pid, its age can (this machine's clock wrote `at`).
        if (isOlderVersion(owner) && Math.max(this.now() - owner.at, this.now() - watched.since) >= this.localStaleMs) return 'stale';
      }
      // Silence is seen only through the file's time: without it, the identity alone tells.
      if (owner.refreshMs !== undefined && this.fs.modifiedMs && this.now() - watched.since >= this.localStaleMs) return 'stale';
      return 'alive';
    }
    // A file just created and not yet written reads empty: it changes as soon as it is written.
    return this.now() - watched.since >= this.remoteStaleMs ? 'stale' : 'alive';
  }

  /**
   * Removes a lock judged gone, if this waiter is the one to do it: it holds the marker of
   * that exact lock. 'removed' (or found gone), 'busy' (another waiter is at it, or the
   * lock changed), 'gone' (another waiter removed it first), 'failed' (the lock cannot be removed).
   */
  private async takeOver(file: string, judged: Seen): Promise<'removed' | 'gone' | 'busy' | 'failed'> {
    const create = this.fs.createExclusive?.bind(this.fs);
    if (!create) return 'failed';
    const marker = path.join(this.dir, `${path.basename(file, '.lock')}.${hashIdentity(`lock\n${judged.text}`).slice(0, 16)}.takeover`);
    const mine = this.newOwner(false);
    try {
      let created: boolean;
      try {
        created = await create(marker, JSON.stringify(mine));
      } catch {
        return 'failed';
      }
      if (!created) {
        await this.clearDeadMarker(marker);
        return 'busy';
      }
      try {
        const now = await this.read(file);
        if (!now) return 'gone';
        if (now.text !== judged.text || now.modifiedMs !== judged.modifiedMs) return 'busy';
        try {
          await this.fs.remove(file);
          return 'removed';
        } catch (error) {
          return errorCode(error) === 'ENOENT' ? 'gone' : 'failed';
        }
      } finally {
        await this.removeQuietly(marker);
      }
    } finally {
      liveTokens.delete(mine.token);
    }
  }

  /** A marker whose owner is gone (this machine, judged as a lock's) is removed, so the lock it names can be taken over. */
  private async clearDeadMarker(marker: string): Promise<void> {
    const seen = await this.read(marker);
    if (!seen?.owner || seen.owner.host !== this.options.host) return;
    // A marker lives for microseconds and is never refreshed: its identity alone tells.
    if (this.judge(seen, { text: seen.text, modifiedMs: seen.modifiedMs, since: this.now() }) === 'dead') await this.removeQuietly(marker);
  }

  /**
   * The file's text, its owner when it reads as one, and its time; undefined when it is
   * gone. A file that cannot be read (a folder in its place) reads as empty.
   */
  private async read(file: string): Promise<Seen | undefined> {
    let text = '';
    try {
      text = new TextDecoder().decode(await this.fs.readRange(file, 0, 1024));
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
    }
    let modifiedMs: number | undefined;
    try {
      modifiedMs = await this.fs.modifiedMs?.(file);
      if (modifiedMs === undefined && this.fs.modifiedMs) return undefined;
    } catch {
      // judged by its text alone
    }
    return { text, owner: parseOwner(text), modifiedMs };
  }

  private async release(file: string, owner: LockOwner): Promise<void> {
    try {
      // Only our own lock: if it was judged gone meanwhile (another machine's waiter), it is someone else's now.
      const held = await this.read(file);
      if (held?.owner && held.owner.token === owner.token && held.owner.pid === owner.pid) await this.removeQuietly(file);
    } finally {
      liveTokens.delete(owner.token);
    }
  }

  /** Removes a file; false when it could not be (gone already counts as removed). */
  private async removeQuietly(file: string): Promise<boolean> {
    try {
      await this.fs.remove(file);
      return true;
    } catch (error) {
      return errorCode(error) === 'ENOENT';
    }
  }
}

/** A lock written before boot ids, start times and refreshes were recorded. */
function isOlderVersion(owner: LockOwner): boolean {
  return owner.boot === undefined && owner.started === undefined && owner.refreshMs === undefined;
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.at === 'number' && typeof value.token === 'string') {
      const owner: LockOwner = { pid: value.pid, host: value.host, at: value.at, token: value.token };
      if (typeof value.boot === 'string') owner.boot = value.boot;
      if (typeof value.started === 'number') owner.started = value.started;
      if (typeof value.refreshMs === 'number') owner.refreshMs = value.refreshMs;
      return owner;
    }
  } catch {
    // not an owner
  }
  return undefined;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// A short lock per session log, shared by every process that imports into one log folder
// (two windows on one workspace run two extension hosts over the same storage). It makes
// "is this call in the log already? then append it" one step across processes.
//
// The lock is a file `<folder>/<session key>.lock` made with an exclusive create and
// removed as soon as the step is done (a read past the reader's cursor and an append:
// milliseconds). Time never frees a lock whose holder is alive on this machine: a holder
// that the machine's load keeps from running for seconds still holds it, and the others
// wait (a lock passed on by a timeout is how two windows came to write the same call).
// What frees a lock is its holder's end:
// - on this machine, the holder's process is gone (its pid, checked as the waiter waits);
// - a holder on another machine (a folder shared by two machines) refreshes its lock
//   file's time while it works; a lock whose file has not changed for `remoteStaleMs`, as
//   this waiter's own clock sees it (no two machines' clocks are compared), is gone.
//   A file that cannot be read as a lock is judged the same way.
// A lock judged gone is removed by one waiter only: the one that creates the takeover
// marker named after that lock's exact content (`<key>.<digest>.takeover`, an exclusive
// create), which then removes the lock if it still reads the same, and then the marker.
// A lock's content is unique to one holding, so a later lock is never removed for an
// earlier one. A marker left by a waiter that died in those microseconds is judged like a
// lock (its owner's process gone) and removed.
// The todo_write tool does not use it: each chat has one writer.
import * as path from 'node:path';
import { errorCode, type LogFileSystem } from './fileSystem';
import { hashIdentity, isSessionKey } from './sessionKey';

/** Who holds a lock (or a takeover marker), as written in its file. */
interface LockOwner {
  pid: number;
  host: string;
  /** When it was taken, ms since the epoch (the owner's clock; informative only). */
  at: number;
  /** Tells this holding apart from a later one of the same process. */
  token: string;
}

export interface SessionLockOptions {
  /** This process: its id and the machine it runs on. */
  pid: number;
  host: string;
  /** Whether a process of this host still runs (a dead owner's lock is taken over at once). */
  isAlive(pid: number): boolean;
  /**
   * A lock of another machine (or one that cannot be read) whose file has not changed for
   * this long, by this process's clock, is judged gone. Default 10,000 ms.
   */
  remoteStaleMs?: number;
  /** How often a holder refreshes its lock file's time while its step runs. Default 1,000 ms. */
  heartbeatMs?: number;
  now?: () => number;
}

/** What the locks did, for tests and diagnostics. */
export interface LockStats {
  taken: number;
  /** Times a step found the lock held and waited. */
  waits: number;
  /** Locks taken over: their holder's process was gone, or (another machine's) they stopped changing. */
  takeovers: number;
  /** Of the takeovers, the locks judged gone because they stopped changing (another machine's, or unreadable). */
  staleTakeovers: number;
  /** Steps run without a lock (the file system offers no exclusive create, or the lock cannot be made or removed). */
  unlocked: number;
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

const MIN_PAUSE_MS = 1;
const MAX_PAUSE_MS = 16;

export class SessionLocks {
  readonly stats: LockStats = { taken: 0, waits: 0, takeovers: 0, staleTakeovers: 0, unlocked: 0 };
  private readonly remoteStaleMs: number;
  private readonly heartbeatMs: number;
  private readonly now: () => number;
  private holdings = 0;

  constructor(
    private readonly fs: LogFileSystem,
    /** The folder of the lock files (Agent Plan's own; created when needed). */
    private readonly dir: string,
    private readonly options: SessionLockOptions,
  ) {
    this.remoteStaleMs = options.remoteStaleMs ?? 10_000;
    this.heartbeatMs = options.heartbeatMs ?? 1000;
    this.now = options.now ?? Date.now;
  }

  /** The lock file of a session. Throws a TypeError for anything but a session key. */
  fileFor(session: string): string {
    if (!isSessionKey(session)) throw new TypeError('SessionLocks: a session key must be 32 lowercase hex characters');
    return path.join(this.dir, `${session}.lock`);
  }

  /** Runs `task` holding the session's lock, and releases it at once. */
  async run<T>(session: string, task: () => Promise<T>): Promise<T> {
    const file = this.fileFor(session);
    const owner = await this.acquire(file);
    const heartbeat = owner && this.fs.touch ? setInterval(() => void this.fs.touch?.(file).catch(() => undefined), this.heartbeatMs) : undefined;
    try {
      return await task();
    } finally {
      if (heartbeat) clearInterval(heartbeat);
      if (owner) await this.release(file, owner);
    }
  }

  private newOwner(): LockOwner {
    return { pid: this.options.pid, host: this.options.host, at: this.now(), token: `${this.options.pid}.${++this.holdings}.${Math.random().toString(36).slice(2, 10)}` };
  }

  private async acquire(file: string): Promise<LockOwner | undefined> {
    const create = this.fs.createExclusive?.bind(this.fs);
    if (!create) {
      this.stats.unlocked++;
      return undefined;
    }
    let waited = false;
    let watched: Watched | undefined;
    let pauseMs = MIN_PAUSE_MS;
    for (let attempt = 0; ; attempt++) {
      const owner = this.newOwner();
      let created: boolean;
      try {
        created = await create(file, JSON.stringify(owner));
      } catch (error) {
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
      const held = await this.read(file);
      if (held) {
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
      }
      if (!held) continue; // released between the create and the read: try again at once
      if (!waited) {
        waited = true;
        this.stats.waits++;
      }
      await pause(pauseMs + Math.floor(Math.random() * pauseMs));
      pauseMs = Math.min(MAX_PAUSE_MS, pauseMs * 2);
    }
  }

  /** The waiter's watch of a holding: restarted whenever the file changes. */
  private watch(watched: Watched | undefined, seen: Seen): Watched {
    if (watched && watched.text === seen.text && watched.modifiedMs === seen.modifiedMs) return watched;
    return { text: seen.text, modifiedMs: seen.modifiedMs, since: this.now() };
  }

  /**
   * Whether a lock's (or marker's) holder is alive. On this machine the process alone
   * tells; another machine's holding, or a file that reads as no owner, is gone once it
   * has not changed for `remoteStaleMs`.
   */
  private judge(seen: Seen, watched: Watched): 'alive' | 'dead' | 'stale' {
    const owner = seen.owner;
    if (owner && owner.host === this.options.host) {
      if (owner.pid === this.options.pid) return 'alive';
      return this.options.isAlive(owner.pid) ? 'alive' : 'dead';
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
    const mine = this.newOwner();
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
  }

  /** A marker whose owner process is gone (this machine) is removed, so the lock it names can be taken over. */
  private async clearDeadMarker(marker: string): Promise<void> {
    const seen = await this.read(marker);
    const owner = seen?.owner;
    if (!seen || !owner) return;
    if (owner.host === this.options.host && owner.pid !== this.options.pid && !this.options.isAlive(owner.pid)) await this.removeQuietly(marker);
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
    // Only our own lock: if it was judged gone meanwhile (another machine's waiter), it is someone else's now.
    const held = await this.read(file);
    if (held?.owner && held.owner.token === owner.token && held.owner.pid === owner.pid) await this.removeQuietly(file);
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

function parseOwner(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.at === 'number' && typeof value.token === 'string') {
      return { pid: value.pid, host: value.host, at: value.at, token: value.token };
    }
  } catch {
    // not an owner
  }
  return undefined;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

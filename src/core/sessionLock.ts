// A short lock per session log, shared by every process that imports into one log folder
// (two windows on one workspace run two extension hosts over the same storage). It makes
// "is this call in the log already? then append it" one step across processes.
//
// The lock is a file `<folder>/<session key>.lock` made with an exclusive create and
// removed as soon as the step is done (a read past the reader's cursor and an append:
// milliseconds). It never blocks a writer for long: a lock whose owner process is gone
// (same host), or that is older than `staleMs` whoever holds it, is taken over; a lock that
// cannot be had within `waitMs` is taken over too, and a step that still has none after
// twice that goes on without it. Two processes taking over the same stale lock at the
// same moment can both go on; replay reads a repeated import as one version
// (logRepeats.ts), so that rare case costs a line, never a wrong plan.
// The todo_write tool does not use it: each chat has one writer.
import * as path from 'node:path';
import { errorCode, type LogFileSystem } from './fileSystem';
import { isSessionKey } from './sessionKey';

/** Who holds a lock, as written in the lock file. */
interface LockOwner {
  pid: number;
  host: string;
  /** When it was taken, ms since the epoch (the owner's clock). */
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
  /** A lock older than this is taken over whoever holds it. Default 2000 ms. */
  staleMs?: number;
  /** The longest a step waits for a lock before taking it over. Default 2000 ms. */
  waitMs?: number;
  now?: () => number;
}

/** What the locks did, for tests and diagnostics. */
export interface LockStats {
  taken: number;
  /** Times a step found the lock held and waited. */
  waits: number;
  /** Locks taken over from a dead, stale or too slow owner. */
  takeovers: number;
  /** Steps run without a lock (the file system offers no exclusive create, or it failed). */
  unlocked: number;
}

const MAX_PAUSE_MS = 8;

export class SessionLocks {
  readonly stats: LockStats = { taken: 0, waits: 0, takeovers: 0, unlocked: 0 };
  private readonly staleMs: number;
  private readonly waitMs: number;
  private readonly now: () => number;
  private holdings = 0;

  constructor(
    private readonly fs: LogFileSystem,
    /** The folder of the lock files (Agent Plan's own; created when needed). */
    private readonly dir: string,
    private readonly options: SessionLockOptions,
  ) {
    this.staleMs = options.staleMs ?? 2000;
    this.waitMs = options.waitMs ?? 2000;
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
    try {
      return await task();
    } finally {
      if (owner) await this.release(file, owner);
    }
  }

  private async acquire(file: string): Promise<LockOwner | undefined> {
    const create = this.fs.createExclusive?.bind(this.fs);
    if (!create) {
      this.stats.unlocked++;
      return undefined;
    }
    const started = this.now();
    let waited = false;
    for (let attempt = 0; ; attempt++) {
      const owner: LockOwner = { pid: this.options.pid, host: this.options.host, at: this.now(), token: `${this.options.pid}.${++this.holdings}` };
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
      const elapsed = this.now() - started;
      if (elapsed >= 2 * this.waitMs) {
        // A lock that outlives its takeovers (one that cannot be removed): the step goes on without it.
        this.stats.unlocked++;
        return undefined;
      }
      const held = await this.readOwner(file);
      if (held === 'gone') continue;
      if (elapsed >= this.waitMs || this.isStale(held)) {
        // Taken over: removed only if it is still the lock judged (a fresh one stays).
        const again = await this.readOwner(file);
        if (again === 'gone' || (again.token === held.token && again.pid === held.pid)) {
          this.stats.takeovers++;
          if (await this.removeQuietly(file)) continue;
        }
      }
      if (!waited) {
        waited = true;
        this.stats.waits++;
      }
      await pause(1 + Math.floor(Math.random() * MAX_PAUSE_MS));
    }
  }

  private isStale(owner: LockOwner): boolean {
    if (owner.host === this.options.host && owner.pid !== this.options.pid && !this.options.isAlive(owner.pid)) return true;
    return Math.abs(this.now() - owner.at) > this.staleMs;
  }

  /**
   * The owner written in the lock file, or 'gone'. A lock file just made and not yet
   * written reads empty (its owner is busy, not gone), and one that cannot be read as an
   * owner is judged by its age alone: an owner of no process, dated when it was written.
   */
  private async readOwner(file: string): Promise<LockOwner | 'gone'> {
    let text = '';
    try {
      text = new TextDecoder().decode(await this.fs.readRange(file, 0, 1024));
      const value = JSON.parse(text) as Partial<LockOwner>;
      if (typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.at === 'number' && typeof value.token === 'string') {
        return { pid: value.pid, host: value.host, at: value.at, token: value.token };
      }
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return 'gone';
    }
    let at: number | undefined;
    try {
      at = await this.fs.modifiedMs?.(file);
    } catch {
      // judged as new
    }
    if (at === undefined && this.fs.modifiedMs) return 'gone';
    return { pid: -1, host: '', at: at ?? this.now(), token: `unreadable:${text}` };
  }

  private async release(file: string, owner: LockOwner): Promise<void> {
    // Only our own lock: if a slow step was overtaken, the lock is someone else's now.
    const held = await this.readOwner(file);
    if (held !== 'gone' && held.token === owner.token && held.pid === owner.pid) await this.removeQuietly(file);
  }

  /** Removes the lock file; false when it could not be (gone already counts as removed). */
  private async removeQuietly(file: string): Promise<boolean> {
    try {
      await this.fs.remove(file);
      return true;
    } catch (error) {
      // Not removable (a folder in its place, permissions): the next taker judges it.
      return errorCode(error) === 'ENOENT';
    }
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

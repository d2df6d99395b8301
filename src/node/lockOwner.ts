// This process as the owner of session locks (src/core/log/sessionLock.ts): its id, its host,
// and whether another process of this host still runs.
import * as os from 'node:os';
import type { SessionLockOptions } from '../core/log/sessionLock';

/** Whether a process with this id runs on this machine (one that is not ours to signal still runs). */
export function processAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function nodeLockOwner(): SessionLockOptions {
  return { pid: process.pid, host: os.hostname(), isAlive: processAlive };
}

// This process as the owner of session locks (src/core/log/sessionLock.ts): its id, its host,
// the machine's boot id, its start time, and whether another process of this host still
// runs and since when.
//
// A process's start time is read on Linux from /proc/<pid>/stat (field 22, clock ticks since
// boot) and kept in ms since boot: with the boot id it names one process of one boot, and
// unlike a time since the epoch (boot time from /proc/stat `btime` plus the ticks) it does
// not move when the clock is set after a process started. Elsewhere no other process's
// start can be read: the lock records this process's start in ms since the epoch
// (informative only) and a live pid is judged by its being alive.
import * as fs from 'node:fs';
import * as os from 'node:os';
import type { SessionLockOptions } from '../core/log/sessionLock';

/** The kernel's clock ticks per second (USER_HZ): 100 on every Linux Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

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

/** The machine's boot id (Linux), or undefined where there is none. */
export function readBootId(file = '/proc/sys/kernel/random/boot_id'): string | undefined {
  try {
    const id = fs.readFileSync(file, 'utf8').trim();
    return /^[0-9a-f-]{8,64}$/i.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/** When the process `pid` started, in ms since the machine's boot (Linux); undefined when it cannot be read. */
export function processStartMs(pid: number): number | undefined {
  if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  return startMsFromStat(text);
}

/** Field 22 (starttime) of a /proc/<pid>/stat line, in ms. The name (field 2) may hold spaces and parentheses: fields are counted after its last `)`. */
export function startMsFromStat(text: string): number | undefined {
  const end = text.lastIndexOf(')');
  if (end < 0) return undefined;
  // After ") ": field 3 (state) is at index 0, so field 22 is at index 19.
  const ticks = Number(text.slice(end + 2).split(' ')[19]);
  return Number.isSafeInteger(ticks) && ticks >= 0 ? Math.round((ticks * 1000) / CLOCK_TICKS_PER_SECOND) : undefined;
}

export function nodeLockOwner(): SessionLockOptions {
  const bootId = readBootId();
  const ownStart = processStartMs(process.pid);
  const options: SessionLockOptions = {
    pid: process.pid,
    host: os.hostname(),
    bootId,
    startedAt: ownStart ?? Math.round(Date.now() - process.uptime() * 1000),
    isAlive: processAlive,
  };
  // Another pid's start compares with ours only when both are read the same way.
  if (ownStart !== undefined) options.startTimeOf = processStartMs;
  return options;
}

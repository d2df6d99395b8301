// At start, removes inbox files of server processes long gone: only names of the inbox's
// pattern, only regular files (never a symlink, never followed), untouched for 30 days, whose
// process no longer runs. Best effort: a file that cannot be removed stays.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { INBOX_BOUNDS } from './inboxBounds';
import { inboxFilePid } from './inboxLine';
import { processAlive } from '../node/lockOwner';

/** More entries than the folder may hold, and some: the sweep stays bounded whatever is there. */
const MAX_ENTRIES_LOOKED_AT = INBOX_BOUNDS.maxFolderFiles * 5;

export function sweepInbox(folder: string, now: number, isRunning: (pid: number) => boolean = processRuns): number {
  let dir: fs.Dir;
  try {
    dir = fs.opendirSync(folder);
  } catch {
    return 0;
  }
  let removed = 0;
  try {
    let looked = 0;
    for (let entry = dir.readSync(); entry !== null && looked < MAX_ENTRIES_LOOKED_AT; entry = dir.readSync(), looked++) {
      const pid = inboxFilePid(entry.name);
      if (pid === undefined || !entry.isFile()) continue;
      const file = path.join(folder, entry.name);
      try {
        const stat = fs.lstatSync(file);
        if (!stat.isFile() || now - stat.mtimeMs < INBOX_BOUNDS.maxAgeMs || isRunning(pid)) continue;
        fs.unlinkSync(file);
        removed++;
      } catch {
        // Gone meanwhile, or not ours to remove.
      }
    }
  } finally {
    dir.closeSync();
  }
  return removed;
}

function processRuns(pid: number): boolean {
  // No server writes a name with a pid ≤ 0 (process.kill(0) would mean the group): processAlive says no.
  return pid === process.pid || processAlive(pid);
}

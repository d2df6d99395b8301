// Whether file events can be trusted for a folder: on network drives and mounts shared with
// another system (NFS, SMB, WSL's 9p and drvfs, FUSE mounts such as sshfs), a change made by
// another machine or system raises no event here. Such folders are polled instead.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** statfs types (Linux's magic numbers) of file systems whose events may not arrive. */
const UNRELIABLE: ReadonlyMap<number, string> = new Map([
  [0x6969, 'NFS'],
  [0x517b, 'SMB'],
  [0xff534d42, 'CIFS'],
  [0xfe534d42, 'SMB2'],
  [0x01021997, '9p (a WSL or VM shared folder)'],
  [0x53464846, 'WSL drvfs'],
  [0x65735546, 'FUSE'],
  [0x6a656a63, 'virtiofs'],
  [0x00c36400, 'Ceph'],
  [0x5346414f, 'AFS'],
  [0x73757245, 'Coda'],
  [0x0bd00bd0, 'Lustre'],
]);

/**
 * Why file events may not arrive for `folder` (the file system's name), or undefined when
 * they can be trusted or the system cannot tell. A missing folder is judged by its nearest
 * existing parent.
 */
export function eventsUnreliable(folder: string): string | undefined {
  let current = path.resolve(folder);
  for (;;) {
    try {
      const type = Number(fs.statfsSync(current).type);
      const name = UNRELIABLE.get(type >>> 0);
      return name === undefined ? undefined : `${current} is on ${name}, whose file events may not arrive`;
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return undefined;
      current = parent;
    }
  }
}

/** Intervals of a poll that backs off while nothing changes: base, doubled each quiet round, up to max. */
export class Backoff {
  private current: number;

  constructor(
    private readonly baseMs: number,
    private readonly maxMs: number,
  ) {
    this.current = baseMs;
  }

  /** The wait before the next round, given whether the last one found a change. */
  next(changed: boolean): number {
    this.current = changed ? this.baseMs : Math.min(this.maxMs, this.current * 2);
    return this.current;
  }

  reset(): void {
    this.current = this.baseMs;
  }
}

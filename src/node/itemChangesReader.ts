// Reads what each item of a session changed: the session's lines into segments
// (core/derived/itemChanges.ts), the numstat of each segment's two snapshots from our store
// (gitSnapshots.ts, off the host's thread; a pair's numstat never changes, so it is kept), and,
// when asked, a snapshot of the working tree now (not recorded in the log) for the stretch
// still open. Reads the session's log whole, once per ask: asked by a command, the API, or the
// Plan view when a snapshot line of the session on screen is read, never on a timer.
import { attributeChanges, changeSegments, neededPairs, type NumstatLine, type SessionChanges, type TreeRef } from '../core/derived/itemChanges';
import type { LogRecord } from '../core/log/logRecord';
import type { SessionLog } from '../core/log/sessionLog';
import type { GitSnapshots } from './gitSnapshots';

/** Numstat results kept (each a pair of snapshots; the oldest go first). */
const KEPT_PAIRS = 512;

export class ItemChangesReader {
  private readonly pairs = new Map<string, readonly NumstatLine[] | undefined>();

  constructor(
    private readonly log: SessionLog,
    private readonly snapshots: GitSnapshots,
  ) {}

  /**
   * The changes of `items` (the plan's, in order) and of the whole session. `now`: extend the
   * stretch still open to the working tree as it is now (one snapshot, not recorded).
   */
  async read(session: string, items: readonly string[], options: { now?: boolean } = {}): Promise<SessionChanges & { now: TreeRef | undefined }> {
    const records: Array<{ record: LogRecord; at: number }> = [];
    await this.log.readRecordsBackward(session, (record, at) => {
      records.push({ record, at });
      return false;
    });
    records.reverse();
    const segments = changeSegments(records);
    let now: TreeRef | undefined;
    if (options.now && segments.open) {
      const result = await this.snapshots.snapshot(segments.open.from.folder);
      if (result.ok) now = { tree: result.tree, folder: result.toplevel };
    }
    await Promise.all(neededPairs(segments, now).map(({ from, to }) => this.numstat(from, to)));
    const changes = attributeChanges(segments, items, (from, to) => this.pairs.get(`${from}..${to}`), now);
    return { ...changes, now };
  }

  private async numstat(from: string, to: string): Promise<void> {
    const key = `${from}..${to}`;
    if (this.pairs.has(key)) return;
    const lines = await this.snapshots.numstat(from, to);
    // A failure (the store pruned, git gone) is not kept: the next ask tries again.
    if (lines === undefined) return;
    this.pairs.set(key, lines);
    for (const old of this.pairs.keys()) {
      if (this.pairs.size <= KEPT_PAIRS) break;
      this.pairs.delete(old);
    }
  }
}

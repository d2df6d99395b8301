// Reads what each item of a session changed: the session's lines into segments
// (core/derived/itemChanges.ts), the numstat of each segment's two snapshots from our store
// (gitSnapshots.ts, off the host's thread; a pair's numstat never changes, so it is kept), and,
// when asked, a snapshot of the working tree now (not recorded in the log) for the stretch
// still open. Reads the session's log whole, once per ask: asked by a command, the API, or the
// Plan view when a snapshot line of the session on screen is read, never on a timer.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { attributeChanges, changeSegments, changesBetween, neededPairs, sessionSnapshots, snapshotSince, type FileChange, type NumstatLine, type SessionChanges, type SessionSegments, type TreeRef } from '../core/derived/itemChanges';
import type { LogRecord } from '../core/log/logRecord';
import type { SessionLog } from '../core/log/sessionLog';
import type { GitSnapshots } from './gitSnapshots';

/** Numstat results kept (each a pair of snapshots; the oldest go first). */
const KEPT_PAIRS = 512;

export class ItemChangesReader {
  private readonly pairs = new Map<string, readonly NumstatLine[] | undefined>();

  /**
   * @param folderOf the folder a session's agent works in: its file/write lines' relative paths are relative to it
   * @param look how a look at the working tree now may be taken: `git` false (Restricted Mode: a
   *   repository's config can name programs git runs) shows the recorded snapshots only
   */
  constructor(
    private readonly log: SessionLog,
    private readonly snapshots: GitSnapshots,
    private readonly folderOf: (session: string) => string | undefined = () => undefined,
    private readonly look: () => { git: boolean; within?: readonly string[]; maxFileBytes?: number } = () => ({ git: true }),
  ) {}

  /**
   * The changes of `items` (the plan's, in order) and of the whole session. `now`: extend the
   * stretch still open to the working tree as it is now (one snapshot, not recorded); `worked`:
   * also every other item that was ever in progress.
   */
  async read(session: string, items: readonly string[], options: { now?: boolean; worked?: boolean } = {}): Promise<SessionChanges & { now: TreeRef | undefined }> {
    const segments = changeSegments(await this.records(session));
    // `worked`: every item ever in progress too (a dropped or reworded item's lane in the Plan Timeline), after `items`.
    if (options.worked) items = [...items, ...[...segments.worked].filter((item) => !items.includes(item))];
    const now = options.now ? await this.now(session, segments) : undefined;
    const [named] = await Promise.all([realPaths(segments, this.folderOf(session)), ...neededPairs(segments, now).map(({ from, to }) => this.numstat(from, to))]);
    const changes = attributeChanges(segments, items, (from, to) => this.pairs.get(`${from}..${to}`), now, (file) => named.get(file) ?? file);
    return { ...changes, now };
  }

  /**
   * What changed since the plan version at byte offset `plan`: from the snapshot taken at or
   * before it (else the first after it: `exact` false) to the newest, or to now while an item
   * is in progress (`now`). Undefined when the session has no snapshot, or git could not say.
   */
  async since(session: string, plan: number, options: { now?: boolean } = {}): Promise<{ files: FileChange[]; exact: boolean } | undefined> {
    const records = await this.records(session);
    const start = snapshotSince(sessionSnapshots(records), plan);
    if (!start) return undefined;
    const segments = changeSegments(records);
    const now = options.now ? await this.now(session, segments) : undefined;
    // The end is in the working tree the start is of (a session that moved to another stays in the first).
    const newest = sessionSnapshots(records).filter((snapshot) => snapshot.folder === start.from.folder).at(-1);
    const end = now && now.folder === start.from.folder ? now : newest ? { tree: newest.tree, folder: newest.folder } : undefined;
    if (!end) return undefined;
    if (end.tree === start.from.tree) return { files: [], exact: start.exact };
    await this.numstat(start.from.tree, end.tree);
    const lines = this.pairs.get(`${start.from.tree}..${end.tree}`);
    return lines ? { files: changesBetween(start.from, end, lines), exact: start.exact } : undefined;
  }

  private async records(session: string): Promise<Array<{ record: LogRecord; at: number }>> {
    const records: Array<{ record: LogRecord; at: number }> = [];
    await this.log.readRecordsBackward(session, (record, at) => {
      records.push({ record, at });
      return false;
    });
    return records.reverse();
  }

  /** A snapshot of the working tree now (not in the log; kept as the session's look at now for the diff editor), where a stretch is still open. */
  private async now(session: string, segments: SessionSegments): Promise<TreeRef | undefined> {
    if (!segments.open) return undefined;
    const look = this.look();
    if (!look.git) return undefined;
    const result = await this.snapshots.snapshot(segments.open.from.folder, { session, now: true, ...(look.within ? { within: look.within } : {}), ...(look.maxFileBytes !== undefined ? { maxFileBytes: look.maxFileBytes } : {}) });
    return result.ok ? { tree: result.tree, folder: result.toplevel, ...(result.skipped.length > 0 ? { skipped: result.skipped } : {}) } : undefined;
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

/** Most absolute paths of the agent's file/write lines resolved per read. */
const MAX_RESOLVED = 2000;

/**
 * The real path of each path the agent named (git names the working tree by its real path; an
 * agent started under a symbolic link names files under the link, or relative to the folder it
 * works in, `base`, which may be below the working tree's top). A file gone since (deleted,
 * renamed) is resolved through the nearest folder that is still there. A relative path without
 * a `base` stays as named.
 */
export async function realPaths(segments: SessionSegments, base?: string): Promise<Map<string, string>> {
  const named = new Set<string>();
  for (const files of segments.writes.values()) {
    for (const file of files) if ((path.isAbsolute(file) || (base !== undefined && path.isAbsolute(base))) && named.size < MAX_RESOLVED) named.add(file);
  }
  const real = new Map<string, string>();
  await Promise.all(
    [...named].map(async (file) => {
      const absolute = path.isAbsolute(file) ? file : path.resolve(base ?? '', file);
      let rest = '';
      let at = absolute;
      for (let up = 0; up < 8; up++) {
        try {
          const resolved = await fs.realpath(at);
          if (resolved !== file) real.set(file, rest === '' ? resolved : path.join(resolved, rest));
          return;
        } catch {
          const parent = path.dirname(at);
          if (parent === at) return;
          rest = rest === '' ? path.basename(at) : path.join(path.basename(at), rest);
          at = parent;
        }
      }
    }),
  );
  return real;
}

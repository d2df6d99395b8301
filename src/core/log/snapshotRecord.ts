// The `tree/snapshot` line of the session log: the content of the session's working tree at
// the moment its set of in-progress items changed, as the id of a git tree object Agent Plan
// wrote into its own object store (src/node/gitSnapshots.ts), never into the user's repository:
//
//   {"v":1,"type":"tree/snapshot","ts","session","tree":"<40 or 64 hex>","folder":"<working tree>","items":[...],"plan"?:<offset>,"skipped"?:[...]}
//
// A snapshot that could not be taken is recorded too, without `tree`, with why: its moment
// bounds no diff, and the items around it say "changes not recorded" with that reason instead
// of "no changes" (a stopped `git add` leaves the index's content, which would read as none):
//
//   {"v":1,"type":"tree/snapshot","ts","session","missed":"timed-out"|"failed"|"parent-repository","detail"?,"folder","items":[...],"plan"?}
//
// `skipped` names the files a snapshot left out (`why`: "large", an untracked file above the
// size bound; "unreadable", one git could not read): their changes are not recorded.
//
// `items` are the texts of the items in progress from this moment on (in plan order, at most
// 32; empty: none); `plan` the byte offset of the plan version whose reading took it (one
// snapshot per version: the key that keeps two windows from both writing one). An item's
// changes are the differences between the snapshots around its in-progress stretches
// (core/derived/itemChanges.ts). Readers of plans skip it. No I/O.

export const SNAPSHOT_EVENT = 'tree/snapshot';
/** Longest working-tree folder kept (as session/info's `cwd`). */
const MAX_FOLDER_LENGTH = 4096;
/** The most in-progress items one line names (as file/write). */
export const MAX_SNAPSHOT_ITEMS = 32;
/** A git object id: SHA-1 or SHA-256, lowercase hex. */
export const TREE_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** Why a snapshot could not be taken. */
export type SnapshotMiss = 'timed-out' | 'failed' | 'parent-repository';
const MISSES: readonly string[] = ['timed-out', 'failed', 'parent-repository'] satisfies readonly SnapshotMiss[];
/** Longest `detail` kept. */
export const MAX_MISS_DETAIL = 300;
/** The most skipped files one line names. */
export const MAX_SKIPPED = 32;

/** A file a snapshot left out. */
export interface SkippedFile {
  /** Relative to the working tree's top folder, `/`-separated. */
  path: string;
  why: 'large' | 'unreadable';
  /** Its size, for a large one. */
  bytes?: number;
}

export interface SnapshotRecord {
  v: 1;
  type: 'tree/snapshot';
  /** When this machine took it. */
  ts: string;
  session: string;
  /** The git tree object of the working tree's content (tracked and untracked files, .gitignore honoured); absent when missed. */
  tree?: string;
  /** Why no snapshot could be taken at this moment (then no `tree`). */
  missed?: SnapshotMiss;
  /** The failure's words (git's, bounded). */
  detail?: string;
  /** Files left out of the snapshot. */
  skipped?: SkippedFile[];
  /** The working tree's top folder, absolute. */
  folder: string;
  /** The items in progress from this moment on. */
  items: string[];
  /** Byte offset of the plan version that made the in-progress set change (absent: taken for another reason). */
  plan?: number;
}

export interface SnapshotFacts {
  /** Absent exactly when `missed` is given. */
  tree?: string | undefined;
  missed?: SnapshotMiss | undefined;
  detail?: string | undefined;
  skipped?: readonly SkippedFile[] | undefined;
  folder: string;
  items: readonly string[];
  plan?: number | undefined;
}

export function isSnapshot(record: { type: string }): record is SnapshotRecord {
  return record.type === SNAPSHOT_EVENT;
}

/** Why these facts cannot be recorded, or undefined when they can. */
export function snapshotProblem(facts: SnapshotFacts): string | undefined {
  if (facts.missed !== undefined) {
    if (typeof facts.missed !== 'string' || !MISSES.includes(facts.missed)) return `\`missed\` of a tree/snapshot must be one of ${MISSES.join(', ')}`;
    if (facts.tree !== undefined) return 'a missed tree/snapshot has no `tree`';
    if (facts.detail !== undefined && typeof facts.detail !== 'string') return '`detail` of a tree/snapshot must be a string';
  } else if (typeof facts.tree !== 'string' || !TREE_ID.test(facts.tree)) return '`tree` of a tree/snapshot must be a git object id (40 or 64 lowercase hex)';
  const skipped: unknown = facts.skipped;
  if (skipped !== undefined && (!Array.isArray(skipped) || skipped.length > MAX_SKIPPED || !skipped.every(isSkippedFile))) {
    return `\`skipped\` of a tree/snapshot must be a list of at most ${MAX_SKIPPED} files ({path, why: "large" | "unreadable", bytes?})`;
  }
  const folder: unknown = facts.folder;
  if (typeof folder !== 'string' || folder === '' || folder.length > MAX_FOLDER_LENGTH || /[\0\r\n]/.test(folder)) {
    return `\`folder\` of a tree/snapshot must be a path of 1 to ${MAX_FOLDER_LENGTH} characters without NUL or line break`;
  }
  const items: unknown = facts.items;
  if (!Array.isArray(items) || items.length > MAX_SNAPSHOT_ITEMS || !items.every((item) => typeof item === 'string')) {
    return `\`items\` of a tree/snapshot must be a list of at most ${MAX_SNAPSHOT_ITEMS} strings`;
  }
  if (facts.plan !== undefined && !(Number.isSafeInteger(facts.plan) && facts.plan >= 0)) return '`plan` of a tree/snapshot must be an integer ≥ 0';
  return undefined;
}

function isSkippedFile(value: unknown): value is SkippedFile {
  if (typeof value !== 'object' || value === null) return false;
  const { path, why, bytes } = value as Record<string, unknown>;
  return (
    typeof path === 'string' && path !== '' && path.length <= MAX_FOLDER_LENGTH && !/[\0\r\n]/.test(path) &&
    (why === 'large' || why === 'unreadable') &&
    (bytes === undefined || (Number.isSafeInteger(bytes) && (bytes as number) >= 0))
  );
}

export function snapshotRecord(session: string, ts: string, facts: SnapshotFacts): SnapshotRecord {
  const missed = facts.missed === undefined ? {} : facts.detail === undefined || facts.detail === '' ? { missed: facts.missed } : { missed: facts.missed, detail: facts.detail.slice(0, MAX_MISS_DETAIL) };
  const record: SnapshotRecord = {
    v: 1,
    type: SNAPSHOT_EVENT,
    ts,
    session,
    ...(facts.tree === undefined ? {} : { tree: facts.tree }),
    ...missed,
    folder: facts.folder,
    items: facts.items.slice(0, MAX_SNAPSHOT_ITEMS),
  };
  if (facts.plan !== undefined) record.plan = facts.plan;
  if (facts.skipped !== undefined && facts.skipped.length > 0) {
    record.skipped = facts.skipped.slice(0, MAX_SKIPPED).map((file) => (file.bytes === undefined ? { path: file.path, why: file.why } : { path: file.path, why: file.why, bytes: file.bytes }));
  }
  return record;
}

/** A parsed tree/snapshot line (v, type, ts and session already checked), or what is wrong with it. */
export function parseSnapshot(value: Record<string, unknown>, session: string, ts: string): SnapshotRecord | string {
  const facts = { tree: value['tree'], missed: value['missed'], detail: value['detail'], skipped: value['skipped'], folder: value['folder'], items: value['items'], plan: value['plan'] } as SnapshotFacts;
  return snapshotProblem(facts) ?? snapshotRecord(session, ts, facts);
}

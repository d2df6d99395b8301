// What each item changed, as a diff: the working tree's snapshots (`tree/snapshot` lines, taken
// when the session's in-progress set changed) cut the session into segments, each with the
// items in progress during it; an item's changes are the differences over the segments of its
// in-progress stretches. Honest attribution:
//   - a file the agent's own `file/write` lines name for that item is the agent's; any other
//     file that changed meanwhile in that working tree (the user, a shell command, another
//     agent) is `meanwhile: true`, shown, never claimed;
//   - a segment with several items in progress is `shared: true` for each (as the ledger);
//   - where a stretch has no snapshot at one of its ends (history from before snapshots, a
//     version whose moment passed unsnapshotted, a folder that is not a git working tree,
//     git missing) the item's changes are "not recorded" (or only partly): nothing invented.
// Pure and in two steps: `changeSegments` reads the records (sync), the caller fetches the
// numstat of each segment's two trees (git, off the host's thread), and `attributeChanges`
// puts them together.
import { isCurrentPlan, isFileWrite, type LogRecord } from '../log/logRecord';
import { isSnapshot, type SkippedFile, type SnapshotMiss } from '../log/snapshotRecord';
import { inProgressItems } from './snapshotTrigger';

/** A snapshot: the tree id and the working tree it is of. */
export interface TreeRef {
  tree: string;
  folder: string;
  /** Files the snapshot left out (their changes are not recorded). */
  skipped?: readonly SkippedFile[];
}

/**
 * Why an item's changes were not recorded: a missed snapshot's reason, or `read-together`: the
 * plan versions that started and ended its stretch were read in one go (the agent went on before
 * Agent Plan read its plan: on a loaded machine, or a follower catching up), so the moment between
 * them was never snapshotted.
 */
export interface Miss {
  why: SnapshotMiss | 'read-together';
  detail?: string;
}

const READ_TOGETHER: Miss = { why: 'read-together' };

export interface Segment {
  from: TreeRef;
  to: TreeRef;
  /** The items in progress from `from` to `to`. */
  items: string[];
}

export interface SessionSegments {
  /** Consecutive snapshots with one known in-progress set between them, in log order. */
  segments: Segment[];
  /** Items with (part of) a stretch no snapshots bound. */
  unrecorded: Set<string>;
  /** Why, for the items whose stretch a missed snapshot cut (the newest reason). */
  reasons: Map<string, Miss>;
  /** Items ever in progress. */
  worked: Set<string>;
  /** The newest snapshot, when the set it recorded is still the one in progress (its stretch runs on to now). */
  open: { from: TreeRef; items: string[] } | undefined;
  /** The first and the newest snapshot of the newest working tree: the session's whole diff. */
  first: TreeRef | undefined;
  last: TreeRef | undefined;
  /** Paths the agent's file/write lines name, per item (as named: absolute or relative). */
  writes: Map<string, Set<string>>;
}

/** One file of `git diff-tree --numstat`, as the caller hands it (undefined counts: binary). */
export interface NumstatLine {
  path: string;
  from?: string;
  added: number | undefined;
  removed: number | undefined;
}

export interface FileChange {
  /** Relative to the working tree's top folder, `/`-separated. */
  path: string;
  /** The path before a rename. */
  from?: string;
  /** Lines added and removed; undefined for a binary file. */
  added: number | undefined;
  removed: number | undefined;
  /** Part of it was made while other items were in progress too. */
  shared?: true;
  /** No file/write line of the agent names it for the item: it changed meanwhile (the user, a shell command, another agent). */
  meanwhile?: true;
  /** The content before (first segment's tree, old path) and after (last segment's tree): for the diff editor. */
  before: { tree: string; path: string };
  after: { tree: string; path: string };
  folder: string;
}

export interface ItemChanges {
  content: string;
  /** 'all': every stretch is bounded by snapshots; 'part': some; 'none': no snapshot bounds any (files stays empty). */
  recorded: 'all' | 'part' | 'none';
  files: FileChange[];
  /** Why not (all) recorded, where a missed snapshot said. */
  missed?: Miss;
  /** Files the snapshots of its stretches left out: their changes are not recorded. */
  skipped?: SkippedFile[];
}

export interface SessionChanges {
  items: ItemChanges[];
  /** The whole session, first snapshot to newest (or now). */
  session: FileChange[];
}

const pairKey = (from: string, to: string): string => `${from}..${to}`;

/** Reads a session's records in file order (with their byte offsets) into its segments. */
export function changeSegments(records: Iterable<{ record: LogRecord; at: number }>): SessionSegments {
  const segments: Segment[] = [];
  const unrecorded = new Set<string>();
  const reasons = new Map<string, Miss>();
  const worked = new Set<string>();
  const writes = new Map<string, Set<string>>();
  let working: string[] = [];
  let known = false;
  /** Offsets of the versions that changed the in-progress set, and the set each made. */
  const changes: Array<{ at: number; items: string[] }> = [];
  let lastPlanAt = -1;
  /** The newest snapshot line: its tree (none when it was missed) and why it was missed. */
  let last: { ref: TreeRef | undefined; miss: Miss | undefined; plan: number; items: string[] } | undefined;
  /** The newest snapshot that was taken. */
  let lastRef: TreeRef | undefined;
  let first: TreeRef | undefined;
  const markUnrecorded = (items: Iterable<string>, miss?: Miss): void => {
    for (const item of items) {
      unrecorded.add(item);
      if (miss) reasons.set(item, miss);
    }
  };
  for (const { record, at } of records) {
    if (isCurrentPlan(record)) {
      const items = inProgressItems(record);
      const same = known && items.length === working.length && items.every((item) => working.includes(item));
      if (!same) changes.push({ at, items });
      for (const item of items) worked.add(item);
      working = items;
      known = true;
      lastPlanAt = at;
    } else if (isFileWrite(record)) {
      for (const item of record.items) {
        let paths = writes.get(item);
        if (!paths) writes.set(item, (paths = new Set()));
        for (const file of record.files) paths.add(file);
      }
    } else if (isSnapshot(record)) {
      const plan = record.plan ?? lastPlanAt;
      const ref: TreeRef | undefined = record.tree === undefined ? undefined : { tree: record.tree, folder: record.folder, ...(record.skipped ? { skipped: record.skipped } : {}) };
      const miss: Miss | undefined = record.missed === undefined ? undefined : { why: record.missed, ...(record.detail === undefined ? {} : { detail: record.detail }) };
      const prev = last;
      if (prev) {
        const between = changes.filter((change) => change.at > prev.plan && change.at <= plan);
        if (!prev.ref || !ref) {
          // A missed snapshot at either end: this stretch has no diff, and says why.
          markUnrecorded(prev.items, prev.miss ?? miss);
          for (const change of between) markUnrecorded(change.items, miss ?? prev.miss);
        } else if (prev.ref.folder !== ref.folder || between.length > 1) {
          // Several sets came and went between the two snapshots (or the working tree changed): no one set to give the diff to.
          const why = prev.ref.folder === ref.folder ? READ_TOGETHER : undefined;
          markUnrecorded(prev.items, why);
          for (const change of between) markUnrecorded(change.items, why);
        } else if (prev.ref.tree !== ref.tree || prev.items.length > 0) {
          segments.push({ from: prev.ref, to: ref, items: prev.items });
        }
      } else {
        // The first snapshot bounds the stretches of the set it was taken for; those of earlier sets have no start.
        const before = changes.filter((change) => change.at <= plan);
        for (const change of before.slice(0, -1)) markUnrecorded(change.items);
        if (!ref) markUnrecorded(before.at(-1)?.items ?? [], miss);
      }
      // The session's whole diff runs from the first snapshot of its newest working tree.
      if (ref && (!lastRef || lastRef.folder !== ref.folder)) first = ref;
      if (ref) lastRef = ref;
      last = { ref, miss, plan, items: [...record.items] };
      // Drop the changes the snapshots have passed (keeps memory flat).
      while (changes.length > 0 && (changes[0]?.at ?? 0) <= plan) changes.shift();
    }
  }
  let open: SessionSegments['open'];
  if (last) {
    if (changes.length === 0 && last.ref) open = { from: last.ref, items: last.items };
    else if (changes.length === 0) markUnrecorded(last.items, last.miss);
    else {
      markUnrecorded(last.items, last.miss);
      for (const change of changes.slice(0, -1)) markUnrecorded(change.items);
      // The newest set started after the newest snapshot with none of its own yet: its start is not bounded.
      markUnrecorded(changes.at(-1)?.items ?? []);
    }
  } else {
    markUnrecorded(worked);
  }
  return { segments, unrecorded, reasons, worked, open, first, last: lastRef, writes };
}

/** The tree pairs whose numstat attributeChanges needs (`now`: a snapshot of the working tree now, for the open stretch). */
export function neededPairs(segments: SessionSegments, now?: TreeRef): Array<{ from: string; to: string }> {
  const pairs = new Map<string, { from: string; to: string }>();
  const add = (from: string, to: string): void => {
    if (from !== to) pairs.set(pairKey(from, to), { from, to });
  };
  for (const segment of segments.segments) if (segment.items.length > 0) add(segment.from.tree, segment.to.tree);
  const end = now && segments.open && now.folder === segments.open.from.folder ? now : undefined;
  if (end && segments.open) add(segments.open.from.tree, end.tree);
  const last = end ?? segments.last;
  if (segments.first && last) add(segments.first.tree, last.tree);
  return [...pairs.values()];
}

/** A path as the agent named it, relative to the working tree's top folder (`/`-separated), when it is inside. */
export function relativeTo(folder: string, file: string): string {
  const slash = (value: string): string => value.replace(/\\/g, '/');
  const root = slash(folder).replace(/\/+$/, '');
  const named = slash(file);
  if (named.startsWith(`${root}/`)) return named.slice(root.length + 1);
  return named.replace(/^\.\//, '');
}

/**
 * Each item's changes from the segments and the numstat of their trees (`numstat(from, to)`:
 * undefined when git could not say; that segment is then not recorded for its items).
 * `items` are the plan's items in order; `now` extends the open stretch to the working tree now.
 * `realPath` gives a path the agent named as the file system resolves it: git names the working
 * tree by its real path, an agent by the path it was started in (a symbolic link on the way).
 */
export function attributeChanges(
  segments: SessionSegments,
  items: readonly string[],
  numstat: (from: string, to: string) => readonly NumstatLine[] | undefined,
  now?: TreeRef,
  realPath: (file: string) => string = (file) => file,
): SessionChanges {
  const all = [...segments.segments];
  if (now && segments.open && now.folder === segments.open.from.folder && now.tree !== segments.open.from.tree) {
    all.push({ from: segments.open.from, to: now, items: segments.open.items });
  }
  const byItem = new Map<string, Map<string, FileChange>>();
  const skippedBy = new Map<string, Map<string, SkippedFile>>();
  const failed = new Set<string>();
  for (const segment of all) {
    if (segment.items.length === 0) continue;
    for (const file of [...(segment.from.skipped ?? []), ...(segment.to.skipped ?? [])]) {
      for (const item of segment.items) {
        let files = skippedBy.get(item);
        if (!files) skippedBy.set(item, (files = new Map<string, SkippedFile>()));
        if (!files.has(file.path)) files.set(file.path, file);
      }
    }
    if (segment.from.tree === segment.to.tree) continue;
    const lines = numstat(segment.from.tree, segment.to.tree);
    if (!lines) {
      for (const item of segment.items) failed.add(item);
      continue;
    }
    const shared = segment.items.length > 1;
    for (const item of segment.items) {
      let files = byItem.get(item);
      if (!files) byItem.set(item, (files = new Map<string, FileChange>()));
      const named = new Set([...(segments.writes.get(item) ?? [])].map((file) => relativeTo(segment.to.folder, realPath(file))));
      for (const line of lines) addLine(files, line, segment, shared, !named.has(line.path));
    }
  }
  const openItems = new Set(now && segments.open ? segments.open.items : []);
  const result = items.map((content): ItemChanges => {
    const files = [...(byItem.get(content)?.values() ?? [])];
    const bounded = all.some((segment) => segment.items.includes(content)) || (openItems.has(content) && !segments.unrecorded.has(content));
    const missing = segments.unrecorded.has(content) || failed.has(content);
    const recorded = !segments.worked.has(content) || !missing ? 'all' : bounded ? 'part' : 'none';
    const changes: ItemChanges = { content, recorded, files };
    const miss = recorded === 'all' ? undefined : segments.reasons.get(content);
    if (miss) changes.missed = miss;
    const skipped = skippedBy.get(content);
    if (skipped && skipped.size > 0) changes.skipped = [...skipped.values()];
    return changes;
  });
  const end = now && segments.open && now.folder === segments.open.from.folder ? now : segments.last;
  const session: FileChange[] = [];
  if (segments.first && end && segments.first.tree !== end.tree) {
    session.push(...changesBetween(segments.first, end, numstat(segments.first.tree, end.tree) ?? []));
  }
  return { items: result, session };
}

function addLine(files: Map<string, FileChange>, line: NumstatLine, segment: Segment, shared: boolean, meanwhile: boolean): void {
  const known = files.get(line.path) ?? (line.from !== undefined ? files.get(line.from) : undefined);
  if (known) {
    if (known.path !== line.path) {
      // Renamed: the same entry under its new path, in its place.
      const entries = [...files];
      files.clear();
      for (const [key, value] of entries) files.set(key === known.path ? line.path : key, value);
      known.from ??= known.path;
      known.path = line.path;
    }
    known.added = known.added === undefined || line.added === undefined ? undefined : known.added + line.added;
    known.removed = known.removed === undefined || line.removed === undefined ? undefined : known.removed + line.removed;
    if (shared) known.shared = true;
    if (!meanwhile) delete known.meanwhile;
    known.after = { tree: segment.to.tree, path: line.path };
    return;
  }
  const change: FileChange = {
    path: line.path,
    added: line.added,
    removed: line.removed,
    before: { tree: segment.from.tree, path: line.from ?? line.path },
    after: { tree: segment.to.tree, path: line.path },
    folder: segment.to.folder,
  };
  if (line.from !== undefined) change.from = line.from;
  if (shared) change.shared = true;
  if (meanwhile) change.meanwhile = true;
  files.set(line.path, change);
}

/** The snapshots of a session, in log order: each with the plan version it was taken for (its offset). */
export function sessionSnapshots(records: Iterable<{ record: LogRecord; at: number }>): Array<TreeRef & { plan: number }> {
  const snapshots: Array<TreeRef & { plan: number }> = [];
  for (const { record, at } of records) if (isSnapshot(record) && record.tree !== undefined) snapshots.push({ tree: record.tree, folder: record.folder, plan: record.plan ?? at });
  return snapshots;
}

/**
 * The snapshot a review since the plan version at `at` starts from: the newest taken at or
 * before that version (the working tree as it stood then; the in-progress set last changed
 * there), else the first after it (`exact: false`: what changed before it is not recorded).
 * Undefined when the session has no snapshot.
 */
export function snapshotSince(snapshots: ReadonlyArray<TreeRef & { plan: number }>, at: number): { from: TreeRef; exact: boolean } | undefined {
  let before: (TreeRef & { plan: number }) | undefined;
  for (const snapshot of snapshots) if (snapshot.plan <= at && (!before || snapshot.plan >= before.plan)) before = snapshot;
  if (before) return { from: { tree: before.tree, folder: before.folder }, exact: true };
  const after = snapshots.find((snapshot) => snapshot.plan > at);
  return after ? { from: { tree: after.tree, folder: after.folder }, exact: false } : undefined;
}

/** The files of one diff between two snapshots (the session's, or since a version), for the diff editor. */
export function changesBetween(from: TreeRef, to: TreeRef, lines: readonly NumstatLine[]): FileChange[] {
  const files = new Map<string, FileChange>();
  for (const line of lines) addLine(files, line, { from, to, items: [] }, false, false);
  return [...files.values()];
}

/** "+12 −3" for files (binary files count no lines); undefined when there are none. */
export function diffstat(files: readonly FileChange[]): string | undefined {
  if (files.length === 0) return undefined;
  let added = 0;
  let removed = 0;
  for (const file of files) {
    added += file.added ?? 0;
    removed += file.removed ?? 0;
  }
  return `+${added} \u2212${removed}`;
}

/**
 * An item's "+12 −3" where its changes were recorded, and whether only partly; undefined where
 * none were (no snapshot bounds its work) or nothing changed: never invented.
 */
export function itemDiffstat(changes: ItemChanges | undefined): { counts: string; partly: boolean } | undefined {
  if (!changes || changes.recorded === 'none') return undefined;
  const counts = diffstat(changes.files);
  return counts === undefined ? undefined : { counts, partly: changes.recorded === 'part' };
}

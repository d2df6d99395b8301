// Where each session works, for the Sessions view: its rows grouped by the worktree of the
// folder the session ran in, the workspace's own worktree first. Pure, no vscode import.
import * as path from 'node:path';
import { worktreeOf, type Worktree } from './worktrees';

/** One group of rows: a worktree, or a folder in no known worktree (one removed since, say). */
export interface WorktreeGroup<T> {
  /** A stable key: the worktree's (or the folder's) path. */
  key: string;
  /** The worktree, when the folder is in a known one. */
  worktree: Worktree | undefined;
  /** The worktree's folder, or the folder the sessions ran in. */
  folder: string;
  /** Holds a workspace folder (listed first). */
  own: boolean;
  rows: T[];
}

/**
 * The rows by worktree, in the rows' order within each group: the workspace's own worktrees
 * first (rows with no known folder go to the first of them), then the other worktrees in
 * their order, then folders in no known worktree by name. Undefined when every row falls in
 * one group (nothing to tell apart).
 */
export function groupByWorktree<T>(
  rows: readonly T[],
  folderOf: (row: T) => string | undefined,
  worktrees: readonly Worktree[],
  workspaceFolders: readonly string[],
): WorktreeGroup<T>[] | undefined {
  const ownTrees = new Set(workspaceFolders.map((folder) => worktreeOf(worktrees, folder)).filter((tree): tree is Worktree => tree !== undefined));
  const groups = new Map<string, WorktreeGroup<T>>();
  const order = (tree: Worktree) => worktrees.indexOf(tree);
  const defaultKey = [...ownTrees].sort((a, b) => order(a) - order(b))[0]?.path ?? workspaceFolders[0] ?? '';
  const groupFor = (folder: string | undefined): WorktreeGroup<T> => {
    const tree = folder === undefined ? worktreeOf(worktrees, defaultKey) : worktreeOf(worktrees, folder);
    const key = tree?.path ?? (folder === undefined ? defaultKey : path.resolve(folder));
    let group = groups.get(key);
    if (group === undefined) {
      group = { key, worktree: tree, folder: key, own: tree !== undefined ? ownTrees.has(tree) : key === defaultKey, rows: [] };
      groups.set(key, group);
    }
    return group;
  };
  for (const row of rows) groupFor(folderOf(row)).rows.push(row);
  if (groups.size < 2) return undefined;
  const rank = (group: WorktreeGroup<T>) => (group.own ? 0 : group.worktree !== undefined ? 1 : 2);
  return [...groups.values()].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      (a.worktree !== undefined && b.worktree !== undefined ? order(a.worktree) - order(b.worktree) : 0) ||
      (a.folder < b.folder ? -1 : a.folder > b.folder ? 1 : 0),
  );
}

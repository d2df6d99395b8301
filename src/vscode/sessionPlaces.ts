// Where each session works: the git worktree of the folder its agent ran in (from the
// followed folders, src/node/followedFolders.ts, and the folder the log keeps per session).
// The Sessions view groups by it; tooltips, the timeline and the hand-off name it.
import * as vscode from 'vscode';
import type { Event } from '../core/emitter';
import type { PlanStore } from '../core/store/store';
import { worktreeOf, type Worktree } from '../core/worktrees/worktrees';

const t = vscode.l10n.t;

export interface SessionPlaces {
  /** Every worktree known, the main one first. */
  worktrees(): readonly Worktree[];
  /** The workspace folders on disk (their worktrees come first). */
  workspaceFolders(): readonly string[];
  /** The folder the session ran in, as its agent recorded it. */
  folderOf(session: string): string | undefined;
  /** The worktree to name for a session: only when the repository has more than one. */
  worktreeFor(session: string): Worktree | undefined;
  /** Fires when the worktrees changed. */
  onDidChange: Event<void>;
}

export function sessionPlaces(store: PlanStore, worktrees: () => readonly Worktree[], onDidChange: Event<void>): SessionPlaces {
  return {
    worktrees,
    workspaceFolders: () => (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
    folderOf: (session) => store.folderOf(session),
    worktreeFor(session) {
      const folder = store.folderOf(session);
      const trees = worktrees();
      return folder === undefined || trees.length < 2 ? undefined : worktreeOf(trees, folder);
    },
    onDidChange,
  };
}

/** A tooltip's line naming a worktree: its folder and its branch. */
export function worktreeTooltip(tree: Worktree): string {
  return tree.branch !== undefined ? t('Worktree {0} on branch {1}', tree.path, tree.branch) : t('Worktree {0} (detached)', tree.path);
}

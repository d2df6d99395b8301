// The Sessions view's worktree rows: one per worktree when the sessions work in more than one.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PlanRecord } from '../../core/log/sessionLog';
import type { WorktreeGroup } from '../../core/worktrees/worktreeGroups';
import { worktreeLabel } from '../../core/worktrees/worktrees';
import { worktreeTooltip } from '../sessionPlaces';

const t = vscode.l10n.t;

export interface WorktreeGroupElement {
  readonly kind: 'worktree';
  readonly group: WorktreeGroup<PlanRecord>;
}

export function worktreeGroupItem({ group }: WorktreeGroupElement): vscode.TreeItem {
  const label = group.worktree !== undefined ? worktreeLabel(group.worktree) : path.basename(group.folder);
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Expanded);
  item.id = `agentPlan.worktree/${group.key}`;
  item.iconPath = new vscode.ThemeIcon(group.worktree === undefined ? 'folder' : group.worktree.branch !== undefined ? 'git-branch' : 'git-commit');
  const count = group.rows.length === 1 ? t('1 session') : t('{0} sessions', group.rows.length);
  item.description = [group.own ? t('this workspace') : undefined, count].filter((part) => part !== undefined).join(' · ');
  item.tooltip = group.worktree !== undefined ? worktreeTooltip(group.worktree) : t('Folder {0} (in no worktree now)', group.folder);
  item.contextValue = 'agentPlan.worktree';
  item.accessibilityInformation = { label: t('Worktree {0}, {1}', label, count) };
  return item;
}

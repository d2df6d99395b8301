// The "Needs You" section at the top of the Sessions view: a row per session of the queue
// (src/core/derived/needsYouBook.ts), most urgent first, each with its name, agent and reason. A row
// shows its session's plan like any session row. Rows come from the data alone.
import * as vscode from 'vscode';
import { SIGNAL_ICONS } from '../../core/derived/healthText';
import type { NeedsYouRow } from '../../core/derived/needsYouText';
import { CommandId, ItemContext } from '../ids';
import { appendAsk } from '../signalLooks';

const t = vscode.l10n.t;

export interface NeedsYouSectionElement {
  readonly kind: 'needs-you';
  readonly label: string;
  readonly rows: readonly NeedsYouRow[];
}

export interface NeedsYouEntryElement {
  readonly kind: 'needs-you-entry';
  /** The session's key: the session rows' context menus read it. */
  readonly session: string;
  readonly row: NeedsYouRow;
}

/** Rows the section draws: the most urgent few, so the sessions below stay in view (its title counts them all; Go to Next visits them all). */
export const NEEDS_YOU_ROWS_SHOWN = 5;

export function needsYouEntries(section: NeedsYouSectionElement): NeedsYouEntryElement[] {
  return section.rows.slice(0, NEEDS_YOU_ROWS_SHOWN).map((row) => ({ kind: 'needs-you-entry', session: row.session, row }));
}

export function needsYouSectionItem(section: NeedsYouSectionElement): vscode.TreeItem {
  const item = new vscode.TreeItem(section.label, vscode.TreeItemCollapsibleState.Expanded);
  item.id = ItemContext.NeedsYou;
  item.iconPath = new vscode.ThemeIcon('bell-dot', new vscode.ThemeColor('list.warningForeground'));
  item.contextValue = ItemContext.NeedsYou;
  item.tooltip = t('Sessions waiting on you, most urgent first. Go to Next Session That Needs You visits them in turn.');
  item.accessibilityInformation = { label: section.label };
  return item;
}

/** A queue row: the session's name, its agent and why it waits; a click shows its plan. */
export function needsYouEntryItem({ row }: NeedsYouEntryElement, chat: boolean): vscode.TreeItem {
  const item = new vscode.TreeItem(row.title, vscode.TreeItemCollapsibleState.None);
  item.id = `${ItemContext.NeedsYou}/${row.session}`;
  const icon = SIGNAL_ICONS[row.signal.kind];
  item.iconPath = new vscode.ThemeIcon(icon.id, new vscode.ThemeColor(icon.color));
  item.description = row.description;
  const tooltip = new vscode.MarkdownString(undefined, true);
  tooltip.appendText(row.title);
  tooltip.appendMarkdown(`\n\n$(${icon.id}) `).appendText(row.agent !== undefined ? `${row.agent}: ${row.reason}` : row.reason);
  if (row.signal.ask) {
    tooltip.appendMarkdown('\n\n');
    appendAsk(tooltip, row.signal.ask);
  }
  item.tooltip = tooltip;
  // The session rows' context menus apply: the element carries the session's key (a request to answer adds Allow and Deny).
  item.contextValue = row.signal.ask ? ItemContext.AskingSession : chat ? ItemContext.ChatSession : ItemContext.Session;
  item.accessibilityInformation = { label: [row.title, row.agent, row.reason].filter((part) => part !== undefined).join(', ') };
  item.command = { command: CommandId.SelectSession, title: t('Show this session'), arguments: [row.session] };
  return item;
}

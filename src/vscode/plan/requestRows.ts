// The user's own requests in the Plan view: a row each below the plan, with its own icon and
// "requested 10:42", until a plan takes it in (requests.ts). Rows come from the data alone.
import * as vscode from 'vscode';
import type { UserRequest } from '../../core/derived/requests';
import { itemLabel } from '../../core/plan/present';
import { dateTimeText, timeText } from '../agentLooks';
import { CommandId, ItemContext } from '../ids';

const t = vscode.l10n.t;

export interface RequestElement {
  readonly kind: 'request';
  readonly session: string;
  readonly request: UserRequest;
}

export function requestRows(session: string, requests: readonly UserRequest[]): RequestElement[] {
  return requests.map((request): RequestElement => ({ kind: 'request', session, request }));
}

export function requestTreeItem(element: RequestElement): vscode.TreeItem {
  const { request } = element;
  const item = new vscode.TreeItem(itemLabel(request.text, t), vscode.TreeItemCollapsibleState.None);
  item.id = `${element.session}/request/${request.id}`;
  const notTaken = request.notTakenSince !== undefined;
  item.iconPath = new vscode.ThemeIcon('person', notTaken ? new vscode.ThemeColor('list.warningForeground') : undefined);
  item.description = notTaken ? t('requested {0} · not in the plan', timeText(request.ts)) : t('requested {0}', timeText(request.ts));
  item.contextValue = ItemContext.Request;
  item.accessibilityInformation = { label: t('Your request: {0}, {1}', request.text, item.description) };
  const tooltip = new vscode.MarkdownString(undefined, true);
  tooltip.supportThemeIcons = true;
  tooltip.appendMarkdown('$(person) ').appendText(request.text);
  tooltip.appendMarkdown('\n\n');
  tooltip.appendText(
    notTaken
      ? t('Requested {0}. The turn ended {1} and no plan version since holds it.', dateTimeText(request.ts), dateTimeText(request.notTakenSince ?? request.ts))
      : t('Requested {0}. It goes once a plan version holds an item that contains it.', dateTimeText(request.ts)),
  );
  item.tooltip = tooltip;
  return item;
}

/** A hand-off link above the plan: "Continued from …" or "Continued in …"; a click shows that session. */
export interface LinkElement {
  readonly kind: 'link';
  readonly session: string;
  readonly direction: 'from' | 'to';
  readonly other: string;
  readonly title: string;
}

export function linkRows(session: string, links: { from: string | undefined; to: readonly string[] }, titleOf: (session: string) => string): LinkElement[] {
  const rows: LinkElement[] = [];
  if (links.from !== undefined) rows.push({ kind: 'link', session, direction: 'from', other: links.from, title: titleOf(links.from) });
  for (const to of links.to) rows.push({ kind: 'link', session, direction: 'to', other: to, title: titleOf(to) });
  return rows;
}

export function linkTreeItem(element: LinkElement): vscode.TreeItem {
  const label = element.direction === 'from' ? t('Continued from "{0}"', element.title) : t('Continued in "{0}"', element.title);
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
  item.id = `${element.session}/link/${element.direction}/${element.other}`;
  item.iconPath = new vscode.ThemeIcon('link');
  item.contextValue = ItemContext.Link;
  item.tooltip = t('Show the plan of that session');
  item.command = { command: CommandId.SelectSession, title: t('Show the plan of that session'), arguments: [element.other] };
  return item;
}

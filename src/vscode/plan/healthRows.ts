// Plan health in the Plan view: a row per signal above the plan, a row per dropped item below
// it. Rows come from the data alone; how a signal looks (its icon, a request's lines) is in
// ../signalLooks.ts, shared with the Sessions view.
import * as vscode from 'vscode';
import type { HealthSignal } from '../../core/derived/health';
import { SIGNAL_ICONS, signalText } from '../../core/derived/healthText';
import { itemLabel } from '../../core/plan/present';
import { dateTimeText } from '../agentLooks';
import { ItemContext } from '../ids';
import { appendAsk, signalIcon } from '../signalLooks';

const t = vscode.l10n.t;

export interface SignalElement {
  readonly kind: 'signal';
  readonly session: string;
  /** The signal at this place: a row keeps its element while the rows keep their places, and is redrawn alone. */
  signal: HealthSignal;
  readonly index: number;
}

export interface DroppedElement {
  readonly kind: 'dropped';
  readonly session: string;
  readonly content: string;
  readonly signal: HealthSignal;
}

/** The rows above the plan (every signal) and below it (each dropped item). */
export function healthRows(session: string, signals: readonly HealthSignal[]): { above: SignalElement[]; below: DroppedElement[] } {
  const above = signals.map((signal, index): SignalElement => ({ kind: 'signal', session, signal, index }));
  const below = signals
    .filter((signal) => signal.kind === 'dropped')
    .flatMap((signal) => (signal.items ?? []).map((content): DroppedElement => ({ kind: 'dropped', session, content, signal })));
  return { above, below };
}

export function signalTreeItem(element: SignalElement, now = new Date()): vscode.TreeItem {
  const { signal } = element;
  const label = signalText(signal, now, t);
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
  // By place, as the plan's items: a signal that changed keeps its row's id, so it is redrawn alone.
  item.id = `${element.session}/signal/${element.index}`;
  item.iconPath = signalIcon(signal);
  const compare = signal.at !== undefined;
  item.contextValue = `${ItemContext.Signal}.${signal.kind}${signal.ask ? '.ask' : ''}${compare ? '.compare' : ''}`;
  const tooltip = new vscode.MarkdownString(undefined, true);
  tooltip.supportThemeIcons = true;
  tooltip.appendMarkdown(`$(${SIGNAL_ICONS[signal.kind].id}) `).appendText(label);
  tooltip.appendMarkdown('\n\n');
  if (signal.ask) appendAsk(tooltip, signal.ask);
  if (signal.items && signal.items.length > 0) {
    const lines =
      signal.kind === 'reworded'
        ? pairs(signal.items).map(([from, to]) => `${itemLabel(from, t)} → ${itemLabel(to, t)}`)
        : signal.items.map((content) => itemLabel(content, t));
    tooltip.appendText(lines.map((line) => `• ${line}`).join('\n'));
    tooltip.appendMarkdown('\n\n');
  }
  tooltip.appendText(compare ? t('Started by the version saved {0}; Compare opens its diff.', dateTimeText(signal.since)) : t('Since {0}.', dateTimeText(signal.since)));
  item.tooltip = tooltip;
  item.accessibilityInformation = { label };
  return item;
}

/** Combining long stroke overlay: the tree API has no strikethrough of its own. */
function struck(text: string): string {
  return [...text].map((char) => `${char}\u0336`).join('');
}

export function droppedTreeItem(element: DroppedElement): vscode.TreeItem {
  const text = itemLabel(element.content, t);
  const item = new vscode.TreeItem(struck(text), vscode.TreeItemCollapsibleState.None);
  item.id = `${element.session}/dropped/${element.signal.at ?? ''}/${element.content}`;
  item.iconPath = new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('list.warningForeground'));
  item.description = t('dropped {0}', dateTimeText(element.signal.since));
  item.contextValue = ItemContext.Dropped;
  const tooltip = new vscode.MarkdownString();
  tooltip.appendText(element.content);
  tooltip.appendMarkdown('\n\n');
  tooltip.appendText(t('Dropped without being done by the version saved {0}.', dateTimeText(element.signal.since)));
  item.tooltip = tooltip;
  item.accessibilityInformation = { label: t('{0}, dropped without being done', text) };
  return item;
}

function pairs(items: readonly string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < items.length; i += 2) out.push([items[i] ?? '', items[i + 1] ?? '']);
  return out;
}

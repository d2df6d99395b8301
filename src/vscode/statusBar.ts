// The status-bar item: the shown plan's progress and the item in progress; a
// click reveals the Plan view. Hidden when there is no plan or the setting is off.
import * as vscode from 'vscode';
import { iconText } from '../core/text/escape';
import type { DisplayState } from '../core/store/display';
import { activeItem, planMarkdown, progressText, singleLine } from '../core/plan/present';
import type { PlanStore } from '../core/store/store';
import type { HealthBook } from '../core/derived/healthBook';
import { isWarning } from '../core/derived/health';
import { SIGNAL_ICONS, signalText, signalWord } from '../core/derived/healthText';
import { CommandId, SettingId } from './ids';

const t = vscode.l10n.t;

export function createStatusBar(
  display: DisplayState,
  store: PlanStore,
  health: HealthBook,
): vscode.Disposable & { readonly item: vscode.StatusBarItem } {
  const item = vscode.window.createStatusBarItem('agentPlan.progress', vscode.StatusBarAlignment.Left, 50);
  item.name = t('Agent Plan');
  item.command = CommandId.RevealPlan;

  function update(): void {
    const enabled = vscode.workspace.getConfiguration().get<boolean>(SettingId.StatusBarEnabled, true);
    const event = display.event;
    if (!enabled || !event || event.todos.length === 0) {
      item.hide();
      return;
    }
    const active = activeItem(event.todos);
    const total = event.todos.length;
    const earlierTurn = store.details(event.session).earlierTurn;
    let text = `$(${earlierTurn ? 'history' : 'checklist'}) ${event.counts.completed}/${total}`;
    if (active) text += ` · ${iconText(active.content, 40)}`;
    if (earlierTurn) text += ` · ${t('earlier turn')}`;
    // The followed session's most urgent signal; an older version on screen has none.
    const signal = display.shownVersion ? undefined : health.signals(event.session).find((s) => s.kind !== 'reworded');
    if (signal) text += ` · $(${SIGNAL_ICONS[signal.kind].id}) ${signalWord(signal, t)}`;
    item.text = text;
    item.backgroundColor = signal && isWarning(signal) ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    const tooltip = new vscode.MarkdownString();
    tooltip.appendMarkdown(`**${t('Agent Plan')}** · ${progressText(event.counts, t)}\n\n`);
    if (signal) tooltip.appendText(signalText(signal, new Date(), t) + '\n\n');
    if (earlierTurn) tooltip.appendText(t('This plan is from an earlier turn: the latest request has not updated it.') + '\n\n');
    tooltip.appendText(planMarkdown(event.todos, undefined, { inert: false }));
    item.tooltip = tooltip;
    const label = active
      ? t('Agent Plan: {0}, now {1}', progressText(event.counts, t), singleLine(active.content))
      : t('Agent Plan: {0}', progressText(event.counts, t));
    item.accessibilityInformation = { label: signal ? `${label}, ${signalText(signal, new Date(), t)}` : label };
    item.show();
  }

  const subscriptions = [
    display.onDidChange(update),
    health.onDidChange(({ session }) => {
      if (session === display.session) update();
    }),
    vscode.workspace.onDidChangeConfiguration((change) => {
      if (change.affectsConfiguration(SettingId.StatusBarEnabled)) update();
    }),
  ];
  update();
  return {
    item,
    dispose() {
      for (const s of subscriptions) s.dispose();
      item.dispose();
    },
  };
}

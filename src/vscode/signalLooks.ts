// How a health signal is shown wherever a view shows one: its icon, the mark it gives a
// session (the Sessions view), and a permission request's lines in a tooltip (the Plan
// view's signal row, the Needs You row).
import * as vscode from 'vscode';
import { isWarning, type AskFacts, type HealthSignal } from '../core/derived/health';
import { SIGNAL_ICONS, signalWord } from '../core/derived/healthText';
import { bounded } from '../core/text/escape';

const t = vscode.l10n.t;

export function signalIcon(signal: HealthSignal): vscode.ThemeIcon {
  const { id, color } = SIGNAL_ICONS[signal.kind];
  return new vscode.ThemeIcon(id, new vscode.ThemeColor(color));
}

/** A request's command line (or input) and why the model wants it, as text in a code block: data, never Markdown. */
export function appendAsk(tooltip: vscode.MarkdownString, ask: AskFacts): void {
  tooltip.appendCodeblock(bounded(ask.input, 1000), 'sh');
  if (ask.description !== undefined) tooltip.appendText(bounded(ask.description, 300)).appendMarkdown('\n\n');
  tooltip.appendText(t('Allow or Deny here, or answer at the agent\'s own prompt.')).appendMarkdown('\n\n');
}

/** The Sessions view's mark: the most urgent signal's icon and word. */
export function sessionMark(signals: readonly HealthSignal[]): { icon: vscode.ThemeIcon; word: string; warning: boolean } | undefined {
  const signal = signals[0];
  if (!signal || signal.kind === 'reworded') return undefined;
  return { icon: signalIcon(signal), word: signalWord(signal, t), warning: isWarning(signal) };
}

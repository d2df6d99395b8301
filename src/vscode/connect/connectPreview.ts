// The exact change before it is written: each file before ↔ after in VS Code's multi-file diff
// editor, served read-only under Agent Plan's own `agent-plan-connect:` scheme (nothing is
// saved anywhere, no untitled document asks to be saved), then a modal question.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ConnectPlan } from '../../node/connect/connect';
import { notificationText } from '../../core/text/escape';
import { noteText, shownPath } from './connectTexts';

const t = vscode.l10n.t;

/** The scheme of the previews' documents. */
export const CONNECT_SCHEME = 'agent-plan-connect';

/** The previews' texts, by the path of their Uri; the newest few are kept. */
export class ConnectPreviews implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private next = 0;

  /** A read-only document holding `text`, named after `file`. */
  add(file: string, side: 'before' | 'after', text: string): vscode.Uri {
    const key = `/${this.next++}/${side}/${path.basename(file)}`;
    this.texts.set(key, text);
    // Old previews go: a preview is looked at once, before its question is answered.
    for (const old of this.texts.keys()) if (this.texts.size > 64) this.texts.delete(old);
    return vscode.Uri.from({ scheme: CONNECT_SCHEME, path: key });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.path) ?? '';
  }
}

/** Opens the plan's files before → after in the multi-file diff editor. */
export async function showPlan(previews: ConnectPreviews, planned: ConnectPlan, title: string): Promise<void> {
  const resources = planned.files.map((file) => [vscode.Uri.file(file.path), previews.add(file.path, 'before', file.before ?? ''), previews.add(file.path, 'after', file.after ?? '')]);
  await vscode.commands.executeCommand('vscode.changes', title, resources);
}

/** The modal question after the preview: true when the user chose `action`. */
export async function confirmPlan(planned: ConnectPlan, question: string, action: string): Promise<boolean> {
  const lines = planned.files.map((file) => `${shownPath(file.path)}: ${file.before === undefined ? t('created') : file.after === undefined ? t('removed') : t('changed')}`);
  const detail = [...lines, ...planned.notes.map(noteText)].map((line) => notificationText(line)).join('\n');
  const answer = await vscode.window.showWarningMessage(question, { modal: true, detail }, action);
  return answer === action;
}

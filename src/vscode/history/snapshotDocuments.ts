// Read-only virtual documents, one per saved version, rendered as a Markdown checklist,
// so VS Code's own diff editor can compare two versions of a plan.
// URI: agent-plan-snapshot:/<session>/<at>.md, where <at> is the version's address (the
// byte offset of its line in the log): one line is read, however long the history.
import * as vscode from 'vscode';
import { planMarkdown } from '../../core/plan/present';
import { isSessionKey } from '../../core/log/sessionKey';
import type { PlanStore } from '../../core/store/store';
import { dateTimeText } from '../agentLooks';
import { SNAPSHOT_SCHEME } from '../ids';

export function snapshotUri(session: string, at: number): vscode.Uri {
  return vscode.Uri.from({ scheme: SNAPSHOT_SCHEME, path: `/${session}/${at}.md` });
}

export class SnapshotDocuments implements vscode.TextDocumentContentProvider {
  constructor(private readonly store: PlanStore) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const match = /^\/([^/]+)\/(\d{1,15})\.md$/.exec(uri.path);
    const session = match?.[1];
    if (!match || !session || !isSessionKey(session)) throw new Error(`not a plan snapshot: ${uri.toString()}`);
    const event = await this.store.versionAt(session, Number(match[2]));
    if (!event) return vscode.l10n.t('(this version is no longer in the log)') + '\n';
    // Read in a diff editor as plain text: the agent's words as they are, one line each.
    return planMarkdown(event.todos, vscode.l10n.t('Plan as saved {0}', dateTimeText(event.ts)), { inert: false });
  }
}

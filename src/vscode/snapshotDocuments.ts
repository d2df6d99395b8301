// Read-only virtual documents, one per snapshot, rendered as a Markdown
// checklist, so VS Code's own diff editor can compare two versions of a plan.
// URI: agent-plan-snapshot:/<session>/v<n>.md (n is 1-based).
import * as vscode from 'vscode';
import { planMarkdown } from '../core/present';
import { isSessionKey } from '../core/sessionKey';
import type { PlanStore } from '../core/store';
import { SNAPSHOT_SCHEME } from './ids';

export function snapshotUri(session: string, index: number): vscode.Uri {
  return vscode.Uri.from({ scheme: SNAPSHOT_SCHEME, path: `/${session}/v${index + 1}.md` });
}

export class SnapshotDocuments implements vscode.TextDocumentContentProvider {
  constructor(private readonly store: PlanStore) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const match = /^\/([^/]+)\/v(\d+)\.md$/.exec(uri.path);
    const session = match?.[1];
    if (!match || !session || !isSessionKey(session)) throw new Error(`not a plan snapshot: ${uri.toString()}`);
    const index = Number(match[2]) - 1;
    const history = await this.store.history(session);
    const event = history[index];
    if (!event) return vscode.l10n.t('(this version is no longer in the log)') + '\n';
    return planMarkdown(event.todos, vscode.l10n.t('Plan, version {0} · {1}', index + 1, event.ts));
  }
}

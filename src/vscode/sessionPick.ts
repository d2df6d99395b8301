// The one picker of a session, for the commands and the plan actions: each row its title,
// agent, progress and age; the session the Plan view shows is marked.
import * as vscode from 'vscode';
import { iconText } from '../core/text/escape';
import { progressText, relativeTime, sessionTitle } from '../core/plan/present';
import type { PlanStore } from '../core/store/store';
import { agentName } from './agentLooks';

const t = vscode.l10n.t;

export interface SessionPickOptions {
  title: string;
  placeHolder: string;
  /** The session the Plan view shows. */
  shown: string | undefined;
  /** List the shown session first. */
  shownFirst?: boolean;
}

/** Asks for one of the store's sessions (it has at least one); undefined when dismissed. */
export async function pickSession(store: PlanStore, { title, placeHolder, shown, shownFirst }: SessionPickOptions): Promise<string | undefined> {
  const sessions = store.list();
  const ordered = shownFirst ? [...sessions.filter((event) => event.session === shown), ...sessions.filter((event) => event.session !== shown)] : sessions;
  const now = new Date();
  const picked = await vscode.window.showQuickPick(
    ordered.map((event) => {
      const details = store.details(event.session);
      return {
        label: iconText(sessionTitle(event, t, details)),
        description: [details.agent ? agentName(details.agent) : undefined, progressText(event.counts, t), relativeTime(event.ts, now, t)]
          .filter((part) => part !== undefined)
          .join(' · '),
        detail: event.session === shown ? t('shown now') : undefined,
        session: event.session,
      };
    }),
    { title, placeHolder },
  );
  return picked?.session;
}

/** Tells the user there is no plan to act on. */
export async function noPlan(): Promise<void> {
  await vscode.window.showInformationMessage(t('There is no agent plan yet in this workspace.'));
}

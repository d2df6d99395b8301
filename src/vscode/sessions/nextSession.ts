// Go to Next Session That Needs You: the next session of the queue (src/core/derived/needsYouBook.ts)
// on screen with its plan, then its chat (a VS Code chat), or for a terminal agent the
// integrated terminal whose working folder (shell integration's cwd) is the session's; with
// no such terminal, a status message names the agent and its folder.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DisplayState } from '../../core/store/display';
import { nextNeedingYou } from '../../core/derived/needsYou';
import type { NeedsYouBook } from '../../core/derived/needsYouBook';
import { needsYouReason } from '../../core/derived/needsYouText';
import { sessionTitle } from '../../core/plan/present';
import type { PlanStore } from '../../core/store/store';
import { agentName } from '../agentLooks';
import type { CommandTable } from '../commands/commandTable';
import { CommandId, VIEW_CONTAINER } from '../ids';

const t = vscode.l10n.t;
/** How long the status message naming a terminal agent's folder stays. */
const FOLDER_MESSAGE_MS = 10_000;

export interface NextSessionDeps {
  store: PlanStore;
  needsYou: NeedsYouBook;
  display: DisplayState;
}

export const NEXT_SESSION_COMMANDS = {
  [CommandId.GoToNextSessionNeedingYou]: goToNextSession,
} satisfies CommandTable<NextSessionDeps>;

/** Returns the session gone to, if any. */
async function goToNextSession({ store, needsYou, display }: NextSessionDeps): Promise<string | undefined> {
  const next = nextNeedingYou(needsYou.queue(), display.session);
  if (next === undefined) {
    void vscode.window.showInformationMessage(t('No session needs you now.'));
    return undefined;
  }
  await vscode.commands.executeCommand(`workbench.view.extension.${VIEW_CONTAINER}`);
  await vscode.commands.executeCommand(CommandId.SelectSession, next.session);
  const details = store.details(next.session);
  if (details.chat !== undefined) {
    await vscode.commands.executeCommand(CommandId.OpenChat, next.session);
    return next.session;
  }
  const folder = store.folderOf(next.session);
  const terminal = terminalIn(folder);
  if (terminal) {
    terminal.show();
    return next.session;
  }
  const event = store.get(next.session);
  const title = event ? sessionTitle(event, t, details) : next.session.slice(0, 8);
  const agent = details.agent ? agentName(details.agent) : t('Its agent');
  const reason = needsYouReason(next.signal, t);
  const message =
    folder !== undefined
      ? t('{0} ({1}): {2} works in {3}; no integrated terminal is open there.', title, reason, agent, folder)
      : t('{0} ({1}): {2} recorded no working folder.', title, reason, agent);
  vscode.window.setStatusBarMessage(message, FOLDER_MESSAGE_MS);
  return next.session;
}

/** The integrated terminal whose shell is in `folder` (as shell integration reports it), if any. */
function terminalIn(folder: string | undefined): vscode.Terminal | undefined {
  if (folder === undefined) return undefined;
  const wanted = path.resolve(folder);
  return vscode.window.terminals.find((terminal) => {
    const cwd = terminal.shellIntegration?.cwd;
    return cwd !== undefined && cwd.scheme === 'file' && path.resolve(cwd.fsPath) === wanted;
  });
}

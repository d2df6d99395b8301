// Go to Next Session That Needs You: the next session of the queue (src/core/derived/needsYou.ts)
// on screen with its plan, then its chat (a VS Code chat), or for a terminal agent the
// integrated terminal whose working folder (shell integration's cwd) is the session's.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DisplayState } from '../core/plan/display';
import type { HealthBook } from '../core/derived/healthBook';
import { needsYouQueue, nextNeedingYou } from '../core/derived/needsYou';
import type { PlanStore } from '../core/plan/store';
import { CommandId, VIEW_CONTAINER } from './ids';

const t = vscode.l10n.t;

export interface NextSessionDeps {
  store: PlanStore;
  health: HealthBook;
  display: DisplayState;
}

export function registerNextSession({ store, health, display }: NextSessionDeps): vscode.Disposable {
  return vscode.commands.registerCommand(CommandId.GoToNextSessionNeedingYou, async (): Promise<string | undefined> => {
    const queue = needsYouQueue(
      store.list().map((event) => event.session),
      (session) => health.signals(session),
    );
    const next = nextNeedingYou(queue, display.session);
    if (next === undefined) {
      void vscode.window.showInformationMessage(t('No session needs you now.'));
      return undefined;
    }
    await vscode.commands.executeCommand(`workbench.view.extension.${VIEW_CONTAINER}`);
    await vscode.commands.executeCommand(CommandId.SelectSession, next.session);
    if (store.details(next.session).chat !== undefined) {
      await vscode.commands.executeCommand(CommandId.OpenChat, next.session);
    } else {
      terminalIn(store.folderOf(next.session))?.show();
    }
    return next.session;
  });
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

// What the Plan view showed, remembered per workspace across reloads: the session, read
// first on the next activation so the view paints it before the other logs are even
// listed, and whether the user had pinned it, so a pin outlives the reload.
import type * as vscode from 'vscode';
import type { DisplayState } from '../core/store/display';
import { isSessionKey } from '../core/log/sessionKey';
import { StateKey } from './ids';

export interface ShownSession {
  session: string;
  pinned: boolean;
}

/** The session the Plan view showed when the window last ran, if it is a valid key. */
export function recallShownSession(memento: vscode.Memento): ShownSession | undefined {
  const value = memento.get<unknown>(StateKey.ShownSession);
  if (typeof value !== 'object' || value === null) return undefined;
  const { session, pinned } = value as Record<string, unknown>;
  return isSessionKey(session) ? { session, pinned: pinned === true } : undefined;
}

/** Saves the shown session whenever it (or its pin) changes. */
export function rememberShownSession(memento: vscode.Memento, display: DisplayState): vscode.Disposable {
  let saved = JSON.stringify(recallShownSession(memento) ?? null);
  return display.onDidChange(() => {
    const session = display.session;
    if (session === undefined) return;
    const shown: ShownSession = { session, pinned: !display.followingLatest };
    const text = JSON.stringify(shown);
    if (text === saved) return;
    saved = text;
    void memento.update(StateKey.ShownSession, shown);
  });
}

// The folders the terminal agents are followed in, from the window and the settings: the
// workspace folders, their repositories' worktrees (`agentPlan.worktrees.enabled`) and the
// folders added by hand (`agentPlan.extraFolders`). See src/node/followedFolders.ts.
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FollowedFolders } from '../node/followedFolders';
import { SettingId } from './ids';

/** Built anew when the workspace folders or these settings change. */
export function createFollowedFolders(): FollowedFolders {
  const workspaceFolders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  const config = vscode.workspace.getConfiguration();
  const extra = config.get<unknown>(SettingId.ExtraFolders, []);
  const extraFolders = (Array.isArray(extra) ? extra : []).filter((f): f is string => typeof f === 'string').map(expandHome).filter((f): f is string => f !== undefined);
  return new FollowedFolders({ workspaceFolders, extraFolders, worktrees: config.get<boolean>(SettingId.WorktreesEnabled, true) });
}

/** Whether a configuration change asks for the folders to be read again. */
export function affectsFollowedFolders(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration(SettingId.ExtraFolders) || event.affectsConfiguration(SettingId.WorktreesEnabled);
}

/** An absolute path (`~` expanded); undefined for an empty or relative one. */
function expandHome(value: string): string | undefined {
  const folder = value.trim();
  if (folder === '~') return os.homedir();
  if (folder.startsWith('~/')) return path.join(os.homedir(), folder.slice(2));
  return path.isAbsolute(folder) ? path.resolve(folder) : undefined;
}

// The folders the terminal agents are followed in, from the window and the settings: the
// workspace folders, their repositories' worktrees (`agentPlan.worktrees.enabled`) and the
// folders added by hand (`agentPlan.extraFolders`). See src/node/followedFolders.ts.
//
// Workspace trust: a repository's `.vscode/settings.json` and its `.git` file are the
// repository's content. In Restricted Mode the settings that widen what is read come from the
// user's own settings only (the manifest lists them in `restrictedConfigurations`; read here
// from the user's value as well, so it holds whatever the host does), and worktrees are not
// followed (a `gitdir:` file could name any repository). A folder that is the file system's
// root, the home folder or above it is never followed: it would take in every project.
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FollowedFolders } from '../node/followedFolders';
import { SettingId } from './ids';

export interface FollowedFoldersChoice {
  followed: FollowedFolders;
  /** Extra folders refused, each with why (in the user's language). */
  refused: string[];
}

/** Built anew when the workspace folders, their trust or these settings change. */
export function createFollowedFolders(): FollowedFoldersChoice {
  const trusted = vscode.workspace.isTrusted;
  const workspaceFolders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  const config = vscode.workspace.getConfiguration();
  const extra = trusted ? config.get<unknown>(SettingId.ExtraFolders, []) : config.inspect<unknown>(SettingId.ExtraFolders)?.globalValue;
  const refused: string[] = [];
  const extraFolders: string[] = [];
  for (const value of (Array.isArray(extra) ? extra : []).filter((f): f is string => typeof f === 'string')) {
    const folder = expandHome(value);
    if (folder === undefined) continue;
    const why = refusal(folder, os.homedir());
    if (why === undefined) extraFolders.push(folder);
    else refused.push(vscode.l10n.t('{0} is not followed: {1}', folder, why));
  }
  const worktrees = trusted ? config.get<boolean>(SettingId.WorktreesEnabled, true) : false;
  return { followed: new FollowedFolders({ workspaceFolders, extraFolders, worktrees }), refused };
}

/** Why an extra folder is refused, or undefined when it may be followed. */
function refusal(folder: string, home: string): string | undefined {
  if (path.dirname(folder) === folder) return vscode.l10n.t('it is the root of the file system, and would take in every project.');
  const relative = path.relative(folder, home);
  if (relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative))) {
    return vscode.l10n.t('it is your home folder or holds it, and would take in every project.');
  }
  return undefined;
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

// The files a `file/write` line names, as VS Code opens them: the Plan view's file rows and the
// Plan Timeline's file marks. A path is the agent's own, opened as it is, never used to build
// another file's name.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { notificationText } from '../core/text/escape';

const t = vscode.l10n.t;

/**
 * The file a `file/write` line names: an absolute path as it is (on the workspace's file
 * system), a relative one against the first workspace folder. Nothing else is tried: the
 * path is never used to build other names.
 */
export function recordedFileUri(recorded: string, folders: readonly vscode.WorkspaceFolder[] = vscode.workspace.workspaceFolders ?? []): vscode.Uri | undefined {
  const folder = folders[0]?.uri;
  if (path.isAbsolute(recorded) || path.win32.isAbsolute(recorded)) {
    const file = vscode.Uri.file(recorded);
    return folder === undefined || folder.scheme === 'file' ? file : folder.with({ path: file.path });
  }
  return folder === undefined ? undefined : vscode.Uri.joinPath(folder, recorded);
}

/** recordedFileUri, when that is an existing file. */
export async function writtenFile(recorded: string, folders: readonly vscode.WorkspaceFolder[] = vscode.workspace.workspaceFolders ?? []): Promise<vscode.Uri | undefined> {
  const uri = recordedFileUri(recorded, folders);
  if (uri === undefined) return undefined;
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    return (stat.type & vscode.FileType.File) !== 0 ? uri : undefined;
  } catch {
    return undefined;
  }
}

/** Opens a file a `file/write` line names; one that is gone since gets a message instead of an empty editor. */
export async function openWrittenFile(recorded: string): Promise<void> {
  const uri = await writtenFile(recorded);
  if (!uri) {
    await vscode.window.showInformationMessage(t('{0} no longer exists.', notificationText(recorded)));
    return;
  }
  await vscode.commands.executeCommand('vscode.open', uri);
}

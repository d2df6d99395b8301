// What each item changed, in the Plan view: an item with files opens to a row per file (a
// click opens it), and the files written while no item was in progress sit in one row below
// the plan. Rows come from the data alone (itemFiles.ts); paths are the agents' own, shown
// and opened, never used to build another file's name.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ItemFile } from '../../core/derived/itemFiles';
import type { CommandTable } from '../commands/commandTable';
import { CommandId, ItemContext } from '../ids';
import { openWrittenFile, recordedFileUri } from '../writtenFiles';

const t = vscode.l10n.t;

/** A file an item changed (`owner` its text), or one the session changed outside any item. */
export interface FileElement {
  readonly kind: 'file';
  readonly session: string;
  readonly owner: string | undefined;
  readonly file: ItemFile;
}

/**
 * A row below the plan that holds the files written while no item was in progress, or (`unknown`)
 * those written while the agent's record does not tell which item was.
 */
export interface OutsideFilesElement {
  readonly kind: 'outside';
  readonly session: string;
  readonly files: readonly ItemFile[];
  readonly unknown?: boolean;
}

export function fileRows(session: string, owner: string | undefined, files: readonly ItemFile[]): FileElement[] {
  return files.map((file): FileElement => ({ kind: 'file', session, owner, file }));
}

/** "1 file" / "3 files": the description of an item that changed files. */
export function filesCount(count: number): string {
  return count === 1 ? t('1 file') : t('{0} files', count);
}

/** Where a file is, for its row: its folder relative to the workspace when it is inside one. */
function folderText(uri: vscode.Uri): string {
  const relative = vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
  const folder = path.posix.dirname(relative.split(path.sep).join('/'));
  return folder === '.' ? '' : folder;
}

export function fileTreeItem(element: FileElement): vscode.TreeItem {
  const { file } = element;
  const uri = recordedFileUri(file.path);
  const name = path.basename(file.path);
  const item = new vscode.TreeItem(name, vscode.TreeItemCollapsibleState.None);
  item.id = `${element.session}/file/${element.owner ?? ''}/${file.path}`;
  if (uri) item.resourceUri = uri;
  item.iconPath = vscode.ThemeIcon.File;
  const folder = uri ? folderText(uri) : path.dirname(file.path) === '.' ? '' : path.dirname(file.path);
  const marks = [folder, file.shared ? t('shared') : '', file.subagent ? t('sub-agent') : ''].filter((mark) => mark !== '');
  item.description = marks.join(' · ');
  item.contextValue = ItemContext.File;
  const where = folder ? t('{0} in {1}', name, folder) : name;
  item.accessibilityInformation = {
    label: file.shared ? t('Changed file {0}, also while another item was in progress', where) : t('Changed file {0}', where),
  };
  const tooltip = new vscode.MarkdownString(undefined, true);
  tooltip.supportThemeIcons = true;
  tooltip.appendMarkdown('$(file) ').appendText(file.path);
  tooltip.appendMarkdown('\n\n');
  tooltip.appendText(file.writes === 1 ? t('Written once by the agent.') : t('Written {0} times by the agent.', file.writes));
  if (file.shared) tooltip.appendMarkdown('\n\n').appendText(t('Another item was in progress too when it was written.'));
  if (file.subagent) tooltip.appendMarkdown('\n\n').appendText(t('Written by a sub-agent without a plan of its own, while this item was in progress.'));
  item.tooltip = tooltip;
  item.command = { command: CommandId.OpenChangedFile, title: t('Open File'), arguments: [file.path] };
  return item;
}

export function outsideFilesTreeItem(element: OutsideFilesElement): vscode.TreeItem {
  const label = element.unknown ? t('Changed while the item in progress is not known') : t('Changed while no item was in progress');
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `${element.session}/${element.unknown ? 'unknown' : 'outside'}-files`;
  item.iconPath = new vscode.ThemeIcon('files');
  item.description = filesCount(element.files.length);
  item.contextValue = ItemContext.OutsideFiles;
  item.accessibilityInformation = { label: t('{0}, {1}', label, filesCount(element.files.length)) };
  return item;
}

/** The tooltip's line of an item's files: their names, the first ten. */
export function filesTooltipLine(files: readonly ItemFile[]): string {
  const names = files.slice(0, 10).map((file) => path.basename(file.path));
  const more = files.length > 10 ? ` ${t('and {0} more', files.length - 10)}` : '';
  return t('Changed: {0}', names.join(', ') + more);
}

/** The Plan view's file rows open their file through this command (the path as the line names it). */
export const FILE_COMMANDS = {
  [CommandId.OpenChangedFile]: async (_context: void, recorded?: unknown) => {
    if (typeof recorded === 'string' && recorded !== '') await openWrittenFile(recorded);
  },
} satisfies CommandTable<void>;

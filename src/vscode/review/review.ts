// Review Item and Review Session: what each plan item changed, in VS Code's multi-file diff
// editor (`vscode.changes`), each file before → after from Agent Plan's own snapshot store,
// served read-only under the `agent-plan-tree:` scheme. Also the snapshots' wiring (which
// folder a session works in, the git VS Code uses, the settings); the Plan view's diffstats
// are ../diffstats.ts.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ItemChanges, FileChange } from '../../core/derived/itemChanges';
import { sessionNamedBy } from '../../core/log/sessionKey';
import type { LogPlanSink } from '../../core/log/planSink';
import type { PlanVersion, SessionLog } from '../../core/log/sessionLog';
import type { DisplayState } from '../../core/store/display';
import { isVscodeChatAgent } from '../../core/plan/participants';
import type { PlanStore } from '../../core/store/store';
import { GitSnapshots } from '../../node/gitSnapshots';
import { ItemChangesReader } from '../../node/itemChangesReader';
import { SnapshotRecorder } from '../../node/snapshotRecorder';
import type { CommandTable } from '../commands/commandTable';
import { ItemDiffstats, megabytes, missText, skippedText } from '../diffstats';
import { CommandId, SettingId, TREE_SCHEME } from '../ids';
import { logError, type Logger } from '../log';
import { noPlan } from '../sessionPick';
import { iconText, notificationText } from '../../core/text/escape';
import { inProgressItems } from '../../core/derived/snapshotTrigger';
import { versionTime } from '../agentLooks';
import { pickVersion } from '../history/historyPick';

const t = vscode.l10n.t;

/** A file of a snapshot: `agent-plan-tree:/<tree>/<path>`. */
export function treeUri(tree: string, file: string): vscode.Uri {
  return vscode.Uri.from({ scheme: TREE_SCHEME, path: `/${tree}/${file}` });
}

/** Serves a snapshot's file, read-only; a file the snapshot does not hold reads empty (added or deleted). */
class TreeDocuments implements vscode.TextDocumentContentProvider {
  constructor(private readonly snapshots: GitSnapshots) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const match = /^\/([0-9a-f]{40}(?:[0-9a-f]{24})?)\/(.+)$/.exec(uri.path);
    if (!match) return '';
    const content = await this.snapshots.readFile(match[1] as string, match[2] as string);
    return content?.toString('utf8') ?? '';
  }
}

/** The git VS Code's Git extension uses (when it is active), else its `git.path` setting, else `git` on PATH. */
function gitPath(): string {
  const extension = vscode.extensions.getExtension<{ getAPI?(version: 1): { git?: { path?: string } } }>('vscode.git');
  try {
    const fromApi = extension?.isActive ? extension.exports.getAPI?.(1).git?.path : undefined;
    if (fromApi) return fromApi;
  } catch {
    // its API is not ready: the setting
  }
  const setting = vscode.workspace.getConfiguration('git').get<string | string[] | null>('path');
  const named = Array.isArray(setting) ? setting[0] : setting;
  return typeof named === 'string' && named.trim() !== '' ? named : 'git';
}

/** The folder a session works in: the workspace's for a VS Code chat (and todo_write), the recorded `cwd` for a terminal agent. */
function folderOf(store: PlanStore, session: string): string | undefined {
  const agent = store.details(session).agent;
  if (agent === undefined || isVscodeChatAgent(agent)) return vscode.workspace.workspaceFolders?.find((folder) => folder.uri.scheme === 'file')?.uri.fsPath;
  return store.folderOf(session);
}

export interface ReviewParts {
  snapshots: GitSnapshots;
  reader: ItemChangesReader;
  diffstats: ItemDiffstats;
  /** Settles when the snapshots asked for so far for a session are taken. */
  settled(session: string): Promise<void>;
  disposables: vscode.Disposable[];
}

/**
 * The snapshot store, its recorder, the reader of changes and the Plan view's diffstats.
 * `followed`: the folders Agent Plan follows (a repository above them is not snapshotted).
 */
export function createReview(storageFolder: string, log: SessionLog, sink: LogPlanSink, store: PlanStore, display: DisplayState, logger: Logger, followed: () => readonly string[]): ReviewParts {
  const snapshots = new GitSnapshots(path.join(storageFolder, 'snapshots.git'), { git: gitPath() });
  const settings = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration();
  const within = (): string[] => [...(vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath), ...followed()];
  const maxFileBytes = (): number => megabytes(SettingId.ReviewMaxUntrackedFileMegabytes, 50);
  const recorder = new SnapshotRecorder(log, sink, snapshots, {
    folderOf: (session) => folderOf(store, session),
    maxBytes: () => megabytes(SettingId.ReviewMaxStoreMegabytes, 500),
    maxFileBytes,
    within,
    // A repository's config can name programs git runs (filters): only in a trusted workspace.
    enabled: () => vscode.workspace.isTrusted && settings().get<boolean>(SettingId.ReviewEnabled, true),
    info: (message) => logger.info(message),
    error: (message, error) => logError(logger, message, error),
  });
  // A look at the working tree now runs git there: only in a trusted workspace (Restricted Mode shows the recorded snapshots only).
  const reader = new ItemChangesReader(log, snapshots, (session) => folderOf(store, session), () => ({ git: vscode.workspace.isTrusted, within: within(), maxFileBytes: maxFileBytes() }));
  const diffstats = new ItemDiffstats(log, store, display, reader, logger);
  const gone = log.onDidRead((read) => {
    // A deleted session's snapshots go with it (objects other sessions use stay).
    if (read.gone) void snapshots.forget(read.session).catch((error: unknown) => logError(logger, 'could not drop a session’s snapshots', error));
  });
  return {
    snapshots,
    reader,
    diffstats,
    settled: (session) => recorder.settled(session),
    disposables: [recorder, diffstats, gone, snapshots, vscode.workspace.registerTextDocumentContentProvider(TREE_SCHEME, new TreeDocuments(snapshots))],
  };
}

/** What Review says of changes it could not show in full: the reason, and the files left out. */
function notRecordedNote(changes: ItemChanges): string {
  const parts = [changes.missed ? missText(changes.missed) : undefined, ...(changes.skipped ?? []).slice(0, 3).map(skippedText)].filter((part) => part !== undefined);
  return parts.join('; ');
}

export interface ReviewDeps {
  store: PlanStore;
  display: DisplayState;
  reader: ItemChangesReader;
  logger: Logger;
}

/** Opens VS Code's multi-file diff editor on files, each before → after from the snapshot store. */
async function openChanges(title: string, files: readonly FileChange[]): Promise<void> {
  const resources = files.map((file) => [vscode.Uri.file(path.join(file.folder, file.path)), treeUri(file.before.tree, file.before.path), treeUri(file.after.tree, file.after.path)]);
  await vscode.commands.executeCommand('vscode.changes', title, resources);
}

/** The item a command names: its text, a Plan view row, or a pick among the plan's items. */
async function itemFrom(store: PlanStore, session: string, arg: unknown, text: unknown): Promise<string | undefined> {
  if (typeof text === 'string') return text;
  const row = (arg as { todo?: { content?: unknown } } | undefined)?.todo?.content;
  if (typeof row === 'string') return row;
  const items = store.get(session)?.todos.map((todo) => ({ label: iconText(todo.content), content: todo.content })) ?? [];
  return (await vscode.window.showQuickPick(items, { placeHolder: t('Review the changes of which item?') }))?.content;
}

async function reviewItem({ store, display, reader }: ReviewDeps, arg?: unknown, text?: unknown): Promise<unknown> {
  const session = sessionNamedBy(arg) ?? display.session;
  if (!session) return noPlan();
  const item = await itemFrom(store, session, arg, text);
  if (item === undefined) return undefined;
  const changes = (await reader.read(session, [item], { now: true })).items[0];
  if (changes?.missed && (changes.recorded === 'none' || changes.files.length === 0)) {
    void vscode.window.showWarningMessage(t('The changes of “{0}” were not recorded: {1}.', notificationText(item), notRecordedNote(changes)));
    return changes;
  }
  if (!changes || changes.recorded === 'none') {
    void vscode.window.showInformationMessage(t('The changes of “{0}” were not recorded: no snapshot of its working tree bounds its work (history from before snapshots, a folder that is not a git working tree, or git missing).', notificationText(item)));
    return changes;
  }
  const note = notRecordedNote(changes);
  if (changes.files.length === 0) {
    // Never "no changes" for work that was not all seen.
    if (changes.recorded === 'part' || note !== '') void vscode.window.showWarningMessage(t('No changes recorded for “{0}”, but not all of its work was recorded{1}.', notificationText(item), note === '' ? '' : `: ${note}`));
    else void vscode.window.showInformationMessage(t('No changes recorded for “{0}”.', notificationText(item)));
    return changes;
  }
  if (note !== '') void vscode.window.showWarningMessage(t('Part of the changes of “{0}” were not recorded: {1}.', notificationText(item), note));
  await openChanges(t('Review Item: {0}', item), changes.files);
  return changes;
}

async function reviewSession({ store, display, reader }: ReviewDeps, arg?: unknown): Promise<unknown> {
  const session = sessionNamedBy(arg) ?? display.session;
  if (!session) return noPlan();
  const changes = await reader.read(session, [], { now: true });
  if (changes.session.length === 0) {
    void vscode.window.showInformationMessage(t('No changes recorded for this session.'));
    return changes.session;
  }
  const title = store.get(session) ? t('Review Session: {0}', session.slice(0, 8)) : t('Review Session');
  await openChanges(title, changes.session);
  return changes.session;
}

/**
 * What changed since a plan version: the user picks one (as in Plan History), or `behind`
 * names it (versions back from the latest: API, tests). From the snapshot taken at or before
 * that version to the newest, or to now while an item is in progress.
 */
async function reviewSince({ store, display, reader }: ReviewDeps, arg?: unknown, behind?: unknown): Promise<unknown> {
  const session = sessionNamedBy(arg) ?? display.session;
  if (!session) return noPlan();
  let version: PlanVersion | undefined;
  if (typeof behind === 'number' && Number.isSafeInteger(behind) && behind >= 0) {
    version = (await store.page(session, behind + 1)).versions[behind];
  } else {
    const picked = await pickVersion(store, display, session, {
      title: t('Review Since…'),
      placeholder: t('Pick a plan version: what changed since then opens in the diff editor'),
      note: (picked) => {
        const working = inProgressItems(picked.event);
        return working.length > 0 ? t('in progress: {0}', working.map((item) => iconText(item, 60)).join(', ')) : undefined;
      },
    });
    if (picked === 'empty') return noPlan();
    version = picked?.version;
  }
  if (!version) return undefined;
  const changes = await reader.since(session, version.at, { now: true });
  if (!changes) {
    void vscode.window.showInformationMessage(t('The changes since that version were not recorded: no snapshot of this session’s working tree (history from before snapshots, a folder that is not a git working tree, or git missing).'));
    return [];
  }
  if (changes.files.length === 0) {
    void vscode.window.showInformationMessage(t('No changes recorded since that version.'));
    return changes.files;
  }
  if (!changes.exact) void vscode.window.showInformationMessage(t('No snapshot was taken at or before that version: the changes shown start at the first snapshot after it.'));
  await openChanges(t('Review Since: {0}', versionTime(version.event.ts)), changes.files);
  return changes.files;
}

export const REVIEW_COMMANDS = {
  // A session key and an item's text (API, tests), a Plan view row, or a pick.
  [CommandId.ReviewItem]: reviewItem,
  [CommandId.ReviewSession]: reviewSession,
  // A session key (or a Sessions row) and how many versions back from the latest (API, tests), or a pick.
  [CommandId.ReviewSince]: reviewSince,
} satisfies CommandTable<ReviewDeps>;

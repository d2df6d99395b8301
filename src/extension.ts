// The composition root: builds the parts and hands every disposable to VS Code.
// Data flows one way: the tool and the followers of other agents' files → session log →
// store events → views and status bar.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DisplayState } from './core/store/display';
import { LogPlanSink } from './core/log/planSink';
import { SessionLocks } from './core/log/sessionLock';
import { SessionLog } from './core/log/sessionLog';
import { PlanStore } from './core/store/store';
import { HealthBook } from './core/derived/healthBook';
import { RequestBook } from './core/derived/requests';
import { FileBook } from './core/derived/itemFiles';
import { LedgerBook } from './core/derived/ledgerBook';
import { nodeLockOwner } from './node/lockOwner';
import { sharedWorkspaceStorage } from './node/sharedStorage';
import { NodeFileSystem } from './node/nodeFileSystem';
import { watchLogFolder } from './node/logWatcher';
import { createApi, type AgentPlanApi } from './vscode/api';
import { registerCommands } from './vscode/commands/commandTable';
import { sessionCommands } from './vscode/sessions/sessionCommands';
import { planActions } from './vscode/handoff/planActions';
import { SNAPSHOT_SCHEME, SettingId, StateKey, TOOL_NAME } from './vscode/ids';
import { bindTable } from './vscode/commands/commandTable';
import { createLogger, logError } from './vscode/log';
import { SnapshotDocuments } from './vscode/history/snapshotDocuments';
import { createStatusBar } from './vscode/statusBar';
import { TodoWriteTool } from './vscode/todoTool';
import { Followers } from './vscode/followers';
import { createViews } from './vscode/views';
import { sessionPlaces } from './vscode/sessionPlaces';
import { NEXT_SESSION_COMMANDS } from './vscode/sessions/nextSession';
import { NeedsYouBook } from './core/derived/needsYouBook';
import { FILE_COMMANDS } from './vscode/plan/fileRows';
import { createTimelines } from './vscode/timeline/timelinePanel';
import { PR_DESCRIPTION_COMMANDS } from './vscode/handoff/prDescriptionCommand';
import { watchHealth } from './vscode/healthWatch';
import { recallShownSession, rememberShownSession } from './vscode/viewMemory';
import { REVIEW_COMMANDS, createReview } from './vscode/review/review';
import { createConnect } from './vscode/connect/connectCommands';
import { createAnswers } from './vscode/answers/answers';

export type { AgentPlanApi, ChangedFiles, ItemChangesResult, PlanHealth, PlanSnapshot, PlanViewState } from './vscode/api';
export type { PendingRequest } from './vscode/answers/answers';

export async function activate(context: vscode.ExtensionContext): Promise<AgentPlanApi> {
  const logger = createLogger();
  // Workspace storage keeps the logs out of the user's repository; with no folder open, global storage.
  // Every window of a workspace uses the workspace's own folder (VS Code gives a second window another).
  const storageFolder = context.storageUri ? sharedWorkspaceStorage(context.storageUri.fsPath) : context.globalStorageUri.fsPath;
  const logFolder = path.join(storageFolder, 'sessions');
  const fileSystem = new NodeFileSystem();
  const log = new SessionLog(logFolder, fileSystem, {
    onCorrupt: (file, detail) => logger.warn(`skipped a damaged line in ${file}: ${detail}`),
    onReadError: (file, reason) => logger.error(`could not read ${file}: ${reason}`),
  });
  const store = new PlanStore(log, (error) => logError(logger, 'a plan listener failed', error));
  // Plan health follows the same reader, line by line.
  const health = new HealthBook(log, {
    reportListenerError: (error) => logError(logger, 'a health listener failed', error),
    dismissed: context.workspaceState.get<Record<string, string[]>>(StateKey.DismissedDropped),
    onDismissed: (dismissed) => void context.workspaceState.update(StateKey.DismissedDropped, dismissed),
  });
  // Followers of other agents' files hand their plans to this sink; it appends to the same log,
  // each import one step across the windows that share this storage (a lock per session).
  const locks = new SessionLocks(fileSystem, path.join(logFolder, '.locks'), nodeLockOwner());
  const sink = new LogPlanSink(log, {
    locks,
    onBounded: (agent, session, detail) => logger.warn(`${agent} session ${session.slice(0, 80)}: ${detail}`),
  });
  const following = vscode.workspace.getConfiguration().get<boolean>(SettingId.FollowLatest, true);
  const display = new DisplayState(store, following);
  // The session shown before the reload: read first, and pinned again if the user had pinned it.
  const shownBefore = recallShownSession(context.workspaceState);
  if (shownBefore?.pinned) display.select(shownBefore.session);
  // Copilot's chat session files sit beside this extension's workspace storage folder.
  const workspaceStorageFolder = context.storageUri ? path.dirname(storageFolder) : undefined;
  const followers = new Followers({ sink, storageFolder, workspaceStorageFolder, logger });
  // The user's requests, followed until a plan takes them in; their signal joins the health signals.
  const requests = new RequestBook(log);
  // What each item changed: the files of the agents' tool calls, read from the log by item.
  const files = new FileBook(log);
  // Where each session works: the worktrees of the followed folders.
  const places = sessionPlaces(store, () => followers.folders?.worktrees() ?? [], followers.onDidChangeFolders);
  const ledgers = new LedgerBook(log);
  // The sessions waiting on the user, kept from the health book (its requests included) as lines are read.
  const needsYou = new NeedsYouBook(log, health, (error) => logError(logger, 'a needs-you listener failed', error));
  // What each item changed, as a diff: working-tree snapshots in Agent Plan's own git store.
  const review = createReview(storageFolder, log, sink, store, display, logger, () => followers.folders?.folders() ?? []);
  const views = createViews({ display, store, health, timelines: log, requests, files, places, ledgers, needsYou, diffstats: review.diffstats });
  const statusBar = createStatusBar(display, store, health);
  const healthWatch = watchHealth(health, store, display, logger);
  const watcher = watchLogFolder(logFolder, {
    // Whatever changed (an append, a new file, a deletion), the log's reader tells the store.
    onChange: (session) => {
      void store.ingest(session).catch((error: unknown) => logError(logger, `could not read session ${session}`, error));
    },
    onRescan: () => {
      void store.load().catch((error: unknown) => logError(logger, `could not read the session logs in ${logFolder}`, error));
    },
    onPoll: () => log.poll(),
    onPolling: (reason) => logger.info(reason),
    onError: (error) => logError(logger, 'watching the log folder failed', error),
  });

  // Settles when the first load is done: a timeline panel restored at start waits for it.
  let loadDone = (): void => {};
  const loaded = new Promise<void>((resolve) => (loadDone = resolve));
  const timelines = createTimelines({ extensionUri: context.extensionUri, store, display, health, log, logger, loaded, places, diffstats: review.diffstats });
  // A connected agent's waiting tool call, answered from Needs You (its permission hook).
  const answers = createAnswers({ log, health, needsYou, logger, folders: () => followers.folders?.folders() ?? [] });
  const actions = planActions({ store, health, requests, logger, shownSession: () => display.session, places });

  context.subscriptions.push(
    logger,
    sink,
    store,
    health,
    needsYou,
    healthWatch,
    display,
    views,
    statusBar,
    rememberShownSession(context.workspaceState, display),
    watcher,
    vscode.lm.registerTool(TOOL_NAME, new TodoWriteTool(store, logger, (session) => review.settled(session))),
    vscode.workspace.registerTextDocumentContentProvider(SNAPSHOT_SCHEME, new SnapshotDocuments(store)),
    requests,
    files,
    ledgers,
    health.include(requests),
    requests.onDidTake(({ texts }) => {
      void vscode.window.setStatusBarMessage(vscode.l10n.t('Taken into the plan: {0}', texts.join('; ')), 5000);
    }),
    actions.linkWatch,
    followers,
    timelines,
    answers.answers,
    ...review.disposables,
    // Every command, each from its feature's table (commandManifest.ts declares them).
    ...registerCommands(logger, [
      ...sessionCommands({ store, display, health, logger, logFileFor: (session) => log.fileFor(session), refreshFollowers: () => followers.refresh() }),
      actions.commands,
      views.commands,
      timelines.commands,
      bindTable(FILE_COMMANDS, undefined),
      bindTable(NEXT_SESSION_COMMANDS, { store, needsYou, display }),
      bindTable(PR_DESCRIPTION_COMMANDS, { store, log, shownSession: () => display.session, changes: review.reader }),
      bindTable(REVIEW_COMMANDS, { store, display, reader: review.reader, logger }),
      answers.commands,
      createConnect({ extensionPath: context.extensionUri.fsPath, globalStoragePath: context.globalStorageUri.fsPath, logger, subscriptions: context.subscriptions }),
    ]),
  );

  try {
    await store.load({ first: shownBefore?.session });
  } catch (error) {
    // An unreadable log never breaks activation: the view starts empty and says why in the log.
    logError(logger, `could not read the session logs in ${logFolder}`, error);
  } finally {
    loadDone();
  }
  // A pinned session whose log is gone since: back to what the settings say.
  if (shownBefore?.pinned && store.get(shownBefore.session) === undefined && following) display.followLatest();
  // Followers start once the log is loaded: what they import is read back like any write.
  followers.start();
  answers.answers.start();
  logger.info(`Agent Plan active; session logs in ${logFolder}`);
  return createApi({ store, display, health, requests, files, ledgers, changes: review.reader, answers: answers.answers, logFolder, logFile: (session) => log.fileFor(session) });
}

export function deactivate(): void {}

// Starts a follower for each enabled agent and restarts it when its settings or
// the workspace folders change. Everything a follower finds goes to the PlanSink (the log);
// nothing here touches the views: they read the log as for any other write.
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Emitter } from '../core/emitter';
import type { FollowedFolders } from '../node/followedFolders';
import type { RunningFollower } from '../agents/agent';
import { AGENTS } from '../agents/registry';
import type { PlanSink, UnknownShape } from '../core/foreign';
import { affectsFollowedFolders, createFollowedFolders } from './workspaceFolders';
import { SOURCES_SETTING, sourceSettingId } from './ids';
import { notificationText } from '../core/text/escape';
import { logError, type Logger } from './log';

export interface FollowersOptions {
  sink: PlanSink;
  /** Agent Plan's own storage: each follower keeps its cursors under it. */
  storageFolder: string;
  logger: Logger;
  /** VS Code's workspace storage folder, where Copilot's chat files are; without one (no folder open), Copilot's chats are not followed. */
  workspaceStorageFolder: string | undefined;
}

export interface FollowerReports {
  onUnknownShape(file: string, shape: UnknownShape): void;
  onError(error: unknown, file?: string): void;
  onPolling(reason: string): void;
}

export class Followers implements vscode.Disposable {
  private readonly running = new Map<string, RunningFollower>();
  private subscription: vscode.Disposable | undefined;
  /** The workspace folders, their worktrees and the extra folders: what every agent follows. */
  private followed: FollowedFolders | undefined;
  private readonly foldersChanged = new Emitter<void>();
  /** The refusals last shown to the user. */
  private toldRefused = '';
  /** Fires when the followed folders changed (a worktree added or removed, a setting). */
  readonly onDidChangeFolders = this.foldersChanged.event;

  constructor(private readonly options: FollowersOptions) {}

  /** Starts every enabled follower, and restarts one when its settings or the folders change. */
  start(): void {
    if (this.subscription) return;
    this.subscription = vscode.Disposable.from(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (affectsFollowedFolders(event)) return this.follow();
        for (const key of this.keys()) if (event.affectsConfiguration(`${SOURCES_SETTING}.${key}`)) this.restart(key);
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.follow()),
      // Trusted now: the workspace's own settings and its worktrees count from here on.
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.follow()),
    );
    this.follow();
  }

  /** The followed folders' worktrees, as last read (for naming where a session ran). */
  get folders(): FollowedFolders | undefined {
    return this.followed;
  }

  /** Reads the folders to follow anew, and restarts every agent now and whenever they change. */
  private follow(): void {
    this.followed?.dispose();
    const { followed, refused } = createFollowedFolders();
    this.followed = followed;
    if (!vscode.workspace.isTrusted) this.options.logger.info('Restricted Mode: extra folders come from your user settings only, and worktrees are not followed');
    for (const reason of refused) this.options.logger.warn(reason);
    // Said once per change of the setting, not on every read of the folders.
    const told = refused.join('\n');
    if (refused.length > 0 && told !== this.toldRefused) void vscode.window.showWarningMessage(notificationText(refused.join(' ')));
    this.toldRefused = told;
    followed.onDidChange(() => {
      this.options.logger.info(`following ${followed.folders().join(', ')}`);
      this.keys().forEach((key) => this.restart(key));
      this.foldersChanged.fire();
    });
    this.keys().forEach((key) => this.restart(key));
    this.foldersChanged.fire();
    followed.read().catch((error: unknown) => logError(this.options.logger, 'could not read the worktrees', error));
  }

  /** Each agent's key under `agentPlan.sources.` in the settings, from the registry. */
  private keys(): string[] {
    return AGENTS.map((agent) => agent.settingKey);
  }

  private reports(key: string): FollowerReports {
    const { logger } = this.options;
    return {
      onUnknownShape: (file, shape) => logger.warn(`${key}: skipped a line in a shape Agent Plan does not know (${file}:${shape.line}): ${shape.detail}`),
      onError: (error, file) => logError(logger, `${key}: could not follow ${file ?? 'its files'}`, error),
      onPolling: (reason) => logger.info(`${key}: ${reason}`),
    };
  }

  private restart(key: string): void {
    this.running.get(key)?.dispose();
    this.running.delete(key);
    const agent = AGENTS.find((a) => a.settingKey === key);
    const config = vscode.workspace.getConfiguration();
    if (agent === undefined || !config.get<boolean>(sourceSettingId(key, 'enabled'), true)) return;
    const workspaceFolders = this.followed?.folders() ?? [];
    const folder = expandFolder(config.get<string>(sourceSettingId(key, 'folder'))) ?? agent.defaultFolder?.(process.env, os.homedir()) ?? '';
    const { workspaceStorageFolder, storageFolder, sink, logger } = this.options;
    // One agent that fails to start never keeps the others from starting.
    try {
      const followedMcpClients = AGENTS.flatMap((other) => other.mcpClients ?? []);
      const running = agent.start({ folder, workspaceFolders, workspaceStorageFolder, storageDir: storageFolder, sink, followedMcpClients, ...this.reports(key) });
      if (running === undefined) return;
      this.running.set(key, running);
      if (agent.defaultFolder !== undefined) logger.info(`${key}: following ${folder} (read only) for ${workspaceFolders.join(', ')}`);
    } catch (error) {
      logError(logger, `${key}: could not start`, error);
    }
  }

  /** Every running follower scans its files now (the Refresh command), resolving when done. */
  async refresh(): Promise<void> {
    await Promise.all([...this.running.values()].map((follower) => follower.refresh()));
  }

  dispose(): void {
    this.subscription?.dispose();
    this.followed?.dispose();
    this.foldersChanged.dispose();
    for (const follower of this.running.values()) follower.dispose();
    this.running.clear();
  }
}

/** A folder setting with `~` expanded; undefined when empty. */
function expandFolder(setting: string | undefined): string | undefined {
  const value = setting?.trim() ?? '';
  if (value === '') return undefined;
  if (value === '~') return os.homedir();
  if (value.startsWith('~/')) return path.join(os.homedir(), value.slice(2));
  return path.resolve(value);
}

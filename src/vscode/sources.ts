// Starts a follower for each enabled foreign source and restarts it when its settings or
// the workspace folders change. Everything a follower finds goes to the PlanSink (the log);
// nothing here touches the views: they read the log as for any other write.
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Follower } from '../node/follower';
import { startCopilotChatSource } from '../node/copilotChats';
import { defaultAgentFolders, startTerminalSource, type TerminalAgent } from '../node/terminalSources';
import type { PlanSink, UnknownShape } from '../sources/types';
import { SOURCES_SETTING } from './ids';
import { logError, type Logger } from './log';

/** A source's key under `agentPlan.sources.` in the settings. */
const COPILOT_SETTING_KEY = 'copilot';
const TERMINAL_SETTING_KEYS: Record<TerminalAgent, string> = {
  'claude-code': 'claudeCode',
  codex: 'codex',
  'gemini-cli': 'geminiCli',
};

export interface SourcesOptions {
  sink: PlanSink;
  /** Agent Plan's own storage: each source keeps its cursors under it. */
  storageFolder: string;
  logger: Logger;
  /** VS Code's workspace storage folder, where Copilot's chat files are; without one (no folder open), no Copilot mirror. */
  workspaceStorageFolder: string | undefined;
}

export interface SourceReports {
  onUnknownShape(file: string, shape: UnknownShape): void;
  onError(error: unknown, file?: string): void;
  onPolling(reason: string): void;
}

export class Sources implements vscode.Disposable {
  private readonly running = new Map<string, Follower>();
  private subscription: vscode.Disposable | undefined;

  constructor(private readonly options: SourcesOptions) {}

  /** Starts every enabled source, and restarts one when its settings or the folders change. */
  start(): void {
    if (this.subscription) return;
    this.subscription = vscode.Disposable.from(
      vscode.workspace.onDidChangeConfiguration((event) => {
        for (const key of this.keys()) if (event.affectsConfiguration(`${SOURCES_SETTING}.${key}`)) this.restart(key);
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.keys().forEach((key) => this.restart(key))),
    );
    for (const key of this.keys()) this.restart(key);
  }

  private keys(): string[] {
    return [...Object.values(TERMINAL_SETTING_KEYS), COPILOT_SETTING_KEY];
  }

  private reports(key: string): SourceReports {
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
    const config = vscode.workspace.getConfiguration(`${SOURCES_SETTING}.${key}`);
    if (!config.get<boolean>('enabled', true)) return;
    const { workspaceStorageFolder, storageFolder, sink } = this.options;
    if (key === COPILOT_SETTING_KEY) {
      if (workspaceStorageFolder) this.running.set(key, startCopilotChatSource({ workspaceStorageFolder, storageDir: storageFolder, sink, ...this.reports(key) }));
      return;
    }
    const agent = (Object.keys(TERMINAL_SETTING_KEYS) as TerminalAgent[]).find((a) => TERMINAL_SETTING_KEYS[a] === key);
    const workspaceFolders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    if (agent === undefined || workspaceFolders.length === 0) return;
    const folder = expandFolder(config.get<string>('folder')) ?? defaultAgentFolders()[agent];
    this.running.set(key, startTerminalSource({ agent, folder, workspaceFolders, storageDir: this.options.storageFolder, sink: this.options.sink, ...this.reports(key) }));
    this.options.logger.info(`${key}: following ${folder} (read only) for ${workspaceFolders.join(', ')}`);
  }

  /** Every running follower scans its files now (the Refresh command), resolving when done. */
  async refresh(): Promise<void> {
    await Promise.all([...this.running.values()].map((follower) => follower.refresh()));
  }

  dispose(): void {
    this.subscription?.dispose();
    for (const source of this.running.values()) source.dispose();
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

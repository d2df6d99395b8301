// Starts one follower per enabled foreign source and restarts it when its settings or the
// workspace folders change. Everything a follower finds goes to the PlanSink (the log);
// nothing here touches the views: they read the log like for any other write.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Follower } from '../node/follower';
import { sourceFolder, type SourceDefinition } from '../node/sources';
import type { PlanSink } from '../sources/types';
import { SOURCES_SETTING } from './ids';
import { logError, type Logger } from './log';

export interface SourcesOptions {
  definitions: readonly SourceDefinition[];
  sink: PlanSink;
  /** Agent Plan's own storage; each source keeps its cursors in a folder under it. */
  storageFolder: string;
  logger: Logger;
}

export class Sources implements vscode.Disposable {
  private readonly running = new Map<SourceDefinition, Follower>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly options: SourcesOptions) {
    this.subscriptions.push(
      vscode.workspace.onDidChangeConfiguration((event) => {
        for (const definition of options.definitions) {
          if (event.affectsConfiguration(`${SOURCES_SETTING}.${definition.settingKey}`)) this.restart(definition);
        }
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.restartAll()),
    );
    this.restartAll();
  }

  private restartAll(): void {
    for (const definition of this.options.definitions) this.restart(definition);
  }

  /** Reads what every source has new now; resolves when all are caught up. */
  async refresh(): Promise<void> {
    await Promise.all([...this.running.values()].map((follower) => follower.refresh()));
  }

  private restart(definition: SourceDefinition): void {
    this.running.get(definition)?.dispose();
    this.running.delete(definition);
    const config = vscode.workspace.getConfiguration(`${SOURCES_SETTING}.${definition.settingKey}`);
    const workspaceFolders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    if (!config.get<boolean>('enabled', true) || workspaceFolders.length === 0) return;
    const storage = path.join(this.options.storageFolder, definition.agent);
    const place = {
      folder: sourceFolder(definition, definition.hasFolderSetting ? config.get<string>('folder') : undefined),
      workspaceFolders,
      storage,
    };
    const { logger } = this.options;
    const follower = new Follower({
      locator: definition.locator(place),
      createParser: (file, state) => definition.createParser(place, file, state),
      parserVersion: definition.parserVersion,
      sink: this.options.sink,
      cursorDir: path.join(storage, 'cursors'),
      onUnknownShape: (file, shape) => logger.warn(`${definition.agent}: skipped a line in a shape Agent Plan does not know (${file}:${shape.line}): ${shape.detail}`),
      onError: (error, file) => logError(logger, `${definition.agent}: could not follow ${file ?? place.folder}`, error),
    });
    this.running.set(definition, follower);
    follower.start();
    logger.info(`${definition.agent}: following ${place.folder} for ${workspaceFolders.join(', ')}`);
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.running.forEach((follower) => follower.dispose());
    this.running.clear();
  }
}

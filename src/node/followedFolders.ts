// The folders whose agents' sessions are followed: the workspace folders, every worktree of
// their git repositories (found from git's own files, src/core/worktrees/worktrees.ts), and folders the
// user adds by hand. Kept current by a folder watch on each repository's `<common>/worktrees`
// (through its nearest existing parent while it is missing): no polling, no git process.
import { Emitter, type Disposable } from '../core/emitter';
import type { LogFileSystem } from '../core/log/fileSystem';
import { discoverWorktrees, normalizeFolder, worktreeFolders, type Worktree, type WorktreeRepository } from '../core/worktrees/worktrees';
import { FolderWatch } from './folderWatch';
import { nodeFileSystem } from './nodeFileSystem';
import * as path from 'node:path';

export interface FollowedFoldersOptions {
  /** The workspace folders on disk. */
  workspaceFolders: readonly string[];
  /** Folders added by hand (the `agentPlan.extraFolders` setting), absolute. */
  extraFolders?: readonly string[];
  /** Whether the worktrees of the workspace's repositories are followed (default true). */
  worktrees?: boolean;
  fileSystem?: LogFileSystem;
  /** How long a burst of folder events is gathered before reading again (default 300 ms). */
  settleMs?: number;
}

export class FollowedFolders implements Disposable {
  private readonly changed = new Emitter<void>();
  /** Fires when the list of folders changed (a worktree added or removed). */
  readonly onDidChange = this.changed.event;
  private repositories: WorktreeRepository[] = [];
  private current: string[];
  private readonly watch: FolderWatch;
  private settle: ReturnType<typeof setTimeout> | undefined;
  private reading: Promise<void> | undefined;
  private again = false;
  private disposed = false;

  constructor(private readonly options: FollowedFoldersOptions) {
    this.current = this.compose();
    this.watch = new FolderWatch(() => this.scheduleRead());
  }

  /** Every folder to follow, the workspace's own first, without repeats. */
  folders(): string[] {
    return [...this.current];
  }

  /** Every worktree known, the main ones first: for naming where a session ran. */
  worktrees(): Worktree[] {
    return this.repositories.flatMap((repository) => repository.worktrees);
  }

  /** Reads the repositories now; resolves when the folders are current. */
  async read(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    this.reading = (async () => {
      do {
        this.again = false;
        await this.readOnce();
      } while (this.again && !this.disposed);
    })().finally(() => (this.reading = undefined));
    return this.reading;
  }

  dispose(): void {
    this.disposed = true;
    if (this.settle !== undefined) clearTimeout(this.settle);
    this.watch.dispose();
    this.changed.dispose();
  }

  private async readOnce(): Promise<void> {
    if (this.options.worktrees === false) {
      this.repositories = [];
      this.watch.reconcile([]);
      return this.update();
    }
    const fileSystem = this.options.fileSystem ?? nodeFileSystem;
    const found = await Promise.all(this.options.workspaceFolders.map((folder) => discoverWorktrees(fileSystem, folder)));
    if (this.disposed) return;
    const byCommon = new Map<string, WorktreeRepository>();
    for (const repository of found) if (repository !== undefined && !byCommon.has(repository.commonDir)) byCommon.set(repository.commonDir, repository);
    this.repositories = [...byCommon.values()];
    this.watch.reconcile(this.repositories.map((repository) => path.join(repository.commonDir, 'worktrees')));
    this.update();
  }

  private update(): void {
    const next = this.compose();
    if (JSON.stringify(next) === JSON.stringify(this.current)) return;
    this.current = next;
    this.changed.fire();
  }

  private compose(): string[] {
    const all = [...this.options.workspaceFolders, ...this.repositories.flatMap(worktreeFolders), ...(this.options.extraFolders ?? [])];
    return [...new Set(all.map(normalizeFolder))];
  }

  private scheduleRead(): void {
    if (this.disposed || this.settle !== undefined) return;
    this.settle = setTimeout(() => {
      this.settle = undefined;
      void this.read();
    }, this.options.settleMs ?? 300);
  }
}

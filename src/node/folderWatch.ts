// Watches the folders a follower names, each through its nearest existing parent while it
// is missing (so creating it later is noticed), and tells which file changed when the
// event names one. Watching is best effort: the follower's slow poll covers what it misses.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Disposable } from '../core/emitter';

export class FolderWatch implements Disposable {
  private readonly watchers = new Map<string, { watcher: fs.FSWatcher; targets: string[] }>();
  private disposed = false;

  /** `onChange(file)`: something changed, in `file` when the event names one in a followed folder. */
  constructor(private readonly onChange: (file?: string) => void) {}

  /** Watches exactly `folders` now; returns a key of what is watched, to tell whether anything changed. */
  reconcile(folders: readonly string[]): string {
    if (this.disposed) return '';
    const wanted = new Map<string, string[]>();
    for (const folder of folders) {
      const watched = nearestExisting(folder);
      if (watched === undefined) continue;
      const targets = wanted.get(watched) ?? [];
      if (!targets.includes(path.resolve(folder))) targets.push(path.resolve(folder));
      wanted.set(watched, targets);
    }
    for (const [watched, entry] of this.watchers) {
      if (!wanted.has(watched)) {
        entry.watcher.close();
        this.watchers.delete(watched);
      }
    }
    for (const [watched, targets] of wanted) {
      const existing = this.watchers.get(watched);
      if (existing) {
        existing.targets = targets;
        continue;
      }
      try {
        const watcher = fs.watch(watched, { persistent: false }, (_kind, name) => this.onEvent(watched, name));
        watcher.on('error', () => {
          // The folder went away (or the watch broke): drop it; the next scan watches again.
          watcher.close();
          if (this.watchers.get(watched)?.watcher === watcher) this.watchers.delete(watched);
          this.onChange();
        });
        this.watchers.set(watched, { watcher, targets });
      } catch {
        // Not watchable (gone in between, or out of watches): the poll still covers it.
      }
    }
    return JSON.stringify([...wanted].sort());
  }

  dispose(): void {
    this.disposed = true;
    for (const { watcher } of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private onEvent(watched: string, name: string | Buffer | null): void {
    const entry = name === null ? undefined : name.toString();
    const targets = this.watchers.get(watched)?.targets ?? [];
    if (targets.includes(watched)) {
      this.onChange(entry === undefined ? undefined : path.join(watched, entry));
      return;
    }
    // The folder stands in for missing ones: only the next step towards one of them matters.
    if (entry === undefined || targets.some((target) => path.relative(watched, target).split(path.sep)[0] === entry)) {
      this.onChange();
    }
  }
}

/** `folder` itself when it exists, else its nearest existing ancestor. */
function nearestExisting(folder: string): string | undefined {
  let current = path.resolve(folder);
  for (;;) {
    try {
      if (fs.statSync(current).isDirectory()) return current;
    } catch {
      // Missing: try the parent.
    }
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

// Turns changes that other processes make in the log folder into per-session
// notifications, debounced, so the store reads only the new bytes of that file.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Disposable } from '../core/emitter';
import { isSessionKey } from '../core/sessionKey';

export interface LogWatcherOptions {
  debounceMs?: number;
  onChange(session: string, exists: boolean): void;
  onError(error: unknown): void;
}

export function watchLogFolder(dir: string, options: LogWatcherOptions): Disposable {
  const debounceMs = options.debounceMs ?? 75;
  const timers = new Map<string, NodeJS.Timeout>();
  let watcher: fs.FSWatcher | undefined;
  try {
    fs.mkdirSync(dir, { recursive: true });
    watcher = fs.watch(dir, { persistent: false }, (_kind, filename) => {
      const name = filename?.toString();
      if (!name?.endsWith('.jsonl')) return;
      const session = name.slice(0, -'.jsonl'.length);
      if (!isSessionKey(session)) return;
      clearTimeout(timers.get(session));
      timers.set(
        session,
        setTimeout(() => {
          timers.delete(session);
          options.onChange(session, fs.existsSync(path.join(dir, name)));
        }, debounceMs),
      );
    });
    watcher.on('error', (error) => options.onError(error));
  } catch (error) {
    options.onError(error);
  }
  return {
    dispose() {
      watcher?.close();
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}

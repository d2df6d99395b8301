// Turns changes that other processes make in the log folder into per-session
// notifications, so the store reads only the new bytes of that file.
//
// - Throttled, not debounced: the first change of a session is passed on at once, then at
//   most one per `throttleMs` while changes keep coming (and one after the last), so a
//   writer that never pauses is still shown while it writes.
// - An event without a file name, or a folder that was deleted and re-created, asks for
//   a rescan of the folder; the watch is re-armed on the new folder.
// - A slow poll re-arms a watch that died and rescans, for file systems whose events do
//   not arrive (network drives, WSL).
import * as fs from 'node:fs';
import type { Disposable } from '../core/emitter';
import { sessionOfFileName } from '../core/logFiles';

export interface LogWatcherOptions {
  /** Least time between two notifications of one session. */
  throttleMs?: number;
  /** How often the folder is checked and rescanned without any event. */
  pollMs?: number;
  /** Something happened to this session's file (appended, created, deleted). */
  onChange(session: string): void;
  /** Anything may have changed: read the folder again. */
  onRescan(): void;
  onError(error: unknown): void;
}

export function watchLogFolder(dir: string, options: LogWatcherOptions): Disposable {
  const throttleMs = options.throttleMs ?? 250;
  const pollMs = options.pollMs ?? 5_000;
  /** Per session: when it was last passed on, and a pending trailing notification. */
  const sessions = new Map<string, { last: number; timer: NodeJS.Timeout | undefined }>();
  let watcher: fs.FSWatcher | undefined;
  let armedIno: number | undefined;
  let disposed = false;

  /** Passes `key` on at once, or once the throttle allows; never more than one waits. */
  function throttled(key: string, pass: () => void): void {
    const now = Date.now();
    const state = sessions.get(key) ?? { last: 0, timer: undefined };
    sessions.set(key, state);
    if (state.timer) return;
    const wait = state.last + throttleMs - now;
    if (wait <= 0) {
      state.last = now;
      pass();
      return;
    }
    state.timer = setTimeout(() => {
      state.timer = undefined;
      state.last = Date.now();
      if (!disposed) pass();
    }, wait);
  }
  const notify = (session: string): void => throttled(session, () => options.onChange(session));
  // Not a session key (those are hex), so it never collides with one.
  const rescan = (): void => throttled('*rescan', () => options.onRescan());

  function arm(): void {
    watcher?.close();
    watcher = undefined;
    armedIno = undefined;
    try {
      fs.mkdirSync(dir, { recursive: true });
      armedIno = fs.statSync(dir).ino;
      watcher = fs.watch(dir, { persistent: false }, (_kind, filename) => {
        const name = filename?.toString();
        if (name === undefined || name === '') {
          rescan();
          return;
        }
        const session = sessionOfFileName(name);
        if (session !== undefined) notify(session);
        checkFolder();
      });
      watcher.on('error', (error) => {
        options.onError(error);
        rearm();
      });
    } catch (error) {
      options.onError(error);
    }
  }

  function rearm(): void {
    if (disposed) return;
    arm();
    rescan();
  }

  /** The folder was deleted (and maybe re-created): watch the one that is there now. */
  function checkFolder(): void {
    let ino: number | undefined;
    try {
      ino = fs.statSync(dir).ino;
    } catch {
      ino = undefined;
    }
    if (ino === undefined || ino !== armedIno) rearm();
  }

  arm();
  const poll = setInterval(() => {
    checkFolder();
    rescan();
  }, pollMs);
  poll.unref();

  return {
    dispose() {
      disposed = true;
      clearInterval(poll);
      watcher?.close();
      for (const state of sessions.values()) clearTimeout(state.timer);
      sessions.clear();
    },
  };
}

// Turns changes that other processes make in the log folder into per-session
// notifications, so the store reads only the new bytes of that file.
//
// - Throttled, not debounced: the first change of a session is passed on at once, then at
//   most one per `throttleMs` while changes keep coming (and one after the last), so a
//   writer that never pauses is still shown while it writes.
// - An event without a file name, or a folder that was deleted and re-created, asks for
//   a rescan of the folder; the watch is re-armed on the new folder.
// - Idle is idle: while events arrive, nothing runs on a timer but one stat of the folder
//   itself (is it still the folder being watched?). A poll runs only where events are known
//   not to arrive: a network or shared file system, or a probe (a write of our own in the
//   folder) whose event did not come in time. That poll is the log's cheap look
//   (SessionLog.poll), and it backs off while nothing changes, up to `maxPollMs`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Disposable } from '../core/emitter';
import { sessionOfFileName } from '../core/log/logFiles';
import { Backoff, eventsUnreliable } from './eventSupport';

/** A watch on one folder, as fs.watch gives it; tests pass one whose events never arrive. */
export type WatchFolder = (
  dir: string,
  listener: (kind: string, filename: string | Buffer | null) => void,
) => { close(): void; on(event: 'error', listener: (error: Error) => void): unknown };

export interface LogWatcherOptions {
  /** Least time between two notifications of one session. */
  throttleMs?: number;
  /** How often the watched folder is checked, and the first interval of a poll. */
  pollMs?: number;
  /** The longest interval a poll backs off to while nothing changes. */
  maxPollMs?: number;
  /** How long the probe waits for the event of its own write before it decides to poll. */
  probeMs?: number;
  /** Something happened to this session's file (appended, created, deleted). */
  onChange(session: string): void;
  /** Anything may have changed: read the folder again. */
  onRescan(): void;
  /** The cheap look where events do not arrive; resolves true when something changed. */
  onPoll(): Promise<boolean>;
  /** The watcher polls from now on, and why (a line for the output channel). */
  onPolling?(reason: string): void;
  onError(error: unknown): void;
  /** Default: fs.watch. */
  watch?: WatchFolder;
}

const PROBE_PREFIX = '.agent-plan-probe-';
let probes = 0;

const nodeWatch: WatchFolder = (dir, listener) => fs.watch(dir, { persistent: false }, listener);

export function watchLogFolder(dir: string, options: LogWatcherOptions): Disposable {
  const throttleMs = options.throttleMs ?? 250;
  const pollMs = options.pollMs ?? 5_000;
  const probeMs = options.probeMs ?? 3_000;
  const watchFolder = options.watch ?? nodeWatch;
  const maxPollMs = Math.max(pollMs, options.maxPollMs ?? 60_000);
  const backoff = new Backoff(pollMs, maxPollMs);
  /** Per session: when it was last passed on, and a pending trailing notification. */
  const sessions = new Map<string, { last: number; timer: NodeJS.Timeout | undefined }>();
  let watcher: ReturnType<WatchFolder> | undefined;
  let armedIno: number | undefined;
  let disposed = false;
  let polling = false;
  let pollTimer: NodeJS.Timeout | undefined;
  let probe: { file: string; timer: NodeJS.Timeout } | undefined;

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
      watcher = watchFolder(dir, (_kind, filename) => {
        const name = filename?.toString();
        if (name === undefined || name === '') {
          rescan();
          return;
        }
        if (probe && name === path.basename(probe.file)) {
          endProbe();
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

  /** Writes a file of our own in the folder: if its event does not arrive in time, events do not. */
  function startProbe(): void {
    const file = path.join(dir, `${PROBE_PREFIX}${process.pid}-${++probes}`);
    const timer = setTimeout(() => {
      endProbe();
      startPolling(`no file event arrived from ${dir} within ${probeMs} ms of a write there`);
    }, probeMs);
    timer.unref();
    probe = { file, timer };
    try {
      fs.writeFileSync(file, '');
    } catch (error) {
      endProbe();
      startPolling(`a probe write in ${dir} failed (${(error as Error).message})`);
    }
  }

  function endProbe(): void {
    if (!probe) return;
    clearTimeout(probe.timer);
    fs.rmSync(probe.file, { force: true });
    probe = undefined;
  }

  function startPolling(reason: string): void {
    if (polling || disposed) return;
    polling = true;
    options.onPolling?.(`polling ${dir} every ${pollMs / 1000} s, backing off to ${maxPollMs / 1000} s while nothing changes: ${reason}`);
    schedulePoll(pollMs);
  }

  function schedulePoll(waitMs: number): void {
    pollTimer = setTimeout(() => {
      checkFolder();
      options.onPoll().then(
        (changed) => !disposed && schedulePoll(backoff.next(changed)),
        (error: unknown) => {
          options.onError(error);
          if (!disposed) schedulePoll(backoff.next(false));
        },
      );
    }, waitMs);
    pollTimer.unref();
  }

  arm();
  const unreliable = eventsUnreliable(dir);
  if (unreliable !== undefined) startPolling(unreliable);
  else startProbe();
  // While events arrive: one stat of the folder itself, to re-arm a watch whose folder was replaced.
  const liveness = setInterval(() => {
    if (!polling) checkFolder();
  }, pollMs);
  liveness.unref();

  return {
    dispose() {
      disposed = true;
      clearInterval(liveness);
      clearTimeout(pollTimer);
      endProbe();
      watcher?.close();
      for (const state of sessions.values()) clearTimeout(state.timer);
      sessions.clear();
    },
  };
}

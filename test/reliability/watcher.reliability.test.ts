// The live path another process's writes take to the screen: folder watcher → the log's
// reader → store events. A writer that never pauses is shown while it writes, and a log
// folder deleted and re-created is followed again. Where the file system's events never
// arrive, the poll shows the writer and backs off once it stops.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { hashIdentity } from '../../src/core/log/sessionKey';
import { watchLogFolder, type LogWatcherOptions, type WatchFolder } from '../../src/node/logWatcher';
import { childScript, collect, openStore, startNode } from './lib/env';
import { recordFigures } from './lib/figures';
import { useTempDir } from '../lib/temp';
import { sleep, waitFor } from '../lib/wait';

const WRITES = Number(process.env.AGENT_PLAN_WATCHER_WRITES ?? 100);
const INTERVAL_MS = 30;
const LIMIT_MS = 500;

function follow(dir: string, extra: Partial<LogWatcherOptions> = {}) {
  const { log, store } = openStore(dir);
  const shown = new Map<string, number[]>();
  store.onDidWrite((event) => {
    const list = shown.get(event.session) ?? [];
    list.push(Date.now() - Date.parse(event.ts));
    shown.set(event.session, list);
  });
  const watcher = watchLogFolder(dir, {
    onChange: (session) => void store.ingest(session),
    onRescan: () => void store.load(),
    onPoll: () => log.poll(),
    onError: () => {},
    ...extra,
  });
  return { log, store, shown, watcher };
}

/** Runs a process that appends WRITES times, every INTERVAL_MS; resolves with how many were shown while it wrote. */
async function writeSteadily(dir: string, session: string, shown: Map<string, number[]>): Promise<number> {
  const script = await childScript('pacedWriter');
  const exit = collect(startNode(script, [dir, session, String(WRITES), String(INTERVAL_MS)]));
  let shownWhileWriting = 0;
  let finished = false;
  void exit.then(() => (finished = true));
  while (!finished) {
    shownWhileWriting = shown.get(session)?.length ?? 0;
    await sleep(20);
  }
  assert.equal((await exit).code, 0);
  return shownWhileWriting;
}

describe('reliability: the folder watcher', () => {
  const tmp = useTempDir('rel-watcher');
  it(`shows every write of a process appending every ${INTERVAL_MS} ms within ${LIMIT_MS} ms, while it writes`, async () => {
    const dir = tmp.path;
    const session = hashIdentity('id:paced');
    const { store, shown, watcher } = follow(dir);
    try {
      await store.load();
      const shownWhileWriting = await writeSteadily(dir, session, shown);
      await waitFor(() => (shown.get(session)?.length ?? 0) >= WRITES, () => `every write shown (${shown.get(session)?.length ?? 0} of ${WRITES})`, 2000, 20);
      const delays = shown.get(session) ?? [];
      assert.equal(delays.length, WRITES, 'every write was shown, once');
      const worst = Math.max(...delays);
      const sorted = [...delays].sort((a, b) => a - b);
      recordFigures('watcher: steady writer', {
        writes: WRITES,
        'interval ms': INTERVAL_MS,
        'shown while writing': shownWhileWriting,
        'median delay ms': sorted[Math.floor(sorted.length / 2)] ?? 0,
        'worst delay ms': worst,
      });
      assert.ok(shownWhileWriting >= WRITES / 2, `shown while it wrote: ${shownWhileWriting} of ${WRITES}`);
      assert.ok(worst <= LIMIT_MS, `worst delay ${worst} ms`);
    } finally {
      watcher.dispose();
    }
  });

  it('follows the log folder after it is deleted and re-created: the next write shows', async () => {
    const dir = tmp.path;
    const first = hashIdentity('id:before');
    const second = hashIdentity('id:after');
    const { store, shown, watcher } = follow(dir);
    try {
      await store.load();
      const script = await childScript('pacedWriter');
      assert.equal((await collect(startNode(script, [dir, first, '3', '10']))).code, 0);
      // A file first met with all its lines fires its current plan only (its history is in the file),
      // so what must hold is that the store reached the last of the three writes.
      const history = await waitFor(
        async () => {
          const read = await store.history(first);
          const shownLast = store.get(first) !== undefined && JSON.stringify(store.get(first)?.todos) === JSON.stringify(read[2]?.todos);
          return read.length === 3 && shownLast ? read : undefined;
        },
        'the store to reach the last of the three writes',
        2000,
        20,
      );
      assert.equal(history.length, 3);
      assert.deepEqual(store.get(first)?.todos, history[2]?.todos, 'the store shows the last write');
      assert.ok((shown.get(first)?.length ?? 0) >= 1, 'the new file was announced');
      fs.rmSync(dir, { recursive: true, force: true });
      await waitFor(() => store.get(first) === undefined, 'the deleted session to leave the store', 2000, 20);
      fs.mkdirSync(dir, { recursive: true });
      await sleep(100);
      assert.equal((await collect(startNode(script, [dir, second, '1', '10']))).code, 0);
      await waitFor(() => (shown.get(second)?.length ?? 0) >= 1, 'the write in the re-created folder to show', 2000, 20);
      recordFigures('watcher: folder re-created', { 'shown after re-creation': shown.get(second)?.length ?? 0 });
      assert.equal(shown.get(second)?.length, 1, 'the write in the re-created folder was shown');
      assert.equal(store.latest()?.session, second);
    } finally {
      watcher.dispose();
    }
  });

  it('where the file system’s events never arrive: polls, shows a steady writer while it writes, and backs off once it stops', async () => {
    const dir = tmp.path;
    const session = hashIdentity('id:polled');
    const POLL_MS = 100;
    const MAX_POLL_MS = 800;
    // A watch that never reports anything, as on a network drive written from another machine.
    const silent: WatchFolder = () => ({ close: () => {}, on: () => undefined });
    const polls: number[] = [];
    const polling: string[] = [];
    let log!: ReturnType<typeof openStore>['log'];
    const followed = follow(dir, {
      watch: silent,
      pollMs: POLL_MS,
      maxPollMs: MAX_POLL_MS,
      probeMs: 200,
      onPoll: () => {
        polls.push(Date.now());
        return log.poll();
      },
      onPolling: (reason) => polling.push(reason),
    });
    log = followed.log;
    const { store, shown, watcher } = followed;
    try {
      // The session exists before the writer starts, so every write is an append to a known file.
      await log.append(session, [{ content: 'before', status: 'pending' }]);
      await store.load();
      await waitFor(() => polling.length > 0, 'the watcher to say that it polls', 2000, 20);
      assert.equal(polling.length, 1, 'it says that it polls, and why');
      const shownWhileWriting = await writeSteadily(dir, session, shown);
      await waitFor(() => (shown.get(session)?.length ?? 0) >= WRITES + 1, () => `every write shown (${(shown.get(session)?.length ?? 1) - 1} of ${WRITES})`, 4000, 20);
      // Quiet: the poll backs off towards MAX_POLL_MS.
      const quietFrom = Date.now() + 1000;
      await sleep(4000);
      const quiet = polls.filter((t) => t > quietFrom);
      const gaps = quiet.slice(1).map((t, i) => t - (quiet[i] as number));
      const delays = shown.get(session) ?? [];
      const sorted = [...delays].sort((a, b) => a - b);
      recordFigures('watcher: no events (poll)', {
        writes: WRITES,
        'poll ms': POLL_MS,
        'shown while writing': shownWhileWriting,
        'median delay ms': sorted[Math.floor(sorted.length / 2)] ?? 0,
        'worst delay ms': sorted.at(-1) ?? 0,
        'polls in the last 3 quiet s': quiet.length,
        'last quiet gap ms': gaps.at(-1) ?? 0,
      });
      // Every write shown once (the one before the writer started included).
      assert.equal(delays.length, WRITES + 1, `${delays.length - 1} of ${WRITES} writes shown`);
      assert.ok(shownWhileWriting >= WRITES / 2, `shown while it wrote: ${shownWhileWriting} of ${WRITES}`);
      assert.ok(quiet.length <= 8, `${quiet.length} polls in 3 quiet seconds (every ${POLL_MS} ms would be 30)`);
      assert.ok((gaps.at(-1) ?? 0) >= MAX_POLL_MS / 2, `backed off to ${gaps.at(-1)} ms between polls`);
    } finally {
      watcher.dispose();
    }
  });
});

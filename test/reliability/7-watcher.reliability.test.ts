// The live path another process's writes take to the screen: folder watcher → the log's
// reader → store events. A writer that never pauses is shown while it writes, and a log
// folder deleted and re-created is followed again.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { hashIdentity } from '../../src/core/sessionKey';
import { watchLogFolder } from '../../src/node/logWatcher';
import { childScript, collect, openStore, sleep, startNode, tempDir } from './lib/env';
import { recordFigures } from './lib/figures';

const WRITES = Number(process.env.AGENT_PLAN_WATCHER_WRITES ?? 100);
const INTERVAL_MS = 30;
const LIMIT_MS = 500;

function follow(dir: string) {
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
    onError: () => {},
  });
  return { log, store, shown, watcher };
}

describe('reliability: the folder watcher', () => {
  it(`shows every write of a process appending every ${INTERVAL_MS} ms within ${LIMIT_MS} ms, while it writes`, async () => {
    const dir = tempDir('watcher');
    const session = hashIdentity('id:paced');
    const { store, shown, watcher } = follow(dir);
    try {
      await store.load();
      const script = await childScript('pacedWriter');
      const child = startNode(script, [dir, session, String(WRITES), String(INTERVAL_MS)]);
      const exit = collect(child);
      let shownWhileWriting = 0;
      let finished = false;
      void exit.then(() => (finished = true));
      while (!finished) {
        shownWhileWriting = shown.get(session)?.length ?? 0;
        await sleep(20);
      }
      assert.equal((await exit).code, 0);
      for (let i = 0; i < 100 && (shown.get(session)?.length ?? 0) < WRITES; i++) await sleep(20);
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
    const dir = tempDir('watcher-recreate');
    const first = hashIdentity('id:before');
    const second = hashIdentity('id:after');
    const { store, shown, watcher } = follow(dir);
    try {
      await store.load();
      const script = await childScript('pacedWriter');
      assert.equal((await collect(startNode(script, [dir, first, '3', '10']))).code, 0);
      // A file first met with all its lines fires its current plan only (its history is in the file),
      // so what must hold is that the store reached the last of the three writes.
      let history = await store.history(first);
      for (let i = 0; i < 100 && !(history.length === 3 && store.get(first) && JSON.stringify(store.get(first)?.todos) === JSON.stringify(history[2]?.todos)); i++) {
        await sleep(20);
        history = await store.history(first);
      }
      assert.equal(history.length, 3);
      assert.deepEqual(store.get(first)?.todos, history[2]?.todos, 'the store shows the last write');
      assert.ok((shown.get(first)?.length ?? 0) >= 1, 'the new file was announced');
      fs.rmSync(dir, { recursive: true, force: true });
      for (let i = 0; i < 100 && store.get(first) !== undefined; i++) await sleep(20);
      assert.equal(store.get(first), undefined, 'the deleted session left the store');
      fs.mkdirSync(dir, { recursive: true });
      await sleep(100);
      assert.equal((await collect(startNode(script, [dir, second, '1', '10']))).code, 0);
      for (let i = 0; i < 100 && (shown.get(second)?.length ?? 0) < 1; i++) await sleep(20);
      recordFigures('watcher: folder re-created', { 'shown after re-creation': shown.get(second)?.length ?? 0 });
      assert.equal(shown.get(second)?.length, 1, 'the write in the re-created folder was shown');
      assert.equal(store.latest()?.session, second);
    } finally {
      watcher.dispose();
    }
  });
});

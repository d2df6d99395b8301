// The folder watcher over a real folder: a writer that never pauses is still passed on
// while it writes, and a folder deleted and re-created is watched again.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { watchLogFolder, type WatchFolder } from '../../../src/node/logWatcher';
import { KEY_A, KEY_B } from '../helpers';
import { useTempDir } from '../../lib/temp';
import { sleep, waitFor } from '../../lib/wait';

describe('log folder watcher', () => {
  const tmp = useTempDir();

  it('passes a steady writer’s changes on while it writes (throttled, not debounced)', async () => {
    const dir = path.join(tmp.path, 'sessions');
    const changes: number[] = [];
    let writing = true;
    const watcher = watchLogFolder(dir, { onChange: () => changes.push(writing ? 1 : 0), onRescan: () => {}, onPoll: () => Promise.resolve(false), onError: (e) => assert.fail(String(e)), pollMs: 60_000 });
    try {
      const file = path.join(dir, `${KEY_A}.jsonl`);
      for (let i = 0; i < 40; i++) {
        fs.appendFileSync(file, `line ${i}\n`);
        await sleep(30);
      }
      writing = false;
      await sleep(400);
    } finally {
      watcher.dispose();
    }
    const during = changes.filter((c) => c === 1).length;
    assert.ok(during >= 3, `notified ${during} times while the writer wrote`);
    // Throttled: far fewer notifications than writes.
    assert.ok(changes.length < 40, `${changes.length} notifications for 40 writes`);
  });

  it('watches the folder again after it is deleted and re-created, and asks for a rescan', async () => {
    const dir = path.join(tmp.path, 'sessions');
    const changed = new Set<string>();
    let rescans = 0;
    const watcher = watchLogFolder(dir, { onChange: (s) => changed.add(s), onRescan: () => rescans++, onPoll: () => Promise.resolve(false), onError: () => {}, pollMs: 60_000, throttleMs: 50 });
    try {
      fs.appendFileSync(path.join(dir, `${KEY_A}.jsonl`), 'a\n');
      await sleep(200);
      assert.ok(changed.has(KEY_A));
      fs.rmSync(dir, { recursive: true, force: true });
      await sleep(100);
      fs.mkdirSync(dir, { recursive: true });
      await sleep(200);
      const before = rescans;
      assert.ok(before > 0, 'a rescan was asked for');
      fs.appendFileSync(path.join(dir, `${KEY_B}.jsonl`), 'b\n');
      await waitFor(() => changed.has(KEY_B), 'the next write in the new folder to be seen', 2000, 20);
    } finally {
      watcher.dispose();
    }
  });

  it('while events arrive, never polls: the probe’s event comes and no look runs on a timer', async () => {
    const dir = path.join(tmp.path, 'sessions');
    let polls = 0;
    const polling: string[] = [];
    const watcher = watchLogFolder(dir, {
      onChange: () => {},
      onRescan: () => {},
      onPoll: () => (polls++, Promise.resolve(false)),
      onPolling: (reason) => polling.push(reason),
      onError: (e) => assert.fail(String(e)),
      pollMs: 20,
      probeMs: 2000,
    });
    try {
      await sleep(500);
    } finally {
      watcher.dispose();
    }
    assert.equal(polls, 0);
    assert.deepEqual(polling, []);
    assert.deepEqual(fs.readdirSync(dir), [], 'the probe file is gone');
  });

  it('where events never arrive, says so, polls, and backs off while nothing changes', async () => {
    const dir = path.join(tmp.path, 'sessions');
    const times: number[] = [];
    const polling: string[] = [];
    let changed = false;
    const silent: WatchFolder = () => ({ close: () => {}, on: () => undefined });
    const watcher = watchLogFolder(dir, {
      onChange: () => {},
      onRescan: () => {},
      onPoll: () => (times.push(Date.now()), Promise.resolve(changed)),
      onPolling: (reason) => polling.push(reason),
      onError: (e) => assert.fail(String(e)),
      pollMs: 20,
      maxPollMs: 160,
      probeMs: 100,
      watch: silent,
    });
    try {
      await sleep(1200);
      const quiet = times.length;
      changed = true;
      await sleep(600);
      const busy = times.length - quiet;
      assert.equal(polling.length, 1);
      assert.match(polling[0] ?? '', /^polling .+ every 0\.02 s, backing off to 0\.16 s while nothing changes: no file event arrived from .+ within 100 ms of a write there$/);
      // Quiet: 20, 40, 80, 160, 160 … ms apart; busy: every 20 ms.
      assert.ok(quiet >= 4 && quiet <= 12, `${quiet} polls in the quiet second`);
      assert.ok(busy >= 8, `${busy} polls in 600 ms of changes (every 20 ms: up to 30)`);
      const gaps = times.slice(1, quiet).map((t, i) => t - (times[i] as number));
      assert.ok((gaps.at(-1) ?? 0) >= 120, `the last quiet gap was ${gaps.at(-1)} ms`);
    } finally {
      watcher.dispose();
    }
  });
});

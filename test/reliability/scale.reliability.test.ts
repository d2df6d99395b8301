// Scale: what the user waits for must not grow with the number of sessions or the length
// of a history. Counted in bytes and reads (timings belong to the benchmark).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hashIdentity } from '../../src/core/log/sessionKey';
import { SessionLog } from '../../src/core/log/sessionLog';
import { PlanStore, SESSIONS_SCREENFUL } from '../../src/core/store/store';
import { nodeFileSystem } from '../../src/node/nodeFileSystem';
import { CountingFileSystem } from '../unit/helpers';
import { recordFigures } from './lib/figures';
import { useTempDir } from '../lib/temp';

const SESSIONS = Number(process.env.AGENT_PLAN_SCALE_SESSIONS ?? 10_000);
const WRITES = Number(process.env.AGENT_PLAN_SCALE_WRITES ?? 100_000);

function line(session: string, step: number): string {
  const todos = Array.from({ length: 20 }, (_, i) => ({ content: `task ${i} of step ${step}`, status: i < step % 21 ? 'completed' : 'pending' }));
  const completed = todos.filter((t) => t.status === 'completed').length;
  return JSON.stringify({ v: 1, type: 'todo/write', ts: new Date(Date.UTC(2026, 0, 1) + step * 1000).toISOString(), session, todos, counts: { pending: 20 - completed, inProgress: 0, completed } }) + '\n';
}

describe('reliability: scale', () => {
  const tmp = useTempDir('rel-scale');
  it(`${SESSIONS} sessions: the Plan view can paint the newest after one tail read, and the order is the files' order`, async () => {
    const dir = tmp.path;
    const keys = Array.from({ length: SESSIONS }, (_, i) => hashIdentity(`scale ${i}`));
    for (const [i, key] of keys.entries()) {
      const file = path.join(dir, `${key}.jsonl`);
      fs.writeFileSync(file, line(key, i));
      fs.utimesSync(file, new Date(1_000_000_000 + i * 1000), new Date(1_000_000_000 + i * 1000));
    }
    const counting = new CountingFileSystem(nodeFileSystem);
    const store = new PlanStore(new SessionLog(dir, counting));
    let readsAtFirstPaint = -1;
    let firstShown: string | undefined;
    const paints: string[][] = [];
    store.onDidChange(() => {
      paints.push(store.list().slice(0, SESSIONS_SCREENFUL).map((event) => event.session));
      if (readsAtFirstPaint >= 0) return;
      readsAtFirstPaint = counting.reads;
      firstShown = store.latest()?.session;
    });
    await store.load();
    // Between the first paint and the last, one shows the Sessions view's first screenful, already right.
    const newestScreenful = keys.slice(-SESSIONS_SCREENFUL).reverse();
    assert.equal(paints.length, 3, `paints: the newest, a screenful, all (${paints.length})`);
    assert.deepEqual(paints[1], newestScreenful, 'the first screenful is the newest sessions, in order');
    recordFigures('scale: sessions', { sessions: SESSIONS, 'reads at first paint': readsAtFirstPaint, 'reads in all': counting.reads });
    assert.equal(firstShown, keys[SESSIONS - 1], 'the first paint shows the most recently written session');
    assert.ok(readsAtFirstPaint <= 2, `reads before the first paint: ${readsAtFirstPaint}`);
    assert.equal(store.list().length, SESSIONS);
    assert.equal(store.list()[0]?.session, keys[SESSIONS - 1]);
    assert.equal(store.list()[SESSIONS - 1]?.session, keys[0]);
  });

  it(`a history of ${WRITES} writes: the newest 100 versions read a bounded number of bytes`, async () => {
    const dir = tmp.path;
    const key = hashIdentity('scale history');
    const file = path.join(dir, `${key}.jsonl`);
    const fd = fs.openSync(file, 'w');
    try {
      for (let start = 0; start < WRITES; start += 1000) {
        fs.writeSync(fd, Array.from({ length: Math.min(1000, WRITES - start) }, (_, i) => line(key, start + i)).join(''));
      }
    } finally {
      fs.closeSync(fd);
    }
    const fileBytes = fs.statSync(file).size;
    const counting = new CountingFileSystem(nodeFileSystem);
    const log = new SessionLog(dir, counting);
    const page = await log.page(key, 100);
    const lineBytes = Buffer.byteLength(line(key, 0));
    recordFigures('scale: history', { writes: WRITES, 'file bytes': fileBytes, 'bytes read for 100 versions': counting.bytesRead });
    assert.equal(page.versions.length, 100);
    assert.equal(page.versions[0]?.event.ts, new Date(Date.UTC(2026, 0, 1) + (WRITES - 1) * 1000).toISOString());
    assert.ok(counting.bytesRead <= 101 * lineBytes + 2 * 64 * 1024, `read ${counting.bytesRead} bytes of ${fileBytes}`);
  });
});

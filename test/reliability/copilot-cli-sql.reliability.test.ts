// Hostile SQL in a Copilot CLI session's `sql` calls, run again by the follower's sink
// (src/agents/copilotCli/todoReplay.ts): a call that would reach a file (ATTACH, VACUUM INTO),
// run without end (a recursive CTE), grow the table past its bound (10,000 statements), or is
// one 64 MiB line is reported once, its state not known (no plan guessed), nothing is created
// on disk, and the host's event loop never waits longer than 50 ms while the sink runs it.
// `node:sqlite` is in Node 22.13+ only: under Node 20 the file runs again, whole, in the pinned
// VS Code host's Node; with neither, the run says SKIPPED and defines no test.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createCopilotCliParser, tableSink, TodoReplay } from '../../src/agents/copilotCli';
import { loadSqlite, type SqliteModule } from '../../src/agents/follow/sqlite';
import { MemorySink, inHostNode } from '../unit/helpers';
import { recordFigures } from './lib/figures';
import { useTempDir } from '../lib/temp';

const sqlite = loadSqlite();
/** The longest the host's event loop may wait while the sink runs a call (the issue: 2.7–8.8 s for one recursive INSERT). */
const GAP_BOUND_MS = 50;

const line = (type: string, data: unknown) => JSON.stringify({ type, data, id: `${type}-${Math.random()}`, timestamp: '2026-01-01T00:00:00.000Z' });

/** A session: one good INSERT, then the hostile call, then a good UPDATE. */
function session(hostile: string): string[] {
  const call = (id: string, query: string) => [line('tool.execution_start', { toolCallId: id, toolName: 'sql', arguments: { description: id, query } }), line('tool.execution_complete', { toolCallId: id, success: true })];
  return [
    line('session.start', { sessionId: 's1', context: { cwd: '/w' } }),
    ...call('c1', "INSERT INTO todos (id, title) VALUES ('a', 'A'), ('b', 'B')"),
    ...call('c2', hostile),
    ...call('c3', "UPDATE todos SET status = 'done' WHERE id = 'a'"),
  ];
}

/** The longest gap between two turns of the event loop while `work` runs. */
async function longestGap<T>(work: () => Promise<T>): Promise<{ result: T; gapMs: number }> {
  let gap = 0;
  let last = performance.now();
  let running = true;
  const tick = () => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    const result = await work();
    return { result, gapMs: gap };
  } finally {
    running = false;
  }
}

if (typeof sqlite === 'string') {
  inHostNode({ file: __filename, title: 'hostile Copilot CLI SQL', missing: sqlite, expect: /Hostile Copilot CLI SQL, with node:sqlite/, timeoutMs: 300_000, testTimeoutMs: 120_000 });
} else {
  const db: SqliteModule = sqlite;
  describe(`Hostile Copilot CLI SQL, with node:sqlite (Node ${process.versions.node})`, () => {
    const tmp = useTempDir('rel-copilot-sql', { per: 'suite' });

    /** Parses and hands the session to the sink; the plans it saved, what it reported, the loop's longest wait. */
    async function run(name: string, hostile: string, created: string[] = []): Promise<{ plans: string[][][]; unknown: string[] }> {
      const parseStarted = performance.now();
      const out = createCopilotCliParser().push(session(hostile));
      const parseMs = performance.now() - parseStarted;
      const sink = new MemorySink();
      const unknown: string[] = [];
      const replay = new TodoReplay({ deadlineMs: 1000 });
      const started = performance.now();
      const { gapMs } = await longestGap(() =>
        tableSink(sink, { sqlite: db, replay, sessionFolder: () => undefined, onUnknownShape: (_file, shape) => unknown.push(shape.detail) })
          .importPlans(out.plans)
          .finally(() => replay.dispose()),
      );
      const tookMs = performance.now() - started;
      recordFigures(`copilot-cli sql: ${name}`, { gapMs: Math.round(gapMs * 10) / 10, sinkMs: Math.round(tookMs), parseMs: Math.round(parseMs), longestCallMs: Math.round(replay.longestCallMs) });
      assert.ok(gapMs <= GAP_BOUND_MS, `the event loop waited ${gapMs.toFixed(1)} ms`);
      for (const file of created) assert.equal(fs.existsSync(file), false, `${file} was created`);
      assert.deepEqual(fs.readdirSync(tmp.path), []);
      return { plans: sink.plans.map((p) => p.items.map((i) => [i.content, i.status])), unknown };
    }

    /** The first call's table is a version; the hostile call and the one after it are not known (no session folder to read), reported once. */
    const FIRST = [[['A', 'pending'], ['B', 'pending']]];

    it('ATTACH reaches no file', async () => {
      const file = path.join(tmp.path, 'attached.db');
      const { plans, unknown } = await run('ATTACH', `ATTACH DATABASE '${file}' AS x; CREATE TABLE x.t (a); INSERT INTO x.t VALUES (1)`, [file]);
      assert.deepEqual(plans, FIRST);
      assert.deepEqual(unknown, ['a sql call with ATTACH']);
    });

    it('VACUUM INTO writes no file', async () => {
      const file = path.join(tmp.path, 'copy.db');
      const { plans, unknown } = await run('VACUUM INTO', `UPDATE todos SET title = 'X'; VACUUM INTO '${file}'`, [file]);
      assert.deepEqual(plans, FIRST);
      assert.deepEqual(unknown, ['a sql call with VACUUM']);
    });

    it('a recursive CTE without end is stopped at its deadline; one that grows the table stops at its size bound', async () => {
      const endless = await run('recursive CTE (time)', 'UPDATE todos SET title = (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c)');
      assert.deepEqual(endless.plans, FIRST);
      assert.deepEqual(endless.unknown, ['a sql call that ran longer than 1000 ms']);
      // The 155-character INSERT: 500,000 rows.
      const rows = await run('recursive CTE (rows)', "INSERT INTO todos (id, title) WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 500000) SELECT 'r' || x, 'Row ' || x FROM c");
      assert.deepEqual(rows.plans, FIRST);
      assert.equal(rows.unknown.length, 1);
      assert.match(rows.unknown[0] ?? '', /more than 500 rows|past \d+ KiB|longer than/);
    });

    it('10,000 statements in one call: run within the bounds, or not known', async () => {
      const updates = await run('10,000 UPDATEs', Array.from({ length: 10_000 }, (_, i) => `UPDATE todos SET title = 'T${i}' WHERE id = 'b'`).join(';\n'));
      assert.deepEqual(updates.unknown, []);
      assert.deepEqual(updates.plans, [...FIRST, [['A', 'pending'], ['T9999', 'pending']], [['A', 'completed'], ['T9999', 'pending']]]);
      const inserts = await run('10,000 INSERTs', Array.from({ length: 10_000 }, (_, i) => `INSERT INTO todos (id, title) VALUES ('i${i}', 'Item ${i}')`).join(';\n'));
      assert.deepEqual(inserts.plans, FIRST);
      assert.deepEqual(inserts.unknown, ['a todos table of more than 500 rows']);
    });

    it('a 64 MiB line: its SQL is not run, not held, and not known', async () => {
      const big = `UPDATE todos SET title = '${'x'.repeat(64 * 1024 * 1024 - 400)}'`;
      const { plans, unknown } = await run('64 MiB line', big);
      assert.deepEqual(plans, FIRST);
      assert.deepEqual(unknown, ['a sql call too long to run again']);
    });
  });
}

// Corrupted logs: several sessions' logs with many snapshots get random bytes injected,
// overwritten and cut (seeded, so a failure can be replayed with its seed). A fresh
// store must load, every session's plan must be its last intact snapshot (found
// independently, by the oracle), and every damaged line must be reported exactly once.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Todo } from '../../src/core/plan/plan';
import { hashIdentity } from '../../src/core/log/sessionKey';
import { SessionLog } from '../../src/core/log/sessionLog';
import { PlanStore } from '../../src/core/store/store';
import { nodeFileSystem } from '../../src/node/nodeFileSystem';
import { Random, recordFigures, runSeed } from './lib/figures';
import { eventsOf, invalidOffsets, parseLog, type ParsedLog } from './lib/oracle';
import { useTempDir } from '../lib/temp';

const SESSIONS = 6;
const SNAPSHOTS = 120;
const ROUNDS = Number(process.env.AGENT_PLAN_CORRUPTION_ROUNDS ?? 12);
const STATUSES: Todo['status'][] = ['pending', 'in_progress', 'completed'];

function snapshot(session: number, step: number): Todo[] {
  // Mostly small; every 25th ~90 KB, so lines cross the core's 64 KB read chunks.
  const big = step % 25 === 24;
  const items = big ? 90 : 1 + ((step * 7 + session) % 6);
  return Array.from({ length: items }, (_, i) => ({
    content: `s${session} v${step} #${i} ${big ? 'β'.repeat(500) : 'schritt ✓ 步骤'}`,
    status: STATUSES[(step + i) % 3] as Todo['status'],
  }));
}

/** A line that parses as JSON but is no valid event of `key`. */
function plausibleBadLine(random: Random, key: string): string {
  const todos = [{ content: 'injected', status: 'pending' }];
  const counts = { pending: 1, inProgress: 0, completed: 0 };
  const base = { v: 1, type: 'todo/write', ts: '2024-01-01T00:00:00.000Z', session: key, todos, counts };
  return JSON.stringify(
    random.pick([
      { ...base, v: 2 },
      { ...base, type: 'todo/read' },
      { ...base, session: hashIdentity('id:someone else') },
      { ...base, ts: 'yesterday' },
      { ...base, counts: { pending: 2, inProgress: 0, completed: 0 } },
      { ...base, todos: [{ content: 'injected', status: 'done' }] },
      { ...base, todos: [{ content: ' ', status: 'pending' }], counts },
      [base],
      'just a string',
    ]),
  );
}

/** Applies 1–6 random damages; half of them near the end, where replay looks first. */
function damage(bytes: Uint8Array, random: Random, key: string): { bytes: Uint8Array; damages: number } {
  let data = Buffer.from(bytes);
  const damages = random.int(1, 6);
  const where = (): number => {
    if (data.length === 0) return 0;
    const nearEnd = random.next() < 0.5;
    return nearEnd ? Math.max(0, data.length - random.int(1, 2000)) : random.int(0, data.length);
  };
  for (let i = 0; i < damages; i++) {
    const at = where();
    switch (random.int(0, 5)) {
      case 0: // inject random bytes
        data = Buffer.concat([data.subarray(0, at), random.bytes(random.int(1, 16)), data.subarray(at)]);
        break;
      case 1: // overwrite with random bytes
        Buffer.from(random.bytes(Math.min(random.int(1, 16), data.length - at))).copy(data, at);
        break;
      case 2: // cut bytes out
        data = Buffer.concat([data.subarray(0, at), data.subarray(Math.min(data.length, at + random.int(1, 80)))]);
        break;
      case 3: // a whole garbage line
        data = Buffer.concat([data.subarray(0, at), Buffer.from('\n'), random.bytes(random.int(1, 40)), Buffer.from('\n'), data.subarray(at)]);
        break;
      case 4: // a JSON line that is no valid event of this session
        data = Buffer.concat([data.subarray(0, at), Buffer.from(`\n${plausibleBadLine(random, key)}\n`), data.subarray(at)]);
        break;
      default: // truncate the end
        data = data.subarray(0, Math.max(0, data.length - random.int(1, 300)));
    }
  }
  return { bytes: data, damages };
}

describe('reliability: corrupted logs', () => {
  const tmp = useTempDir('rel-corrupt');
  it(`loads every session's last intact snapshot and reports each damaged line once (${ROUNDS} rounds)`, async () => {
    const seed = runSeed();
    const random = new Random(seed);
    const started = Date.now();

    // Clean logs, written by the core with a steady clock.
    const cleanDir = path.join(tmp.path, 'clean');
    let clock = Date.parse('2024-05-01T00:00:00.000Z');
    const writer = new SessionLog(cleanDir, nodeFileSystem, { now: () => new Date((clock += 1000)) });
    const keys = Array.from({ length: SESSIONS }, (_, s) => hashIdentity(`id:corrupt-${s}`));
    for (let step = 0; step < SNAPSHOTS; step++) {
      for (const [s, key] of keys.entries()) await writer.append(key, snapshot(s, step));
    }
    const clean = keys.map((key) => fs.readFileSync(writer.fileFor(key)));

    const totals = { files: 0, bytes: 0, damages: 0, damagedLines: 0, reports: 0, reportsOnLoad: 0, noPlan: 0, notLast: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const dir = path.join(tmp.path, `round-${round}`);
      fs.mkdirSync(dir);
      const expected = new Map<string, ParsedLog>();
      for (const [s, key] of keys.entries()) {
        const { bytes, damages } = damage(clean[s] as Uint8Array, random, key);
        fs.writeFileSync(path.join(dir, `${key}.jsonl`), bytes);
        expected.set(key, parseLog(bytes, key));
        totals.files++;
        totals.bytes += bytes.length;
        totals.damages += damages;
      }

      const reports: string[] = [];
      const readErrors: string[] = [];
      const log = new SessionLog(dir, nodeFileSystem, {
        onCorrupt: (file, _detail, offset) => reports.push(`${path.basename(file, '.jsonl')}@${offset}`),
        onReadError: (file, reason) => readErrors.push(`${file}: ${reason}`),
      });
      const store = new PlanStore(log);
      await store.load();
      const context = `round ${round}, seed ${seed}`;

      const allExpected = new Set<string>();
      for (const key of keys) {
        const parsed = expected.get(key) as ParsedLog;
        const events = eventsOf(parsed);
        const last = events[events.length - 1];
        const current = store.get(key);
        assert.deepStrictEqual(
          current && { ts: current.ts, todos: current.todos },
          last && { ts: last.ts, todos: last.todos },
          `${context}: session ${key} is its last intact snapshot`,
        );
        if (!last) totals.noPlan++;
        else if (last.todos.length > 0 && !last.todos[0]?.content.startsWith(`s${keys.indexOf(key)} v${SNAPSHOTS - 1} `)) totals.notLast++;
        for (const offset of invalidOffsets(parsed)) allExpected.add(`${key}@${offset}`);
      }
      // What load reported: damaged lines after the last intact one, each once.
      assert.equal(new Set(reports).size, reports.length, `${context}: no line reported twice by load`);
      for (const report of reports) assert.ok(allExpected.has(report), `${context}: ${report} is a damaged line`);
      totals.reportsOnLoad += reports.length;

      // Reading every history reaches every line: now each damaged line is reported, once.
      for (const key of keys) {
        const history = await log.history(key);
        assert.deepStrictEqual(
          history.map((e) => ({ ts: e.ts, todos: e.todos })),
          eventsOf(expected.get(key) as ParsedLog).map((e) => ({ ts: e.ts, todos: e.todos })),
          `${context}: history of ${key} is every intact snapshot`,
        );
      }
      assert.deepEqual([...reports].sort(), [...allExpected].sort(), `${context}: every damaged line reported exactly once`);

      // The same SessionLog loading again reports nothing new.
      const before = reports.length;
      const again = new PlanStore(log);
      await again.load();
      for (const key of keys) await log.history(key);
      assert.equal(reports.length, before, `${context}: a second load by the same SessionLog reports no line again`);
      for (const key of keys) assert.deepStrictEqual(again.get(key), store.get(key));
      assert.deepEqual(readErrors, []);

      totals.damagedLines += allExpected.size;
      totals.reports += reports.length;
      fs.rmSync(dir, { recursive: true, force: true });
    }

    recordFigures('corrupted logs', {
      seed,
      rounds: ROUNDS,
      files: totals.files,
      'MB damaged': (totals.bytes / 1e6).toFixed(1),
      damages: totals.damages,
      'damaged lines': totals.damagedLines,
      reports: totals.reports,
      'reported by load': totals.reportsOnLoad,
      'plan fell back': totals.notLast,
      'no plan left': totals.noPlan,
      ms: Date.now() - started,
    });
    assert.equal(totals.reports, totals.damagedLines);
    assert.ok(totals.reportsOnLoad > 0, 'some damage sat after the last intact line, where load reads');
  });
});

// Lock files a crash, a reboot or another program can leave where a window imports: a lock
// naming a live unrelated process (this test's parent) with another start time, as a pid
// reused after a restart does; a lock of an earlier boot; a lock with this process's own pid
// and a token none of its holdings has (an earlier host that had the same pid). Each sits
// next to a real session log, and a real import through the real file system and the real
// lock owner (boot id and start times from /proc) must take it at once and land its call once.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ForeignPlan } from '../../src/core/foreign';
import { LogPlanSink, sessionKeyForForeign } from '../../src/core/log/planSink';
import { SessionLocks } from '../../src/core/log/sessionLock';
import { SessionLog } from '../../src/core/log/sessionLog';
import { nodeLockOwner, processAlive, processStartMs, readBootId } from '../../src/node/lockOwner';
import { nodeFileSystem } from '../../src/node/nodeFileSystem';
import { recordFigures } from './lib/figures';
import { useTempDir } from '../lib/temp';

/** A hostile lock that was waited on would take 5 minutes (the wait's bound); taken at once it takes milliseconds. */
const PROMPT_MS = 1000;
const SESSION = 'hostile-lock';

/** Fails instead of hanging when the import waits: a guard, not a measure of speed. */
async function within<T>(what: string, promise: Promise<T>, ms = 10_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not return within ${ms} ms: it waited on the hostile lock`)), ms);
  });
  try {
    return await Promise.race([promise, guard]);
  } finally {
    clearTimeout(timer);
  }
}

const plan = (call: string): ForeignPlan => ({
  source: { agent: 'claude-code', tool: 'TodoWrite', session: SESSION, call },
  items: [{ content: `after ${call}`, status: 'in_progress' }],
});

describe('hostile lock files', () => {
  const tmp = useTempDir('rel-hostile-lock');
  const owner = nodeLockOwner();
  const bootId = readBootId();
  const parent = process.ppid;
  const parentStart = processStartMs(parent);
  const linux = bootId !== undefined && parentStart !== undefined && owner.startTimeOf !== undefined;
  if (!linux) console.log('      SKIPPED: a reused pid and an earlier boot: no boot id or process start times here (/proc), the pid alone is judged');

  const hostile: Array<{ name: string; linuxOnly: boolean; lock: () => Record<string, unknown> }> = [
    {
      name: 'a live unrelated pid (the parent) with another start time',
      linuxOnly: true,
      lock: () => ({ pid: parent, host: os.hostname(), at: Date.now(), token: `${parent}.1.before`, boot: bootId, started: (parentStart ?? 0) + 12_340, refreshMs: 1000 }),
    },
    {
      name: 'an earlier boot',
      linuxOnly: true,
      lock: () => ({ pid: parent, host: os.hostname(), at: Date.now(), token: `${parent}.1.before`, boot: 'd0d0d0d0-0000-4000-8000-000000000000', started: parentStart, refreshMs: 1000 }),
    },
    {
      name: 'our own pid with a foreign token',
      linuxOnly: false,
      lock: () => ({ pid: process.pid, host: os.hostname(), at: Date.now(), token: `${process.pid}.1.earlier-host`, boot: bootId, started: owner.startedAt, refreshMs: 1000 }),
    },
  ];

  for (const scenario of hostile) {
    it(`a lock of ${scenario.name} is taken at once and the import lands its call once`, async function () {
      if (scenario.linuxOnly && !linux) return;
      assert.ok(processAlive(parent), 'the parent runs: its pid is live');
      const dir = tmp.path;
      const log = new SessionLog(dir, nodeFileSystem);
      const locks = new SessionLocks(nodeFileSystem, path.join(dir, '.locks'), nodeLockOwner());
      const sink = new LogPlanSink(log, { locks });
      try {
        // A real session log with a plan in it, then the hostile lock beside it.
        await sink.importPlans([plan('toolu_1')]);
        const key = sessionKeyForForeign('claude-code', SESSION);
        const lockFile = locks.fileFor(key);
        fs.writeFileSync(lockFile, JSON.stringify(scenario.lock()));
        const old = new Date(Date.now() - 5_000);
        fs.utimesSync(lockFile, old, old);

        const started = performance.now();
        await within('the import', sink.importPlans([plan('toolu_2')]));
        const ms = performance.now() - started;

        const calls = fs
          .readFileSync(log.fileFor(key), 'utf8')
          .trim()
          .split('\n')
          .map((line) => (JSON.parse(line) as { source?: { call?: string } }).source?.call);
        assert.deepEqual(calls, ['toolu_1', 'toolu_2'], 'each call once');
        assert.deepEqual(fs.readdirSync(path.join(dir, '.locks')), [], 'no lock and no takeover marker left');
        assert.equal(locks.stats.takeovers, 1);
        assert.equal(locks.stats.waits, 0, 'not waited on');
        assert.equal(locks.stats.gaveUp, 0);
        recordFigures(`hostile lock: ${scenario.name}`, { 'import (ms)': Math.round(ms * 10) / 10, 'bound (ms)': PROMPT_MS, takeovers: locks.stats.takeovers, waits: locks.stats.waits });
        assert.ok(ms < PROMPT_MS, `the import took ${Math.round(ms)} ms`);
      } finally {
        sink.dispose();
      }
    });
  }
});

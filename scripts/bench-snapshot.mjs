// A plain-Node micro bench of a working-tree snapshot (src/node/gitSnapshots.ts): a repository of
// N files, committed, a few edited, then snapshots timed. Not a host run; `heapMB` holds that
// much memory first, as a host does (a process start copies the page tables of the process
// that makes it: the larger the process, the longer).
//   node --import tsx scripts/bench-snapshot.mjs [files=50000] [runs=5] [heapMB=0]
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { GitSnapshots } from '../src/node/gitSnapshots.ts';

const files = Number(process.argv[2] ?? 50_000);
const runs = Number(process.argv[3] ?? 5);
const heapMB = Number(process.argv[4] ?? 0);
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-plan-bench-snapshot-'));
const repo = path.join(root, 'repo');
const env = { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' };
const git = (...args) => execFileSync('git', ['-c', 'gc.auto=0', ...args], { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
try {
  fs.mkdirSync(repo);
  git('init', '-q');
  for (let i = 0; i < files; i++) {
    const dir = path.join(repo, `d${i % 100}`, `e${Math.floor(i / 100) % 50}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `f${i}.ts`), `export const v${i} = ${i};\n`.repeat(20));
  }
  git('add', '-A');
  git('commit', '-q', '-m', 'bench');
  const held = Array.from({ length: heapMB }, () => Buffer.alloc(1 << 20, 1));
  const store = new GitSnapshots(path.join(root, 'store'));
  const first = await store.snapshot(repo);
  if (!first.ok) throw new Error(first.detail);
  const times = [];
  // The event loop's delay is measured only while snapshots run (not while this script edits files).
  const loop = monitorEventLoopDelay({ resolution: 2 });
  for (let run = 0; run < runs; run++) {
    for (let k = 0; k < 5; k++) fs.appendFileSync(path.join(repo, `d${k}`, 'e0', `f${k}.ts`), `// run ${run}\n`);
    loop.enable();
    const result = await store.snapshot(repo);
    loop.disable();
    if (!result.ok) throw new Error(result.detail);
    times.push(result.ms);
  }
  const diffStart = performance.now();
  const stat = await store.numstat(first.tree, (await store.snapshot(repo)).tree);
  const diffMs = performance.now() - diffStart;
  times.sort((a, b) => a - b);
  // The same histogram with no snapshot running: what this machine's load alone costs.
  const idle = monitorEventLoopDelay({ resolution: 2 });
  idle.enable();
  await new Promise((resolve) => setTimeout(resolve, 2000));
  idle.disable();
  store.dispose();
  console.log(JSON.stringify({ heapMB: held.length, idleMaxEventLoopDelayMs: Math.round(idle.max / 1e6), files, runs, medianMs: Math.round(times[Math.floor(times.length / 2)]), maxMs: Math.round(times.at(-1)), maxEventLoopDelayMs: Math.round(loop.max / 1e6), snapshotPlusNumstatMs: Math.round(diffMs), changed: stat?.length, storeBytes: await store.size() }));
} finally {
  fs.rmSync(root, { recursive: true, force: true, maxRetries: 5 });
}

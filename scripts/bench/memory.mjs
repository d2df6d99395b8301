// The heap rows: the extension's in-memory state over 1,000 / 10,000 / 100,000 sessions
// (test/bench/memory.ts: log reader, store, display state, import sink, health, request,
// file, ledger and needs-you books, as src/extension.ts builds them), now and before, in the
// same run. "Before" is the same file bundled against the sources of BEFORE_COMMIT (git
// archive; AGENT_PLAN_BENCH_BEFORE names another); each figure is measured in a Node
// process of its own with --expose-gc.
import * as esbuild from 'esbuild';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../lib/host.mjs';
import { count, ms } from './report.mjs';

/**
 * The tree the figures are compared with: the last commit before the per-session state was
 * packed into one record per session (the first that builds every book this bench builds).
 * Earlier: e094e9f, the last before a session off screen became a summary (no ledger or
 * needs-you book yet).
 */
export const BEFORE_COMMIT = process.env.AGENT_PLAN_BENCH_BEFORE || '698a2ab';

async function bundle(root, outfile) {
  await esbuild.build({ entryPoints: [path.join(root, 'test', 'bench', 'memory.ts')], outfile, bundle: true, format: 'cjs', platform: 'node', target: 'node20', logLevel: 'warning' });
  return outfile;
}

/** The sources of BEFORE_COMMIT with this tree's memory bench and generated validator; undefined when the commit is not in this clone. */
function beforeTree(tmp) {
  const root = path.join(tmp, 'memory-before');
  try {
    fs.mkdirSync(root, { recursive: true });
    const archive = execFileSync('git', ['archive', BEFORE_COMMIT, 'src'], { cwd: repoRoot, maxBuffer: 256 * 1024 * 1024 });
    execFileSync('tar', ['-x', '-C', root], { input: archive });
  } catch {
    return undefined;
  }
  fs.mkdirSync(path.join(root, 'test', 'bench'), { recursive: true });
  // Where core was flat then, this tree's imports of core's rooms name the files at core's root.
  const bench = fs.readFileSync(path.join(repoRoot, 'test', 'bench', 'memory.ts'), 'utf8');
  const flat = !fs.existsSync(path.join(root, 'src', 'core', 'log'));
  fs.writeFileSync(path.join(root, 'test', 'bench', 'memory.ts'), flat ? bench.replace(/\/core\/(?:log|plan|derived|timeline|worktrees)\//g, '/core/') : bench);
  fs.cpSync(path.join(repoRoot, 'src', 'core', 'generated'), path.join(root, 'src', 'core', 'generated'), { recursive: true });
  fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(root, 'node_modules'));
  return root;
}

function measure(bundleFile, folder, sessions) {
  const script = `const m = require(${JSON.stringify(bundleFile)}); m.benchMemory(${JSON.stringify(folder)}, ${sessions}).then((r) => process.stdout.write(JSON.stringify(r)), (e) => { console.error(e); process.exit(1); });`;
  const run = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=4096', '-e', script], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`memory bench failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

/** Measures every size now and before; resolves with the figures and their table. */
export async function benchMemoryRows(tmp, { sizes, onProgress, dataDir }) {
  const now = await bundle(repoRoot, path.join(tmp, 'memory-now.cjs'));
  const beforeRoot = beforeTree(tmp);
  const before = beforeRoot ? await bundle(beforeRoot, path.join(tmp, 'memory-before.cjs')) : undefined;
  const m = await import(pathToUrl(now));
  const rows = [];
  for (const sessions of sizes) {
    // 20 writes of 20 items each; 2 at 100,000 (the heap holds current plans only, before and now; the files stay small).
    const writes = sessions >= 100_000 ? 2 : 20;
    // dataDir (bench:memory's AGENT_PLAN_BENCH_DATA) keeps the written sessions for the next run.
    const folder = path.join(dataDir ?? tmp, `memory-${sessions}`);
    m.writeSessions(folder, sessions, writes);
    onProgress?.(`memory: ${count(sessions)} sessions written`);
    const ours = measure(now, folder, sessions);
    const theirs = before ? measure(before, folder, sessions) : undefined;
    onProgress?.(`memory: ${count(sessions)} sessions, +${ours.heapMB.toFixed(1)} MiB now${theirs ? `, +${theirs.heapMB.toFixed(1)} MiB before` : ''}`);
    rows.push({ sessions, writes, now: ours, before: theirs });
    if (!dataDir) fs.rmSync(folder, { recursive: true, force: true });
  }
  const mib = (row) => (row ? `+${row.heapMB.toFixed(1)} MiB` : 'n/a');
  const perSession = (row) => (row ? `${((row.heapMB * 1024 * 1024) / row.sessions).toFixed(0)} B` : 'n/a');
  const table = {
    key: 'memory',
    title: 'Memory: heap held after activation, every book built as the extension builds it, now and before (same run)',
    headers: ['sessions', 'heap now', 'per session', 'whole load now, ms', 'heap before', 'per session', 'whole load before, ms'],
    align: 'rrrrrrr',
    rows: rows.map((r) => [count(r.sessions), mib(r.now), perSession(r.now), ms(r.now.loadMs), mib(r.before), perSession(r.before), r.before ? ms(r.before.loadMs) : 'n/a']),
    notes: [
      'test/bench/memory.ts: SessionLog + PlanStore + DisplayState + LogPlanSink (with its locks) + HealthBook + RequestBook + FileBook + LedgerBook + NeedsYouBook, built as src/extension.ts builds them, over real session files; store.load(), then what the first screen asks (the needs-you queue, the first 50 rows\' details and signals, the shown session\'s plan, requests, files and ledger). Heap used after two forced GCs, less the same before building (node --expose-gc), each figure in a Node process of its own.',
      `Sessions of 20 writes of a 20-item plan (2 writes at 100,000, to keep the files small: only current plans are held, before and now). "Before": the same file bundled against the sources of commit ${BEFORE_COMMIT}${BEFORE_COMMIT === '698a2ab' ? ', the last before the per-session state was packed' : ''}${before ? '' : ' (not in this clone: not measured)'}. The sessions stopped with an item in progress long ago: each is stalled, so each is in the needs-you queue.`,
      'A session off screen is a summary (its plan\'s fields without the items, its first item\'s text, its signals computed once); whole plans for the 32 most recently used, read back from the file\'s tail when opened. Now also: the reader, the store and the health and needs-you books keep a session in one shared record (a field each) instead of a map each; a cursor is its offset alone, a first look\'s health its end and told signals in one short text, the needs-you queue a small number per session (its entries made when asked).',
    ],
  };
  return { figures: rows, table };
}

function pathToUrl(file) {
  return new URL(`file://${file}`).href;
}

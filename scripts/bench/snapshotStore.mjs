// The snapshot store's bounds, side by side with the code before them (one run): a snapshot of a
// large working tree holding one big untracked file (a core dump, a data set) and 5 changed
// files, what it recorded, what it put on disk, and what is left on disk once the session is
// deleted. The code before is src/node/gitSnapshots.ts (and its runner) as of BASELINE, read
// from the repository's history and bundled beside today's; without that history (a shallow
// clone) its column says so.
import * as esbuild from 'esbuild';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { repoRoot } from '../lib/host.mjs';

/** The last commit before the snapshot store's bounds. */
export const BASELINE = '7828035';
const SESSION = 'b'.repeat(32);
const CHANGED = 5;

/** Today's GitSnapshots and, where the history holds it, the one of BASELINE, each bundled for Node 20. */
async function implementations(folder) {
  const bundle = async (entry, outfile) => {
    await esbuild.build({ entryPoints: [entry], outfile, bundle: true, format: 'cjs', platform: 'node', target: 'node20', logLevel: 'warning' });
    return createRequire(import.meta.url)(outfile).GitSnapshots;
  };
  const today = await bundle(path.join(repoRoot, 'src', 'node', 'gitSnapshots.ts'), path.join(folder, 'today.cjs'));
  let before;
  try {
    const old = path.join(folder, 'before', 'src', 'node');
    fs.mkdirSync(old, { recursive: true });
    for (const file of ['gitSnapshots.ts', 'gitRunner.ts']) {
      fs.writeFileSync(path.join(old, file), execFileSync('git', ['show', `${BASELINE}:src/node/${file}`], { cwd: repoRoot, maxBuffer: 1 << 24 }));
    }
    before = await bundle(path.join(old, 'gitSnapshots.ts'), path.join(folder, 'before.cjs'));
  } catch (error) {
    before = { missing: `the code of ${BASELINE} is not in this clone's history (${String(error.message ?? error).split('\n')[0]})` };
  }
  return { today, before };
}

/** Bytes of every file under a folder: what the disk holds. */
function bytesOnDisk(folder) {
  if (!fs.existsSync(folder)) return 0;
  let total = 0;
  for (const entry of fs.readdirSync(folder, { withFileTypes: true, recursive: true })) if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  return total;
}

/** One implementation's figures: a snapshot with the big file and 5 changed files, the store on disk, then after the session is deleted. */
async function measure(GitSnapshots, repo, store, head, bigFile, isToday) {
  const snapshots = new GitSnapshots(store);
  try {
    const started = performance.now();
    const result = isToday ? await snapshots.snapshot(repo, { session: SESSION, maxFileBytes: 50 * 1024 * 1024 }) : await snapshots.snapshot(repo);
    const ms = performance.now() - started;
    if (result.ok && !isToday) await snapshots.keep(SESSION, result.tree);
    const lines = result.ok ? ((await snapshots.numstat(head, result.tree)) ?? []) : [];
    const seen = lines.filter((line) => /^d[0-4]\/e0\/f[0-4]\.ts$/.test(line.path)).length;
    const bigStored = lines.some((line) => line.path === path.basename(bigFile));
    const afterSnapshot = bytesOnDisk(store);
    await snapshots.forget(SESSION);
    const afterForget = bytesOnDisk(store);
    return {
      ok: result.ok,
      reason: result.ok ? undefined : `${result.reason}: ${result.detail}`,
      ms: Math.round(ms),
      changedSeen: seen,
      bigStored,
      skipped: result.ok ? (result.skipped ?? []).map((file) => file.path) : [],
      bytesAfterSnapshot: afterSnapshot,
      bytesAfterForget: afterForget,
    };
  } finally {
    snapshots.dispose();
  }
}

/**
 * `repo`: a committed repository (the 50,000-file one of the snapshot rows); `bigMB` the big
 * untracked file's size. Leaves the repository as it found it.
 */
export async function benchSnapshotStore(tmp, repo, bigMB, onProgress) {
  const folder = path.join(tmp, 'snapshot-store');
  fs.mkdirSync(folder, { recursive: true });
  const { today, before } = await implementations(folder);
  const head = execFileSync('git', ['rev-parse', 'HEAD^{tree}'], { cwd: repo, encoding: 'utf8' }).trim();
  const bigFile = path.join(repo, 'core.dump');
  const chunk = 16 * 1024 * 1024;
  const handle = fs.openSync(bigFile, 'w');
  for (let written = 0; written < bigMB * 1024 * 1024; written += chunk) fs.writeSync(handle, randomBytes(Math.min(chunk, bigMB * 1024 * 1024 - written)));
  fs.closeSync(handle);
  const originals = [];
  for (let k = 0; k < CHANGED; k++) {
    const file = path.join(repo, `d${k}`, 'e0', `f${k}.ts`);
    originals.push([file, fs.readFileSync(file)]);
    fs.appendFileSync(file, '// changed\n');
  }
  onProgress?.(`snapshot store: ${bigMB} MB untracked file and ${CHANGED} changed files written`);
  try {
    const figures = { bigMB, changed: CHANGED, baseline: BASELINE };
    figures.today = await measure(today, repo, path.join(folder, 'store-today'), head, bigFile, true);
    onProgress?.(`snapshot store: today's code ${figures.today.ms} ms`);
    figures.before = before.missing ? { missing: before.missing } : await measure(before, repo, path.join(folder, 'store-before'), head, bigFile, false);
    onProgress?.(`snapshot store: the code before ${figures.before.ms ?? '—'} ms`);
    return figures;
  } finally {
    fs.rmSync(bigFile, { force: true });
    for (const [file, text] of originals) fs.writeFileSync(file, text);
  }
}

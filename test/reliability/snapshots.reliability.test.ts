// Review never shows what it did not see. Each finding of a hostile review of the working-tree
// snapshots, with real git, real files and a real log: a git stopped by its time bound or
// failing is no snapshot (its items say why, nothing is left behind); large untracked files are
// left out and named; a deleted session's space comes back on disk; the cap holds after every
// snapshot and cannot be set by a workspace; a repository above the followed folders is not
// snapshotted; Restricted Mode runs no git; a FIFO in place of the index blocks nothing.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LogPlanSink } from '../../src/core/log/planSink';
import { SessionLocks } from '../../src/core/log/sessionLock';
import { SessionLog } from '../../src/core/log/sessionLog';
import { PlanStore } from '../../src/core/store/store';
import { GitSnapshots } from '../../src/node/gitSnapshots';
import { ItemChangesReader } from '../../src/node/itemChangesReader';
import { NodeFileSystem } from '../../src/node/nodeFileSystem';
import { SnapshotRecorder } from '../../src/node/snapshotRecorder';
import { committedRepo, KEY_A } from '../unit/helpers';
import { recordFigures } from './lib/figures';
import { useTempDir } from '../lib/temp';

const MiB = 1024 * 1024;

/** Bytes under a folder, as the disk holds them (every file's size). */
function bytesOnDisk(folder: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}

/** Every file under a store's objects folder and its tmp folder. */
function storeFiles(store: string): string[] {
  return ['objects', 'tmp']
    .map((part) => path.join(store, part))
    .filter((folder) => fs.existsSync(folder))
    .flatMap((folder) => fs.readdirSync(folder, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => path.relative(store, path.join(entry.parentPath, entry.name))))
    .filter((file) => file !== path.join('objects', 'info', 'alternates'))
    .sort();
}

/**
 * A git that runs the real one but, for `add`, waits first (`before`) or after (`after`) it, and
 * writes each command it is asked to run to `calls`: a run that outlasts its time bound, on any machine.
 */
function slowGit(folder: string, when: 'before' | 'after' | 'never'): { git: string; calls: string } {
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const calls = path.join(folder, 'calls.txt');
  const git = path.join(folder, 'slow-git');
  const add = when === 'before' ? `exec sleep 20` : when === 'after' ? `"${real}" "$@"; exec sleep 20` : `exec "${real}" "$@"`;
  fs.writeFileSync(
    git,
    `#!/bin/sh\nprintf '%s\\n' "$*" >> "${calls}"\nfor arg in "$@"; do if [ "$arg" = add ]; then ${add}; fi; done\nexec "${real}" "$@"\n`,
    { mode: 0o755 },
  );
  return { git, calls };
}

/** A window's parts over a log folder: its log, store, sink and recorder on one snapshot store. */
function window(root: string, folder: string, snapshots: GitSnapshots, options: { maxBytes?: number; within?: string[] } = {}) {
  const fileSystem = new NodeFileSystem();
  const log = new SessionLog(path.join(root, 'sessions'), fileSystem);
  const store = new PlanStore(log);
  const sink = new LogPlanSink(log, { locks: new SessionLocks(fileSystem, path.join(root, 'sessions', '.locks'), { pid: 1, host: 'here', isAlive: () => true }) });
  const infos: string[] = [];
  const recorder = new SnapshotRecorder(log, sink, snapshots, {
    folderOf: () => folder,
    maxBytes: () => options.maxBytes ?? 0,
    maxFileBytes: () => 50 * MiB,
    within: () => options.within ?? [folder],
    enabled: () => true,
    info: (message) => infos.push(message),
    error: (message, error) => assert.fail(`${message}: ${String(error)}`),
  });
  return { log, store, recorder, infos, reader: new ItemChangesReader(log, snapshots, () => folder) };
}

describe('snapshots: Review never shows what it did not see', function () {
  const tmp = useTempDir('rel-snapshots');
  this.timeout(120_000);

  it('a git add stopped by its time bound is no snapshot: the item says “not recorded: stopped”, never “no changes”, and nothing is left behind', async () => {
    const root = tmp.path;
    const repo = committedRepo(path.join(root, 'repo'), { 'parser.ts': 'one\ntwo\n' });
    const store = path.join(root, 'store');
    // Before the add: the snapshot would be the repository's index (HEAD's content: "no changes").
    const before = new GitSnapshots(store, { git: slowGit(root, 'before').git, timeoutMs: 1500 });
    fs.writeFileSync(path.join(repo, 'parser.ts'), 'one\n2\n');
    const stopped = await before.snapshot(repo, { session: KEY_A });
    before.dispose();
    assert.equal(stopped.ok, false, `a stopped add was taken for a snapshot: ${JSON.stringify(stopped)}`);
    assert.equal(!stopped.ok && stopped.reason, 'timed-out');
    // After the add wrote its objects: still no snapshot, and what it wrote is gone with it.
    const filesBefore = storeFiles(store);
    fs.writeFileSync(path.join(repo, 'data.bin'), Buffer.alloc(3 * MiB, 7));
    const after = new GitSnapshots(store, { git: slowGit(root, 'after').git, timeoutMs: 1500 });
    const late = await after.snapshot(repo, { session: KEY_A });
    after.dispose();
    assert.equal(!late.ok && late.reason, 'timed-out', JSON.stringify(late));
    assert.deepEqual(storeFiles(store), filesBefore, 'a stopped snapshot leaves no object, pack or temporary file in the store');
    const refs = execFileSync('git', ['--git-dir', store, 'for-each-ref'], { encoding: 'utf8' });
    assert.equal(refs, '', 'and no ref');
  });

  it('through the recorder: the item worked on while a snapshot was stopped says why, its neighbours stay exact', async () => {
    const root = tmp.path;
    const repo = committedRepo(path.join(root, 'repo'), { 'parser.ts': 'one\ntwo\n' });
    const store = path.join(root, 'store');
    const good = new GitSnapshots(store);
    const slow = new GitSnapshots(store, { git: slowGit(root, 'before').git, timeoutMs: 1500 });
    let snapshots = good;
    const proxy = new Proxy(good, {
      get: (_target, name) => {
        const value: unknown = Reflect.get(snapshots, name);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(snapshots) : value;
      },
    });
    const { store: plans, recorder, reader, log } = window(root, repo, proxy);
    await plans.load();
    await plans.write(KEY_A, [{ content: 'first', status: 'in_progress' }, { content: 'second', status: 'pending' }]);
    await recorder.idle();
    fs.writeFileSync(path.join(repo, 'first.ts'), 'a\n');
    // The moment the second item starts, git is stopped by its bound (a loaded machine).
    snapshots = slow;
    await plans.write(KEY_A, [{ content: 'first', status: 'completed' }, { content: 'second', status: 'in_progress' }]);
    await recorder.idle();
    snapshots = good;
    fs.writeFileSync(path.join(repo, 'parser.ts'), 'one\n2\n');
    await plans.write(KEY_A, [{ content: 'first', status: 'completed' }, { content: 'second', status: 'completed' }]);
    await recorder.idle();
    await log.catchUp(KEY_A);
    const changes = await reader.read(KEY_A, ['first', 'second']);
    const second = changes.items[1];
    assert.ok(second);
    assert.notEqual(second.recorded, 'all', `the second item's work was not all seen: ${JSON.stringify(second)}`);
    assert.deepEqual(second.missed, { why: 'timed-out', detail: 'git add was stopped by its time bound' }, 'it says why');
    assert.equal(changes.items[0]?.missed?.why, 'timed-out', 'the first item’s stretch ends at the missed moment: said too');
    slow.dispose();
    good.dispose();
  });

  it('untracked files above the bound are left out and named; the rest is snapshotted', async () => {
    const root = tmp.path;
    const repo = committedRepo(path.join(root, 'repo'), { 'a.txt': '1\n' });
    fs.writeFileSync(path.join(repo, 'core.dump'), Buffer.alloc(3 * MiB, 1));
    fs.mkdirSync(path.join(repo, 'data set'));
    fs.writeFileSync(path.join(repo, 'data set', ':(weird).csv'), Buffer.alloc(2 * MiB + 1, 2));
    fs.writeFileSync(path.join(repo, 'small.txt'), 'kept\n');
    fs.writeFileSync(path.join(repo, 'a.txt'), '2\n');
    const snapshots = new GitSnapshots(path.join(root, 'store'));
    const result = await snapshots.snapshot(repo, { maxFileBytes: 2 * MiB });
    assert.ok(result.ok, JSON.stringify(result));
    assert.deepEqual(result.skipped, [
      { path: 'core.dump', why: 'large', bytes: 3 * MiB },
      { path: 'data set/:(weird).csv', why: 'large', bytes: 2 * MiB + 1 },
    ]);
    assert.equal(await snapshots.readFile(result.tree, 'core.dump'), undefined);
    assert.equal((await snapshots.readFile(result.tree, 'small.txt'))?.toString(), 'kept\n');
    assert.equal((await snapshots.readFile(result.tree, 'a.txt'))?.toString(), '2\n');
    assert.ok(bytesOnDisk(path.join(root, 'store')) < MiB, 'the large files were not copied');
    snapshots.dispose();
  });

  it('deleting a session frees its space on disk at once (a packed big file too); the cap holds after every snapshot', async () => {
    const root = tmp.path;
    const repo = committedRepo(path.join(root, 'repo'), { 'a.txt': '1\n' });
    const store = path.join(root, 'store');
    const snapshots = new GitSnapshots(store);
    // A session that copied 8 MiB of incompressible data.
    fs.writeFileSync(path.join(repo, 'blob.bin'), randomBytes(8 * MiB));
    const taken = await snapshots.snapshot(repo, { session: KEY_A });
    assert.ok(taken.ok);
    // Packed, as git packs a file above its big-file bound.
    execFileSync('git', ['--git-dir', store, 'repack', '-a', '-d', '-q']);
    const full = bytesOnDisk(path.join(store, 'objects'));
    assert.ok(full > 4 * MiB, `the store holds the copy: ${full}`);
    await snapshots.forget(KEY_A);
    const after = bytesOnDisk(path.join(store, 'objects'));
    recordFigures('snapshot store: a deleted session’s space', { 'before, bytes': full, 'after, bytes': after });
    assert.ok(after < 64 * 1024, `deleting the session freed its space on disk: ${after} bytes left of ${full}`);
    snapshots.dispose();

    // The cap: checked after each snapshot, not every twentieth.
    const capped = path.join(root, 'capped');
    const capStore = new GitSnapshots(capped);
    const { store: plans, recorder, infos } = window(root, repo, capStore, { maxBytes: 6 * MiB });
    await plans.load();
    for (let i = 0; i < 3; i++) {
      fs.writeFileSync(path.join(repo, 'blob.bin'), randomBytes(4 * MiB));
      await plans.write(KEY_A, [{ content: `step ${i}`, status: 'in_progress' }]);
      await recorder.idle();
      const size = bytesOnDisk(path.join(capped, 'objects'));
      assert.ok(size <= 6 * MiB + 64 * 1024, `after snapshot ${i + 1} the store is ${size} bytes, over its 6 MiB cap`);
    }
    assert.ok(infos.some((line) => line.includes('over its cap')), infos.join('\n'));
    capStore.dispose();
  });

  it('the cap and the size bound cannot be set by a workspace (machine scope)', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, { scope?: string; default?: unknown }> } } };
    const properties = manifest.contributes.configuration.properties;
    assert.equal(properties['agentPlan.review.maxStoreMegabytes']?.scope, 'machine');
    assert.equal(properties['agentPlan.review.maxUntrackedFileMegabytes']?.scope, 'machine');
    assert.equal(properties['agentPlan.review.maxUntrackedFileMegabytes']?.default, 50);
  });

  it('a workspace folder inside a parent repository (a home kept in git) is not snapshotted: nothing of the parent is copied', async () => {
    const root = tmp.path;
    const home = committedRepo(path.join(root, 'home'), { '.bashrc': 'alias x=y\n' });
    fs.mkdirSync(path.join(home, '.aws'));
    fs.writeFileSync(path.join(home, '.aws', 'credentials'), '[default]\naws_secret_access_key=SECRET\n');
    const project = path.join(home, 'project');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'main.ts'), 'export {};\n');
    const store = path.join(root, 'store');
    const snapshots = new GitSnapshots(store);
    const result = await snapshots.snapshot(project, { session: KEY_A, within: [project] });
    assert.equal(result.ok, false, `the parent repository was snapshotted: ${JSON.stringify(result)}`);
    assert.equal(!result.ok && result.reason, 'parent-repository');
    assert.equal(storeFiles(store).length, 0, 'nothing copied');
    // Its own repository (or a followed folder that is the repository's top) is.
    assert.equal((await snapshots.snapshot(home, { within: [home] })).ok, true);
    const sub = await snapshots.snapshot(path.join(home, '.aws'), { within: [home] });
    assert.equal(sub.ok, true, 'a subfolder of a followed repository is snapshotted');
    snapshots.dispose();
  });

  it('Restricted Mode: the changes read show recorded snapshots only; no git runs in the repository', async () => {
    const root = tmp.path;
    const repo = committedRepo(path.join(root, 'repo'), { 'a.txt': '1\n' });
    const { git, calls } = slowGit(root, 'never');
    const store = path.join(root, 'store');
    const recording = new GitSnapshots(store);
    const { store: plans, recorder, log } = window(root, repo, recording);
    await plans.load();
    await plans.write(KEY_A, [{ content: 'a', status: 'in_progress' }]);
    await recorder.idle();
    await log.catchUp(KEY_A);
    fs.writeFileSync(path.join(repo, 'a.txt'), '2\n');
    const watched = new GitSnapshots(store, { git });
    const untrusted = new ItemChangesReader(log, watched, () => repo, () => ({ git: false }));
    const changes = await untrusted.read(KEY_A, ['a'], { now: true });
    assert.equal(changes.now, undefined, 'no look at the working tree now');
    const ran = fs.existsSync(calls) ? fs.readFileSync(calls, 'utf8') : '';
    assert.ok(!/rev-parse --show-toplevel|add -A|ls-files|write-tree/.test(ran), `git ran in the repository: ${ran}`);
    // Trusted, the same read looks at now.
    const trusted = new ItemChangesReader(log, watched, () => repo, () => ({ git: true }));
    assert.ok((await trusted.read(KEY_A, ['a'], { now: true })).now);
    recording.dispose();
    watched.dispose();
  });

  it('a FIFO in place of the repository’s index blocks nothing: the snapshot is seeded from HEAD instead', async () => {
    const root = tmp.path;
    const repo = committedRepo(path.join(root, 'repo'), { 'a.txt': '1\n' });
    const index = path.join(repo, '.git', 'index');
    fs.rmSync(index);
    execFileSync('mkfifo', [index]);
    fs.writeFileSync(path.join(repo, 'a.txt'), '2\n');
    const snapshots = new GitSnapshots(path.join(root, 'store'));
    let timer: NodeJS.Timeout | undefined;
    const result = await Promise.race([
      snapshots.snapshot(repo),
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('the snapshot blocked on a FIFO index')), 15_000))),
    ]).finally(() => clearTimeout(timer));
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal((await snapshots.readFile(result.tree, 'a.txt'))?.toString(), '2\n');
    snapshots.dispose();
  });
});

import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GitSnapshots, parseNumstat } from '../../../src/node/gitSnapshots';
import { committedRepo, gitIn } from '../helpers';
import { useTempDir } from '../../lib/temp';

const SESSION = '0123456789abcdef0123456789abcdef';

const git = gitIn;

/**
 * Every file under a folder with the hash of its bytes and its mode. Not its time: git
 * "freshens" (touches the time of) an object it was about to write and finds in an alternate,
 * as every git command does; the bytes never change.
 */
function fingerprint(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else {
        const stat = fs.lstatSync(full);
        out.set(path.relative(root, full), `${createHash('sha256').update(fs.readFileSync(full)).digest('hex')} ${stat.mode}`);
      }
    }
  };
  walk(root);
  return out;
}

function makeRepo(root: string): string {
  return committedRepo(path.join(root, 'repo'), {
    'a.txt': 'one\ntwo\nthree\n',
    'old.txt': 'keep\nthese\nlines\nas they\nare\n',
    'gone.txt': 'bye\n',
    '.gitignore': 'ignored/\n',
  });
}

describe('GitSnapshots (real git, temp folders)', function () {
  this.timeout(60_000);
  const tmp = useTempDir();

  it('snapshots edits, a rename, a deletion, a binary and an untracked file; the repository stays byte-identical', async () => {
    const repo = makeRepo(tmp.path);
    const snapshots = new GitSnapshots(path.join(tmp.path, 'store'));
    const first = await snapshots.snapshot(repo);
    assert.ok(first.ok, JSON.stringify(first));
    assert.equal(first.tree, git(repo, 'rev-parse', 'HEAD^{tree}').trim(), 'an unchanged tree is HEAD’s');

    // The agent works: an edit, a rename, a deletion, a binary file, a new file, an ignored one.
    fs.writeFileSync(path.join(repo, 'a.txt'), 'one\n2\nthree\nfour\n');
    fs.renameSync(path.join(repo, 'old.txt'), path.join(repo, 'new.txt'));
    fs.rmSync(path.join(repo, 'gone.txt'));
    fs.writeFileSync(path.join(repo, 'image.bin'), Buffer.from([0, 1, 2, 0, 255, 0, 7]));
    fs.mkdirSync(path.join(repo, 'ignored'));
    fs.writeFileSync(path.join(repo, 'ignored', 'x.log'), 'noise\n');
    fs.writeFileSync(path.join(repo, 'fresh.ts'), 'export {};\n');
    const gitBefore = fingerprint(path.join(repo, '.git'));
    const second = await snapshots.snapshot(repo);
    assert.ok(second.ok, JSON.stringify(second));
    assert.deepEqual(fingerprint(path.join(repo, '.git')), gitBefore, '.git byte-identical (and untouched) after a snapshot');
    assert.equal(git(repo, 'status', '--porcelain').includes('fresh.ts'), true, 'the new file is still untracked');

    const stat = await snapshots.numstat(first.tree, second.tree);
    assert.ok(stat);
    const byPath = new Map(stat.map((entry) => [entry.path, entry]));
    assert.deepEqual(byPath.get('a.txt'), { path: 'a.txt', added: 2, removed: 1 });
    assert.deepEqual(byPath.get('new.txt'), { path: 'new.txt', from: 'old.txt', added: 0, removed: 0 });
    assert.deepEqual(byPath.get('gone.txt'), { path: 'gone.txt', added: 0, removed: 1 });
    assert.deepEqual(byPath.get('image.bin'), { path: 'image.bin', added: undefined, removed: undefined });
    assert.deepEqual(byPath.get('fresh.ts'), { path: 'fresh.ts', added: 1, removed: 0 });
    assert.equal(byPath.has('ignored/x.log'), false, '.gitignore honoured');

    assert.equal((await snapshots.readFile(second.tree, 'a.txt'))?.toString(), 'one\n2\nthree\nfour\n');
    assert.equal((await snapshots.readFile(first.tree, 'a.txt'))?.toString(), 'one\ntwo\nthree\n');
    assert.equal(await snapshots.readFile(second.tree, 'gone.txt'), undefined);
    assert.deepEqual([...(await snapshots.readFile(second.tree, 'image.bin')) ?? []], [0, 1, 2, 0, 255, 0, 7]);

    // The blobs went into our store, not the repository's.
    assert.throws(() => git(repo, 'cat-file', '-e', `${second.tree}:fresh.ts`));
  });

  it('a linked worktree: its own index is read, the common objects are the alternate', async () => {
    const repo = makeRepo(tmp.path);
    const linked = path.join(tmp.path, 'linked');
    git(repo, 'worktree', 'add', '-q', linked, '-b', 'feature');
    fs.writeFileSync(path.join(linked, 'a.txt'), 'changed\n');
    const gitBefore = fingerprint(path.join(repo, '.git'));
    const snapshots = new GitSnapshots(path.join(tmp.path, 'store'));
    const result = await snapshots.snapshot(linked);
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.toplevel, fs.realpathSync(linked));
    assert.deepEqual(fingerprint(path.join(repo, '.git')), gitBefore);
    assert.equal((await snapshots.readFile(result.tree, 'a.txt'))?.toString(), 'changed\n');
  });

  it('a subfolder of a working tree: the whole working tree is snapshotted', async () => {
    const repo = makeRepo(tmp.path);
    fs.mkdirSync(path.join(repo, 'sub'));
    fs.writeFileSync(path.join(repo, 'sub', 'x.txt'), 'x\n');
    const gitBefore = fingerprint(path.join(repo, '.git'));
    const result = await new GitSnapshots(path.join(tmp.path, 'store')).snapshot(path.join(repo, 'sub'));
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.toplevel, fs.realpathSync(repo));
    assert.deepEqual(fingerprint(path.join(repo, '.git')), gitBefore);
  });

  it('a Git LFS file: its filter (which writes into .git/lfs) does not run', async () => {
    const repo = makeRepo(tmp.path);
    const mark = path.join(repo, '.git', 'lfs-ran');
    gitIn(repo, 'config', 'filter.lfs.process', `sh -c "touch '${mark}'; exit 1"`);
    gitIn(repo, 'config', 'filter.lfs.clean', `sh -c "touch '${mark}'; cat"`);
    fs.writeFileSync(path.join(repo, '.gitattributes'), '*.psd filter=lfs diff=lfs merge=lfs -text\n');
    fs.writeFileSync(path.join(repo, 'art.psd'), 'layers\n');
    const gitBefore = fingerprint(path.join(repo, '.git'));
    const result = await new GitSnapshots(path.join(tmp.path, 'store')).snapshot(repo);
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(fs.existsSync(mark), false);
    assert.deepEqual(fingerprint(path.join(repo, '.git')), gitBefore);
  });

  it('a repository without a commit: seeded empty, new files snapshotted', async () => {
    const repo = path.join(tmp.path, 'empty');
    fs.mkdirSync(repo);
    git(repo, 'init', '-q');
    fs.writeFileSync(path.join(repo, 'x.txt'), 'x\n');
    const snapshots = new GitSnapshots(path.join(tmp.path, 'store'));
    const result = await snapshots.snapshot(repo);
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal((await snapshots.readFile(result.tree, 'x.txt'))?.toString(), 'x\n');
  });

  it('a folder that is not a git working tree: a clear result, no throw', async () => {
    const plain = path.join(tmp.path, 'plain');
    fs.mkdirSync(plain);
    const result = await new GitSnapshots(path.join(tmp.path, 'store')).snapshot(plain);
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.reason, 'not-git');
    const missing = await new GitSnapshots(path.join(tmp.path, 'store')).snapshot(path.join(tmp.path, 'nowhere'));
    assert.equal(!missing.ok && missing.reason, 'not-git');
  });

  it('git missing: a clear result, no throw', async () => {
    const repo = makeRepo(tmp.path);
    const result = await new GitSnapshots(path.join(tmp.path, 'store'), { git: path.join(tmp.path, 'no-such-git') }).snapshot(repo);
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.reason, 'git-missing');
  });

  it('kept for a session, forgotten with it, the oldest pruned past the cap', async () => {
    const repo = makeRepo(tmp.path);
    const snapshots = new GitSnapshots(path.join(tmp.path, 'store'));
    const trees: string[] = [];
    for (let i = 0; i < 4; i++) {
      fs.writeFileSync(path.join(repo, `big${i}.txt`), `${i}`.repeat(200_000) + Math.random());
      const result = await snapshots.snapshot(repo, { session: SESSION, time: 1000 + i });
      assert.ok(result.ok);
      trees.push(result.tree);
    }
    const before = await snapshots.size();
    assert.ok(before > 0);
    await snapshots.forget('ffffffffffffffffffffffffffffffff');
    assert.ok(await snapshots.readFile(trees[0] as string, 'big0.txt'), 'another session’s forget drops nothing');
    const dropped = await snapshots.prune(1);
    assert.ok(dropped >= 1, `dropped ${dropped}`);
    assert.equal(await snapshots.readFile(trees[0] as string, 'big0.txt'), undefined, 'the oldest went first');
    await snapshots.forget(SESSION);
    assert.equal(await snapshots.readFile(trees[3] as string, 'big3.txt'), undefined, 'a forgotten session’s objects go at once (no expiry keeps them)');
    assert.ok((await snapshots.size()) < before / 4, `the space is back: ${await snapshots.size()} of ${before} bytes`);
  });

  it('parseNumstat: plain, binary and renamed entries', () => {
    assert.deepEqual(parseNumstat('3\t1\ta.txt\0-\t-\tb.png\0' + '0\t0\t\0old name.txt\0new name.txt\0'), [
      { path: 'a.txt', added: 3, removed: 1 },
      { path: 'b.png', added: undefined, removed: undefined },
      { path: 'new name.txt', from: 'old name.txt', added: 0, removed: 0 },
    ]);
  });
});

// Worktree discovery over real layouts made by the real `git worktree add` in a temp folder;
// discovery itself runs no git and writes nothing.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { groupByWorktree } from '../../../../src/core/worktrees/worktreeGroups';
import { discoverWorktrees, worktreeFolders, worktreeLabel, worktreeOf, type Worktree } from '../../../../src/core/worktrees/worktrees';
import { nodeFileSystem } from '../../../../src/node/nodeFileSystem';
import { useTempDir } from '../../../lib/temp';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  });
}

async function repository(root: string, name = 'app'): Promise<string> {
  const main = path.join(root, name);
  await fsp.mkdir(main, { recursive: true });
  git(main, 'init', '-q');
  await fsp.writeFile(path.join(main, 'README.md'), 'hi\n');
  git(main, 'add', '.');
  git(main, 'commit', '-q', '-m', 'first');
  return main;
}

/** What discovery found, in a form a test compares. */
function shape(found: Awaited<ReturnType<typeof discoverWorktrees>>) {
  return found?.worktrees.map((t) => ({ path: t.path, branch: t.branch, detached: t.detachedAt !== undefined, main: t.main, exists: t.exists }));
}

describe('worktree discovery (real git layouts)', () => {
  const tmp = useTempDir();

  it('a main tree and two linked worktrees beside it, one detached', async () => {
    const root = await fsp.realpath(tmp.path);
    const main = await repository(root);
    git(main, 'worktree', 'add', '-q', '../app-feature', '-b', 'feature');
    git(main, 'worktree', 'add', '-q', '--detach', '../app-detached');
    const found = await discoverWorktrees(nodeFileSystem, main);
    assert.equal(found?.commonDir, path.join(main, '.git'));
    assert.deepEqual(shape(found), [
      { path: main, branch: 'main', detached: false, main: true, exists: true },
      { path: path.join(root, 'app-detached'), branch: undefined, detached: true, main: false, exists: true },
      { path: path.join(root, 'app-feature'), branch: 'feature', detached: false, main: false, exists: true },
    ]);
    assert.deepEqual(worktreeFolders(found), [main, path.join(root, 'app-detached'), path.join(root, 'app-feature')]);
    const labels = found?.worktrees.map(worktreeLabel);
    assert.deepEqual(labels, ['main', 'app-detached', 'feature']);
  });

  it('the workspace itself a linked worktree (or a folder inside one) finds the same repository', async () => {
    const root = await fsp.realpath(tmp.path);
    const main = await repository(root);
    git(main, 'worktree', 'add', '-q', '../app-feature', '-b', 'feature');
    const inner = path.join(root, 'app-feature', 'src');
    await fsp.mkdir(inner);
    const fromMain = await discoverWorktrees(nodeFileSystem, main);
    for (const folder of [path.join(root, 'app-feature'), inner]) {
      const found = await discoverWorktrees(nodeFileSystem, folder);
      assert.equal(found?.commonDir, path.join(main, '.git'));
      assert.deepEqual(shape(found), shape(fromMain));
    }
  });

  it('a worktree removed with git is gone; one deleted by hand stays known as missing until pruned', async () => {
    const root = await fsp.realpath(tmp.path);
    const main = await repository(root);
    git(main, 'worktree', 'add', '-q', '../app-a', '-b', 'a');
    git(main, 'worktree', 'add', '-q', '../app-b', '-b', 'b');
    git(main, 'worktree', 'remove', path.join(root, 'app-a'));
    await fsp.rm(path.join(root, 'app-b'), { recursive: true, force: true });
    const found = await discoverWorktrees(nodeFileSystem, main);
    assert.deepEqual(shape(found), [
      { path: main, branch: 'main', detached: false, main: true, exists: true },
      { path: path.join(root, 'app-b'), branch: 'b', detached: false, main: false, exists: false },
    ]);
    assert.deepEqual(worktreeFolders(found), [main]);
    git(main, 'worktree', 'prune');
    assert.deepEqual(shape(await discoverWorktrees(nodeFileSystem, main))?.length, 1);
  });

  it('a bare repository has only linked worktrees', async () => {
    const root = await fsp.realpath(tmp.path);
    const source = await repository(root, 'source');
    git(root, 'clone', '-q', '--bare', source, 'app.git');
    const bare = path.join(root, 'app.git');
    git(bare, 'worktree', 'add', '-q', path.join(root, 'wt-main'), 'main');
    git(bare, 'worktree', 'add', '-q', '-b', 'topic', path.join(root, 'wt-topic'));
    const fromTree = await discoverWorktrees(nodeFileSystem, path.join(root, 'wt-topic'));
    assert.equal(fromTree?.commonDir, bare);
    assert.deepEqual(shape(fromTree), [
      { path: path.join(root, 'wt-main'), branch: 'main', detached: false, main: false, exists: true },
      { path: path.join(root, 'wt-topic'), branch: 'topic', detached: false, main: false, exists: true },
    ]);
  });

  it('a folder in no repository has no worktrees', async () => {
    const root = await fsp.realpath(tmp.path);
    // A temp folder may sit inside a repository of its own (not here): then discovery would find that one.
    const alone = path.join(root, 'plain');
    await fsp.mkdir(alone);
    const found = await discoverWorktrees(nodeFileSystem, alone);
    if (found !== undefined) assert.ok(!found.commonDir.startsWith(root), 'found a repository in a folder that has none');
    assert.deepEqual(worktreeFolders(undefined), []);
  });

  it('a session folder belongs to the deepest worktree that holds it', async () => {
    const root = await fsp.realpath(tmp.path);
    const main = await repository(root);
    git(main, 'worktree', 'add', '-q', 'nested', '-b', 'nested');
    const found = await discoverWorktrees(nodeFileSystem, main);
    const trees = found?.worktrees ?? [];
    assert.equal(worktreeOf(trees, path.join(main, 'nested', 'src'))?.branch, 'nested');
    assert.equal(worktreeOf(trees, path.join(main, 'src'))?.branch, 'main');
    assert.equal(worktreeOf(trees, path.join(root, 'elsewhere')), undefined);
  });
});

describe('sessions grouped by worktree', () => {
  const main: Worktree = { path: '/w/app', branch: 'main', main: true, exists: true };
  const feature: Worktree = { path: '/w/app-feature', branch: 'feature', main: false, exists: true };
  const detached: Worktree = { path: '/w/app-detached', main: false, exists: true };
  const trees = [main, detached, feature];
  type Row = { id: string; cwd?: string };
  const group = (rows: Row[], workspace = ['/w/app']) =>
    groupByWorktree(rows, (row) => row.cwd, trees, workspace)?.map((g) => [g.folder, g.own, g.worktree === undefined ? '-' : worktreeLabel(g.worktree), g.rows.map((r) => r.id)]);

  it('no groups while every session is in one place', () => {
    assert.equal(group([{ id: 'a', cwd: '/w/app' }, { id: 'b' }, { id: 'c', cwd: '/w/app/src' }]), undefined);
  });

  it("the workspace's own first (with the sessions of no known folder), then the other worktrees in order, then folders in none", () => {
    const rows: Row[] = [
      { id: 'f1', cwd: '/w/app-feature/src' },
      { id: 'gone', cwd: '/w/app-removed' },
      { id: 'chat' },
      { id: 'd1', cwd: '/w/app-detached' },
      { id: 'm1', cwd: '/w/app' },
      { id: 'f2', cwd: '/w/app-feature' },
    ];
    assert.deepEqual(group(rows), [
      ['/w/app', true, 'main', ['chat', 'm1']],
      ['/w/app-detached', false, 'app-detached', ['d1']],
      ['/w/app-feature', false, 'feature', ['f1', 'f2']],
      ['/w/app-removed', false, '-', ['gone']],
    ]);
  });

  it('a workspace that is itself a linked worktree lists that one first', () => {
    assert.deepEqual(group([{ id: 'm1', cwd: '/w/app' }, { id: 'f1', cwd: '/w/app-feature' }], ['/w/app-feature']), [
      ['/w/app-feature', true, 'feature', ['f1']],
      ['/w/app', false, 'main', ['m1']],
    ]);
  });
});

// The followed folders over a real repository: its worktrees are found at the start, and a
// worktree added or removed later is seen through the folder watch (no polling).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { FollowedFolders } from '../../../src/node/followedFolders';
import { useTempDir } from '../../lib/temp';

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  });
}

async function repository(root: string): Promise<string> {
  const main = path.join(root, 'app');
  await fsp.mkdir(main);
  git(main, 'init', '-q');
  await fsp.writeFile(path.join(main, 'a.txt'), 'a\n');
  git(main, 'add', '.');
  git(main, 'commit', '-q', '-m', 'first');
  return main;
}

/** Resolves at the next change whose folders satisfy `ok` (the mocha timeout fails a change that never comes). */
function changeTo(followed: FollowedFolders, ok: (folders: string[]) => boolean): Promise<string[]> {
  return new Promise((resolve) => {
    const subscription = followed.onDidChange(() => {
      if (!ok(followed.folders())) return;
      subscription.dispose();
      resolve(followed.folders());
    });
  });
}

describe('followed folders (workspace, worktrees, extra)', () => {
  const tmp = useTempDir();
  let followed: FollowedFolders | undefined;
  afterEach(() => followed?.dispose());

  it('follows every worktree, and sees one added and one removed while open', async () => {
    const root = await fsp.realpath(tmp.path);
    const main = await repository(root);
    git(main, 'worktree', 'add', '-q', '../app-one', '-b', 'one');
    followed = new FollowedFolders({ workspaceFolders: [main], settleMs: 50 });
    assert.deepEqual(followed.folders(), [main], 'before the first read: the workspace folders only');
    await followed.read();
    assert.deepEqual(followed.folders(), [main, path.join(root, 'app-one')]);
    assert.deepEqual(followed.worktrees().map((t) => t.branch), ['main', 'one']);

    const added = changeTo(followed, (folders) => folders.includes(path.join(root, 'app-two')));
    git(main, 'worktree', 'add', '-q', '../app-two', '-b', 'two');
    assert.deepEqual(await added, [main, path.join(root, 'app-one'), path.join(root, 'app-two')]);

    const removed = changeTo(followed, (folders) => !folders.includes(path.join(root, 'app-one')));
    git(main, 'worktree', 'remove', path.join(root, 'app-one'));
    assert.deepEqual(await removed, [main, path.join(root, 'app-two')]);
  });

  it('sees the first worktree of a repository that had none (the worktrees folder created later)', async () => {
    const root = await fsp.realpath(tmp.path);
    const main = await repository(root);
    followed = new FollowedFolders({ workspaceFolders: [main], settleMs: 50 });
    await followed.read();
    assert.deepEqual(followed.folders(), [main]);
    const added = changeTo(followed, (folders) => folders.length === 2);
    git(main, 'worktree', 'add', '-q', '../app-first', '-b', 'first-tree');
    assert.deepEqual(await added, [main, path.join(root, 'app-first')]);
  });

  it('with worktrees turned off: the workspace and the extra folders only', async () => {
    const root = await fsp.realpath(tmp.path);
    const main = await repository(root);
    git(main, 'worktree', 'add', '-q', '../app-one', '-b', 'one');
    const extra = path.join(root, 'elsewhere');
    followed = new FollowedFolders({ workspaceFolders: [main], extraFolders: [extra, main], worktrees: false });
    await followed.read();
    assert.deepEqual(followed.folders(), [main, extra]);
    assert.deepEqual(followed.worktrees(), []);
  });
});

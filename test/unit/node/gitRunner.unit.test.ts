// git started by the runner process (src/node/gitRunner.ts): output, input, exit codes, a
// missing program, and the fallback when the runner is gone or cannot start.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GitRunner, runHere, type GitRun } from '../../../src/node/gitRunner';
import { useTempDir } from '../../lib/temp';

describe('GitRunner', function () {
  this.timeout(30_000);
  const tmp = useTempDir();
  const run = (args: string[], extra: Partial<GitRun> = {}): GitRun => ({ file: 'git', args, env: { ...process.env, LC_ALL: 'C' }, timeoutMs: 10_000, maxBuffer: 1 << 20, niceness: 10, ...extra });

  it('runs git and hands back its output, its input and its exit code as the calling thread would', async () => {
    const runner = new GitRunner();
    try {
      const version = await runner.run(run(['--version']));
      assert.equal(version.code, 0);
      assert.match(version.stdout.toString('utf8'), /^git version /);
      assert.deepEqual({ ...version, stdout: version.stdout.toString() }, { ...(await runHere(run(['--version']))), stdout: version.stdout.toString() });
      const hashed = await runner.run(run(['hash-object', '--stdin'], { input: 'hello\n' }));
      assert.equal(hashed.stdout.toString('utf8').trim(), 'ce013625030ba8dba906f756967f9e9ca394464a');
      const failed = await runner.run(run(['rev-parse', '--show-toplevel'], { cwd: tmp.path }));
      assert.equal(failed.code, 128);
      assert.match(failed.stderr, /not a git repository/);
      const missing = await runner.run(run(['--version'], { file: path.join(tmp.path, 'no-such-git') }));
      assert.equal(missing.code, 'ENOENT');
      const both = await Promise.all([runner.run(run(['--version'])), runner.run(run(['hash-object', '--stdin'], { input: 'x' }))]);
      assert.deepEqual(both.map((result) => result.code), [0, 0], 'runs at once are told apart');
      const parent = await runner.run(run(['-p', 'process.ppid'], { file: process.execPath }));
      assert.notEqual(Number(parent.stdout.toString('utf8')), process.pid, 'started by the runner, not by this process');
    } finally {
      runner.dispose();
    }
  });

  it('after dispose, or where the runner cannot start, git runs from the calling thread', async () => {
    const disposed = new GitRunner();
    await disposed.run(run(['--version']));
    disposed.dispose();
    const here = await disposed.run(run(['-p', 'process.ppid'], { file: process.execPath }));
    assert.equal(Number(here.stdout.toString('utf8')), process.pid);
    const unstartable = new GitRunner({ node: path.join(tmp.path, 'no-such-node') });
    const results = await Promise.all([unstartable.run(run(['--version'])), unstartable.run(run(['hash-object', '--stdin'], { input: 'hello\n' }))]);
    assert.deepEqual(results.map((result) => result.code), [0, 0], 'the runs it held were started here');
    assert.equal(results[1]?.stdout.toString('utf8').trim(), 'ce013625030ba8dba906f756967f9e9ca394464a');
    unstartable.dispose();
    // A runner that starts and goes away (exits at once): the runs it held are started here.
    const quitter = path.join(tmp.path, 'quitter.sh');
    fs.writeFileSync(quitter, '#!/bin/sh\nexit 3\n', { mode: 0o755 });
    const gone = new GitRunner({ node: quitter });
    assert.equal((await gone.run(run(['hash-object', '--stdin'], { input: 'hello\n' }))).stdout.toString('utf8').trim(), 'ce013625030ba8dba906f756967f9e9ca394464a');
    gone.dispose();
  });
});

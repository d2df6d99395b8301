// Disk faults at the core level: whatever the file system refuses, todo_write answers
// exactly `Error: could not save the todo list: <reason>`, the store fires no event and
// keeps the plan it had. Real faults where this machine allows them (tmpfs mounts, a
// file size limit, another user), a LogFileSystem fake otherwise; each case says which ran.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LogFileSystem } from '../../src/core/log/fileSystem';
import { saveFailedText, type Todo } from '../../src/core/plan/plan';
import { sessionKeyFromToken } from '../../src/core/log/sessionKey';
import { SessionLog } from '../../src/core/log/sessionLog';
import { PlanStore } from '../../src/core/store/store';
import { runTodoWrite } from '../../src/core/store/todoWrite';
import { nodeFileSystem } from '../../src/node/nodeFileSystem';
import { childScript, collect, openStore, run } from './lib/env';
import { recordFigures } from './lib/figures';
import { parseLog } from './lib/oracle';
import { useTempDir } from '../lib/temp';

const TOKEN = { sessionId: 'disk-faults' };
const SESSION = sessionKeyFromToken(TOKEN) as string;
const FIRST: Todo[] = [
  { content: 'Saved before the fault', status: 'completed' },
  { content: 'Still the plan after it', status: 'in_progress' },
];
const SECOND = { todos: [{ content: 'Never saved', status: 'pending' }] };
/** ~30 KB: more than a file system's slack for the last page can take. */
const BIG = { todos: Array.from({ length: 30 }, (_, i) => ({ content: `big ${i} ${'z'.repeat(990)}`, status: 'pending' })) };

/** Wraps the real file system; `fail` rejects every write with a Node-style error. */
class FaultyFileSystem implements LogFileSystem {
  fail: { code: string; message: string } | undefined;
  private error(p: string): Error {
    const { code, message } = this.fail as { code: string; message: string };
    return Object.assign(new Error(`${code}: ${message}, open '${p}'`), { code, path: p });
  }
  async mkdirp(dir: string): Promise<void> {
    if (this.fail) throw this.error(dir);
    return nodeFileSystem.mkdirp(dir);
  }
  size(p: string): Promise<number | undefined> {
    return nodeFileSystem.size(p);
  }
  readRange(p: string, start: number, length: number): Promise<Uint8Array> {
    return nodeFileSystem.readRange(p, start, length);
  }
  async appendText(p: string, text: string): Promise<void> {
    if (this.fail) throw this.error(p);
    return nodeFileSystem.appendText(p, text);
  }
  readdir(dir: string): Promise<string[]> {
    return nodeFileSystem.readdir(dir);
  }
  async remove(p: string): Promise<void> {
    if (this.fail) throw this.error(p);
    return nodeFileSystem.remove(p);
  }
}

interface Counters {
  writes: number;
  changes: number;
}
function count(store: PlanStore): Counters {
  const counters = { writes: 0, changes: 0 };
  store.onDidWrite(() => counters.writes++);
  store.onDidChange(() => counters.changes++);
  return counters;
}

function fileSize(file: string): number | undefined {
  try {
    return fs.statSync(file).size;
  } catch {
    return undefined;
  }
}

/** One failing call: exact text, no event, the store's plan untouched (the same object). */
async function expectSaveFailed(store: PlanStore, input: unknown, reason: string): Promise<void> {
  const before = store.get(SESSION);
  const counters = count(store);
  const outcome = await runTodoWrite(store, TOKEN, input);
  assert.equal(outcome.text, saveFailedText(reason));
  assert.equal(outcome.kind, 'failed');
  assert.deepEqual(counters, { writes: 0, changes: 0 }, 'the store fired no event');
  assert.equal(store.get(SESSION), before, 'store.get(session) is unchanged');
}

/** A fresh reader of `dir` still replays `todos` as the session's plan. */
async function expectReplay(dir: string, todos: Todo[] | undefined): Promise<void> {
  const fresh = new PlanStore(new SessionLog(dir, nodeFileSystem));
  await fresh.load();
  assert.deepStrictEqual(fresh.get(SESSION)?.todos, todos);
}

/** A tmpfs mounted at `dir` (size in KB), or false when this machine does not allow mounts. */
function mountTmpfs(dir: string, sizeKb: number): boolean {
  fs.mkdirSync(dir, { recursive: true });
  return process.platform === 'linux' && run('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k,mode=0755`, 'tmpfs', dir]);
}
function unmount(dir: string): void {
  if (!run('umount', [dir])) run('umount', ['-l', dir]);
}

const rows: Array<{ fault: string; mode: string; reason: string }> = [];

const NOBODY = ['--reuid=65534', '--regid=65534', '--clear-groups'];

/**
 * Root writes anywhere, so a real permission fault runs the call as user nobody. That is
 * honest only when nobody can run this Node and reach every path (a checkout or temp folder
 * inside a 0700 home is not reachable): the probe tries exactly that, as nobody, and
 * returns why not, or undefined when the real case can run.
 */
function whyNobodyCannot(paths: string[]): string | undefined {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return 'not root on Linux, cannot switch user';
  const probe = `const fs = require('fs');
    for (const p of process.argv.slice(1)) {
      try { fs.accessSync(p, fs.statSync(p).isDirectory() ? fs.constants.R_OK | fs.constants.X_OK : fs.constants.R_OK); }
      catch { console.log(p); process.exit(3); }
    }`;
  const result = spawnSync('setpriv', [...NOBODY, process.execPath, '-e', probe, ...paths], { encoding: 'utf8' });
  if (result.error) return `setpriv not available (${result.error.message})`;
  if (result.status === 3) return `user nobody cannot reach ${result.stdout.trim()}`;
  if (result.status !== 0) return `user nobody cannot run ${process.execPath}`;
  return undefined;
}

interface ChildResult {
  kind: string;
  text: string;
  writes: number;
  changes: number;
  before: { todos: Todo[] } | undefined;
  sameObject: boolean;
}

/** Makes the todo_write call in a child process as user nobody. */
async function writeAsNobody(script: string, dir: string): Promise<ChildResult> {
  const exit = await collect(spawn('setpriv', [...NOBODY, process.execPath, script, dir, TOKEN.sessionId, JSON.stringify(SECOND)]));
  assert.equal(exit.code, 0, exit.stderr);
  return JSON.parse(exit.stdout) as ChildResult;
}

/** Records and prints which mode a permission case ran in. */
function permissionMode(fault: string, why: string | undefined): void {
  const mode = why === undefined ? 'real (call made as user nobody)' : `fake (${why})`;
  console.log(`      ${fault}: ${mode}`);
  rows.push({ fault, mode, reason: 'permission denied' });
}

describe('reliability: disk faults', () => {
  const tmp = useTempDir('rel-disk-faults');
  after(() => {
    for (const row of rows) recordFigures(`disk fault: ${row.fault}`, { mode: row.mode, reason: row.reason });
  });

  it('read-only folder: clear error, no event, plan unchanged', async () => {
    const dir = path.join(tmp.path, 'sessions');
    if (mountTmpfs(dir, 1024)) {
      try {
        const { store } = openStore(dir);
        await store.write(SESSION, FIRST);
        const size = fileSize(path.join(dir, `${SESSION}.jsonl`));
        assert.ok(run('mount', ['-o', 'remount,ro', dir]), 'remount read-only');
        await expectSaveFailed(store, SECOND, 'read-only file system');
        assert.equal(fileSize(path.join(dir, `${SESSION}.jsonl`)), size);
        await expectReplay(dir, FIRST);
        rows.push({ fault: 'read-only folder', mode: 'real (read-only tmpfs)', reason: 'read-only file system' });
      } finally {
        unmount(dir);
      }
    } else {
      const faulty = new FaultyFileSystem();
      const store = new PlanStore(new SessionLog(dir, faulty));
      await store.write(SESSION, FIRST);
      faulty.fail = { code: 'EROFS', message: 'read-only file system' };
      await expectSaveFailed(store, SECOND, 'read-only file system');
      await expectReplay(dir, FIRST);
      rows.push({ fault: 'read-only folder', mode: 'fake (mount not permitted)', reason: 'read-only file system' });
    }
  });

  it('no permission to write: clear error, no event, plan unchanged', async () => {
    const root = tmp.path;
    const dir = path.join(root, 'sessions');
    const { store } = openStore(dir);
    await store.write(SESSION, FIRST);
    const file = path.join(dir, `${SESSION}.jsonl`);
    const size = fileSize(file);
    const script = await childScript('faultWriter');
    for (const p of [root, dir, path.dirname(script)]) fs.chmodSync(p, 0o755);
    fs.chmodSync(script, 0o644);
    fs.chmodSync(file, 0o644);
    const why = whyNobodyCannot([script, dir, file]);
    if (why === undefined) {
      const result = await writeAsNobody(script, dir);
      assert.equal(result.text, saveFailedText('permission denied'));
      assert.equal(result.kind, 'failed');
      assert.deepEqual([result.writes, result.changes], [0, 0], 'the store fired no event');
      assert.deepStrictEqual(result.before?.todos, FIRST, 'the child had loaded the plan');
      assert.ok(result.sameObject, 'store.get(session) is unchanged');
    } else {
      const faulty = new FaultyFileSystem();
      const faultyStore = new PlanStore(new SessionLog(dir, faulty));
      await faultyStore.load();
      faulty.fail = { code: 'EACCES', message: 'permission denied' };
      await expectSaveFailed(faultyStore, SECOND, 'permission denied');
    }
    permissionMode('no write permission', why);
    assert.equal(fileSize(file), size, 'nothing was appended');
    await expectReplay(dir, FIRST);
  });

  it('a read-only folder with no log yet: permission denied, nothing written', async () => {
    const root = tmp.path;
    const dir = path.join(root, 'sessions');
    fs.mkdirSync(dir);
    const script = await childScript('faultWriter');
    for (const p of [root, path.dirname(script)]) fs.chmodSync(p, 0o755);
    fs.chmodSync(script, 0o644);
    fs.chmodSync(dir, 0o555);
    const why = whyNobodyCannot([script, dir]);
    try {
      if (why === undefined) {
        const result = await writeAsNobody(script, dir);
        assert.equal(result.text, saveFailedText('permission denied'));
        assert.deepEqual([result.kind, result.writes, result.changes, result.before], ['failed', 0, 0, undefined]);
      } else {
        const faulty = new FaultyFileSystem();
        const faultyStore = new PlanStore(new SessionLog(dir, faulty));
        faulty.fail = { code: 'EACCES', message: 'permission denied' };
        await expectSaveFailed(faultyStore, SECOND, 'permission denied');
      }
    } finally {
      fs.chmodSync(dir, 0o755);
    }
    assert.deepEqual(fs.readdirSync(dir), [], 'nothing was written');
    permissionMode('read-only folder, no log yet', why);
  });

  it('disk full: clear error, no event, plan unchanged; the next write after space is freed works', async () => {
    const dir = path.join(tmp.path, 'sessions');
    if (mountTmpfs(dir, 64)) {
      try {
        const { store } = openStore(dir);
        await store.write(SESSION, FIRST);
        const file = path.join(dir, `${SESSION}.jsonl`);
        const size = fileSize(file) as number;
        // Fill the rest of the file system.
        const filler = path.join(dir, 'filler.bin');
        const fd = fs.openSync(filler, 'w');
        try {
          for (const chunk of [4096, 1]) {
            for (;;) {
              try {
                fs.writeSync(fd, Buffer.alloc(chunk, 0x2e));
              } catch {
                break;
              }
            }
          }
        } finally {
          fs.closeSync(fd);
        }
        await expectSaveFailed(store, BIG, 'no space left on device');
        const partial = (fileSize(file) as number) - size;
        // Whatever part of the record fit is a torn line: replay ignores it.
        await expectReplay(dir, FIRST);
        fs.rmSync(filler);
        const outcome = await runTodoWrite(store, TOKEN, SECOND);
        assert.equal(outcome.kind, 'saved', outcome.text);
        await expectReplay(dir, SECOND.todos as Todo[]);
        const history = parseLog(fs.readFileSync(file), SESSION);
        assert.equal(history.torn.length, 0);
        assert.deepStrictEqual(
          history.lines.flatMap((l) => (typeof l.kind === 'object' ? [l.kind.todos] : [])),
          [FIRST, SECOND.todos],
          'the failed record left no event and the next one did not glue onto it',
        );
        rows.push({ fault: 'disk full', mode: `real (64 KB tmpfs, ${partial} bytes written)`, reason: 'no space left on device' });
      } finally {
        unmount(dir);
      }
    } else {
      const faulty = new FaultyFileSystem();
      const store = new PlanStore(new SessionLog(dir, faulty));
      await store.write(SESSION, FIRST);
      faulty.fail = { code: 'ENOSPC', message: 'no space left on device' };
      await expectSaveFailed(store, BIG, 'no space left on device');
      await expectReplay(dir, FIRST);
      faulty.fail = undefined;
      assert.equal((await runTodoWrite(store, TOKEN, SECOND)).kind, 'saved');
      await expectReplay(dir, SECOND.todos as Todo[]);
      rows.push({ fault: 'disk full', mode: 'fake (mount not permitted)', reason: 'no space left on device' });
    }
  });

  for (const variant of ['at the limit', 'crossing the limit'] as const) {
    it(`file size limit (ulimit -f), ${variant}: clear error, no event, plan unchanged`, async function () {
      if (process.platform === 'win32') this.skip();
      const dir = path.join(tmp.path, 'sessions');
      const { store } = openStore(dir);
      await store.write(SESSION, FIRST);
      const file = path.join(dir, `${SESSION}.jsonl`);
      const limitKb = 8;
      if (variant === 'at the limit') {
        // Blank lines (which readers skip) bring the file to exactly the limit: no byte fits.
        fs.appendFileSync(file, '\n'.repeat(limitKb * 1024 - (fileSize(file) ?? 0)));
      }
      const size = fileSize(file) as number;
      const script = await childScript('faultWriter');
      const command = `trap '' XFSZ; ulimit -f ${limitKb}; exec "$0" "$@"`;
      const child = spawn('bash', ['-c', command, process.execPath, script, dir, TOKEN.sessionId, JSON.stringify(BIG)]);
      const exit = await collect(child);
      assert.equal(exit.code, 0, `the writer died (${exit.signal ?? exit.code}): ${exit.stderr}`);
      const result = JSON.parse(exit.stdout) as { kind: string; text: string; writes: number; changes: number; before: { todos: Todo[] }; sameObject: boolean };
      assert.equal(result.text, saveFailedText('file too large'));
      assert.equal(result.kind, 'failed');
      assert.deepEqual([result.writes, result.changes], [0, 0], 'the store fired no event');
      assert.deepStrictEqual(result.before.todos, FIRST, 'the child had loaded the plan');
      assert.ok(result.sameObject, 'store.get(session) is unchanged');
      const after = fileSize(file) as number;
      if (variant === 'at the limit') assert.equal(after, size, 'nothing was appended');
      else assert.ok(after <= limitKb * 1024, 'the file stayed within the limit');
      // What did fit is a torn line: replay ignores it, the next append does not glue onto it.
      await expectReplay(dir, FIRST);
      assert.equal((await runTodoWrite(store, TOKEN, SECOND)).kind, 'saved');
      await expectReplay(dir, SECOND.todos as Todo[]);
      rows.push({ fault: `file size limit, ${variant}`, mode: `real (ulimit -f ${limitKb}, ${after - size} bytes written)`, reason: 'file too large' });
    });
  }

  it('missing storage folder: created, and the write succeeds', async () => {
    const root = tmp.path;
    const dir = path.join(root, 'not', 'yet', 'there');
    const { store } = openStore(dir);
    await store.load();
    const counters = count(store);
    const outcome = await runTodoWrite(store, TOKEN, { todos: FIRST });
    assert.equal(outcome.kind, 'saved', outcome.text);
    assert.equal(counters.writes, 1);
    assert.deepStrictEqual(store.get(SESSION)?.todos, FIRST);
    assert.deepEqual(fs.readdirSync(dir), [`${SESSION}.jsonl`]);
    // Deleted while the store is open: the next write creates it again.
    fs.rmSync(path.join(root, 'not'), { recursive: true });
    assert.equal((await runTodoWrite(store, TOKEN, SECOND)).kind, 'saved');
    await expectReplay(dir, SECOND.todos as Todo[]);
    rows.push({ fault: 'missing storage folder', mode: 'real', reason: '(created; saved)' });
  });

  it('log file replaced by a directory: clear error, no event, plan unchanged', async () => {
    const dir = path.join(tmp.path, 'sessions');
    const { store } = openStore(dir);
    await store.write(SESSION, FIRST);
    const file = path.join(dir, `${SESSION}.jsonl`);
    fs.rmSync(file);
    fs.mkdirSync(file);
    await expectSaveFailed(store, SECOND, `${file} is a directory`);
    assert.ok(fs.statSync(file).isDirectory());
    assert.deepEqual(fs.readdirSync(file), [], 'nothing was written into it');
    rows.push({ fault: 'log path is a directory', mode: 'real', reason: '<file> is a directory' });
  });

  it('storage folder below a regular file: clear error, no event, plan unchanged', async () => {
    const root = tmp.path;
    const dir = path.join(root, 'sessions');
    const { store } = openStore(dir);
    await store.write(SESSION, FIRST);
    fs.rmSync(dir, { recursive: true });
    fs.writeFileSync(dir, 'a file where the folder was\n');
    await expectSaveFailed(store, SECOND, `a parent of ${path.join(dir, `${SESSION}.jsonl`)} is not a directory`);
    assert.equal(fs.readFileSync(dir, 'utf8'), 'a file where the folder was\n');
    rows.push({ fault: 'storage folder is a file', mode: 'real', reason: 'a parent of <file> is not a directory' });
  });
});

// Starts git without stalling the extension host's event loop. Starting a process forks the
// process that starts it: the fork runs on the calling thread and copies the page tables of
// the whole process (a host holds hundreds of MB), and until the child execs, every thread of
// the parent that touches memory waits on it. Measured with 300 MB held on a loaded 2-core
// machine: up to 240 ms per start from the host's thread, up to 60 ms from a worker thread.
// So git is started by a small runner process instead (plain Node, its own small heap),
// started once, on the first run, and kept: it waits on its channel (no timer, no work while
// idle), starts each git process, and sends back its exit code and output. The host's thread
// only writes a message and reads the reply. Where the runner cannot start or is lost, git is
// started from the calling thread, as before.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import * as os from 'node:os';

export interface GitRun {
  file: string;
  args: readonly string[];
  cwd?: string | undefined;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  maxBuffer: number;
  /** Written to git's standard input, then closed. */
  input?: string | undefined;
  /** Niceness of the git process (os.setPriority). */
  niceness: number;
}

export interface GitRunResult {
  /** 0, git's exit code, or an error code such as ENOENT. */
  code: number | string | undefined;
  stdout: Buffer;
  stderr: string;
}

/** The runner's code: plain Node, given to `node -e`. It ends when its channel closes (the host is gone). */
const RUNNER_SOURCE = `
const { execFile } = require('node:child_process');
const os = require('node:os');
process.on('disconnect', () => process.exit(0));
process.on('message', ({ id, run }) => {
  let child;
  try {
    child = execFile(run.file, run.args, { cwd: run.cwd, env: run.env, timeout: run.timeoutMs, maxBuffer: run.maxBuffer, encoding: 'buffer', windowsHide: true }, (error, stdout, stderr) => {
      // A run stopped by its time bound (or a signal) has no exit code: it is never taken for one.
      const code = !error ? 0 : error.code != null ? error.code : error.killed ? 'ETIMEDOUT' : (error.signal || 1);
      process.send({ id, code, stdout, stderr: stderr.toString('utf8') });
    });
  } catch (error) {
    process.send({ id, code: String(error && error.code || 'ESPAWN'), stdout: Buffer.alloc(0), stderr: String(error && error.message) });
    return;
  }
  if (child.pid !== undefined) {
    try { os.setPriority(child.pid, run.niceness); } catch { /* git runs at the runner's priority */ }
  }
  child.stdin?.on('error', () => undefined);
  child.stdin?.end(run.input ?? '');
});
`;

/** The runner's niceness (os.setPriority: 19 is the lowest): below the host, as git is. */
const RUNNER_NICENESS = 10;

interface Reply {
  id: number;
  code: number | string | undefined;
  stdout: Uint8Array;
  stderr: string;
}

export class GitRunner {
  private runner: ChildProcess | undefined;
  private failed = false;
  private nextId = 0;
  private readonly pending = new Map<number, { run: GitRun; resolve(result: GitRunResult): void; guard: NodeJS.Timeout }>();

  constructor(private readonly options: { node?: string } = {}) {}

  run(run: GitRun): Promise<GitRunResult> {
    const runner = this.start();
    if (!runner) return runHere(run);
    return new Promise((resolve) => {
      const id = this.nextId++;
      // A runner that does not answer in twice git's own bound is taken for lost (a timer only while a run is out).
      const guard = setTimeout(() => this.lost(runner), 2 * run.timeoutMs + 1000);
      this.pending.set(id, { run, resolve, guard });
      if (this.pending.size === 1) this.hold(runner, true);
      runner.send({ id, run: { ...run, args: [...run.args] } }, (error) => {
        if (error) this.lost(runner);
      });
    });
  }

  /** Ends the runner; runs still waiting are started from this thread. */
  dispose(): void {
    this.failed = true;
    const runner = this.runner;
    if (runner) this.lost(runner);
  }

  private start(): ChildProcess | undefined {
    if (this.runner || this.failed) return this.runner;
    try {
      // In VS Code's desktop host, process.execPath is Electron's: ELECTRON_RUN_AS_NODE makes it Node.
      // NODE_OPTIONS is the host's (a debugger, a preload): not the runner's.
      const env: NodeJS.ProcessEnv = { ...process.env, ELECTRON_RUN_AS_NODE: '1' };
      delete env['NODE_OPTIONS'];
      const runner = spawn(this.options.node ?? process.execPath, ['-e', RUNNER_SOURCE], {
        env,
        stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
        serialization: 'advanced',
        windowsHide: true,
      });
      runner.on('message', (reply: Reply) => {
        const waiting = this.pending.get(reply.id);
        if (!waiting) return;
        clearTimeout(waiting.guard);
        this.pending.delete(reply.id);
        if (this.pending.size === 0) this.hold(runner, false);
        const stdout = Buffer.from(reply.stdout.buffer, reply.stdout.byteOffset, reply.stdout.byteLength);
        waiting.resolve({ code: reply.code, stdout, stderr: reply.stderr.trim() });
      });
      if (runner.pid !== undefined) {
        try {
          // The runner's own work (starting git) waits for the host too; git inherits its priority.
          os.setPriority(runner.pid, RUNNER_NICENESS);
        } catch {
          // not allowed here: it runs at the host's priority
        }
      }
      runner.on('error', () => this.lost(runner));
      runner.on('exit', () => this.lost(runner));
      this.hold(runner, false);
      this.runner = runner;
      return runner;
    } catch {
      this.failed = true;
      return undefined;
    }
  }

  /** While nothing runs, the runner keeps no process alive (tests, the host's shutdown). */
  private hold(runner: ChildProcess, busy: boolean): void {
    const channel = runner.channel as { ref?(): void; unref?(): void } | null | undefined;
    if (busy) {
      runner.ref();
      channel?.ref?.();
    } else {
      runner.unref();
      channel?.unref?.();
    }
  }

  /** A runner that failed is not started again: git is started from this thread from now on; runs it held are started here. */
  private lost(runner: ChildProcess): void {
    if (this.runner === runner) this.runner = undefined;
    this.failed = true;
    if (runner.exitCode === null && runner.signalCode === null) runner.kill();
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const waiter of waiting) {
      clearTimeout(waiter.guard);
      void runHere(waiter.run).then((result) => waiter.resolve(result));
    }
  }
}

/**
 * A run's code: 0, git's exit code, an error code (ENOENT), `ETIMEDOUT` for a run stopped by its
 * time bound, or the signal that ended it. A stopped run has no exit code of its own (Node's
 * `code` is null): it must never read as git's exit code 1.
 */
function runCode(error: (Error & { code?: unknown; killed?: boolean; signal?: NodeJS.Signals | null }) | null): number | string {
  if (!error) return 0;
  if (typeof error.code === 'number' || typeof error.code === 'string') return error.code;
  if (error.killed) return 'ETIMEDOUT';
  return error.signal ?? 1;
}

/** git started from the calling thread (where the runner could not start). */
export function runHere(run: GitRun): Promise<GitRunResult> {
  return new Promise((resolve) => {
    const child = execFile(
      run.file,
      [...run.args],
      { cwd: run.cwd, env: run.env, timeout: run.timeoutMs, maxBuffer: run.maxBuffer, encoding: 'buffer', windowsHide: true },
      (error, stdout, stderr) => {
        const code = runCode(error);
        resolve({ code, stdout, stderr: stderr.toString('utf8').trim() });
      },
    );
    if (child.pid !== undefined) {
      try {
        os.setPriority(child.pid, run.niceness);
      } catch {
        // not allowed here: git runs at the host's priority
      }
    }
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(run.input ?? '');
  });
}

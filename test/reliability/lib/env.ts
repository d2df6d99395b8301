// Child processes built from TypeScript, and a bounded promise pool (temp folders: ../../lib/temp.ts;
// waiting: ../../lib/wait.ts).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nodeFileSystem } from '../../../src/node/nodeFileSystem';
import { SessionLog, type SessionLogOptions } from '../../../src/core/log/sessionLog';
import { PlanStore } from '../../../src/core/store/store';

export function openStore(dir: string, options: SessionLogOptions = {}): { log: SessionLog; store: PlanStore } {
  const log = new SessionLog(dir, nodeFileSystem, options);
  return { log, store: new PlanStore(log) };
}

let bundles: Promise<string> | undefined;

/**
 * The child scripts of test/reliability/children bundled to plain CommonJS once per run,
 * so a child starts in tens of milliseconds (no TypeScript loader), which matters when
 * hundreds of them are started and killed.
 */
export function childScript(name: 'appender' | 'faultWriter' | 'pacedWriter' | 'importer' | 'lockHolder' | 'busy'): Promise<string> {
  bundles ??= (async () => {
    const esbuild = await import('esbuild');
    // Made once for the whole run and shared by its files, so not a test's or a suite's folder
    // (test/lib/temp.ts): removed when the process exits.
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-plan-rel-children-'));
    process.on('exit', () => {
      try {
        fs.rmSync(outdir, { recursive: true, force: true });
      } catch {
        // best effort
      }
    });
    const children = path.join(__dirname, '..', 'children');
    await esbuild.build({
      entryPoints: ['appender', 'faultWriter', 'pacedWriter', 'importer', 'lockHolder', 'busy'].map((n) => path.join(children, `${n}.ts`)),
      outdir,
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      outExtension: { '.js': '.cjs' },
      logLevel: 'warning',
    });
    return outdir;
  })();
  return bundles.then((outdir) => path.join(outdir, `${name}.cjs`));
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Resolves when the child has exited, with everything it printed. */
export function collect(child: ChildProcess): Promise<Exit> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Resolves once the child's stdout contains `marker`. */
export function waitForOutput(child: ChildProcess, marker: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer | string): void => {
      seen += chunk.toString();
      if (seen.includes(marker)) {
        child.stdout?.off('data', onData);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code, signal) => reject(new Error(`child exited (${code ?? signal}) before "${marker}"`)));
  });
}

export function startNode(script: string, args: string[]): ChildProcess {
  return spawn(process.execPath, [script, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
}

/** Runs a command to its end; true when it exited 0. */
export function run(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

/** Runs `task` for every item with at most `limit` in flight; rejects with the first failure. */
export async function pool<T, R>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

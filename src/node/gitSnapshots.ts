// Snapshots of a working tree's content as git tree objects in Agent Plan's OWN object store
// (a bare repository in the extension's storage), never in the user's repository.
//
// A snapshot runs git with a temporary index (GIT_INDEX_FILE, a copy of the repository's
// index when there is one, so only changed files are hashed; else seeded with `read-tree
// HEAD`) and GIT_OBJECT_DIRECTORY = a quarantine folder of its own in our store, with our
// store's objects and the repository's as alternates: `git add -A` (which honours .gitignore)
// writes the blobs of changed and new files there, and `write-tree` the trees. Untracked files
// above a size bound are left out and named (a core dump, a data set). Nothing is written into
// the user's repository, index, refs, stash or working tree: the repository's index is only
// read (copied, as a regular file), auto-gc and fsmonitor are switched off for these runs.
// Every run is async, started by a small runner process (gitRunner.ts: a process start stalls
// the process that makes it), bounded in time and output, and below the host's priority.
//
// A snapshot is whole or none: a run stopped by its time bound, a failed run, or a repository
// whose top is above the folders Agent Plan follows (a home folder kept in git) is a failure
// with its reason, and its quarantine is removed with everything git wrote. A whole one gets
// its ref first (`refs/snapshots/<session>/<time>-<tree>`, or `refs/now/<session>` for a
// look at the working tree now), then its objects move into the store: a prune that runs
// meanwhile finds the ref's objects missing and stops without deleting anything, so a snapshot
// in flight is never lost to one. The oldest snapshots are pruned past a size cap, and a
// deleted session's space is reclaimed for real: `repack -a -d` drops packed objects no ref
// reaches (a big file lands in a pack, which `git prune` alone never removes), `prune
// --expire=now` the loose ones.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { MAX_MISS_DETAIL, type SkippedFile } from '../core/log/snapshotRecord';
import { GitRunner, type GitRunResult } from './gitRunner';
import { openRegularFile } from './regularFile';

export type SnapshotFailure = 'not-git' | 'git-missing' | 'failed' | 'timed-out' | 'parent-repository';

export type SnapshotResult =
  | { ok: true; tree: string; ms: number; toplevel: string; skipped: SkippedFile[] }
  | { ok: false; reason: SnapshotFailure; detail: string };

export interface SnapshotOptions {
  /** Keeps the snapshot for this session (its ref is written before its objects enter the store). */
  session?: string;
  /** A look at the working tree now, kept as the session's one `refs/now/<session>` (a later one replaces it). */
  now?: boolean;
  /** The folders Agent Plan follows: a repository whose top is above the one holding `folder` is not snapshotted. */
  within?: readonly string[];
  /** Untracked files larger than this are left out and named; undefined: none are. */
  maxFileBytes?: number;
  /** The ref's time (tests). */
  time?: number;
}

/** One file of `diff-tree --numstat`: lines added and removed; undefined for a binary file. */
export interface NumstatEntry {
  path: string;
  /** The path before a rename, when git saw one. */
  from?: string;
  added: number | undefined;
  removed: number | undefined;
}

export interface GitSnapshotsOptions {
  /** The git program: VS Code's Git extension's `git.path`, else `git` on PATH. */
  git?: string;
  /** Bound of one git run. */
  timeoutMs?: number;
  /** Bound of one git run's output (a blob read for the diff editor included). */
  maxOutputBytes?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_OUTPUT = 64 * 1024 * 1024;
/** Object ids: SHA-1 or SHA-256. */
const OBJECT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
const SESSION_KEY = /^[0-9a-f]{32}$/;
/** How much lower than the host git runs (os.setPriority: 19 is the lowest). */
const GIT_NICENESS = 10;
/** Settings that keep a run from writing outside its temporary index and our store. */
const QUIET_CONFIG = ['-c', 'gc.auto=0', '-c', 'maintenance.auto=false', '-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', '-c', 'core.splitIndex=false',
  // Git LFS's filter writes into the repository's .git/lfs: a snapshot stores such files as they are instead.
  '-c', 'filter.lfs.clean=', '-c', 'filter.lfs.process=', '-c', 'filter.lfs.required=false'];
/** The largest repository index copied (a larger one: the snapshot is seeded from HEAD instead). */
const MAX_INDEX_BYTES = 256 * 1024 * 1024;
/** Untracked files stat'ed at once when looking for large ones. */
const STAT_AT_ONCE = 32;
/** The most large files named in a snapshot's result (all are left out). */
const MAX_NAMED_SKIPS = 32;
/** A ref whose tree is missing this long after its time is a crashed snapshot's, not one in flight. */
const STALE_REF_MS = 60 * 60 * 1000;

type RunResult = GitRunResult;

/** Git's environment without anything inherited that would point it at another repository or index. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  return { ...env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', ...extra };
}

export class GitSnapshots {
  private readonly git: string;
  private readonly timeoutMs: number;
  private readonly maxOutput: number;
  private ready: Promise<void> | undefined;
  private readonly alternates = new Set<string>();
  private readonly runner = new GitRunner();

  /** @param store our bare repository's folder (created on first use) */
  constructor(
    readonly store: string,
    options: GitSnapshotsOptions = {},
  ) {
    this.git = options.git ?? 'git';
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxOutput = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  }

  /** One git run, started by the runner process (gitRunner.ts), below the host's priority, bounded in time and output. */
  private run(args: readonly string[], options: { cwd?: string; env?: Record<string, string>; input?: string } = {}): Promise<RunResult> {
    return this.runner.run({
      file: this.git,
      args: [...QUIET_CONFIG, ...args],
      cwd: options.cwd,
      env: cleanEnv(options.env ?? {}),
      timeoutMs: this.timeoutMs,
      maxBuffer: this.maxOutput,
      input: options.input,
      niceness: GIT_NICENESS,
    });
  }

  /** Ends the runner process (a run after this starts git from the calling thread). */
  dispose(): void {
    this.runner.dispose();
  }

  /** Our store: a bare repository, made once. */
  private open(): Promise<void> {
    this.ready ??= (async () => {
      await fs.mkdir(path.join(this.store, 'tmp'), { recursive: true });
      try {
        await fs.access(path.join(this.store, 'HEAD'));
      } catch {
        const init = await this.run(['init', '--bare', '--quiet', this.store]);
        if (init.code !== 0) throw new Error(`git init of the snapshot store failed: ${init.stderr || String(init.code)}`);
      }
      try {
        const known = await fs.readFile(path.join(this.store, 'objects', 'info', 'alternates'), 'utf8');
        for (const line of known.split('\n')) if (line.trim() !== '') this.alternates.add(line.trim());
      } catch {
        // none yet
      }
    })();
    this.ready.catch(() => (this.ready = undefined));
    return this.ready;
  }

  /** Our store reads the repository's objects (those a snapshot shares with HEAD) through its own alternates file. */
  private async addAlternate(objects: string): Promise<void> {
    if (this.alternates.has(objects)) return;
    this.alternates.add(objects);
    const file = path.join(this.store, 'objects', 'info', 'alternates');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, [...this.alternates].join('\n') + '\n');
  }

  /**
   * Writes a tree object of the working tree that holds `folder` into our store: its
   * tracked and untracked files as they are now, .gitignore honoured, untracked files above
   * `maxFileBytes` left out (named in `skipped`). Whole or none: a folder that is not in a git
   * working tree, git missing, a run stopped or failed, a repository above the followed folders
   * is a result with its reason, never a throw, and leaves nothing in the store.
   */
  async snapshot(folder: string, options: SnapshotOptions = {}): Promise<SnapshotResult> {
    const started = performance.now();
    const where = await this.run(['rev-parse', '--show-toplevel', '--git-dir', '--git-common-dir'], { cwd: folder });
    if (where.code === 'ENOENT' && !(await exists(folder))) return { ok: false, reason: 'not-git', detail: `${folder} does not exist` };
    if (where.code === 'ENOENT') return { ok: false, reason: 'git-missing', detail: `git was not found (${this.git})` };
    if (where.code !== 0) return failure(where, 'git rev-parse', 'not-git');
    const [toplevel, named, common] = where.stdout.toString('utf8').split('\n').map((line) => line.trim());
    let gitDir = named;
    let commonDir = common;
    if (!toplevel || !gitDir || !commonDir) return { ok: false, reason: 'not-git', detail: `${folder} is not in a git working tree (a bare repository or a .git folder)` };
    if (options.within !== undefined) {
      const parent = await aboveFollowed(folder, toplevel, options.within);
      if (parent) return { ok: false, reason: 'parent-repository', detail: `the repository ${toplevel} is in a parent folder of ${parent}` };
    }
    if (!path.isAbsolute(gitDir) || !path.isAbsolute(commonDir)) {
      // Relative paths are the top folder's (older git says --git-common-dir relative to it from a subfolder too): asked there.
      const again = await this.run(['rev-parse', '--git-dir', '--git-common-dir'], { cwd: toplevel });
      [gitDir, commonDir] = again.stdout.toString('utf8').split('\n').map((line) => path.resolve(toplevel, line.trim()));
      if (again.code !== 0 || !gitDir || !commonDir) return failure(again, 'git rev-parse in the top folder');
    }
    const objects = path.resolve(commonDir, 'objects');
    try {
      await this.open();
      await this.addAlternate(objects);
    } catch (error) {
      return { ok: false, reason: 'failed', detail: error instanceof Error ? error.message : String(error) };
    }
    const id = `${process.pid}-${randomBytes(6).toString('hex')}`;
    const index = path.join(this.store, 'tmp', `index-${id}`);
    // Everything git writes for this snapshot, until it is whole.
    const quarantine = path.join(this.store, 'tmp', `objects-${id}`);
    const storeObjects = path.join(this.store, 'objects');
    try {
      await fs.mkdir(quarantine, { recursive: true });
      const env = { GIT_INDEX_FILE: index, GIT_OBJECT_DIRECTORY: quarantine, GIT_ALTERNATE_OBJECT_DIRECTORIES: [storeObjects, objects].join(path.delimiter) };
      // The repository's index holds each file's stat data: with a copy, `add -A` hashes only what changed.
      if (!(await copyIndex(path.resolve(gitDir, 'index'), index))) {
        const head = await this.run(['rev-parse', '--verify', '--quiet', 'HEAD^{tree}'], { cwd: toplevel, env });
        if (head.code === 'ETIMEDOUT') return failure(head, 'git rev-parse HEAD');
        if (head.code === 0) {
          const seeded = await this.run(['read-tree', head.stdout.toString('utf8').trim()], { cwd: toplevel, env });
          if (seeded.code !== 0) return failure(seeded, 'git read-tree');
        }
      }
      const skipped: SkippedFile[] = [];
      const excluded: string[] = [];
      if (options.maxFileBytes !== undefined) {
        const untracked = await this.run(['ls-files', '-z', '--others', '--exclude-standard'], { cwd: toplevel, env });
        if (untracked.code !== 0) return failure(untracked, 'git ls-files');
        for (const file of await largeFiles(toplevel, untracked.stdout.toString('utf8').split('\0'), options.maxFileBytes)) {
          excluded.push(file.path);
          if (skipped.length < MAX_NAMED_SKIPS) skipped.push({ path: file.path, why: 'large', bytes: file.bytes });
        }
      }
      const pathspecs = ['.', ...excluded.map((file) => `:(top,literal,exclude)${file}`)].join('\0');
      const added = await this.run(['add', '-A', '--ignore-errors', '--pathspec-from-file=-', '--pathspec-file-nul'], { cwd: toplevel, env, input: pathspecs });
      if (added.code === 1) {
        // --ignore-errors: the files git could not read are named; the rest is whole.
        const unreadable = unreadableFiles(added.stderr);
        if (unreadable.length === 0) return failure(added, 'git add');
        for (const file of unreadable.slice(0, Math.max(0, MAX_NAMED_SKIPS - skipped.length))) skipped.push({ path: file, why: 'unreadable' });
      } else if (added.code !== 0) return failure(added, 'git add');
      const written = await this.run(['write-tree'], { cwd: toplevel, env });
      const tree = written.stdout.toString('utf8').trim();
      if (written.code !== 0 || !OBJECT_ID.test(tree)) return failure(written, 'git write-tree');
      const kept = await this.settle(quarantine, tree, options);
      if (kept !== undefined) return kept;
      return { ok: true, tree, ms: performance.now() - started, toplevel, skipped };
    } catch (error) {
      return { ok: false, reason: 'failed', detail: error instanceof Error ? error.message : String(error) };
    } finally {
      await fs.rm(index, { force: true });
      await fs.rm(`${index}.lock`, { force: true });
      await fs.rm(quarantine, { recursive: true, force: true });
    }
  }

  /**
   * A whole snapshot enters the store: its ref first (checked against the quarantine), then its
   * objects. Undefined when done, else the failure (the ref is then removed again).
   */
  private async settle(quarantine: string, tree: string, options: SnapshotOptions): Promise<SnapshotResult | undefined> {
    const session = options.session;
    const ref = session === undefined || !SESSION_KEY.test(session) ? undefined : options.now ? `refs/now/${session}` : snapshotRef(session, tree, options.time);
    const env = { GIT_ALTERNATE_OBJECT_DIRECTORIES: quarantine };
    if (ref !== undefined) {
      const written = await this.run(['--git-dir', this.store, 'update-ref', ref, tree], { env });
      if (written.code !== 0) return failure(written, 'git update-ref');
    }
    try {
      await moveObjects(quarantine, path.join(this.store, 'objects'));
    } catch (error) {
      if (ref !== undefined) await this.run(['--git-dir', this.store, 'update-ref', '-d', ref]);
      return { ok: false, reason: 'failed', detail: `could not move the snapshot into the store: ${error instanceof Error ? error.message : String(error)}` };
    }
    return undefined;
  }

  /** Lines added and removed per file between two snapshots (renames found, `-` for binary files); undefined when git cannot say. */
  async numstat(from: string, to: string): Promise<NumstatEntry[] | undefined> {
    if (!OBJECT_ID.test(from) || !OBJECT_ID.test(to)) return undefined;
    await this.open();
    const result = await this.run(['--git-dir', this.store, 'diff-tree', '-r', '--numstat', '-M', '-z', from, to]);
    if (result.code !== 0) return undefined;
    return parseNumstat(result.stdout.toString('utf8'));
  }

  /** A file's content in a snapshot, or undefined when the snapshot has no such file. */
  async readFile(tree: string, file: string): Promise<Buffer | undefined> {
    if (!OBJECT_ID.test(tree) || file === '' || file.includes('\0')) return undefined;
    await this.open();
    const result = await this.run(['--git-dir', this.store, 'cat-file', 'blob', `${tree}:${file.replace(/\\/g, '/')}`]);
    return result.code === 0 ? result.stdout : undefined;
  }

  /** The store's size on disk in bytes: loose objects, packs and garbage, as `git count-objects` finds them on disk. */
  async size(): Promise<number> {
    await this.open();
    const result = await this.run(['--git-dir', this.store, 'count-objects', '-v']);
    if (result.code !== 0) return 0;
    const text = result.stdout.toString('utf8');
    const kib = (name: string): number => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    return (kib('size') + kib('size-pack') + kib('size-garbage')) * 1024;
  }

  /** Drops every snapshot of a session from our store and reclaims their space (objects other sessions still use stay). */
  async forget(session: string): Promise<void> {
    if (!SESSION_KEY.test(session)) return;
    await this.open();
    const refs = await this.refs();
    await this.dropRefs(refs.filter((ref) => ref.session === session).map((ref) => ref.name));
  }

  /**
   * Drops the oldest snapshots until the store is at most `maxBytes` on disk (or none is left).
   * Returns how many were dropped.
   */
  async prune(maxBytes: number): Promise<number> {
    let dropped = 0;
    for (let round = 0; round < 8 && (await this.size()) > maxBytes; round++) {
      const refs = (await this.refs()).filter((ref) => ref.stamp !== undefined).sort((a, b) => (a.stamp ?? '').localeCompare(b.stamp ?? ''));
      if (refs.length === 0) break;
      const oldest = refs.slice(0, Math.max(1, Math.ceil(refs.length / 4)));
      if (!(await this.dropRefs(oldest.map((ref) => ref.name)))) break;
      dropped += oldest.length;
    }
    return dropped;
  }

  /** Our refs: each session's snapshots (with their stamp) and its look at now. */
  private async refs(): Promise<Array<{ name: string; session: string; stamp?: string; tree?: string; time?: number }>> {
    const result = await this.run(['--git-dir', this.store, 'for-each-ref', '--format=%(refname)', 'refs/snapshots/', 'refs/now/']);
    if (result.code !== 0) return [];
    const refs: Array<{ name: string; session: string; stamp?: string; tree?: string; time?: number }> = [];
    for (const line of result.stdout.toString('utf8').split('\n')) {
      const name = line.trim();
      const snapshot = /^refs\/snapshots\/([0-9a-f]{32})\/(([0-9]+)-([0-9a-f]+))$/.exec(name);
      if (snapshot) refs.push({ name, session: snapshot[1] as string, stamp: snapshot[2], time: Number(snapshot[3]), tree: snapshot[4] });
      const now = /^refs\/now\/([0-9a-f]{32})$/.exec(name);
      if (now) refs.push({ name, session: now[1] as string });
    }
    return refs;
  }

  /**
   * Deletes refs, then reclaims what no ref reaches any more: packed objects (`repack -a -d`,
   * local objects only) and loose ones. False when nothing could be reclaimed.
   */
  private async dropRefs(names: readonly string[]): Promise<boolean> {
    if (names.length === 0) return true;
    const input = names.map((name) => `delete ${name}\n`).join('');
    await this.run(['--git-dir', this.store, 'update-ref', '--stdin'], { input });
    return this.reclaim();
  }

  /**
   * Space back on disk. A ref whose objects are not in the store yet (a snapshot in flight,
   * here or in another window) makes git stop before deleting anything: nothing is lost, and the
   * next reclaim frees it. A ref whose tree is still missing long after its time is a crashed
   * snapshot's: it is dropped so reclaiming can go on.
   */
  private async reclaim(): Promise<boolean> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const packed = await this.run(['--git-dir', this.store, 'repack', '-a', '-d', '-l', '-q']);
      if (packed.code === 0) {
        const pruned = await this.run(['--git-dir', this.store, 'prune', '--expire=now']);
        return pruned.code === 0;
      }
      if (attempt > 0 || !(await this.dropStaleRefs())) return false;
    }
    return false;
  }

  /** Drops refs whose tree is missing from the store long after their time; true when one was. */
  private async dropStaleRefs(): Promise<boolean> {
    const stale: string[] = [];
    for (const ref of await this.refs()) {
      if (ref.tree === undefined || ref.time === undefined || Date.now() - ref.time < STALE_REF_MS) continue;
      if ((await this.run(['--git-dir', this.store, 'cat-file', '-e', ref.tree])).code !== 0) stale.push(ref.name);
    }
    if (stale.length === 0) return false;
    await this.run(['--git-dir', this.store, 'update-ref', '--stdin'], { input: stale.map((name) => `delete ${name}\n`).join('') });
    return true;
  }
}

function snapshotRef(session: string, tree: string, time = Date.now()): string {
  return `refs/snapshots/${session}/${String(time).padStart(15, '0')}-${tree}`;
}

/** A failed run as a result: stopped by its time bound, or git's own words (bounded). */
function failure(result: GitRunResult, what: string, reason: SnapshotFailure = 'failed'): SnapshotResult {
  if (result.code === 'ETIMEDOUT') return { ok: false, reason: 'timed-out', detail: `${what} was stopped by its time bound` };
  const words = result.stderr.trim().slice(0, MAX_MISS_DETAIL - what.length - 2);
  return { ok: false, reason, detail: `${what}: ${words || `exit ${String(result.code)}`}` };
}

/**
 * Copies the repository's index to `to`, opened as every file Agent Plan reads is (a regular
 * file only: a FIFO in its place would block a shared I/O thread for good), bounded in size.
 * False when there is none to copy.
 */
async function copyIndex(from: string, to: string): Promise<boolean> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await openRegularFile(from);
    const stat = await handle.stat();
    if (stat.size > MAX_INDEX_BYTES) return false;
    await fs.writeFile(to, await handle.readFile());
    // The copy keeps the index's own time: git re-hashes a file changed in the same moment as the
    // index was written ("racy git") only by comparing the two; a newer copy would hide the change.
    await fs.utimes(to, stat.atime, stat.mtime);
    return true;
  } catch {
    return false;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** The untracked regular files larger than `maxBytes` (paths relative to `top`, `/`-separated as git gives them). */
async function largeFiles(top: string, files: readonly string[], maxBytes: number): Promise<Array<{ path: string; bytes: number }>> {
  const large: Array<{ path: string; bytes: number }> = [];
  const named = files.filter((file) => file !== '');
  for (let at = 0; at < named.length; at += STAT_AT_ONCE) {
    await Promise.all(
      named.slice(at, at + STAT_AT_ONCE).map(async (file) => {
        const stat = await fs.lstat(path.join(top, file)).catch(() => undefined);
        if (stat?.isFile() && stat.size > maxBytes) large.push({ path: file, bytes: stat.size });
      }),
    );
  }
  return large.sort((a, b) => a.path.localeCompare(b.path));
}

/** The files `git add --ignore-errors` said it could not read. */
function unreadableFiles(stderr: string): string[] {
  const files = new Set<string>();
  for (const line of stderr.split('\n')) {
    const match = /^error: (?:open\("(.+)"\)|unable to index file '(.+)'|'(.+)' does not have a commit checked out)/.exec(line.trim());
    const file = match?.[1] ?? match?.[2] ?? match?.[3];
    if (file !== undefined) files.add(file);
  }
  return [...files];
}

/**
 * Whether `toplevel` (a repository's top, a real path) is above the followed folder that holds
 * `folder` (or `folder` itself when none does): the folder that it is above, else undefined.
 */
async function aboveFollowed(folder: string, toplevel: string, within: readonly string[]): Promise<string | undefined> {
  const real = async (value: string): Promise<string> => fs.realpath(value).catch(() => path.resolve(value));
  const target = await real(folder);
  const inside = (child: string, parent: string): boolean => child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);
  let holder: string | undefined;
  for (const root of await Promise.all(within.map(real))) if (inside(target, root) && (holder === undefined || root.length > holder.length)) holder = root;
  holder ??= target;
  const top = await real(toplevel);
  return top !== holder && inside(holder, top) ? holder : undefined;
}

/** Moves a quarantine's objects into the store: loose objects, then each pack with its index last (git finds a pack by its index). */
async function moveObjects(from: string, to: string): Promise<void> {
  for (const entry of await fs.readdir(from, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    if (/^[0-9a-f]{2}$/.test(entry.name)) {
      const target = path.join(to, entry.name);
      await fs.mkdir(target, { recursive: true });
      for (const object of await fs.readdir(path.join(from, entry.name))) {
        if (/^[0-9a-f]{38}([0-9a-f]{24})?$/.test(object)) await fs.rename(path.join(from, entry.name, object), path.join(target, object));
      }
    } else if (entry.name === 'pack') {
      const target = path.join(to, 'pack');
      await fs.mkdir(target, { recursive: true });
      const files = (await fs.readdir(path.join(from, 'pack'))).filter((file) => /^pack-[0-9a-f]+\.(pack|rev|idx)$/.test(file));
      const order = (file: string): number => (file.endsWith('.pack') ? 0 : file.endsWith('.rev') ? 1 : 2);
      for (const file of files.sort((a, b) => order(a) - order(b))) await fs.rename(path.join(from, 'pack', file), path.join(target, file));
    }
  }
}

/** `diff-tree --numstat -z` output, read. */
export function parseNumstat(text: string): NumstatEntry[] {
  const fields = text.split('\0');
  const entries: NumstatEntry[] = [];
  for (let i = 0; i < fields.length; i++) {
    const head = fields[i];
    if (head === undefined || head === '') continue;
    const match = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(head);
    if (!match) continue;
    const count = (value: string | undefined): number | undefined => (value === undefined || value === '-' ? undefined : Number(value));
    const entry: NumstatEntry = { path: match[3] ?? '', added: count(match[1]), removed: count(match[2]) };
    if (entry.path === '') {
      // A rename: the old and the new path follow as fields of their own.
      entry.from = fields[++i] ?? '';
      entry.path = fields[++i] ?? '';
    }
    entries.push(entry);
  }
  return entries;
}

async function exists(folder: string): Promise<boolean> {
  try {
    await fs.access(folder);
    return true;
  } catch {
    return false;
  }
}

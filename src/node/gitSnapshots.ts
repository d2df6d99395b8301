// Snapshots of a working tree's content as git tree objects in Agent Plan's OWN object store
// (a bare repository in the extension's storage), never in the user's repository.
//
// A snapshot runs git with a temporary index (GIT_INDEX_FILE, a copy of the repository's
// index when there is one, so only changed files are hashed; else seeded with `read-tree
// HEAD`), GIT_OBJECT_DIRECTORY = our store's objects and the repository's objects as an
// alternate: `git add -A` (which honours .gitignore) writes the blobs of changed and new files
// into our store only, and `write-tree` writes the trees there. Nothing is written into the
// user's repository, index, refs, stash or working tree: the repository's index is only
// read (copied), auto-gc and fsmonitor are switched off for these runs. Every run is async,
// started by a small runner process (gitRunner.ts: a process start stalls the process that
// makes it), bounded in time and output, and below the host's priority.
//
// Our store keeps one ref per snapshot (`refs/snapshots/<session>/<time>-<tree>`), so a
// session's snapshots can be dropped with it and the oldest pruned past a size cap
// (`git prune` in our store removes only objects no remaining snapshot reaches).
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { GitRunner, type GitRunResult } from './gitRunner';

export type SnapshotFailure = 'not-git' | 'git-missing' | 'failed';

export type SnapshotResult =
  | { ok: true; tree: string; ms: number; toplevel: string }
  | { ok: false; reason: SnapshotFailure; detail: string };

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
/** Objects younger than this stay when the store is pruned: a snapshot being taken holds no ref yet. */
const PRUNE_EXPIRE = '15.minutes.ago';

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
   * tracked and untracked files as they are now, .gitignore honoured. A folder that is not in
   * a git working tree, or git missing, is a result, never a throw.
   */
  async snapshot(folder: string): Promise<SnapshotResult> {
    const started = performance.now();
    const where = await this.run(['rev-parse', '--show-toplevel', '--git-dir', '--git-common-dir'], { cwd: folder });
    if (where.code === 'ENOENT' && !(await exists(folder))) return { ok: false, reason: 'not-git', detail: `${folder} does not exist` };
    if (where.code === 'ENOENT') return { ok: false, reason: 'git-missing', detail: `git was not found (${this.git})` };
    if (where.code !== 0) return { ok: false, reason: 'not-git', detail: where.stderr || `${folder} is not in a git working tree` };
    const [toplevel, named, common] = where.stdout.toString('utf8').split('\n').map((line) => line.trim());
    let gitDir = named;
    let commonDir = common;
    if (!toplevel || !gitDir || !commonDir) return { ok: false, reason: 'not-git', detail: `${folder} is not in a git working tree (a bare repository or a .git folder)` };
    if (!path.isAbsolute(gitDir) || !path.isAbsolute(commonDir)) {
      // Relative paths are the top folder's (older git says --git-common-dir relative to it from a subfolder too): asked there.
      const again = await this.run(['rev-parse', '--git-dir', '--git-common-dir'], { cwd: toplevel });
      [gitDir, commonDir] = again.stdout.toString('utf8').split('\n').map((line) => path.resolve(toplevel, line.trim()));
      if (again.code !== 0 || !gitDir || !commonDir) return { ok: false, reason: 'failed', detail: again.stderr || 'git rev-parse failed in the top folder' };
    }
    const objects = path.resolve(commonDir, 'objects');
    try {
      await this.open();
      await this.addAlternate(objects);
    } catch (error) {
      return { ok: false, reason: 'failed', detail: error instanceof Error ? error.message : String(error) };
    }
    const index = path.join(this.store, 'tmp', `index-${process.pid}-${randomBytes(6).toString('hex')}`);
    try {
      const env = { GIT_INDEX_FILE: index, GIT_OBJECT_DIRECTORY: path.join(this.store, 'objects'), GIT_ALTERNATE_OBJECT_DIRECTORIES: objects };
      // The repository's index holds each file's stat data: with a copy, `add -A` hashes only what changed.
      const copied = await fs.copyFile(path.resolve(gitDir, 'index'), index).then(
        () => true,
        () => false,
      );
      if (!copied) {
        const head = await this.run(['rev-parse', '--verify', '--quiet', 'HEAD^{tree}'], { cwd: toplevel, env });
        if (head.code === 0) {
          const seeded = await this.run(['read-tree', head.stdout.toString('utf8').trim()], { cwd: toplevel, env });
          if (seeded.code !== 0) return { ok: false, reason: 'failed', detail: `git read-tree: ${seeded.stderr}` };
        }
      }
      const added = await this.run(['add', '-A', '--ignore-errors', '--', '.'], { cwd: toplevel, env });
      if (added.code !== 0 && added.code !== 1) return { ok: false, reason: 'failed', detail: `git add: ${added.stderr || String(added.code)}` };
      const written = await this.run(['write-tree'], { cwd: toplevel, env });
      const tree = written.stdout.toString('utf8').trim();
      if (written.code !== 0 || !OBJECT_ID.test(tree)) return { ok: false, reason: 'failed', detail: `git write-tree: ${written.stderr || String(written.code)}` };
      return { ok: true, tree, ms: performance.now() - started, toplevel };
    } finally {
      await fs.rm(index, { force: true });
      await fs.rm(`${index}.lock`, { force: true });
    }
  }

  /** Keeps a snapshot alive in our store for a session (pruning drops the oldest first; deleting the session drops its own). */
  async keep(session: string, tree: string, time = Date.now()): Promise<boolean> {
    if (!SESSION_KEY.test(session) || !OBJECT_ID.test(tree)) return false;
    await this.open();
    const ref = `refs/snapshots/${session}/${String(time).padStart(15, '0')}-${tree}`;
    return (await this.run(['--git-dir', this.store, 'update-ref', ref, tree])).code === 0;
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

  /** The store's size on disk in bytes (loose objects and packs), as `git count-objects` counts it. */
  async size(): Promise<number> {
    await this.open();
    const result = await this.run(['--git-dir', this.store, 'count-objects', '-v']);
    if (result.code !== 0) return 0;
    const text = result.stdout.toString('utf8');
    const kib = (name: string): number => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    return (kib('size') + kib('size-pack')) * 1024;
  }

  /** Drops every snapshot of a session from our store (objects other sessions still use stay). */
  async forget(session: string, expire = PRUNE_EXPIRE): Promise<void> {
    if (!SESSION_KEY.test(session)) return;
    await this.open();
    const refs = await this.refs();
    await this.dropRefs(
      refs.filter((ref) => ref.session === session).map((ref) => ref.name),
      expire,
    );
  }

  /**
   * Drops the oldest snapshots until the store is at most `maxBytes` (or none is left). Returns
   * how many were dropped. Objects younger than `expire` stay (a snapshot in flight).
   */
  async prune(maxBytes: number, expire = PRUNE_EXPIRE): Promise<number> {
    let dropped = 0;
    for (let round = 0; round < 8 && (await this.size()) > maxBytes; round++) {
      const refs = (await this.refs()).sort((a, b) => a.stamp.localeCompare(b.stamp));
      if (refs.length === 0) break;
      const oldest = refs.slice(0, Math.max(1, Math.ceil(refs.length / 4)));
      await this.dropRefs(oldest.map((ref) => ref.name), expire);
      dropped += oldest.length;
    }
    return dropped;
  }

  private async refs(): Promise<Array<{ name: string; session: string; stamp: string }>> {
    const result = await this.run(['--git-dir', this.store, 'for-each-ref', '--format=%(refname)', 'refs/snapshots/']);
    if (result.code !== 0) return [];
    return result.stdout
      .toString('utf8')
      .split('\n')
      .map((name) => /^refs\/snapshots\/([0-9a-f]{32})\/([0-9]+-[0-9a-f]+)$/.exec(name.trim()))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => ({ name: match[0], session: match[1] as string, stamp: match[2] as string }));
  }

  private async dropRefs(names: readonly string[], expire: string): Promise<void> {
    if (names.length === 0) return;
    const input = names.map((name) => `delete ${name}\n`).join('');
    await this.run(['--git-dir', this.store, 'update-ref', '--stdin'], { input });
    await this.run(['--git-dir', this.store, 'prune', `--expire=${expire}`]);
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

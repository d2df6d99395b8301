// The git worktrees of a workspace folder's repository, read from git's own files (no git
// process, nothing written): a main working tree has a `.git` folder; each linked worktree
// has a `.git` file `gitdir: <common>/worktrees/<name>`, and `<common>/worktrees/<name>/`
// holds `gitdir` (the path of that worktree's `.git` file), `HEAD` and `commondir`.
// Pure over a small file-system interface; the host watches `<common>/worktrees`.
import * as path from 'node:path';
import type { LogFileSystem } from '../log/fileSystem';

/** What discovery reads: entry names of a folder, and a file's first bytes. */
export type WorktreeFileSystem = Pick<LogFileSystem, 'readdir' | 'size' | 'readRange'>;

export interface Worktree {
  /** The worktree's folder (absolute, as git recorded it). */
  path: string;
  /** Its branch (`refs/heads/<branch>` in its HEAD); undefined when detached or unknown. */
  branch?: string;
  /** The commit id its HEAD holds when detached. */
  detachedAt?: string;
  /** The repository's main working tree (the one with the `.git` folder). */
  main: boolean;
  /** False for a linked worktree whose folder is gone (deleted by hand, not yet pruned). */
  exists: boolean;
}

export interface WorktreeRepository {
  /** The repository's common git folder (`<main>/.git`, or a bare repository's folder). */
  commonDir: string;
  /** Its worktrees: the main working tree first (none for a bare repository), then the linked ones by path. */
  worktrees: Worktree[];
}

/** Longest git file read (a HEAD, a gitdir, a commondir): they hold one short line. */
const MAX_GIT_FILE = 8192;

/**
 * The repository `folder` is in (it or its nearest parent with a `.git`), with every worktree
 * of it; undefined when the folder is in no repository or git's files are in a shape not known.
 */
export async function discoverWorktrees(fs: WorktreeFileSystem, folder: string): Promise<WorktreeRepository | undefined> {
  const found = await findGitDir(fs, path.resolve(folder));
  if (found === undefined) return undefined;
  const commonDir = await commonDirOf(fs, found.gitDir);
  const worktrees: Worktree[] = [];
  const mainTree = await mainTreeOf(fs, commonDir);
  if (mainTree !== undefined) worktrees.push({ path: mainTree, ...(await headOf(fs, commonDir)), main: true, exists: true });
  const linked: Worktree[] = [];
  for (const name of await listFolder(fs, path.join(commonDir, 'worktrees'))) {
    const admin = path.join(commonDir, 'worktrees', name);
    const gitFile = firstLine(await readText(fs, path.join(admin, 'gitdir')));
    if (gitFile === undefined || gitFile === '') continue;
    // Absolute, or relative to this folder (git's `worktree.useRelativePaths`).
    const tree = path.dirname(path.resolve(admin, gitFile));
    const exists = (await fs.size(path.join(tree, '.git')).catch(() => undefined)) !== undefined;
    linked.push({ path: tree, ...(await headOf(fs, admin)), main: false, exists });
  }
  linked.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { commonDir, worktrees: [...worktrees, ...linked] };
}

/** A folder's one spelling: resolved, without a trailing separator (the root stays as it is). */
export function normalizeFolder(folder: string): string {
  const resolved = path.resolve(folder);
  return resolved.length > 1 && resolved.endsWith(path.sep) ? resolved.slice(0, -1) : resolved;
}

/** The folders to follow for a repository: every worktree that still exists. */
export function worktreeFolders(repository: WorktreeRepository | undefined): string[] {
  return repository === undefined ? [] : repository.worktrees.filter((tree) => tree.exists).map((tree) => tree.path);
}

/** The worktree `folder` is in (the deepest one that holds it), if any. */
export function worktreeOf(worktrees: readonly Worktree[], folder: string): Worktree | undefined {
  const inner = path.resolve(folder);
  let best: Worktree | undefined;
  for (const tree of worktrees) {
    const root = path.resolve(tree.path);
    const inside = inner === root || inner.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
    if (inside && (best === undefined || root.length > path.resolve(best.path).length)) best = tree;
  }
  return best;
}

/** A worktree's short name: its branch, or its folder's name when detached. */
export function worktreeLabel(tree: Pick<Worktree, 'path' | 'branch'>): string {
  return tree.branch ?? path.basename(tree.path);
}

/** `.git` in `folder` or its nearest parent: the git folder it names. */
async function findGitDir(fs: WorktreeFileSystem, folder: string): Promise<{ gitDir: string } | undefined> {
  for (let dir = folder; ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, '.git');
    if (await isFolder(fs, dotGit)) return { gitDir: dotGit };
    const pointer = firstLine(await readText(fs, dotGit));
    if (pointer !== undefined && pointer.startsWith('gitdir:')) {
      const target = pointer.slice('gitdir:'.length).trim();
      if (target !== '') return { gitDir: path.resolve(dir, target) };
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** A linked worktree's git folder names the common one in `commondir`; any other is its own. */
async function commonDirOf(fs: WorktreeFileSystem, gitDir: string): Promise<string> {
  const common = firstLine(await readText(fs, path.join(gitDir, 'commondir')));
  return common === undefined || common === '' ? gitDir : path.resolve(gitDir, common);
}

/** The main working tree: the folder whose `.git` folder is the common one; none for a bare repository. */
async function mainTreeOf(fs: WorktreeFileSystem, commonDir: string): Promise<string | undefined> {
  if (path.basename(commonDir) !== '.git') return undefined;
  const config = (await readText(fs, path.join(commonDir, 'config'))) ?? '';
  if (/^\s*bare\s*=\s*true\s*$/im.test(config)) return undefined;
  return path.dirname(commonDir);
}

/** A HEAD file: its branch, or the commit it is detached at. */
async function headOf(fs: WorktreeFileSystem, gitDir: string): Promise<Pick<Worktree, 'branch' | 'detachedAt'>> {
  const head = firstLine(await readText(fs, path.join(gitDir, 'HEAD')));
  if (head === undefined) return {};
  const ref = /^ref:\s*refs\/heads\/(.+)$/.exec(head);
  if (ref?.[1] !== undefined) return { branch: ref[1] };
  return /^[0-9a-f]{40,64}$/.test(head) ? { detachedAt: head } : {};
}

async function isFolder(fs: WorktreeFileSystem, folder: string): Promise<boolean> {
  try {
    await fs.readdir(folder);
    return true;
  } catch {
    return false;
  }
}

async function listFolder(fs: WorktreeFileSystem, folder: string): Promise<string[]> {
  try {
    return (await fs.readdir(folder)).sort();
  } catch {
    return [];
  }
}

/** A small file's text; undefined when it is missing, a folder, or too long to be git's. */
async function readText(fs: WorktreeFileSystem, file: string): Promise<string | undefined> {
  try {
    const size = await fs.size(file);
    if (size === undefined || size > MAX_GIT_FILE) return undefined;
    return new TextDecoder().decode(await fs.readRange(file, 0, size));
  } catch {
    return undefined;
  }
}

function firstLine(text: string | undefined): string | undefined {
  return text?.split(/\r?\n/, 1)[0]?.trim();
}

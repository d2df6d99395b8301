// Which Codex rollouts belong to this workspace, read with node:fs. Read-only: nothing here
// creates or changes anything in Codex's folder. A missing folder lists nothing and costs one
// failed readdir; the follower watches its nearest parent.
import { createHash } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { readRegularFileText } from '../../node/regularFile';
import type { SessionFileLocator } from '../follow/follower';
import { codexDayFolder, codexRolloutCwd, isCodexRolloutName } from './locations';
import { readFirstLine } from '../follow/jsonlFiles';
import { isInsideWorkspace, normalizeFolder } from '../locations';

export interface CodexLocatorOptions {
  /** The clock that says which day folder new sessions go to; default the real one. */
  now?: () => Date;
  /** Longest first line read to decide a rollout's workspace. Default 4 MiB. */
  maxFirstLineBytes?: number;
  /**
   * A file in Agent Plan's own storage where decisions are kept across restarts (keyed by a
   * hash of each rollout's path), so a restart does not read every first line again.
   */
  decisionsFile?: string;
}

/**
 * Codex: `<codexHome>/sessions/YYYY/MM/DD/rollout-*.jsonl` whose first line's
 * `session_meta.payload.cwd` is a workspace folder (or inside one). Only the first line is
 * read to decide, once per file; a file whose first line is not complete yet is asked again.
 */
export function codexLocator(
  codexHome: string,
  workspaceFolders: readonly string[],
  options: CodexLocatorOptions = {},
): SessionFileLocator {
  const now = options.now ?? (() => new Date());
  const maxFirstLine = options.maxFirstLineBytes ?? 4 << 20;
  const sessions = path.join(codexHome, 'sessions');
  const decided = new Map<string, boolean>();
  let loaded = options.decisionsFile === undefined;
  let saved = new Map<string, boolean>();
  const listings = new Map<string, { mtimeMs: number; folders: string[]; files: string[] }>();
  const workspacesKey = pathKey(JSON.stringify([...workspaceFolders].map(normalizeFolder).sort()));
  let matchedFolders: string[] = [];

  /**
   * A folder's sub-folder and file names, read again only when its mtime changed (an entry
   * added or removed); appends to a file leave it alone. Past days cost one stat each.
   */
  async function listing(folder: string): Promise<{ folders: string[]; files: string[] }> {
    let mtimeMs: number;
    try {
      mtimeMs = (await fsp.stat(folder)).mtimeMs;
    } catch {
      listings.delete(folder);
      return { folders: [], files: [] };
    }
    const cached = listings.get(folder);
    if (cached && cached.mtimeMs === mtimeMs) return cached;
    const entry = { mtimeMs, folders: [] as string[], files: [] as string[] };
    try {
      for (const e of await fsp.readdir(folder, { withFileTypes: true })) {
        if (e.isDirectory()) entry.folders.push(e.name);
        else if (e.isFile()) entry.files.push(e.name);
      }
    } catch {
      // Gone in between: empty this time.
    }
    entry.folders.sort();
    entry.files.sort();
    // A folder changed just now may change again within its mtime's granularity: read it again next time.
    if (Date.now() - mtimeMs > 2000) listings.set(folder, entry);
    return entry;
  }
  const subfolders = async (folder: string) => (await listing(folder)).folders;

  async function belongs(file: string): Promise<boolean | undefined> {
    const known = decided.get(file) ?? saved.get(pathKey(file));
    if (known !== undefined) {
      decided.set(file, known);
      return known;
    }
    const line = await readFirstLine(file, maxFirstLine);
    if (line === undefined) return undefined;
    const cwd = codexRolloutCwd(line);
    const result = cwd !== undefined && workspaceFolders.some((folder) => isInsideWorkspace(cwd, folder));
    decided.set(file, result);
    return result;
  }

  return {
    async list() {
      if (!loaded && options.decisionsFile !== undefined) {
        loaded = true;
        saved = await loadDecisions(options.decisionsFile, workspacesKey);
      }
      const found: string[] = [];
      const folders = new Set<string>();
      const seen: string[] = [];
      for (const year of (await subfolders(sessions)).filter((n) => /^\d{4}$/.test(n))) {
        const yearDir = path.join(sessions, year);
        for (const month of (await subfolders(yearDir)).filter((n) => /^\d{2}$/.test(n))) {
          const monthDir = path.join(yearDir, month);
          for (const day of (await subfolders(monthDir)).filter((n) => /^\d{2}$/.test(n))) {
            const dayDir = path.join(monthDir, day);
            const names = (await listing(dayDir)).files.filter(isCodexRolloutName);
            for (const file of names.map((name) => path.join(dayDir, name))) {
              seen.push(file);
              if (await belongs(file)) {
                found.push(file);
                folders.add(dayDir);
              }
            }
          }
        }
      }
      matchedFolders = [...folders];
      if (options.decisionsFile !== undefined) {
        // Only files that still exist are remembered.
        const current = new Map<string, boolean>();
        for (const file of seen) {
          const ours = decided.get(file);
          if (ours !== undefined) current.set(pathKey(file), ours);
        }
        if (current.size !== saved.size || [...current].some(([key, ours]) => saved.get(key) !== ours)) {
          await saveDecisions(options.decisionsFile, workspacesKey, current);
          saved = current;
        }
      }
      return found;
    },
    watchFolders() {
      const today = now();
      const local = codexDayFolder(codexHome, today.getFullYear(), today.getMonth() + 1, today.getDate());
      const utc = codexDayFolder(codexHome, today.getUTCFullYear(), today.getUTCMonth() + 1, today.getUTCDate());
      return [...new Set([sessions, local, utc, ...matchedFolders])];
    },
  };
}

function pathKey(file: string): string {
  return createHash('sha256').update(file, 'utf8').digest('hex').slice(0, 32);
}

/** Decisions made for the same workspace folders; any others are ignored. */
async function loadDecisions(file: string, workspaces: string): Promise<Map<string, boolean>> {
  try {
    const value = JSON.parse(await readRegularFileText(file, 16 * 1024 * 1024)) as { v?: unknown; workspaces?: unknown; decided?: unknown };
    if (value.v !== 1 || value.workspaces !== workspaces || typeof value.decided !== 'object' || value.decided === null) return new Map();
    const entries = Object.entries(value.decided as Record<string, unknown>);
    return new Map(entries.filter((e): e is [string, boolean] => /^[0-9a-f]{32}$/.test(e[0]) && typeof e[1] === 'boolean'));
  } catch {
    return new Map();
  }
}

/** Best effort: without the file, the next start reads the first lines again. */
async function saveDecisions(file: string, workspaces: string, decisions: Map<string, boolean>): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    await fsp.mkdir(path.dirname(file), { recursive: true });
    await fsp.writeFile(temp, JSON.stringify({ v: 1, workspaces, decided: Object.fromEntries(decisions) }), 'utf8');
    await fsp.rename(temp, file);
  } catch {
    await fsp.rm(temp, { force: true }).catch(() => undefined);
  }
}

// Reading and writing another program's settings file, carefully: only a regular file, only
// inside the folders it is allowed under (HOME, or a folder the agent's own environment
// variable names), never through a symbolic link that leads elsewhere, and atomically (a
// temporary file in the same folder, renamed over it) with the file's mode kept.
import { randomBytes } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { openRegularFile, readAll } from '../regularFile';
import { ConnectError } from './connectError';

/** Larger settings files are not edited (Claude Code's ~/.claude.json grows with its project list). */
export const MAX_SETTINGS_BYTES = 32 * 1024 * 1024;

/** A settings file, found: the path Agent Plan names, the one it reads and writes, and its text. */
export interface SettingsFile {
  /** As the agent's spec names it (shown to the user, kept in the record). */
  readonly path: string;
  /** The same file with every link resolved: what is read and written. */
  readonly real: string;
  /** Its text; undefined when there is no file. */
  readonly text: string | undefined;
}

function isInside(folder: string, file: string): boolean {
  const relative = path.relative(folder, file);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

async function realFolder(folder: string): Promise<string> {
  return fsp.realpath(folder).catch(() => path.resolve(folder));
}

/** The deepest folder of `file`'s path that exists, resolved, with the rest of the path after it. */
async function resolveMissing(file: string): Promise<string> {
  const rest: string[] = [];
  let current = path.resolve(file);
  for (;;) {
    try {
      return path.join(await fsp.realpath(current), ...rest.reverse());
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'ENOTDIR') throw error;
      const parent = path.dirname(current);
      if (parent === current) return path.resolve(file);
      rest.push(path.basename(current));
      current = parent;
    }
  }
}

/**
 * Where `file` really is, refused when it is (or leads to) something other than a regular file,
 * or when a link takes it out of every folder of `roots`.
 */
export async function resolveSettingsFile(file: string, roots: readonly string[]): Promise<string> {
  const stat = await fsp.lstat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
    throw error;
  });
  let real: string;
  if (stat === undefined) {
    real = await resolveMissing(file);
  } else if (stat.isSymbolicLink()) {
    real = await fsp.realpath(file).catch(() => {
      throw new ConnectError('not-regular', file);
    });
  } else {
    real = await fsp.realpath(file);
  }
  const allowed = await Promise.all(roots.map(realFolder));
  if (!allowed.some((root) => isInside(root, real))) throw new ConnectError('outside-home', file, real);
  if (stat !== undefined) {
    const target = await fsp.stat(real);
    if (!target.isFile()) throw new ConnectError('not-regular', file);
  }
  return real;
}

/** The bytes of a regular file, or undefined when there is none. */
async function readBytes(file: string, shown: string): Promise<Buffer | undefined> {
  let handle;
  try {
    handle = await openRegularFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'EISDIR' || code === 'ENOTREGULAR') throw new ConnectError('not-regular', shown);
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size > MAX_SETTINGS_BYTES) throw new ConnectError('too-large', shown);
    return await readAll(handle, size);
  } finally {
    await handle.close();
  }
}

/** Finds and reads `file` (see resolveSettingsFile); text that would not be written back byte for byte is refused. */
export async function readSettingsFile(file: string, roots: readonly string[]): Promise<SettingsFile> {
  const real = await resolveSettingsFile(file, roots);
  const bytes = await readBytes(real, file);
  if (bytes === undefined) return { path: file, real, text: undefined };
  const text = bytes.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(bytes)) throw new ConnectError('not-text', file);
  return { path: file, real, text };
}

/** The folders between `folder` and the nearest one that exists, outermost first: what a write there makes. */
export async function missingFolders(folder: string): Promise<string[]> {
  const missing: string[] = [];
  let current = folder;
  for (;;) {
    const exists = await fsp.stat(current).then(
      () => true,
      () => false,
    );
    if (exists) break;
    missing.unshift(current);
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return missing;
}

/**
 * Writes `text` to `real` atomically: a temporary file beside it, flushed, given the old file's
 * mode (a new file: `newFileMode`), renamed over it. Returns the folders it made (outermost first).
 */
export async function writeAtomically(real: string, text: string, newFileMode = 0o644): Promise<string[]> {
  const folder = path.dirname(real);
  const made = await missingFolders(folder);
  await fsp.mkdir(folder, { recursive: true });
  const mode = await fsp.stat(real).then(
    (stat) => stat.mode & 0o7777,
    () => undefined,
  );
  const temporary = path.join(folder, `.${path.basename(real)}.agentplan-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  const handle = await fsp.open(temporary, 'wx', mode ?? newFileMode);
  try {
    try {
      await handle.writeFile(text, 'utf8');
      if (mode !== undefined) await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fsp.rename(temporary, real);
  } catch (error) {
    await fsp.rm(temporary, { force: true });
    throw error;
  }
  return made;
}

/** Removes a file Connect created, then the folders it made for it while they are empty (innermost first). */
export async function removeCreated(real: string, madeFolders: readonly string[]): Promise<void> {
  await fsp.rm(real, { force: true });
  for (const folder of [...madeFolders].reverse()) {
    const removed = await fsp.rmdir(folder).then(
      () => true,
      () => false,
    );
    if (!removed) break;
  }
}

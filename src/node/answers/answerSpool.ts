// The folder through which agents' permission hooks (answer.sh, beside this file) hand their
// requests to the Agent Plan windows and take their answers back: Agent Plan's own folder in the
// user's data folder, made and kept owner-only (0700), so only this user can ask or answer.
// Files (<id> = <agent>.<hook pid>.<epoch seconds>):
//   req.<id>.json  the agent's request, whole (the hook renames it into place)
//   ack.<id>       a window took it: the seconds the hook may wait for an answer
//   ans.<id>.json  the answer the hook prints; empty: it prints nothing (the agent asks itself)
//   own.<id>       the process of the window that took it: a window reloaded since (its process
//                  gone) takes it again, so a request still waiting shows after a reload
// The ack and the answer are made once (a hard link of a written file: the first window wins);
// the hook removes all three when it ends. No vscode here.
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { processAlive } from '../lockOwner';
import { readRegularFileText } from '../regularFile';

/** `$XDG_DATA_HOME/agent-plan/answers` (`~/.local/share/…`); on Windows `%LOCALAPPDATA%\agent-plan\answers`. */
export function answersFolder(env: NodeJS.ProcessEnv = process.env, home: string = process.env['HOME'] ?? '', platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return path.join(env['LOCALAPPDATA'] || path.join(home, 'AppData', 'Local'), 'agent-plan', 'answers');
  const data = env['XDG_DATA_HOME'];
  return path.join(data && path.isAbsolute(data) ? data : path.join(home, '.local', 'share'), 'agent-plan', 'answers');
}

/** A request file's name: its agent, the hook's pid and its start (seconds). */
export const REQUEST_FILE = /^req\.([a-z][a-z-]{0,31})\.(\d{1,10})\.(\d{1,12})\.json$/;
/** The largest request read (an agent's request is a few KiB; a larger file is skipped). */
export const MAX_REQUEST_BYTES = 256 * 1024;
/** The longest a hook is told to wait (its own loop stops at 9999 s). */
export const MAX_WAIT_SECONDS = 3600;

export interface RequestName {
  /** `<agent>.<pid>.<epoch>`: the request's id across its files. */
  readonly id: string;
  readonly agent: string;
  readonly pid: number;
  /** When the hook started (ms). */
  readonly startedAt: number;
}

/** The request a file name stands for, or undefined for any other name. */
export function requestName(name: string): RequestName | undefined {
  const match = REQUEST_FILE.exec(name);
  if (match === null) return undefined;
  const [, agent, pid, epoch] = match as unknown as [string, string, string, string];
  return { id: `${agent}.${pid}.${epoch}`, agent, pid: Number(pid), startedAt: Number(epoch) * 1000 };
}

const ID = /^[a-z][a-z-]{0,31}\.\d{1,10}\.\d{1,12}$/;
function checkedId(id: string): string {
  if (!ID.test(id)) throw new TypeError(`not a request id: ${JSON.stringify(id.slice(0, 80))}`);
  return id;
}

/**
 * Makes the folder (0700) if it is not there and checks it is a folder of this user's that no
 * one else can open; throws otherwise (then no hook is taken: they all find no answer).
 */
export async function openAnswersFolder(folder: string): Promise<void> {
  await fsp.mkdir(folder, { recursive: true, mode: 0o700 });
  const stat = await fsp.lstat(folder);
  if (!stat.isDirectory()) throw new Error(`${folder} is not a folder`);
  if (process.getuid !== undefined && stat.uid !== process.getuid()) throw new Error(`${folder} belongs to another user`);
  if ((stat.mode & 0o077) !== 0) await fsp.chmod(folder, 0o700);
}

/** The JSON of a request file (bounded, regular files only). */
export async function readRequest(folder: string, name: string): Promise<unknown> {
  return JSON.parse(await readRegularFileText(path.join(folder, name), MAX_REQUEST_BYTES)) as unknown;
}

/** Writes `text` as `final` once: false when it is there already (another window was first). */
async function createOnce(folder: string, final: string, text: string): Promise<boolean> {
  const temp = path.join(folder, `.${final}.${process.pid}.${Math.random().toString(36).slice(2)}`);
  await fsp.writeFile(temp, text, { mode: 0o600, flag: 'wx' });
  try {
    await fsp.link(temp, path.join(folder, final));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await fsp.rm(temp, { force: true });
  }
}

/** Takes a request: its hook waits up to `seconds` for the answer. False when a window took it already. */
export function acknowledge(folder: string, id: string, seconds: number): Promise<boolean> {
  const wait = Math.max(1, Math.min(MAX_WAIT_SECONDS, Math.round(seconds)));
  return createOnce(folder, `ack.${checkedId(id)}`, String(wait));
}

/** Hands the hook its answer (empty: it prints nothing). False when it has one already. */
export function writeAnswer(folder: string, id: string, text: string): Promise<boolean> {
  return createOnce(folder, `ans.${checkedId(id)}.json`, text);
}

/** Records this process as the window that took the request. */
export async function own(folder: string, id: string): Promise<void> {
  const file = path.join(folder, `own.${checkedId(id)}`);
  const temp = `${file}.${process.pid}.tmp`;
  await fsp.writeFile(temp, String(process.pid), { mode: 0o600 });
  await fsp.rename(temp, file);
}

/**
 * A request another window took: when that window's process is gone (reloaded, closed) and the
 * hook still waits, this process takes it over, once (the first to move the old record wins).
 * Returns the seconds left of the hook's wait then, else undefined.
 */
export async function takeOver(folder: string, id: string, now: number): Promise<number | undefined> {
  const file = path.join(folder, `own.${checkedId(id)}`);
  let owner: number;
  try {
    owner = Number((await readRegularFileText(file, 64)).trim());
  } catch {
    return undefined;
  }
  if (!Number.isSafeInteger(owner) || owner <= 0 || owner === process.pid || processAlive(owner)) return undefined;
  let seconds: number;
  let since: number;
  try {
    const ack = path.join(folder, `ack.${id}`);
    seconds = Number((await readRegularFileText(ack, 16)).trim());
    since = (await fsp.stat(ack)).mtimeMs;
  } catch {
    return undefined;
  }
  const left = Math.floor((since + seconds * 1000 - now) / 1000);
  if (!Number.isFinite(left) || left < 1) return undefined;
  try {
    await fsp.rename(file, `${file}.${owner}.gone`);
  } catch {
    return undefined;
  }
  await fsp.rm(`${file}.${owner}.gone`, { force: true });
  await own(folder, id);
  return left;
}

/** Whether the request is still asked: its file is there and its hook's process runs. */
export async function stillAsked(folder: string, name: RequestName): Promise<boolean> {
  try {
    await fsp.access(path.join(folder, `req.${name.id}.json`));
  } catch {
    return false;
  }
  return processAlive(name.pid);
}

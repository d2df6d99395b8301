// Where a session's log lives: <dir>/<key>.jsonl, key = 32 lowercase hex characters, so
// no file name is ever built from raw input.
import * as path from 'node:path';
import { isSessionKey } from './sessionKey';

export const LOG_FILE_EXTENSION = '.jsonl';

const FILE_NAME = /^([0-9a-f]{32})\.jsonl$/;

/** The log file of a session. Throws a TypeError for anything but a session key. */
export function logFileFor(dir: string, session: string): string {
  if (!isSessionKey(session)) throw new TypeError('SessionLog: a session key must be 32 lowercase hex characters');
  // A key is a plain file name: joining needs no normalizing once the folder is normal (see logFolder).
  return dir + path.sep + session + LOG_FILE_EXTENSION;
}

/** The folder as logFileFor expects it: normalized, without a trailing separator. */
export function logFolder(dir: string): string {
  const normal = path.normalize(dir);
  return normal.length > 1 && normal.endsWith(path.sep) ? normal.slice(0, -1) : normal;
}

/** The session key a folder entry names, or undefined for any other name. */
export function sessionOfFileName(name: string): string | undefined {
  const key = FILE_NAME.exec(name)?.[1];
  // A key of its own, not a slice that keeps the whole name alive (keys are held per session).
  return key === undefined ? undefined : Buffer.from(key, 'latin1').toString('latin1');
}

// The plan last written to the inbox for one agent session, by any server process (a resumed
// agent starts a new process with the same session). Reads only regular files of the inbox's
// name pattern, within the inbox's own bounds, and checks every line it takes.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Todo } from '../core/plan/plan';
import { INBOX_BOUNDS } from './inboxBounds';
import { INBOX_FILE_PATTERN, parseInboxLine } from './inboxLine';

export function latestSessionPlan(folder: string, session: string): Todo[] | undefined {
  // Only lines that name the session are parsed: the rest of the folder is skipped as bytes.
  const needle = `"agentSession":${JSON.stringify(session)},`;
  let best: { ts: string; todos: Todo[] } | undefined;
  let budget = INBOX_BOUNDS.maxFolderBytes;
  let names: string[];
  try {
    names = fs.readdirSync(folder).filter((name) => INBOX_FILE_PATTERN.test(name)).slice(0, INBOX_BOUNDS.maxFolderFiles);
  } catch {
    return undefined;
  }
  for (const name of names) {
    const bytes = readBounded(path.join(folder, name), Math.min(budget, INBOX_BOUNDS.maxFileBytes));
    if (bytes === undefined) continue;
    budget -= bytes.length;
    const text = bytes.toString('utf8');
    for (const line of text.split('\n')) {
      if (!line.includes(needle)) continue;
      const record = parseInboxLine(line);
      if (record === undefined || record.agentSession !== session) continue;
      if (best === undefined || record.ts >= best.ts) best = { ts: record.ts, todos: record.todos };
    }
    if (budget <= 0) break;
  }
  return best?.todos;
}

/** A regular file's bytes (never through a symlink), or undefined when it is not one or is larger than `max`. */
function readBounded(file: string, max: number): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || stat.size > max) return undefined;
    const buffer = Buffer.alloc(stat.size);
    const read = fs.readSync(fd, buffer, 0, stat.size, 0);
    return buffer.subarray(0, read);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

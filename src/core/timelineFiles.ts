// Which item changed which file, as the log's file/write lines say: each line names the
// items in progress when the agent's tool call wrote its files. One item: the files are
// its own; several: each item's, marked shared; none: the session's. No times are compared
// here (the line carries its attribution). Pure; no vscode.
import type { FileWriteRecord } from './logRecord';

export interface ItemFile {
  /** As the agent named it: absolute, or relative to the workspace. */
  path: string;
  /** Another item was in progress too when it was written (in any of its writes). */
  shared: boolean;
}

export interface FilesOf {
  /** Each file once, in the order first written. */
  files: ItemFile[];
  /** When each write that named this owner happened (this machine's `ts`), in file order. */
  writes: number[];
}

export interface FileAttribution {
  /** By item text. */
  items: Map<string, FilesOf>;
  /** Files written while no item was in progress. */
  session: FilesOf;
}

/** Collects the files of file/write lines given oldest first; a line with an unreadable `ts` counts no write time. */
export function collectFiles(writes: Iterable<FileWriteRecord>): FileAttribution {
  const items = new Map<string, FilesOf>();
  const session: FilesOf = { files: [], writes: [] };
  for (const write of writes) {
    const time = Date.parse(write.ts);
    const owners = [...new Set(write.items)];
    const shared = owners.length > 1;
    const targets = owners.length === 0 ? [session] : owners.map((item) => items.get(item) ?? set(items, item));
    for (const target of targets) {
      if (!Number.isNaN(time)) target.writes.push(time);
      for (const path of write.files) {
        const known = target.files.find((file) => file.path === path);
        if (known) known.shared ||= shared;
        else target.files.push({ path, shared });
      }
    }
  }
  return { items, session };
}

function set(items: Map<string, FilesOf>, item: string): FilesOf {
  const files: FilesOf = { files: [], writes: [] };
  items.set(item, files);
  return files;
}

// Which item changed which file on the timeline's page, as the log's file/write lines say:
// the one rule of itemFiles.ts (a line names the items in progress when the agent's tool
// call wrote its files; one item: the files are its own; several: each item's, marked
// shared; none: the session's), with every file of the page and the time of each write.
// Pure; no vscode.
import { SessionFiles, type ItemFile, type OwnerFiles } from '../derived/itemFiles';
import type { FileWriteRecord } from '../log/logRecord';

/** A file on the page: as the agent named it, and whether another item was in progress too in any of its writes. */
export type PageFile = Pick<ItemFile, 'path' | 'shared'>;

export interface FilesOf {
  /** Each file once, in the order first written. */
  files: PageFile[];
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
  const book = new SessionFiles({ maxFiles: Infinity, keepTimes: true });
  for (const write of writes) book.feed(write);
  const { items, session } = book.owners();
  return { items: new Map([...items].map(([item, owner]) => [item, filesOf(owner)])), session: filesOf(session) };
}

function filesOf(owner: OwnerFiles): FilesOf {
  return { files: owner.files.map(({ path, shared }) => ({ path, shared })), writes: [...owner.times] };
}

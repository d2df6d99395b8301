// What each item changed: the files of a session's `file/write` lines, by item. Each line
// names the items in progress when the agent wrote its files (the importer read that off the
// plan the agent's record puts the write after), so a line is read on its own, never against
// a replayed history: one item, the files are that item's; several, each of theirs, marked
// shared; none, the session's. No vscode import.
import { isFileWrite, isPlanEvent, type LogRecord } from './logRecord';
import { SessionBook } from './sessionBook';
import type { SessionLog } from './sessionLog';

export interface ItemFile {
  /** As the agent named it: absolute, or relative to its workspace. */
  path: string;
  /** Another item was in progress too when it was written. */
  shared: boolean;
  /** The tool calls that wrote it. */
  writes: number;
  /** When this machine recorded the newest of them (the line's `ts`). */
  last: string;
}

/** Files kept per item and for the session (the oldest go first past it). */
export const MAX_FILES_PER_ITEM = 200;
/** Plan versions the first read of a session's past walks back over, at most. */
export const FILES_BACKFILL_VERSIONS = 1000;

/** One session's files by item, fed its records in file order. */
export class SessionFiles {
  private readonly items = new Map<string, ItemFile[]>();
  private readonly outside: ItemFile[] = [];

  feed(record: LogRecord): boolean {
    if (!isFileWrite(record)) return false;
    const owners = [...new Set(record.items)];
    const shared = owners.length > 1;
    if (owners.length === 0) {
      for (const path of record.files) note(this.outside, path, false, record.ts);
      return true;
    }
    for (const owner of owners) {
      let files = this.items.get(owner);
      if (!files) this.items.set(owner, (files = []));
      for (const path of record.files) note(files, path, shared, record.ts);
    }
    return true;
  }

  /** The files of the item with this text, in the order first written. */
  of(item: string): readonly ItemFile[] {
    return this.items.get(item) ?? [];
  }

  /** Files written while no item was in progress. */
  session(): readonly ItemFile[] {
    return this.outside;
  }
}

function note(files: ItemFile[], path: string, shared: boolean, ts: string): void {
  const known = files.find((file) => file.path === path);
  if (known) {
    known.shared ||= shared;
    known.writes++;
    known.last = ts;
    return;
  }
  files.push({ path, shared, writes: 1, last: ts });
  if (files.length > MAX_FILES_PER_ITEM) files.shift();
}

/** Every session's files by item, in step with the log; a session's past is read when it is first asked for. */
export class FileBook extends SessionBook<SessionFiles> {
  constructor(log: SessionLog) {
    super(
      log,
      () => new SessionFiles(),
      () => {
        let versions = 0;
        return (record) => isPlanEvent(record) && ++versions >= FILES_BACKFILL_VERSIONS;
      },
    );
  }
}

// What each item changed: the files of a session's `file/write` lines, by item. Each line
// names the items in progress when the agent wrote its files (the importer read that off the
// plan the agent's record puts the write after), so a line is read on its own, never against
// a replayed history: one item, the files are that item's; several, each of theirs, marked
// shared; none, the session's; not known (`itemsUnknown`: the agent's record did not tell),
// apart from all of these. No vscode import.
import { isFileWrite, isPlanEvent, type LogRecord } from '../log/logRecord';
import { SessionBook } from './sessionBook';
import type { SessionLog } from '../log/sessionLog';

export interface ItemFile {
  /** As the agent named it: absolute, or relative to its workspace. */
  path: string;
  /** Another item was in progress too when it was written. */
  shared: boolean;
  /** The tool calls that wrote it. */
  writes: number;
  /** When this machine recorded the newest of them (the line's `ts`). */
  last: string;
  /** A plan-less sub-agent wrote it (some of its writes, or all), counted under this session's items. */
  subagent?: true;
}

/** Files kept per item and for the session (the oldest go first past it). */
export const MAX_FILES_PER_ITEM = 200;
/** Plan versions the first read of a session's past walks back over, at most. */
export const FILES_BACKFILL_VERSIONS = 1000;

/** What one owner (an item, or the session) changed: its files, and when each of its writes was recorded. */
export interface OwnerFiles {
  /** Each file once, in the order first written (the oldest dropped past the bound). */
  files: ItemFile[];
  /** This machine's time (ms) of each write that named this owner, in file order; kept only when asked for. */
  times: number[];
}

export interface SessionFilesOptions {
  /** Files kept per owner; default MAX_FILES_PER_ITEM. */
  maxFiles?: number;
  /** Keep each write's time (the timeline draws them). */
  keepTimes?: boolean;
}

/** One session's files by item, fed its records in file order. */
export class SessionFiles {
  private readonly items = new Map<string, OwnerFiles>();
  private readonly outside: OwnerFiles = { files: [], times: [] };
  private readonly untold: OwnerFiles = { files: [], times: [] };
  private readonly maxFiles: number;
  private readonly keepTimes: boolean;

  constructor(options: SessionFilesOptions = {}) {
    this.maxFiles = options.maxFiles ?? MAX_FILES_PER_ITEM;
    this.keepTimes = options.keepTimes ?? false;
  }

  feed(record: LogRecord): boolean {
    if (!isFileWrite(record)) return false;
    const owners = [...new Set(record.items)];
    const shared = owners.length > 1;
    const time = Date.parse(record.ts);
    const targets = record.itemsUnknown === true ? [this.untold] : owners.length === 0 ? [this.outside] : owners.map((owner) => this.ownerOf(owner));
    for (const target of targets) {
      if (this.keepTimes && !Number.isNaN(time)) target.times.push(time);
      for (const path of record.files) this.note(target.files, path, shared, record.ts, record.subagent === true);
    }
    return true;
  }

  /** The files of the item with this text, in the order first written. */
  of(item: string): readonly ItemFile[] {
    return this.items.get(item)?.files ?? [];
  }

  /** Files written while no item was in progress. */
  session(): readonly ItemFile[] {
    return this.outside.files;
  }

  /** Files written while the items in progress are not known (the agent's record did not tell). */
  unknown(): readonly ItemFile[] {
    return this.untold.files;
  }

  /** Every item that changed files, by text, the session's own, and those whose item is not known. */
  owners(): { items: ReadonlyMap<string, OwnerFiles>; session: OwnerFiles; unknown: OwnerFiles } {
    return { items: this.items, session: this.outside, unknown: this.untold };
  }

  private ownerOf(item: string): OwnerFiles {
    let owner = this.items.get(item);
    if (!owner) this.items.set(item, (owner = { files: [], times: [] }));
    return owner;
  }

  private note(files: ItemFile[], path: string, shared: boolean, ts: string, subagent: boolean): void {
    const known = files.find((file) => file.path === path);
    if (known) {
      known.shared ||= shared;
      known.writes++;
      known.last = ts;
      if (subagent) known.subagent = true;
      return;
    }
    files.push({ path, shared, writes: 1, last: ts, ...(subagent ? { subagent: true as const } : {}) });
    if (files.length > this.maxFiles) files.shift();
  }
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

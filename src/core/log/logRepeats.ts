// Repeated imports in a session's file. A foreign plan is imported once (planSink.ts takes
// a lock per session), but a log written by an older version, or by a crash between the
// check and the append, may hold a call twice. On replay such a line is a repeat, not a
// new version: a foreign plan line whose (source.agent, source.session, source.call) one
// of the REPEAT_WINDOW records before it in the file already holds is skipped by every
// reader (the current plan, history, pages, the live reader). The window keeps each read
// bounded; repeats come from two windows racing, a few lines apart.
import { isPlanEvent, type LogRecord } from './logRecord';

/** How many records before a foreign plan line are looked at for the same call. */
export const REPEAT_WINDOW = 64;

/** What makes a foreign plan one import: its agent, the foreign session and the call; undefined for any other record. */
export function importKey(record: LogRecord): string | undefined {
  if (!isPlanEvent(record) || !record.source) return undefined;
  const { agent, session, call } = record.source;
  return `${agent}\n${session}\n${call}`;
}

/**
 * Read forwards: the import keys of the last REPEAT_WINDOW records, to tell a repeat. Kept
 * per file for the life of the window: a file without imports (todo_write's) holds a count.
 */
export class RecentImports {
  /** How many records were remembered. */
  private seen = 0;
  /** The import keys within the window, oldest first, each with its record's number; undefined when none. */
  private keys: Array<{ key: string; at: number }> | undefined;

  /** Starts from what came before (oldest first), when the reader did not read it forwards. */
  constructor(before: ReadonlyArray<string | undefined> = []) {
    for (const key of before) this.remember(key);
  }

  /** Whether `record` repeats a record within the window before it; then it is remembered. */
  isRepeat(record: LogRecord): boolean {
    const key = importKey(record);
    const repeat = key !== undefined && this.keys !== undefined && this.keys.some((known) => known.key === key);
    this.remember(key);
    return repeat;
  }

  private remember(key: string | undefined): void {
    this.seen++;
    if (key !== undefined) (this.keys ??= []).push({ key, at: this.seen });
    if (!this.keys) return;
    const oldest = this.seen - REPEAT_WINDOW;
    while (this.keys.length > 0 && (this.keys[0] as { at: number }).at <= oldest) this.keys.shift();
    if (this.keys.length === 0) this.keys = undefined;
  }
}

interface Held<T> {
  record: LogRecord;
  at: T;
  key: string | undefined;
  repeat: boolean;
  /** How many records came in before it. */
  position: number;
}

/**
 * Read backwards: records go in from the newest back and come out in the same order once
 * they are known not to be repeats. A foreign plan is held until the window of records
 * before it has been seen (or the file's start), any other record as soon as nothing
 * newer is held.
 */
export class BackwardRepeats<T> {
  private readonly held: Array<Held<T>> = [];
  private readonly byKey = new Map<string, Array<Held<T>>>();
  /** Records pushed in all; a held record is decided once REPEAT_WINDOW more have come. */
  private pushed = 0;

  /** Takes the next older record; returns the records decided now, newest first, repeats left out. */
  push(record: LogRecord, at: T): Array<{ record: LogRecord; at: T }> {
    const key = importKey(record);
    if (key !== undefined) {
      // The newer lines of this call within the window are repeats of this one (or of an older one).
      const newer = this.byKey.get(key);
      if (newer) for (const entry of newer) entry.repeat = true;
    }
    const entry: Held<T> = { record, at, key, repeat: false, position: this.pushed++ };
    this.held.push(entry);
    if (key !== undefined) {
      const list = this.byKey.get(key);
      if (list) list.push(entry);
      else this.byKey.set(key, [entry]);
    }
    const decided: Array<{ record: LogRecord; at: T }> = [];
    while (this.held.length > 0) {
      const first = this.held[0] as Held<T>;
      const waiting = first.key !== undefined && this.pushed - 1 - first.position < REPEAT_WINDOW;
      if (waiting) break;
      this.drop(first);
      if (!first.repeat) decided.push({ record: first.record, at: first.at });
    }
    return decided;
  }

  /** The start of the file (or of the part read): everything still held is decided. */
  flush(): Array<{ record: LogRecord; at: T }> {
    const rest = this.held.filter((entry) => !entry.repeat).map(({ record, at }) => ({ record, at }));
    this.held.length = 0;
    this.byKey.clear();
    return rest;
  }

  /** Takes a decided record out. */
  private drop(entry: Held<T>): void {
    this.held.shift();
    if (entry.key === undefined) return;
    const list = this.byKey.get(entry.key);
    if (!list) return;
    const index = list.indexOf(entry);
    if (index >= 0) list.splice(index, 1);
    if (list.length === 0) this.byKey.delete(entry.key);
  }
}

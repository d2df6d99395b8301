// One record per session, shared by the log's reader and the books that follow it: each
// keeps its per-session state in a field of its own of that one record, so a session costs
// one map entry, one small object and its key once, however many books follow it (a map of
// its own per book cost each book an entry and more). A field is one owner's: a second owner
// asking for a field already taken (a second store on the same reader) gets a map of its own.
// No I/O, no vscode import.

/** What a book keeps per session: the part of a Map it uses, over the shared records or a map of its own. */
export interface SessionColumn<T> {
  get(session: string): T | undefined;
  has(session: string): boolean;
  set(session: string, value: T): unknown;
  delete(session: string): boolean;
  readonly size: number;
  keys(): IterableIterator<string>;
  values(): IterableIterator<T>;
  entries(): IterableIterator<[string, T]>;
  [Symbol.iterator](): IterableIterator<[string, T]>;
  clear(): void;
}

/** The fields of a session's record, one per owner. */
export type RecordField = 'cursor' | 'plan' | 'health' | 'needsYou' | 'snapshot';

/** A session's record: undefined in a field means its owner keeps nothing for the session. */
class SessionRecord {
  cursor: unknown = undefined;
  plan: unknown = undefined;
  health: unknown = undefined;
  needsYou: unknown = undefined;
  snapshot: unknown = undefined;

  isEmpty(): boolean {
    return this.cursor === undefined && this.plan === undefined && this.health === undefined && this.needsYou === undefined && this.snapshot === undefined;
  }
}

export class SessionRecords {
  private readonly records = new Map<string, SessionRecord>();
  private readonly taken = new Set<RecordField>();

  /** The field's owner's view of the records (a map of its own when the field is taken already). */
  column<T>(field: RecordField): SessionColumn<T> {
    if (this.taken.has(field)) return new Map<string, T>();
    this.taken.add(field);
    return new RecordColumn<T>(this.records, field);
  }

  /** How many sessions have a record (any owner keeps something for them). */
  get size(): number {
    return this.records.size;
  }
}

class RecordColumn<T> implements SessionColumn<T> {
  private count = 0;

  constructor(
    private readonly records: Map<string, SessionRecord>,
    private readonly field: RecordField,
  ) {}

  get size(): number {
    return this.count;
  }

  get(session: string): T | undefined {
    return this.records.get(session)?.[this.field] as T | undefined;
  }

  has(session: string): boolean {
    return this.get(session) !== undefined;
  }

  set(session: string, value: T): this {
    if (value === undefined) {
      this.delete(session);
      return this;
    }
    let record = this.records.get(session);
    if (!record) {
      record = new SessionRecord();
      this.records.set(session, record);
    }
    if (record[this.field] === undefined) this.count++;
    record[this.field] = value;
    return this;
  }

  delete(session: string): boolean {
    const record = this.records.get(session);
    if (!record || record[this.field] === undefined) return false;
    record[this.field] = undefined;
    this.count--;
    if (record.isEmpty()) this.records.delete(session);
    return true;
  }

  *entries(): IterableIterator<[string, T]> {
    for (const [session, record] of this.records) {
      const value = record[this.field];
      if (value !== undefined) yield [session, value as T];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [session] of this.entries()) yield session;
  }

  *values(): IterableIterator<T> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, T]> {
    return this.entries();
  }

  clear(): void {
    for (const session of [...this.keys()]) this.delete(session);
  }
}

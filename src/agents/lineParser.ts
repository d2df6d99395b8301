// What every foreign-file parser shares: line numbers, JSON per line, each unknown shape
// reported once per file, each plan call emitted once, session info handed on when it
// changes, and a JSON state to resume from. Pure: no I/O.
import type { ForeignItem, ForeignPlan, ForeignSessionInfo, ForeignStatus, ForeignUsage, ForeignWrite, ParseOutput, SessionParser, UnknownShape } from '../core/foreign';

import { isRecord, type JsonRecord } from '../core/json';
import { sessionRequestText } from '../core/log/logRecord';

export { isRecord, type JsonRecord };

/** A non-empty string field, or undefined. */
export function stringField(record: JsonRecord, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A short, single-line excerpt of foreign text for a report. */
export function excerpt(text: string, max = 40): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A foreign value named in a report: a short excerpt of a string, else its JSON type. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(excerpt(value, 24));
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/** What every parser state holds; each parser adds its own fields. */
export interface BaseState {
  lines: number;
  /** Unknown-shape details already reported for this file. */
  reported: string[];
  /** Plan and write call ids already emitted. */
  emitted: string[];
  /** Plans emitted from this file so far: a write emitted now comes after that many plan versions. */
  plans: number;
  session?: string;
  cwd?: string;
  title?: string;
  /** The text of the session's first request, one line (kept once: a later request never replaces it). */
  request?: string;
}

export function readBaseState(state: unknown): BaseState {
  const base: BaseState = { lines: 0, reported: [], emitted: [], plans: 0 };
  if (!isRecord(state)) return base;
  if (Number.isSafeInteger(state['lines']) && (state['lines'] as number) >= 0) base.lines = state['lines'] as number;
  if (Number.isSafeInteger(state['plans']) && (state['plans'] as number) >= 0) base.plans = state['plans'] as number;
  base.reported = stringArray(state['reported']);
  base.emitted = stringArray(state['emitted']);
  for (const key of ['session', 'cwd', 'title', 'request'] as const) {
    const value = state[key];
    if (typeof value === 'string') base[key] = value;
  }
  return base;
}

function stringArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Items mapped from a foreign list: a status outside `allowed` makes the whole list unknown. */
export type MappedItems = { ok: true; items: ForeignItem[] } | { ok: false; detail: string };

/**
 * Maps a foreign list: `content` names the text field, statuses pass only when in `allowed`
 * (kept as they are, never turned into another). Text is trimmed.
 */
export function mapItems(
  list: unknown,
  content: string,
  allowed: readonly ForeignStatus[],
  what: string,
): MappedItems {
  if (!Array.isArray(list)) return { ok: false, detail: `${what} without a list` };
  const items: ForeignItem[] = [];
  for (const entry of list) {
    if (!isRecord(entry)) return { ok: false, detail: `${what} item is not an object` };
    const text = entry[content];
    if (typeof text !== 'string') return { ok: false, detail: `${what} item without a text ${content}` };
    const status = entry['status'];
    if (typeof status !== 'string' || !(allowed as readonly string[]).includes(status)) {
      return { ok: false, detail: `${what} status ${describeValue(status)}` };
    }
    items.push({ content: text.trim(), status: status as ForeignStatus });
  }
  return { ok: true, items };
}

/** One batch in progress: what `push` returns, built up line by line. */
export class Batch {
  readonly plans: ForeignPlan[] = [];
  readonly writes: ForeignWrite[] = [];
  readonly usage: ForeignUsage[] = [];
  readonly unknown: UnknownShape[] = [];
  constructor(
    private readonly base: BaseState,
    private readonly reported: Set<string>,
    private readonly emitted: Set<string>,
  ) {}

  /** Reports `detail` at `line`, once per file. */
  report(line: number, detail: string): void {
    if (this.reported.has(detail)) return;
    this.reported.add(detail);
    this.base.reported.push(detail);
    this.unknown.push({ line, detail });
  }

  /** True when the call id was emitted before (in this file); marks it as emitted otherwise. */
  alreadyEmitted(call: string): boolean {
    if (this.emitted.has(call)) return true;
    this.emitted.add(call);
    this.base.emitted.push(call);
    return false;
  }

  /** True when the call id was emitted before (in this file); marks nothing. */
  wasEmitted(call: string): boolean {
    return this.emitted.has(call);
  }

  emit(plan: ForeignPlan): void {
    this.plans.push(plan);
    this.base.plans++;
  }

  /**
   * A write of the session, in record order: it comes after every plan emitted so far. Its
   * call id must not have been emitted before (see `alreadyEmitted`).
   */
  write(write: Omit<ForeignWrite, 'plansBefore'>): void {
    this.writes.push({ ...write, plansBefore: this.base.plans });
  }

  /** A model response of the session, in record order: it comes after every plan emitted so far. */
  used(usage: Omit<ForeignUsage, 'plansBefore'>, plansBefore = this.base.plans): void {
    this.usage.push({ ...usage, plansBefore: Math.min(plansBefore, this.base.plans) });
  }

  /** Hands on a model response with the plan count its agent's record gives (see `emitWrite`). */
  emitUsage(usage: ForeignUsage): void {
    this.usage.push(usage);
  }

  /** Hands on the files a tool call wrote, after the plans emitted before it. */
  emitWrite(write: ForeignWrite): void {
    this.writes.push(write);
  }
}

/**
 * A SessionParser over JSON lines: the subclass handles one parsed line at a time, with
 * the base keeping line numbers, reports, emitted calls, and the session info.
 */
export abstract class JsonLineParser implements SessionParser {
  protected readonly base: BaseState;
  private readonly reported: Set<string>;
  private readonly emitted: Set<string>;

  constructor(
    protected readonly agent: ForeignSessionInfo['agent'],
    state: unknown,
  ) {
    this.base = readBaseState(state);
    this.reported = new Set(this.base.reported);
    this.emitted = new Set(this.base.emitted);
  }

  push(lines: readonly string[]): ParseOutput {
    const batch = new Batch(this.base, this.reported, this.emitted);
    const infoBefore = this.infoKey();
    for (const text of lines) {
      const line = ++this.base.lines;
      if (typeof text !== 'string' || text.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        this.notJson(line, batch);
        continue;
      }
      const record = this.recordOf(value);
      if (record === undefined) {
        batch.report(line, 'a line that is not a JSON object');
        continue;
      }
      try {
        this.handle(record, line, batch);
      } catch (error) {
        // A bug or a shape the checks above let through: report it, never throw.
        batch.report(line, `a line this parser could not read (${excerpt(String(error), 60)})`);
      }
    }
    const output: ParseOutput = { plans: batch.plans, unknown: batch.unknown };
    if (batch.writes.length > 0) output.writes = batch.writes;
    if (batch.usage.length > 0) output.usage = batch.usage;
    const info = this.info();
    if (info && this.infoKey() !== infoBefore) output.info = info;
    return output;
  }

  state(): unknown {
    return { ...this.base, ...this.ownState() };
  }

  /** The session info once the session id is known and the session is one to follow. */
  protected info(): ForeignSessionInfo | undefined {
    if (this.base.session === undefined || !this.accepted()) return undefined;
    const info: ForeignSessionInfo = { agent: this.agent, session: this.base.session };
    if (this.base.cwd !== undefined) info.cwd = this.base.cwd;
    if (this.base.title !== undefined) info.title = this.base.title;
    if (this.base.request !== undefined) info.request = this.base.request;
    return info;
  }

  /** Records the session's first request from what the user typed; a later one, or one with no text, changes nothing. */
  protected firstRequest(text: string | undefined): void {
    if (this.base.request !== undefined || text === undefined) return;
    const request = sessionRequestText(text);
    if (request !== undefined) this.base.request = request;
  }

  private infoKey(): string {
    return JSON.stringify(this.info() ?? null);
  }

  /** A line that is not JSON: reported (a file rewritten whole says so of a version read while it was written, and passes over it). */
  protected notJson(line: number, batch: Batch): void {
    batch.report(line, 'a line that is not JSON');
  }

  /** The record a line's JSON value holds (a file whose document is an array wraps it); undefined is reported. */
  protected recordOf(value: unknown): JsonRecord | undefined {
    return isRecord(value) ? value : undefined;
  }

  /** False for a session that turned out to belong elsewhere: it yields nothing. */
  protected accepted(): boolean {
    return true;
  }

  protected abstract handle(record: JsonRecord, line: number, batch: Batch): void;
  protected abstract ownState(): JsonRecord;
}

// What each plan item cost: the time it was in progress, and the tool calls and tokens of the
// model responses made while it was (the `model/usage` lines, each naming the items in
// progress when it was recorded). One item named: the response is that item's; several: each
// of theirs, marked shared (counted once in the totals); none: the session's; not known
// (`itemsUnknown`): apart, never the session's. A connected agent's request for the user's
// leave (permission/ask) counts for the items in progress then. Cost only where
// the agent recorded one; tokens "not recorded" (undefined, never 0) where no line had any.
// Pure and incremental: feed the log's lines oldest first, read the figures at any time.
import { isCurrentPlan, isPlanEvent, type LogRecord } from '../log/logRecord';
import { isUsage, type UsageRecord, type UsageTokens } from '../log/usageRecord';

export interface LedgerFigures {
  /** Model responses counted. */
  responses: number;
  /** Tool calls they made. */
  calls: number;
  /** Their tokens; undefined when none of them recorded any. */
  tokens: UsageTokens | undefined;
  /** Their cost, summed; undefined when none recorded one. */
  cost: number | undefined;
}

export interface ItemLedger {
  content: string;
  /** Time in progress, over every stretch, up to `now` for a stretch still open. */
  inProgressMs: number;
  /** Everything while it was in progress, shared responses included. */
  all: LedgerFigures;
  /** The part of `all` made while other items were in progress too. */
  shared: LedgerFigures;
  /** Requests of a connected agent for the user's leave (permission/ask lines) while it was in progress. */
  asks: number;
}

export interface Ledger {
  /** Per item text, in the order first seen in progress or named. */
  items: ItemLedger[];
  /** What was made while no item was in progress. */
  session: LedgerFigures;
  /** What was made while the items in progress are not known (the agent's record did not tell). */
  unknown: LedgerFigures;
  /** Every response once. */
  total: LedgerFigures;
  /** From the first line to the last (or `now`). */
  elapsedMs: number;
}

export const emptyFigures = (): LedgerFigures => ({ responses: 0, calls: 0, tokens: undefined, cost: undefined });

function add(figures: LedgerFigures, record: UsageRecord): void {
  figures.responses++;
  figures.calls += record.calls;
  if (record.tokens) {
    const t = (figures.tokens ??= { input: 0, output: 0, cached: 0 });
    t.input += record.tokens.input;
    t.output += record.tokens.output;
    t.cached += record.tokens.cached;
  }
  if (record.cost !== undefined) figures.cost = (figures.cost ?? 0) + record.cost;
}

interface Stretch {
  item: ItemLedger;
  /** Start of the open in-progress stretch (epoch ms), if the item is in progress now. */
  since: number | undefined;
  doneMs: number;
}

/** Folds a session's log lines into its ledger, one at a time. */
export class LedgerBuilder {
  private readonly items = new Map<string, Stretch>();
  private readonly session = emptyFigures();
  private readonly unknown = emptyFigures();
  private readonly total = emptyFigures();
  /** The permission requests counted, by id. */
  private readonly asked = new Set<string>();
  private first: number | undefined;
  private last: number | undefined;

  push(record: LogRecord): void {
    const time = Date.parse(record.ts);
    if (!Number.isNaN(time)) {
      this.first ??= time;
      this.last = Math.max(this.last ?? time, time);
    }
    if (isPlanEvent(record)) {
      if (!isCurrentPlan(record) || Number.isNaN(time)) return;
      const working = new Set(record.todos.filter((todo) => todo.status === 'in_progress').map((todo) => todo.content));
      for (const content of working) {
        const stretch = this.stretch(content);
        stretch.since ??= time;
      }
      for (const stretch of this.items.values()) {
        if (stretch.since !== undefined && !working.has(stretch.item.content)) {
          stretch.doneMs += Math.max(0, time - stretch.since);
          stretch.since = undefined;
        }
      }
    } else if (record.type === 'permission/ask') {
      // A request taken again after a reload is one request.
      if (this.asked.has(record.id)) return;
      this.asked.add(record.id);
      for (const stretch of this.items.values()) if (stretch.since !== undefined) stretch.item.asks++;
    } else if (isUsage(record)) {
      add(this.total, record);
      if (record.itemsUnknown === true) {
        add(this.unknown, record);
        return;
      }
      const named = [...new Set(record.items)];
      if (named.length === 0) add(this.session, record);
      for (const content of named) {
        const { item } = this.stretch(content);
        add(item.all, record);
        if (named.length > 1) add(item.shared, record);
      }
    }
  }

  private stretch(content: string): Stretch {
    let stretch = this.items.get(content);
    if (stretch === undefined) {
      stretch = { item: { content, inProgressMs: 0, all: emptyFigures(), shared: emptyFigures(), asks: 0 }, since: undefined, doneMs: 0 };
      this.items.set(content, stretch);
    }
    return stretch;
  }

  /** The ledger so far; open stretches run to `now` (default: the last line read). */
  ledger(now?: number): Ledger {
    const end = Math.max(now ?? this.last ?? 0, this.last ?? 0);
    const copy = (f: LedgerFigures): LedgerFigures => ({ ...f, tokens: f.tokens ? { ...f.tokens } : undefined });
    const items = [...this.items.values()].map(({ item, since, doneMs }) => ({
      content: item.content,
      inProgressMs: doneMs + (since !== undefined ? Math.max(0, end - since) : 0),
      all: copy(item.all),
      shared: copy(item.shared),
      asks: item.asks,
    }));
    return { items, session: copy(this.session), unknown: copy(this.unknown), total: copy(this.total), elapsedMs: this.first === undefined ? 0 : end - this.first };
  }
}

/** The ledger of a session's lines, oldest first. */
export function buildLedger(records: Iterable<LogRecord>, now?: number): Ledger {
  const builder = new LedgerBuilder();
  for (const record of records) builder.push(record);
  return builder.ledger(now);
}

/** "52k", "1.2M", "830": a token count, short. */
export function shortCount(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 1_000_000) return `${n < 10_000 ? (n / 1000).toFixed(1).replace(/\.0$/, '') : Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}

/** All the tokens of figures (input, output and cached), or undefined when not recorded. */
export function tokenSum(figures: LedgerFigures): number | undefined {
  return figures.tokens === undefined ? undefined : figures.tokens.input + figures.tokens.output + figures.tokens.cached;
}

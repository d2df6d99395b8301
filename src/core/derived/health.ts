// Plan health: where a session's plan stops matching the work, derived from what the log
// holds (plan versions and the turn facts session/info lines carry). Pure: no I/O, no
// clock of its own (the time rules take `now`), no vscode import.
//
// One SessionHealth per session, fed in file order: `plan` for each version that becomes
// the current plan, `info` for each session/info line, `seed` for a file's state as a tail
// read found it (activation, a file cut short). Each call costs the items of the versions
// it compares, never the history. `signals(now)` lists what holds now, most urgent first.
//
// The rules (the README says the same):
// - Same item = same trimmed text. An item is open when pending, in progress or blocked;
//   cancelled is neither open nor done.
// - stopped-open: the newest turn ended (by the agent, cancelled, failed), the end was
//   recorded after the current plan, and that plan has open items. A newer plan version or
//   a new turn clears it. A running turn is never stopped.
// - dropped: an item open in one version is absent from the next and is not reworded.
//   Clears when the item comes back, when the plan completes, or when the user dismisses it.
// - reworded: an item absent from the next version whose place (same position) holds a new
//   text with the same status. Informational; it describes the newest version only.
// - reopened: an item completed in one version is open in the next. Clears when it
//   completes again or leaves the plan.
// - stalled: the turn is running, the plan has open items, and the agent's record grew by
//   ≥ N tool calls since the last plan write, or grew at all with no plan write for
//   ≥ M minutes, or nothing at all was recorded for M minutes. Without turn facts (a writer
//   that records no turns), only the last: an item in progress and nothing recorded for M minutes.
//   Not while a tool call waits (the wait says why nothing moves).
// - waiting: the newest session/info line names a tool call still waiting for its result,
//   first seen ≥ S seconds ago (an approval prompt or a long command). Clears with the next
//   line that names none (the call completed) or another call.
// - done: every item is completed or cancelled, and at least one is completed.
// - waiting, asked: a permission/ask line (the agent's permission hook, taken by a window) is
//   waiting at once, with the request, until its permission/answer line, its hook's time
//   (`until`), or the call it asked for waits no more (answered at the agent's own prompt): that
//   call is the waiting call of its tool the agent's record names when the ask is read, or
//   first names after it. It comes before a waiting call of the record, which it explains.
import type { TurnState } from '../foreign';
import type { ItemStatus, PlanItem } from '../plan/plan';

/** `request-open` comes from the user's requests (requests.ts): a turn ended without a plan that holds one. */
export type HealthKind = 'waiting' | 'stopped-open' | 'dropped' | 'reworded' | 'reopened' | 'stalled' | 'done' | 'request-open';
export type { TurnState };
/** How a turn ended: by the agent, cancelled by the user, or failed. */
export type StopHow = Exclude<TurnState, 'running'>;

/** The kinds that call for the user's attention (reworded and done do not). */
export const WARNING_KINDS: ReadonlySet<HealthKind> = new Set(['waiting', 'stopped-open', 'dropped', 'reopened', 'stalled', 'request-open']);

/**
 * Most urgent first. A waiting call comes first: the agent is live and blocked on it now,
 * while a stopped or stalled session is already at rest.
 */
const URGENCY: readonly HealthKind[] = ['waiting', 'stopped-open', 'stalled', 'request-open', 'dropped', 'reopened', 'reworded', 'done'];

/** Sorts signals most urgent first. */
export function byUrgency(a: HealthSignal, b: HealthSignal): number {
  return URGENCY.indexOf(a.kind) - URGENCY.indexOf(b.kind);
}

export interface HealthSignal {
  kind: HealthKind;
  /** stopped-open: how the turn ended. */
  how?: StopHow;
  /** ISO time this machine saw it start (the `ts` of the line that started it). */
  since: string;
  /** Byte offset of the version that started it, when known. */
  at?: number;
  /** The item texts concerned; for reworded, pairs: the old text, then the new one. */
  items?: string[];
  /** stalled: why (tool calls since the last plan write, no plan write for M minutes, nothing recorded). */
  stall?: { reason: 'calls' | 'time' | 'idle'; calls: number };
  /** waiting: the tool whose call waits, and whether the agent's record says it waits for approval. */
  wait?: { tool: string; approval: boolean };
  /** waiting, asked through the agent's permission hook: the request to answer (permission/ask). */
  ask?: AskFacts;
}

/** A request taken from an agent's permission hook (a permission/ask line). */
export interface AskFacts {
  id: string;
  tool: string;
  input: string;
  description?: string;
  /** When its hook stops waiting (ISO). */
  until: string;
}

export interface HealthSettings {
  /** Tool calls without a plan update that make a running turn stalled. */
  stallCalls: number;
  /** Minutes without a plan update (or without anything recorded) that make it stalled. */
  stallMinutes: number;
  /** Seconds a tool call waits for its result before the session shows as waiting. */
  waitSeconds: number;
}

export const DEFAULT_HEALTH_SETTINGS: HealthSettings = { stallCalls: 25, stallMinutes: 10, waitSeconds: 30 };

/** The newest turn, as a session/info line states it. */
export interface TurnFacts {
  state: TurnState;
  /** When this machine saw the turn reach that state. */
  since: string;
}

/** The agent's record since its last plan write, as a session/info line states it. */
export interface ActivityFacts {
  /** Tool calls since the last plan call, in the newest turn. */
  calls: number;
  /** When this machine last saw the record grow. */
  at: string;
}

/** A tool call waiting for its result, as a session/info line states it. */
export interface PendingFacts {
  tool: string;
  call: string;
  /** When this machine first saw it waiting. */
  since: string;
  approval?: boolean | undefined;
}

/** What SessionHealth reads of a session/info line. */
export interface HealthInfo {
  ts: string;
  turn?: TurnFacts | undefined;
  activity?: ActivityFacts | undefined;
  /** Absent: no call waits. */
  pending?: PendingFacts | undefined;
}

/** What SessionHealth reads of a plan version. */
export interface HealthPlan {
  ts: string;
  todos: readonly PlanItem[];
}

interface Mark {
  since: string;
  at: number | undefined;
}

export function isOpen(status: ItemStatus): boolean {
  return status === 'pending' || status === 'in_progress' || status === 'blocked';
}

/** Status per text: with repeated texts (foreign plans), an open one wins. */
export function statusMap(todos: readonly PlanItem[]): Map<string, ItemStatus> {
  const map = new Map<string, ItemStatus>();
  for (const todo of todos) {
    const known = map.get(todo.content);
    if (known === undefined || (!isOpen(known) && isOpen(todo.status))) map.set(todo.content, todo.status);
  }
  return map;
}

export class SessionHealth {
  private todos: readonly PlanItem[] | undefined;
  private statuses = new Map<string, ItemStatus>();
  private planTs: string | undefined;
  private planAt: number | undefined;
  private open = 0;
  private completed = 0;
  private inProgress = 0;
  private readonly dropped = new Map<string, Mark>();
  private readonly reopened = new Map<string, Mark>();
  private reworded: (Mark & { items: string[] }) | undefined;
  private turn: TurnFacts | undefined;
  /** The newest info line came after the current plan. */
  private infoAfterPlan = false;
  private calls = 0;
  private activityAt: string | undefined;
  /** The call the newest info line names as waiting. */
  private pending: PendingFacts | undefined;
  /** The newest `ts` of any line read (plan or info): "nothing recorded since". */
  private lastTs: string | undefined;
  /** Requests asked through the agent's permission hook and not ended, with the agent's record's call they ask for, once seen waiting. */
  private readonly asks = new Map<string, AskFacts & { since: string; call: string | undefined }>();

  /** A permission/ask line: the call of its tool that waits now (its record may name it first) is the one it asks for. */
  ask(record: AskFacts & { ts: string }): void {
    const { id, tool, input, description, until, ts } = record;
    const call = this.pending?.tool === tool ? this.pending.call : undefined;
    this.asks.set(id, { id, tool, input, ...(description !== undefined ? { description } : {}), until, since: ts, call });
    this.touch(ts);
  }

  /** A permission/answer line: its request ended. */
  answered(id: string, ts: string): void {
    this.asks.delete(id);
    this.touch(ts);
  }

  /** A new current plan version, read after everything fed so far. `at` is its byte offset. */
  plan(event: HealthPlan, at?: number): void {
    const next = statusMap(event.todos);
    const mark: Mark = { since: event.ts, at };
    this.reworded = undefined;
    const previous = this.todos;
    if (previous !== undefined) {
      const pairs: string[] = [];
      const taken = new Set<string>();
      previous.forEach((item, index) => {
        if (next.has(item.content)) return;
        const there = event.todos[index];
        // In its place, a text the previous version did not have, with the same status: reworded.
        if (there !== undefined && !this.statuses.has(there.content) && there.status === item.status && !taken.has(there.content)) {
          taken.add(there.content);
          pairs.push(item.content, there.content);
          return;
        }
        if (isOpen(item.status) && !this.dropped.has(item.content)) this.dropped.set(item.content, mark);
      });
      if (pairs.length > 0) this.reworded = { ...mark, items: pairs };
      for (const [content, status] of next) {
        this.dropped.delete(content);
        const before = this.statuses.get(content);
        if (before === 'completed' && isOpen(status)) this.reopened.set(content, mark);
        else if (!isOpen(status)) this.reopened.delete(content);
      }
      for (const content of [...this.reopened.keys()]) if (!next.has(content)) this.reopened.delete(content);
    }
    this.todos = event.todos;
    this.statuses = next;
    this.planTs = event.ts;
    this.planAt = at;
    this.count();
    if (this.isDone()) {
      this.dropped.clear();
      this.reopened.clear();
    }
    // A plan write restarts the count of tool calls without one.
    this.infoAfterPlan = false;
    this.calls = 0;
    this.touch(event.ts);
  }

  /** A session/info line, read after everything fed so far. */
  info(record: HealthInfo): void {
    if (record.turn) {
      // A new turn starting clears what the previous one left.
      this.turn = { state: record.turn.state, since: record.turn.since };
    }
    if (record.activity) {
      this.calls = record.activity.calls;
      this.activityAt = record.activity.at;
    }
    // Each line states the whole: a line without one says no call waits.
    this.pending = record.pending ? { ...record.pending } : undefined;
    // A request whose call was seen waiting and waits no more was answered at the agent's own prompt.
    for (const [id, ask] of this.asks) {
      if (ask.call === undefined) {
        if (record.pending?.tool === ask.tool) ask.call = record.pending.call;
      } else if (record.pending?.call !== ask.call) {
        this.asks.delete(id);
      }
    }
    this.infoAfterPlan = true;
    this.touch(record.ts);
  }

  /**
   * A file's state as a tail read found it: its current plan and newest info line. What
   * only a comparison of versions can say (dropped, reopened, reworded) starts empty.
   */
  seed(current: HealthPlan | undefined, info: HealthInfo | undefined, infoAfterPlan: boolean, at?: number): void {
    this.todos = undefined;
    this.statuses = new Map();
    this.dropped.clear();
    this.reopened.clear();
    this.reworded = undefined;
    this.turn = undefined;
    this.calls = 0;
    this.activityAt = undefined;
    this.pending = undefined;
    this.asks.clear();
    this.lastTs = undefined;
    this.planTs = undefined;
    this.planAt = undefined;
    this.count();
    // In file order: the plan, then the info line when it came after it.
    if (info && !infoAfterPlan) this.info(info);
    if (current) this.plan(current, at);
    if (info && infoAfterPlan) this.info(info);
  }

  /**
   * Takes dropped items off the list (the user dismissed them); returns the address of the
   * version that had dropped each one taken off (undefined when not known), by text.
   */
  dismiss(items: readonly string[]): Map<string, number | undefined> {
    const taken = new Map<string, number | undefined>();
    for (const content of items) {
      const mark = this.dropped.get(content);
      if (mark && this.dropped.delete(content)) taken.set(content, mark.at);
    }
    return taken;
  }

  /** Takes a dropped item off the list if the version at `at` dropped it (a dismissal remembered). */
  dismissAt(content: string, at: number): void {
    if (this.dropped.get(content)?.at === at) this.dropped.delete(content);
  }

  /** What holds at `now`, most urgent first. */
  signals(now: number, settings: HealthSettings = DEFAULT_HEALTH_SETTINGS): HealthSignal[] {
    const signals: HealthSignal[] = [];
    const asked = this.asked(now);
    const waiting = asked ?? this.waiting(now, settings);
    if (waiting) signals.push(waiting);
    const stopped = this.stopped();
    if (stopped) signals.push(stopped);
    const stalled = this.stalled(now, settings);
    if (stalled) signals.push(stalled);
    signals.push(...grouped('dropped', this.dropped));
    signals.push(...grouped('reopened', this.reopened));
    if (this.reworded) signals.push(withAt({ kind: 'reworded', since: this.reworded.since, items: [...this.reworded.items] }, this.reworded.at));
    if (this.isDone() && this.planTs !== undefined) signals.push(withAt({ kind: 'done', since: this.planTs }, this.planAt));
    return signals.sort(byUrgency);
  }

  /**
   * When a time rule may next change the signals (ms since the epoch), if one can: a caller
   * checks again then, and not before. Undefined when no time rule is pending.
   */
  nextCheck(now: number, settings: HealthSettings = DEFAULT_HEALTH_SETTINGS): number | undefined {
    const times: number[] = [];
    for (const ask of this.asks.values()) {
      const until = time(ask.until);
      if (until !== undefined && until >= now) times.push(until + 1);
    }
    const waitFrom = time(this.pending?.since);
    if (waitFrom !== undefined && !this.waiting(now, settings)) times.push(waitFrom + settings.waitSeconds * 1000);
    if (this.mayStall() && !this.stalled(now, settings)) {
      const limit = settings.stallMinutes * 60_000;
      const last = time(this.lastTs);
      if (last !== undefined) times.push(last + limit);
      const since = this.planReference();
      if (this.calls > 0 && since !== undefined) times.push(since + limit);
    }
    return times.length > 0 ? Math.min(...times) : undefined;
  }

  /** The oldest request asked through the hook whose hook still waits, as a waiting signal. */
  private asked(now: number): HealthSignal | undefined {
    for (const ask of this.asks.values()) {
      const until = time(ask.until);
      if (until === undefined || until < now) continue;
      const facts: AskFacts = { id: ask.id, tool: ask.tool, input: ask.input, until: ask.until };
      if (ask.description !== undefined) facts.description = ask.description;
      return { kind: 'waiting', since: ask.since, wait: { tool: ask.tool, approval: true }, ask: facts };
    }
    return undefined;
  }

  private waiting(now: number, settings: HealthSettings): HealthSignal | undefined {
    const pending = this.pending;
    const since = time(pending?.since);
    if (pending === undefined || since === undefined || now - since < settings.waitSeconds * 1000) return undefined;
    return { kind: 'waiting', since: pending.since, wait: { tool: pending.tool, approval: pending.approval === true } };
  }

  private stopped(): HealthSignal | undefined {
    const turn = this.turn;
    if (!turn || turn.state === 'running' || !this.infoAfterPlan || this.planTs === undefined || this.open === 0) return undefined;
    // An end carried over from an earlier turn (seen before this plan) is not this plan's stop.
    const end = time(turn.since);
    const plan = time(this.planTs);
    if (end === undefined || plan === undefined || end < plan) return undefined;
    return withAt({ kind: 'stopped-open', how: turn.state, since: turn.since, items: this.openItems() }, this.planAt);
  }

  private mayStall(): boolean {
    // A call that waits says why nothing moves: the wait rule speaks for it.
    if (this.todos === undefined || this.open === 0 || this.pending !== undefined) return false;
    if (this.turn) return this.turn.state === 'running';
    return this.inProgress > 0;
  }

  private stalled(now: number, settings: HealthSettings): HealthSignal | undefined {
    if (!this.mayStall()) return undefined;
    const limit = settings.stallMinutes * 60_000;
    const calls = this.calls;
    if (this.turn && calls >= settings.stallCalls) {
      return this.stallSignal('calls', calls, this.activityAt ?? this.lastTs);
    }
    const since = this.planReference();
    if (this.turn && calls > 0 && since !== undefined && now - since >= limit) {
      return this.stallSignal('time', calls, new Date(since + limit).toISOString());
    }
    const last = time(this.lastTs);
    if (last !== undefined && now - last >= limit) return this.stallSignal('idle', calls, new Date(last + limit).toISOString());
    return undefined;
  }

  private stallSignal(reason: 'calls' | 'time' | 'idle', calls: number, since: string | undefined): HealthSignal {
    return withAt({ kind: 'stalled', since: since ?? this.planTs ?? new Date(0).toISOString(), stall: { reason, calls } }, this.planAt);
  }

  /** Since when the plan has not moved: the last plan write, or the turn's start if later. */
  private planReference(): number | undefined {
    const plan = time(this.planTs);
    const turn = this.turn?.state === 'running' ? time(this.turn.since) : undefined;
    if (plan === undefined) return turn;
    return turn === undefined ? plan : Math.max(plan, turn);
  }

  private openItems(): string[] {
    return (this.todos ?? []).filter((todo) => isOpen(todo.status)).map((todo) => todo.content);
  }

  private count(): void {
    let open = 0;
    let completed = 0;
    let inProgress = 0;
    for (const todo of this.todos ?? []) {
      if (isOpen(todo.status)) open++;
      if (todo.status === 'completed') completed++;
      if (todo.status === 'in_progress') inProgress++;
    }
    this.open = open;
    this.completed = completed;
    this.inProgress = inProgress;
  }

  private isDone(): boolean {
    return this.todos !== undefined && this.open === 0 && this.completed > 0;
  }

  private touch(ts: string): void {
    const at = time(ts);
    const last = time(this.lastTs);
    if (at !== undefined && (last === undefined || at > last)) this.lastTs = ts;
  }
}

function time(iso: string | undefined): number | undefined {
  if (iso === undefined) return undefined;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}

function withAt(signal: HealthSignal, at: number | undefined): HealthSignal {
  if (at !== undefined) signal.at = at;
  return signal;
}

/** One signal per version that started some of the marked items, oldest first. */
function grouped(kind: 'dropped' | 'reopened', marks: ReadonlyMap<string, Mark>): HealthSignal[] {
  const byVersion = new Map<string, HealthSignal>();
  for (const [content, mark] of marks) {
    const key = `${mark.at ?? ''}\n${mark.since}`;
    const known = byVersion.get(key);
    if (known) known.items?.push(content);
    else byVersion.set(key, withAt({ kind, since: mark.since, items: [content] }, mark.at));
  }
  return [...byVersion.values()];
}

export function isWarning(signal: HealthSignal): boolean {
  return WARNING_KINDS.has(signal.kind);
}

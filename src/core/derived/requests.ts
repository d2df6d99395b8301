// The user's own requests for the agent (Add a Request for the Agent…), followed until a
// plan takes them in. Pure rule (SessionRequests) and its book over the log (RequestBook);
// no vscode import.
//
// The rule (the README says the same):
// - A request is **open** from its `user/request` line on.
// - It is **taken into the plan** when a later plan version holds an item whose trimmed text
//   contains the request's text, case-insensitively. Then its row goes.
// - It is **not taken** (signal `request-open`) when the agent's turn ends after the request
//   (a newer turn ends, or the turn that was running when it was made ends) and no version
//   since holds it. A later version that holds it still takes it.
// - A `user/request` line with `withdrawn: true` takes it back: it goes, whatever its state.
import { Emitter, type Disposable, type Event } from '../emitter';
import { SessionBook } from './sessionBook';
import type { HealthSignal } from './health';
import { isUserRequest, requestTextProblem, type LogRecord, type SessionInfoRecord, type UserRequestRecord } from '../log/logRecord';
import type { PlanItem } from '../plan/plan';
import type { SessionLog } from '../log/sessionLog';

export interface UserRequest {
  id: string;
  text: string;
  /** When it was recorded (the line's `ts`). */
  ts: string;
  /** Not taken: the turn ended without a plan version that holds it (since when this machine knows). */
  notTakenSince?: string;
}

/** Whether a plan holds the request: an item whose trimmed text contains it, case-insensitively. */
export function planHolds(todos: readonly PlanItem[], text: string): boolean {
  const wanted = text.trim().toLowerCase();
  return wanted !== '' && todos.some((todo) => todo.content.trim().toLowerCase().includes(wanted));
}

interface Pending extends UserRequest {
  /** The newest turn when the request was made: its index and whether it was running. */
  turn: { index: number; running: boolean } | undefined;
}

/** One session's requests, fed its records in file order. */
export class SessionRequests {
  private readonly open = new Map<string, Pending>();
  private turn: { index: number; running: boolean } | undefined;

  /** Texts taken into the plan by the versions fed since the last `drainTaken`. */
  private taken: string[] = [];

  /** The requests a plan took in since the last call (for "taken into the plan"). */
  drainTaken(): string[] {
    const taken = this.taken;
    this.taken = [];
    return taken;
  }

  /** The hand-off links: the session this one continues, and the sessions that continue it. */
  from: string | undefined;
  readonly to: string[] = [];

  feed(record: LogRecord): boolean {
    if (isUserRequest(record)) return this.request(record);
    if (record.type === 'session/info') return this.info(record);
    if (record.type === 'session/link') {
      if (record.from !== undefined && record.from !== this.from) {
        this.from = record.from;
        return true;
      }
      if (record.to !== undefined && !this.to.includes(record.to)) {
        this.to.push(record.to);
        return true;
      }
      return false;
    }
    if (record.type !== 'todo/write' || record.source?.superseded === true) return false;
    return this.plan(record.todos);
  }

  private request(record: UserRequestRecord): boolean {
    if (record.withdrawn) return this.open.delete(record.id);
    if (this.open.has(record.id)) return false;
    this.open.set(record.id, { id: record.id, text: record.text, ts: record.ts, turn: this.turn ? { ...this.turn } : undefined });
    return true;
  }

  private plan(todos: readonly PlanItem[]): boolean {
    let changed = false;
    for (const [id, request] of this.open) {
      if (planHolds(todos, request.text)) {
        this.open.delete(id);
        this.taken.push(request.text);
        changed = true;
      }
    }
    return changed;
  }

  private info(record: SessionInfoRecord): boolean {
    const turn = record.turn;
    if (!turn) return false;
    this.turn = { index: turn.index, running: turn.state === 'running' };
    if (turn.state === 'running') return false;
    let changed = false;
    for (const request of this.open.values()) {
      if (request.notTakenSince !== undefined) continue;
      const before = request.turn;
      const ended = before === undefined || turn.index > before.index || (turn.index === before.index && before.running);
      if (ended) {
        request.notTakenSince = turn.since;
        changed = true;
      }
    }
    return changed;
  }

  /** The requests still shown, oldest first. */
  list(): UserRequest[] {
    return [...this.open.values()].map(({ id, text, ts, notTakenSince }) => (notTakenSince === undefined ? { id, text, ts } : { id, text, ts, notTakenSince }));
  }

  /** `request-open`: one signal for the requests a turn ended without. */
  /** Open requests stay in memory: their rows and signal show without asking. */
  keep(): boolean {
    return this.open.size > 0;
  }

  signals(): HealthSignal[] {
    const notTaken = this.list().filter((request) => request.notTakenSince !== undefined);
    if (notTaken.length === 0) return [];
    const since = notTaken.map((request) => request.notTakenSince ?? '').sort()[0] ?? '';
    return [{ kind: 'request-open', since, items: notTaken.map((request) => request.text) }];
  }
}

/** How many plan versions back a session's requests are looked for, once, when first asked. */
export const REQUEST_BACKFILL_VERSIONS = 100;

/**
 * Every session's requests, kept in step with the log's one reader. A session's past is read
 * once, when it is first asked for (bounded: its newest 100 plan versions and what came after).
 */
export class RequestBook implements Disposable {
  private readonly book: SessionBook<SessionRequests>;
  private counter = 0;
  private readonly takeEmitter = new Emitter<{ session: string; texts: string[] }>();
  /** Fires with a session's key when its requests changed. */
  readonly onDidChange: Event<string>;
  /** Fires when a plan written in this window's life took requests in (not for what a first read finds). */
  readonly onDidTake = this.takeEmitter.event;

  constructor(
    private readonly log: SessionLog,
    private readonly newId: () => string = () => `${Date.now().toString(36)}-${(this.counter++).toString(36)}`,
  ) {
    this.book = new SessionBook(
      log,
      () => new SessionRequests(),
      () => {
        let versions = 0;
        return (record) => record.type === 'todo/write' && ++versions >= REQUEST_BACKFILL_VERSIONS;
      },
      (session, state, past) => {
        const texts = state.drainTaken();
        if (!past && texts.length > 0) this.takeEmitter.fire({ session, texts });
      },
    );
    this.onDidChange = this.book.onDidChange;
  }

  /** The session's requests still shown (reads its past the first time). */
  async list(session: string): Promise<UserRequest[]> {
    return (await this.book.get(session)).list();
  }

  /** Requests already read, for views that paint now; the first ask starts reading the past (a change follows). */
  known(session: string): UserRequest[] {
    return this.book.known(session)?.list() ?? [];
  }

  signals(session: string): HealthSignal[] {
    return this.book.peek(session)?.signals() ?? [];
  }

  /** The hand-off links known so far (the first ask starts reading the session's past). */
  links(session: string): { from: string | undefined; to: string[] } {
    const state = this.book.known(session);
    return state ? { from: state.from, to: [...state.to] } : { from: undefined, to: [] };
  }

  /** Records that `to` continues the plan of `from`, in both logs. */
  async link(from: string, to: string): Promise<void> {
    await this.log.appendLink(to, { from });
    await this.log.appendLink(from, { to });
  }

  /** Records a request; rejects with the problem's text when it cannot be one. */
  async add(session: string, text: string): Promise<UserRequest> {
    const problem = requestTextProblem(text);
    if (problem) throw new Error(problem);
    await this.book.get(session);
    const record = await this.log.appendRequest(session, this.newId(), text);
    return { id: record.id, text: record.text, ts: record.ts };
  }

  async withdraw(session: string, id: string): Promise<boolean> {
    const request = (await this.list(session)).find((known) => known.id === id);
    if (!request) return false;
    await this.log.appendRequest(session, id, request.text, true);
    return true;
  }

  dispose(): void {
    this.book.dispose();
    this.takeEmitter.dispose();
  }
}

// The `todos` table of a Copilot CLI session after each of its `sql` calls, by running the
// calls' SQL again, in order, in a fresh in-memory SQLite database with the table's schema:
// every state, for any SQL the model writes. The SQL is hostile input, so it runs in a child
// process (./replayChild.ts) and never on the host's thread; each call has a deadline past which
// the child is killed; a call refused by ./sqlGuard.ts (a file, an extension, a setting), one
// past a bound (time, rows, size) or one that fails when run again leaves the session's table
// not known from there on: reported once, never guessed.
import { spawn, type ChildProcess } from 'node:child_process';
import { lookAtSql, refusal } from './sqlGuard';
import { REPLAY_CHILD_SOURCE, type ReplayAnswer, type ReplayChildData } from './replayChild';

/** A row of the `todos` table, in rowid order: what a plan item needs of it. */
export interface TodoRow {
  id: string;
  title: string;
  status: string | null;
}

/** Rows at most: past it the table is not known (a plan holds far fewer). */
export const MAX_TODO_ROWS = 500;

/** The tables Copilot CLI (1.0.102) makes in a session's database on its first `sql` call, as its session.db holds them. */
export const TODOS_SCHEMA = `CREATE TABLE todos (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        description TEXT,
        status TEXT DEFAULT 'pending' CHECK(status IN ('pending', 'in_progress', 'done', 'blocked')),
        created_at TEXT DEFAULT (datetime('now')),
        updated_at TEXT DEFAULT (datetime('now'))
    );
CREATE TABLE todo_deps (
        todo_id TEXT NOT NULL,
        depends_on TEXT NOT NULL,
        PRIMARY KEY (todo_id, depends_on),
        FOREIGN KEY (todo_id) REFERENCES todos(id),
        FOREIGN KEY (depends_on) REFERENCES todos(id)
    );`;

/**
 * One call to run: the SQL of the session's calls that may write, in order (null where not
 * kept; the array of one parser, growing), this call's place in it, and its own SQL (null when
 * too long to run).
 */
export interface ReplayCall {
  session: string;
  history: ReadonlyArray<string | null>;
  index: number;
  query: string | null;
}

/** The table after the call and whether its rows differ from the table before it, or why it is not known (`first`: the call that made it so, to be reported). */
export type ReplayOutcome = { kind: 'rows'; rows: TodoRow[]; changed: boolean } | { kind: 'unknown'; detail: string; first: boolean };

export interface TodoReplayOptions {
  /** The longest one call may run before the child is killed; default 2 s. */
  deadlineMs?: number;
  /** The child ends after this long without a call; default 30 s. */
  idleMs?: number;
  /** The most 4 KiB pages each database may hold; default 4096 (16 MiB). */
  maxPages?: number;
}

interface SessionState {
  history: ReadonlyArray<string | null> | undefined;
  /** Calls of `history` run in the child's database. */
  applied: number;
  /** The table after the last of them. */
  rows: TodoRow[];
  /** Why the table is not known, once it is not. */
  broken?: string;
}

/** Sessions whose database the child keeps at once (an older one is run again from its SQL when asked). */
const MAX_SESSIONS = 16;
const MAX_TITLE_CHARS = 64 * 1024;

/** Runs sessions' SQL again in a child process, one call at a time. */
export class TodoReplay {
  private child: ChildProcess | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, (answer: ReplayAnswer) => void>();
  private readonly sessions = new Map<string, SessionState>();
  private queue: Promise<unknown> = Promise.resolve();
  private idle: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  private readonly deadlineMs: number;
  private readonly idleMs: number;
  private readonly maxPages: number;
  /** The longest a call took in the child, in ms (for the figures). */
  longestCallMs = 0;

  constructor(options: TodoReplayOptions = {}) {
    this.deadlineMs = options.deadlineMs ?? 2000;
    this.idleMs = options.idleMs ?? 30_000;
    this.maxPages = options.maxPages ?? 4096;
  }

  /** The table after `call`; calls are run one at a time, in the order asked. */
  apply(call: ReplayCall): Promise<ReplayOutcome> {
    const run = this.queue.then(() => this.applyNow(call));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Forgets a session's table (its file was read again from its start). */
  forget(session: string): void {
    this.sessions.delete(session);
  }

  dispose(): void {
    this.disposed = true;
    this.stopChild();
  }

  private async applyNow(call: ReplayCall): Promise<ReplayOutcome> {
    let state = this.sessions.get(call.session);
    if (state === undefined || (call.index === 0 && state.history !== call.history)) {
      state = { history: call.history, applied: 0, rows: [] };
      this.sessions.set(call.session, state);
    }
    if (state.broken !== undefined) return { kind: 'unknown', detail: state.broken, first: false };
    const broken = (detail: string): ReplayOutcome => {
      state.broken = detail;
      return { kind: 'unknown', detail, first: true };
    };
    for (let attempt = 0; attempt < 2; attempt++) {
      // Run again from the session's first call when the child's database is not the one the calls before built.
      const from = state.history === call.history && state.applied === call.index ? call.index : 0;
      let before = from === 0 ? [] : state.rows;
      for (let k = from; k <= call.index; k++) {
        const sql = k === call.index ? call.query : call.history[k];
        if (sql === undefined || sql === null) return broken(k === call.index ? 'a sql call too long to run again' : 'a sql call whose earlier SQL is not kept (more than the history holds)');
        const refused = refusal(lookAtSql(sql));
        if (refused !== undefined) return broken(refused);
        const answer = await this.run(call.session, sql, k === 0);
        if ('lost' in answer) {
          state.applied = -1;
          break;
        }
        if ('failed' in answer) return broken(answer.failed.startsWith('bound: ') ? answer.failed.slice(7) : `a sql call that failed when run again (${answer.failed.slice(0, 120)})`);
        state.history = call.history;
        state.applied = k + 1;
        state.rows = answer.rows;
        if (k === call.index) return { kind: 'rows', rows: answer.rows, changed: !sameRows(before, answer.rows) };
        before = answer.rows;
      }
    }
    return broken('a sql call that could not be run again');
  }

  private run(session: string, sql: string, reset: boolean): Promise<ReplayAnswer> {
    if (this.disposed) return Promise.resolve({ id: 0, failed: 'bound: stopped' });
    const child = this.ensureChild();
    if (typeof child === 'string') return Promise.resolve({ id: 0, failed: child });
    const id = this.nextId++;
    const started = performance.now();
    return new Promise<ReplayAnswer>((resolve) => {
      const deadline = setTimeout(() => {
        // The child is somewhere inside SQLite: only killing it stops the call. Every session's database goes with it.
        this.stopChild();
        resolve({ id, failed: `bound: a sql call that ran longer than ${this.deadlineMs} ms` });
      }, this.deadlineMs);
      this.waiting.set(id, (answer) => {
        clearTimeout(deadline);
        this.longestCallMs = Math.max(this.longestCallMs, performance.now() - started);
        resolve(answer);
      });
      child.send({ id, session, reset, sql });
    }).finally(() => this.armIdle());
  }

  private ensureChild(): ChildProcess | string {
    if (this.idle !== undefined) clearTimeout(this.idle);
    this.idle = undefined;
    if (this.child !== undefined) return this.child;
    const data: ReplayChildData = { schema: TODOS_SCHEMA, maxPages: this.maxPages, maxRows: MAX_TODO_ROWS, maxTitleChars: MAX_TITLE_CHARS, maxSessions: MAX_SESSIONS };
    let child: ChildProcess;
    try {
      // The host's own Node (Electron's runs as Node with ELECTRON_RUN_AS_NODE), nothing written, nothing read but its argument.
      child = spawn(process.execPath, ['--max-old-space-size=128', '-e', REPLAY_CHILD_SOURCE, JSON.stringify(data)], {
        stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
        env: { ELECTRON_RUN_AS_NODE: '1' },
        windowsHide: true,
      });
    } catch (error) {
      return `bound: the SQL process could not start (${error instanceof Error ? error.message : String(error)})`;
    }
    child.unref();
    (child.channel as { unref?: () => void } | null | undefined)?.unref?.();
    child.on('message', (answer: ReplayAnswer) => {
      const done = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      done?.(answer);
    });
    const gone = (why: string) => {
      if (this.child !== child) return;
      this.child = undefined;
      for (const [id, done] of this.waiting) done({ id, failed: `bound: ${why}` });
      this.waiting.clear();
    };
    child.on('error', (error) => gone(`the SQL process failed (${error.message})`));
    child.on('exit', () => gone('the SQL process stopped'));
    this.child = child;
    return child;
  }

  private stopChild(): void {
    const child = this.child;
    this.child = undefined;
    if (this.idle !== undefined) clearTimeout(this.idle);
    this.idle = undefined;
    for (const state of this.sessions.values()) state.applied = -1;
    this.waiting.clear();
    if (child !== undefined) child.kill('SIGKILL');
  }

  private armIdle(): void {
    if (this.idle !== undefined || this.child === undefined || this.waiting.size > 0) return;
    this.idle = setTimeout(() => this.stopChild(), this.idleMs);
    this.idle.unref?.();
  }
}

function sameRows(a: readonly TodoRow[], b: readonly TodoRow[]): boolean {
  return a.length === b.length && a.every((row, i) => row.id === b[i]?.id && row.title === b[i]?.title && row.status === b[i]?.status);
}

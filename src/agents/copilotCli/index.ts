// GitHub Copilot CLI (`@github/copilot`): its plans from its session folders, read-only. Its pure
// parser is parser.ts; the events are followed by the shared follower; each `sql` call's SQL is
// run again here (todoReplay.ts, in a worker thread) for the table after it, and the `todos`
// table of a session's database is read only once a call could not be run again.
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { Follower, type SessionFileLocator } from '../follow/follower';
import { readRegularFileText } from '../../node/regularFile';
import { isBusy, loadSqlite, lookDatabase, openDatabase, type SqliteModule } from '../follow/sqlite';
import { agentHomeFolder, isInsideWorkspace } from '../locations';
import { followerReports, withImportPlans, type AgentDescriptor } from '../agent';
import type { ForeignPlan, PlanSink, UnknownShape } from '../../core/foreign';
import { createCopilotCliParser, itemsFromTodoRows, readsTable, replayedPlan, workspaceYamlCwd, type CopilotTodoRow } from './parser';
import { MAX_TODO_ROWS, TodoReplay } from './todoReplay';
import { copilotCliConnect } from './connect';

export * from './parser';
export { TodoReplay } from './todoReplay';

/** A session folder's name as Copilot CLI makes it (a UUID): anything else is never made into a path. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9-]{0,127}$/;
/** A session's `workspace.yaml` is a few lines; a longer one (or no regular file) says nothing. */
const MAX_WORKSPACE_YAML_BYTES = 1024 * 1024;

/** `<copilotHome>/session-state/<id>/events.jsonl` of the sessions whose `workspace.yaml` says they ran in a workspace folder. */
export function copilotSessionLocator(copilotHome: string, workspaceFolders: readonly string[]): SessionFileLocator & { sessionFolder(id: string): string | undefined } {
  const root = path.join(copilotHome, 'session-state');
  // Decided once per folder (a session's cwd does not change); undecided ones are asked again.
  const decided = new Map<string, boolean>();
  let undecided: string[] = [];
  return {
    async list() {
      const names = await fsp.readdir(root).catch(() => [] as string[]);
      const waiting: string[] = [];
      const files: string[] = [];
      for (const name of names.sort()) {
        if (!SESSION_ID.test(name)) continue;
        const folder = path.join(root, name);
        let ours = decided.get(name);
        if (ours === undefined) {
          const yaml = await readRegularFileText(path.join(folder, 'workspace.yaml'), MAX_WORKSPACE_YAML_BYTES).catch(() => undefined);
          const cwd = yaml === undefined ? undefined : workspaceYamlCwd(yaml);
          if (cwd === undefined) {
            if (yaml !== undefined || (await fsp.stat(folder).catch(() => undefined))?.isDirectory()) waiting.push(folder);
            continue;
          }
          ours = workspaceFolders.some((workspace) => isInsideWorkspace(cwd, workspace));
          decided.set(name, ours);
        }
        if (ours) files.push(path.join(folder, 'events.jsonl'));
      }
      undecided = waiting;
      return files;
    },
    watchFolders: () => [root, ...undecided, ...[...decided].filter(([, ours]) => ours).map(([name]) => path.join(root, name))],
    sessionFolder: (id) => (SESSION_ID.test(id) && decided.get(id) === true ? path.join(root, id) : undefined),
  };
}

/** A title read from the database longer than this makes that read an unknown shape. */
const MAX_TITLE_READ = 64 * 1024;

/** The database was being written while it was read: read it again a moment later. */
export class DatabaseBusyError extends Error {}

/** SQLite's "corrupt" codes: an immutable read that raced a write sees a half-written page. */
const RACED_CODES = new Set([11, 26]);

/**
 * The rows of the `todos` table of `dbFile`, read-only and without any lock the agent could wait
 * on: Copilot CLI keeps the database in rollback-journal mode, where a reader's shared lock
 * would make the agent's commit wait. So the file is opened as immutable (no lock, nothing
 * created beside it) while no journal is there, and read again when the file changed during
 * the read; a WAL database (both `-wal` and `-shm` there) is opened read-only, as a WAL reader
 * never blocks the writer. A journal, or one of `-wal`/`-shm` alone, means the agent is
 * writing: DatabaseBusyError. undefined when the database does not exist.
 */
export async function readTodoRows(sqlite: SqliteModule, dbFile: string): Promise<CopilotTodoRow[] | undefined> {
  const before = await lookDatabase(dbFile, { journal: true });
  // A missing database, or one of its files no regular file (SQLite would open it synchronously), is skipped.
  if (before === undefined || before.mode === 'refused') return undefined;
  if (before.mode === 'wait') throw new DatabaseBusyError(`${dbFile} is being written`);
  const shared = before.mode === 'shared';
  let rows: CopilotTodoRow[];
  try {
    const db = openDatabase(sqlite, dbFile, before.mode);
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'todos'").all();
      // At most one row past the bound, and no title past it: the read is one short step on the host's thread.
      rows = tables.length === 0 ? [] : (db.prepare(`SELECT id, substr(title, 1, ${MAX_TITLE_READ + 1}) AS title, status FROM todos ORDER BY rowid LIMIT ${MAX_TODO_ROWS + 1}`).all() as CopilotTodoRow[]);
    } finally {
      db.close();
    }
  } catch (error) {
    const code = typeof error === 'object' && error !== null ? (error as { errcode?: unknown }).errcode : undefined;
    if (isBusy(error) || (!shared && typeof code === 'number' && RACED_CODES.has(code & 0xff))) throw new DatabaseBusyError(`${dbFile} is being written`);
    throw error;
  }
  if (!shared && (await lookDatabase(dbFile, { journal: true }))?.key !== before.key) throw new DatabaseBusyError(`${dbFile} changed while it was read`);
  return rows.map((row) => ({ id: String(row.id), title: row.title, status: row.status }));
}

export interface TableSinkOptions {
  sqlite: SqliteModule;
  /** Runs the sessions' SQL again. */
  replay: TodoReplay;
  /** The session's folder (undefined for a session not followed: its plan is dropped). */
  sessionFolder(session: string): string | undefined;
  onUnknownShape(file: string, shape: UnknownShape): void;
  /** How often, and how long apart, a database being written is read again. Defaults 10 × 100 ms. */
  retries?: number;
  retryMs?: number;
}

/**
 * The sink the follower hands plans to. A `sql` call's plan gets the table its SQL left, run
 * again in order (todoReplay.ts); a call that left the table as it was is no version. Once a
 * call could not be run again (reported once), the session's plans are read from its database
 * instead: when several such plans arrive at once (a catch-up), only the newest gets the table;
 * the earlier ones' lists are in no file any more, and are not guessed.
 */
export function tableSink(sink: PlanSink, options: TableSinkOptions): PlanSink {
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const fileOf = (session: string) => {
    const folder = options.sessionFolder(session);
    return folder === undefined ? session : path.join(folder, 'events.jsonl');
  };
  return withImportPlans(sink, async (plans) => {
    const decided: Array<ForeignPlan | 'table' | undefined> = [];
    for (const plan of plans) {
      const replayed = replayedPlan(plan);
      if (replayed === undefined) {
        decided.push(readsTable(plan) ? 'table' : plan);
        continue;
      }
      const outcome = await options.replay.apply(replayed.call);
      if (outcome.kind === 'rows') {
        const items = itemsFromTodoRows(outcome.rows);
        if (typeof items !== 'string') {
          replayed.settle(outcome.changed ? 'version' : 'unchanged');
          decided.push(outcome.changed ? { ...plan, items } : undefined);
          continue;
        }
        options.onUnknownShape(fileOf(plan.source.session), { line: 0, detail: items });
      } else if (outcome.first) {
        options.onUnknownShape(fileOf(plan.source.session), { line: 0, detail: outcome.detail });
      }
      replayed.settle('unknown');
      decided.push('table');
    }
    const newest = new Map<string, number>();
    plans.forEach((plan, i) => decided[i] === 'table' && newest.set(plan.source.session, i));
    const out: ForeignPlan[] = [];
    for (const [i, plan] of plans.entries()) {
      const decision = decided[i];
      if (decision !== 'table') {
        if (decision !== undefined) out.push(decision);
        continue;
      }
      if (newest.get(plan.source.session) !== i) continue;
      const folder = options.sessionFolder(plan.source.session);
      if (folder === undefined) continue;
      const dbFile = path.join(folder, 'session.db');
      let rows: CopilotTodoRow[] | undefined;
      for (let attempt = 0; ; attempt++) {
        try {
          rows = await readTodoRows(options.sqlite, dbFile);
          break;
        } catch (error) {
          if (!(error instanceof DatabaseBusyError) || attempt >= (options.retries ?? 10)) throw error;
          await wait(options.retryMs ?? 100);
        }
      }
      if (rows === undefined) continue;
      const items = rows.length > MAX_TODO_ROWS ? `a todos table of more than ${MAX_TODO_ROWS} rows` : rows.some((row) => typeof row.title === 'string' && row.title.length > MAX_TITLE_READ) ? `a todos title longer than ${MAX_TITLE_READ} characters` : itemsFromTodoRows(rows);
      if (typeof items === 'string') {
        options.onUnknownShape(dbFile, { line: 0, detail: items });
        continue;
      }
      out.push({ ...plan, items });
    }
    if (out.length > 0) await sink.importPlans(out);
  });
}

export const copilotCli: AgentDescriptor = {
  id: 'copilot-cli',
  name: 'Copilot CLI',
  icon: 'github',
  settingKey: 'copilotCli',
  parserVersion: 'copilot-cli/6',
  defaultFolder: (env, home) => agentHomeFolder(env, 'COPILOT_HOME', home, '.copilot'),
  about: {
    tested: '1.0.102',
    planTools: 'its `todos` table, written with its `sql` tool',
    switchOn: 'Nothing to switch on; a non-interactive run needs its tools allowed (`--allow-all-tools`).',
    reads: {
      agent: 'Copilot CLI (`todos` table, `sql` tool)',
      files: '`~/.copilot/session-state/<session id>/events.jsonl` (`COPILOT_HOME` moves `~/.copilot`): each completed `sql` call that changed the `todos` table is a version, its rows from its SQL run again in an in-memory SQLite database; the table of `session.db` beside it is read only after a call that could not be run again',
      sessions: 'sessions whose `workspace.yaml` `cwd` is a workspace folder or inside one (read once per session folder)',
      session: 'one session',
    },
    readme: { agent: 'Copilot CLI (1.0.102)', reads: 'its `todos` table, from the SQL of each `sql` call run again (`session.db` after a call that cannot be), and its edits, from `~/.copilot/session-state/<session>/events.jsonl`', switchOn: 'nothing (allow its tools)' },
    rows: {
      naming: { cells: ['none read (its `workspace.yaml` `name` is the first prompt unless renamed)', "the first `user.message` event's `content` (not its `transformedContent`)"] },
      mapping: [
        { label: '`todos` table', cells: ['`title`', '`id`, `description`, `todo_deps`', "pending, in_progress, `done` → completed, and **blocked**, kept as it is; rows in the order they were inserted; a row with another status (or none) makes that read an unknown shape. The events hold the SQL, the database only the newest table: each completed call's SQL is run again, in order from `session.start`, in an in-memory SQLite database with the table's schema (`src/agents/copilotCli/todoReplay.ts`, in a child process on the host's Node, never on its thread), and the table is read after each call: every version, edit and response is the one of its moment, for any SQL; a call that left the table as it was is no version. The SQL is hostile input: ATTACH, DETACH, VACUUM, PRAGMA and load_extension are refused; each call has a 2 s deadline, the table 500 rows, the database 16 MiB, a call's SQL 1 MiB. A call refused or past a bound is reported once and its state is not known, never guessed: the later calls' plans are read from `session.db` when their `tool.execution_complete` (`success: true`) is read (a catch-up gives the newest table to the newest call and guesses no earlier list), and the edits and responses after it are recorded with their item **not known** (`itemsUnknown`), never as made while no item was in progress."] },
        { label: '`update_todo` (older releases)', cells: ['a `- [ ]` / `- [x]` line of its Markdown checklist', 'prose around the list', "`- [ ]` pending, `- [x]` completed; any other mark is reported, never guessed. The pinned 1.0.102 has no such tool (nothing in its code names it). Read from 1.0.63's code: the call's `arguments.todos` is the checklist (a string), its prompts name `- [x]` completed and `- [ ]` pending, and its runtime knows a third status, `in_progress`, whose mark the JavaScript does not show. Run offline with `-p` (its own provider), 1.0.63 did not offer `update_todo` either (it offered `sql` and `task`, as 1.0.102 does), so no real program wrote this form here: it is tested with written input only."] },
      ],
      waiting: { cells: ["a tool of an `assistant.message`'s `toolRequests` whose `tool.execution_complete` has not come (until the request ends)", '**yes**: its prompt writes `permission.requested` (naming the call in `permissionRequest.toolCallId`) after the call\'s `tool.execution_start`, and the answer writes `permission.completed` (same `requestId`) before the command runs; a call with a request and no completion reads "waiting for your approval" (recorded, interactive, without `--allow-all-tools`, left at its prompt). With `--allow-all-tools` it writes no permission event, and a waiting call reads "waiting on bash"'] },
      ledger: [
        { cells: ['`session.usage_record`', '`inputTokens`', '`outputTokens`', '`cacheReadTokens` + `cacheWriteTokens`', '`cost`', "its message's `toolRequests`"] },
      ],
    },
    settings: {
      enabled: {
        en: "Show the plans of GitHub Copilot CLI sessions that ran in this workspace (its todos table, read from each session's database).",
        zhCn: '显示在本工作区运行的 GitHub Copilot CLI 会话的计划（其 todos 表，从每个会话的数据库读取）。',
      },
      folder: {
        name: 'GitHub Copilot CLI',
        note: { en: 'its sessions are in `session-state`', zhCn: '其会话在 `session-state` 中' },
        empty: ['`$COPILOT_HOME`', '`~/.copilot`'],
      },
      meaning: "GitHub Copilot CLI's plans, and the folder to read (`session-state` in it).",
    },
  },
  connect: copilotCliConnect,
  start(options) {
    const folders = options.workspaceFolders;
    if (folders.length === 0) return undefined;
    const sqlite = loadSqlite();
    if (typeof sqlite === 'string') options.onPolling(`${sqlite}: Copilot CLI plans (written in SQL) are not followed`);
    const locator = copilotSessionLocator(options.folder, folders);
    const replay = new TodoReplay();
    const sink: PlanSink =
      typeof sqlite === 'string'
        ? withImportPlans(options.sink, (plans) => {
            // Without SQLite no table is known: no plan, and what follows has its items not known.
            for (const plan of plans) replayedPlan(plan)?.settle('unknown');
            return Promise.resolve();
          })
        : tableSink(options.sink, { sqlite, replay, sessionFolder: (id) => locator.sessionFolder(id), onUnknownShape: options.onUnknownShape });
    const follower = new Follower({
      locator,
      createParser: (_file, state) => createCopilotCliParser(state),
      parserVersion: copilotCli.parserVersion,
      sink,
      cursorDir: path.join(options.storageDir, 'sources', 'copilot-cli', 'cursors'),
      ...followerReports(options),
    });
    follower.start();
    return {
      refresh: () => follower.refresh(),
      dispose: () => {
        follower.dispose();
        replay.dispose();
      },
    };
  },
};

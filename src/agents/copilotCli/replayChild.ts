// The child process that runs a Copilot CLI session's SQL again (./todoReplay.ts starts it on
// the host's own Node, with a deadline per call that kills it). A process, not a worker thread:
// ending a worker stops its JavaScript, not a query running inside SQLite (an endless recursive
// CTE kept its thread busy after terminate()), and node:sqlite has no progress handler. Plain
// JavaScript in a string, run with `-e`: the extension is one bundled file, and this needs no
// file of its own. It imports nothing of the extension.
//
// Each session has its own fresh `:memory:` database with the `todos` schema; no file is ever
// opened, extensions stay off (node:sqlite's default), our own settings are made before the
// authorizer (where this Node has one) refuses ATTACH, DETACH, PRAGMA and load_extension for
// the model's SQL. `max_page_count` caps each database (main and temp) so a runaway INSERT
// fails with SQLITE_FULL; temp storage is memory, never a temp file.

/** A request: run `sql` in the session's database (a fresh one first when `reset`), then read the table. */
export interface ReplayRequest {
  id: number;
  session: string;
  reset: boolean;
  sql: string;
}

/** The answer: the table after the call, why its state is not known, or `lost` when the child no longer has the session's database (run it all again). */
export type ReplayAnswer = { id: number; rows: Array<{ id: string; title: string; status: string | null }> } | { id: number; failed: string } | { id: number; lost: true };

/** The child's settings, its one argument (JSON). */
export interface ReplayChildData {
  schema: string;
  maxPages: number;
  maxRows: number;
  maxTitleChars: number;
  maxSessions: number;
}

export const REPLAY_CHILD_SOURCE = String.raw`
'use strict';
const { DatabaseSync, constants } = require('node:sqlite');
const { schema, maxPages, maxRows, maxTitleChars, maxSessions } = JSON.parse(process.argv[process.argv.length - 1]);
const reply = (answer) => process.send(answer);
process.on('disconnect', () => process.exit(0));
const OK = constants ? constants.SQLITE_OK : 0;
const DENY = constants ? constants.SQLITE_DENY : 1;
const DENIED_ACTIONS = new Set([constants.SQLITE_ATTACH, constants.SQLITE_DETACH, constants.SQLITE_PRAGMA, constants.SQLITE_CREATE_VTABLE]);
const DENIED_FUNCTIONS = new Set(['load_extension', 'fts3_tokenizer', 'readfile', 'writefile', 'edit']);
const dbs = new Map();

function open() {
  const db = new DatabaseSync(':memory:', { allowExtension: false });
  db.exec('PRAGMA temp_store = MEMORY; PRAGMA max_page_count = ' + maxPages + '; PRAGMA temp.max_page_count = ' + maxPages + '; PRAGMA trusted_schema = OFF');
  if (typeof db.enableDefensive === 'function') db.enableDefensive(true);
  db.exec(schema);
  if (typeof db.setAuthorizer === 'function') {
    db.setAuthorizer((action, a, b) => {
      if (DENIED_ACTIONS.has(action)) return DENY;
      if (action === constants.SQLITE_FUNCTION && DENIED_FUNCTIONS.has(String(b).toLowerCase())) return DENY;
      return OK;
    });
  }
  return db;
}

function message(error) {
  return error instanceof Error ? error.message : String(error);
}

function table(db) {
  const exists = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'todos'").get();
  if (exists.n === 0) return [];
  const count = db.prepare('SELECT count(*) AS n FROM todos').get().n;
  if (count > maxRows) throw new Error('bound: a todos table of more than ' + maxRows + ' rows');
  const long = db.prepare('SELECT count(*) AS n FROM todos WHERE length(title) > ? OR length(id) > ? OR length(status) > 64').get(maxTitleChars, maxTitleChars).n;
  if (long > 0) throw new Error('bound: a todos row longer than ' + maxTitleChars + ' characters');
  return db.prepare('SELECT CAST(id AS TEXT) AS id, title, status FROM todos ORDER BY rowid').all().map((r) => ({ id: String(r.id), title: typeof r.title === 'string' ? r.title : String(r.title), status: r.status === null ? null : String(r.status) }));
}

process.on('message', (request) => {
  const { id, session, reset, sql } = request;
  let db = dbs.get(session);
  try {
    if (!reset && db === undefined) {
      reply({ id, lost: true });
      return;
    }
    if (reset) {
      if (db !== undefined) db.close();
      dbs.delete(session);
      db = open();
    }
    dbs.delete(session);
    dbs.set(session, db);
    while (dbs.size > maxSessions) {
      const [oldest, old] = dbs.entries().next().value;
      old.close();
      dbs.delete(oldest);
    }
    db.exec(sql);
    reply({ id, rows: table(db) });
  } catch (error) {
    if (db !== undefined) db.close();
    dbs.delete(session);
    const text = message(error);
    reply({ id, failed: /database or disk is full/i.test(text) ? 'bound: a sql call that grew the database past ' + (maxPages * 4) + ' KiB' : text });
  }
});
`;

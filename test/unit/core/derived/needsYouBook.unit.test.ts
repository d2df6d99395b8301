// The "Needs you" queue kept in step with the health book, over real log files: sessions join
// and leave it as their lines are read, a reload finds them, the clock's rule (stalled) comes
// through the health book's own check, and the section's and badge's words.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { ForeignPlan } from '../../../../src/core/foreign';
import { HealthBook } from '../../../../src/core/derived/healthBook';
import { NeedsYouBook } from '../../../../src/core/derived/needsYouBook';
import { needsYouBadge, needsYouReason, needsYouSection } from '../../../../src/core/derived/needsYouText';
import { LogPlanSink, sessionKeyForForeign } from '../../../../src/core/log/planSink';
import { formatOnly } from '../../../../src/core/plan/present';
import { SessionLog } from '../../../../src/core/log/sessionLog';
import { PlanStore } from '../../../../src/core/store/store';
import { nodeFileSystem } from '../../../../src/node/nodeFileSystem';
import { useTempDir } from '../../../lib/temp';

const T0 = Date.UTC(2026, 11, 4, 10, 0, 0);
type Status = 'pending' | 'in_progress' | 'completed';

describe('needs you: the queue kept from the health book, and its words', () => {
  const tmp = useTempDir();
  const clock = { now: T0 };
  beforeEach(() => {
    clock.now = T0;
  });
  const open = () => {
    const log = new SessionLog(path.join(tmp.path, 'sessions'), nodeFileSystem, { now: () => new Date(clock.now) });
    const health = new HealthBook(log, { now: () => clock.now });
    const queue = new NeedsYouBook(log, health);
    let changes = 0;
    queue.onDidChange(() => changes++);
    const sink = new LogPlanSink(log, { now: () => new Date(clock.now) });
    return { log, health, queue, sink, changes: () => changes };
  };
  const plan = (thread: string, call: string, items: Array<[string, Status]>): ForeignPlan => ({
    source: { agent: 'codex', tool: 'update_plan', session: thread, call },
    items: items.map(([content, status]) => ({ content, status })),
  });
  const turn = (thread: string, index: number, state: 'running' | 'ended', calls = 0) => ({ agent: 'codex' as const, session: thread, turn: { index, state }, calls });

  it('a session that stops with items open joins the queue; completing its plan takes it out', async () => {
    const { sink, queue, changes } = open();
    const key = sessionKeyForForeign('codex', 'stops');
    await sink.importPlans([plan('stops', 'c1', [['Read the parser', 'completed'], ['Fix the bound', 'in_progress'], ['Test it', 'pending']])]);
    await sink.updateSession(turn('stops', 0, 'running'));
    assert.equal(queue.size, 0, 'a running turn does not wait on the user');
    clock.now += 5000;
    await sink.updateSession(turn('stops', 0, 'ended'));
    assert.deepEqual(queue.queue().map((entry) => [entry.session, entry.signal.kind, entry.signal.items?.length]), [[key, 'stopped-open', 2]]);
    assert.equal(needsYouReason(queue.get(key)!.signal, formatOnly), 'stopped with 2 items open');
    const joined = changes();
    assert.ok(joined >= 1, 'its joining was told');
    // The agent's next turn completes the plan: the session leaves the queue.
    clock.now += 5000;
    await sink.updateSession(turn('stops', 1, 'running'));
    await sink.importPlans([plan('stops', 'c2', [['Read the parser', 'completed'], ['Fix the bound', 'completed'], ['Test it', 'completed']])]);
    await sink.updateSession(turn('stops', 1, 'ended'));
    assert.deepEqual(queue.queue(), []);
    assert.equal(queue.get(key), undefined);
    assert.ok(changes() > joined, 'its leaving was told');
  });

  it('a reload finds the waiting sessions from the first look, without a change of the health book', async () => {
    const first = open();
    await first.sink.importPlans([plan('before', 'c1', [['Draft', 'in_progress']])]);
    await first.sink.updateSession(turn('before', 0, 'ended'));
    await first.sink.importPlans([plan('finished', 'c1', [['Draft', 'completed']])]);
    await first.sink.updateSession(turn('finished', 0, 'ended'));

    const again = open();
    const told: string[] = [];
    again.health.onDidChange(({ session }) => told.push(session));
    await new PlanStore(again.log).load();
    assert.deepEqual(told, [], 'the health book tells nothing of a first look');
    assert.deepEqual(
      again.queue.queue().map((entry) => [entry.session, needsYouReason(entry.signal, formatOnly)]),
      [[sessionKeyForForeign('codex', 'before'), 'stopped with 1 item open']],
      'the stopped session is in the queue; the finished one is not',
    );
  });

  it('a stall comes when the health book’s clock says, and waits behind a stop', async () => {
    const { sink, health, queue } = open();
    await sink.importPlans([plan('stops', 'c1', [['Ship', 'in_progress']])]);
    await sink.updateSession(turn('stops', 0, 'ended'));
    await sink.importPlans([plan('works', 'c1', [['Refactor', 'in_progress']])]);
    await sink.updateSession(turn('works', 0, 'running', 1));
    assert.equal(queue.size, 1);
    const next = health.nextCheck();
    assert.ok(next !== undefined, 'a running turn puts the health book on the clock');
    clock.now = next;
    health.check();
    assert.deepEqual(
      queue.queue().map((entry) => [entry.session, entry.signal.kind]),
      [
        [sessionKeyForForeign('codex', 'stops'), 'stopped-open'],
        [sessionKeyForForeign('codex', 'works'), 'stalled'],
      ],
    );
    assert.equal(needsYouReason(queue.get(sessionKeyForForeign('codex', 'works'))!.signal, formatOnly), 'stalled');
  });

  it('a session whose log is deleted leaves the queue', async () => {
    const { sink, log, queue } = open();
    await sink.importPlans([plan('gone', 'c1', [['Draft', 'in_progress']])]);
    await sink.updateSession(turn('gone', 0, 'ended'));
    assert.equal(queue.size, 1);
    await log.remove(sessionKeyForForeign('codex', 'gone'));
    assert.equal(queue.size, 0);
  });

  it('the section: a title with the count, a row per session with its name, agent and reason; none when empty', () => {
    const since = '2026-12-04T10:00:00.000Z';
    const section = needsYouSection(
      [
        { session: 'a', signal: { kind: 'stopped-open', how: 'ended', since, items: ['x', 'y'] } },
        { session: 'b', signal: { kind: 'stalled', since, stall: { reason: 'calls', calls: 30 } } },
        { session: 'c', signal: { kind: 'request-open', since, items: ['Add a test'] } },
      ],
      (session) => ({ title: `Session ${session.toUpperCase()}`, agent: session === 'c' ? undefined : 'Codex' }),
      formatOnly,
    );
    assert.equal(section?.label, 'Needs You (3)');
    assert.deepEqual(
      section?.rows.map((row) => [row.title, row.description]),
      [
        ['Session A', 'Codex · stopped with 2 items open'],
        ['Session B', 'Codex · stalled'],
        ['Session C', 'a request of yours is open'],
      ],
    );
    assert.equal(needsYouSection([], () => ({ title: '', agent: undefined }), formatOnly), undefined);
    // Drawn to a few rows: only those are named, the title still counts them all.
    const named: string[] = [];
    const queue = ['a', 'b', 'c', 'd'].map((session) => ({ session, signal: { kind: 'stalled' as const, since, stall: { reason: 'calls' as const, calls: 30 } } }));
    const few = needsYouSection(queue, (session) => (named.push(session), { title: session, agent: undefined }), formatOnly, 2);
    assert.equal(few?.label, 'Needs You (4)');
    assert.deepEqual(few?.rows.map((row) => row.session), ['a', 'b']);
    assert.deepEqual(named, ['a', 'b']);
  });

  it('the words of each reason, and the badge with its tooltip', () => {
    const since = '2026-12-04T10:00:00.000Z';
    assert.equal(needsYouReason({ kind: 'stopped-open', how: 'cancelled', since, items: ['x'] }, formatOnly), 'cancelled with 1 item open');
    assert.equal(needsYouReason({ kind: 'stopped-open', how: 'failed', since, items: ['x', 'y', 'z'] }, formatOnly), 'failed with 3 items open');
    assert.equal(needsYouReason({ kind: 'request-open', since, items: ['a', 'b'] }, formatOnly), '2 requests of yours are open');
    assert.deepEqual(needsYouBadge(1, formatOnly), { value: 1, tooltip: '1 session needs you' });
    assert.deepEqual(needsYouBadge(3, formatOnly), { value: 3, tooltip: '3 sessions need you' });
    assert.equal(needsYouBadge(0, formatOnly), undefined);
  });
});

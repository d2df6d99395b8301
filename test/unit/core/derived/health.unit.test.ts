import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { SessionHealth, isWarning, type HealthSignal, type TurnState } from '../../../../src/core/derived/health';
import type { ItemStatus, PlanItem } from '../../../../src/core/plan/plan';

const T0 = Date.UTC(2026, 11, 3, 10, 0, 0);
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();
const item = (content: string, status: ItemStatus): PlanItem => ({ content, status });
const P = (content: string) => item(content, 'pending');
const W = (content: string) => item(content, 'in_progress');
const C = (content: string) => item(content, 'completed');
const kinds = (signals: HealthSignal[]) => signals.map((s) => s.kind);
const turn = (state: TurnState, seconds: number) => ({ state, since: at(seconds) });

describe('plan health (pure rules)', () => {
  it('a plan worked through to the end: no signal, then done', () => {
    const h = new SessionHealth();
    h.info({ ts: at(0), turn: turn('running', 0) });
    h.plan({ ts: at(1), todos: [W('a'), P('b')] }, 0);
    assert.deepEqual(h.signals(T0 + 2000), []);
    h.plan({ ts: at(2), todos: [C('a'), W('b')] }, 100);
    assert.deepEqual(h.signals(T0 + 3000), []);
    h.plan({ ts: at(3), todos: [C('a'), C('b')] }, 200);
    h.info({ ts: at(4), turn: turn('ended', 4) });
    assert.deepEqual(h.signals(T0 + 5000), [{ kind: 'done', since: at(3), at: 200 }]);
  });

  it('stopped-open: the turn ended after the plan with items open; says how; a new turn or version clears it', () => {
    for (const how of ['ended', 'cancelled', 'failed'] as const) {
      const h = new SessionHealth();
      h.info({ ts: at(0), turn: turn('running', 0) });
      h.plan({ ts: at(1), todos: [C('a'), W('b'), P('c')] }, 40);
      assert.deepEqual(h.signals(T0 + 1500), [], 'still running: never stopped');
      h.info({ ts: at(2), turn: turn(how, 2) });
      assert.deepEqual(h.signals(T0 + 3000), [{ kind: 'stopped-open', how, since: at(2), at: 40, items: ['b', 'c'] }]);
      const next = new SessionHealth();
      next.seed({ ts: at(1), todos: [W('b')] }, { ts: at(2), turn: turn(how, 2) }, true, 40);
      assert.deepEqual(kinds(next.signals(T0 + 3000)), ['stopped-open'], 'the same after a reload');
      next.info({ ts: at(3), turn: turn('running', 3) });
      assert.deepEqual(next.signals(T0 + 4000), [], 'a new turn clears it');
    }
    const h = new SessionHealth();
    h.plan({ ts: at(1), todos: [W('b')] });
    h.info({ ts: at(2), turn: turn('ended', 2) });
    h.plan({ ts: at(3), todos: [W('b')] });
    assert.deepEqual(h.signals(T0 + 4000), [], 'a newer version clears it');
  });

  it('an end carried over from an earlier turn does not stop a later plan', () => {
    const h = new SessionHealth();
    h.info({ ts: at(0), turn: turn('ended', 0) });
    h.plan({ ts: at(5), todos: [W('a')] });
    h.info({ ts: at(6), turn: turn('ended', 0) });
    assert.deepEqual(kinds(h.signals(T0 + 7000)), []);
  });

  it('dropped: an open item gone from the next version; back, completed plan or dismissal clear it', () => {
    const h = new SessionHealth();
    h.plan({ ts: at(1), todos: [W('a'), P('b'), P('c')] }, 0);
    h.plan({ ts: at(2), todos: [W('a'), P('c')] }, 50);
    assert.deepEqual(h.signals(T0 + 3000), [{ kind: 'dropped', since: at(2), at: 50, items: ['b'] }]);
    h.plan({ ts: at(3), todos: [W('a')] }, 90);
    assert.deepEqual(
      h.signals(T0 + 4000).map((s) => [s.at, s.items]),
      [
        [50, ['b']],
        [90, ['c']],
      ],
      'one signal per version that dropped',
    );
    h.plan({ ts: at(4), todos: [W('a'), P('b')] }, 120);
    assert.deepEqual(h.signals(T0 + 5000).map((s) => s.items), [['c']], 'b came back');
    assert.deepEqual([...h.dismiss(['c', 'not there'])], [['c', 90]]);
    assert.deepEqual(h.signals(T0 + 5000), []);
    h.plan({ ts: at(5), todos: [W('a')] });
    h.plan({ ts: at(6), todos: [C('a')] });
    assert.deepEqual(kinds(h.signals(T0 + 7000)), ['done'], 'the plan completed: nothing dropped is left');
  });

  it('a completed or cancelled item that leaves the plan is not dropped; clearing an open plan drops its items', () => {
    const h = new SessionHealth();
    h.plan({ ts: at(1), todos: [C('a'), item('x', 'cancelled'), W('b')] });
    h.plan({ ts: at(2), todos: [W('b')] });
    assert.deepEqual(h.signals(T0 + 3000), []);
    h.plan({ ts: at(3), todos: [] });
    assert.deepEqual(h.signals(T0 + 4000).map((s) => [s.kind, s.items]), [['dropped', ['b']]]);
  });

  it('reworded: a new text in the place of a gone one, same status; informational', () => {
    const h = new SessionHealth();
    h.plan({ ts: at(1), todos: [C('a'), W('Fix bug'), P('c')] }, 0);
    h.plan({ ts: at(2), todos: [C('a'), W('Fix the off-by-one'), P('c')] }, 70);
    const signals = h.signals(T0 + 3000);
    assert.deepEqual(signals, [{ kind: 'reworded', since: at(2), at: 70, items: ['Fix bug', 'Fix the off-by-one'] }]);
    assert.equal(signals.some(isWarning), false);
    // Another status in its place, or another place: dropped.
    h.plan({ ts: at(3), todos: [C('a'), P('Something else'), P('c')] }, 140);
    assert.deepEqual(h.signals(T0 + 4000).map((s) => [s.kind, s.items]), [['dropped', ['Fix the off-by-one']]]);
  });

  it('reopened: completed, then open again; clears when it completes again', () => {
    const h = new SessionHealth();
    h.plan({ ts: at(1), todos: [C('a'), W('b')] });
    h.plan({ ts: at(2), todos: [W('a'), W('b')] }, 30);
    assert.deepEqual(h.signals(T0 + 3000), [{ kind: 'reopened', since: at(2), at: 30, items: ['a'] }]);
    h.plan({ ts: at(3), todos: [C('a'), W('b')] });
    assert.deepEqual(h.signals(T0 + 4000), []);
  });

  it('stalled: N tool calls, or M minutes of calls, or M minutes of nothing, in a running turn', () => {
    const settings = { stallCalls: 25, stallMinutes: 10, waitSeconds: 30 };
    const h = new SessionHealth();
    h.info({ ts: at(0), turn: turn('running', 0) });
    h.plan({ ts: at(1), todos: [W('a'), P('b')] });
    h.info({ ts: at(30), turn: turn('running', 0), activity: { calls: 24, at: at(30) } });
    assert.deepEqual(h.signals(T0 + 31_000, settings), []);
    h.info({ ts: at(31), turn: turn('running', 0), activity: { calls: 31, at: at(31) } });
    assert.deepEqual(h.signals(T0 + 32_000, settings), [{ kind: 'stalled', since: at(31), stall: { reason: 'calls', calls: 31 } }]);
    h.plan({ ts: at(40), todos: [C('a'), W('b')] });
    assert.deepEqual(h.signals(T0 + 41_000, settings), [], 'a plan write clears it');
    h.info({ ts: at(50), turn: turn('running', 0), activity: { calls: 2, at: at(50) } });
    assert.equal(h.nextCheck(T0 + 51_000, settings), T0 + 40_000 + 600_000);
    assert.deepEqual(kinds(h.signals(T0 + 40_000 + 600_000, settings)), ['stalled']);
    assert.equal(h.signals(T0 + 40_000 + 600_000, settings)[0]?.stall?.reason, 'time');
    h.info({ ts: at(700), turn: turn('ended', 700) });
    assert.deepEqual(kinds(h.signals(T0 + 701_000, settings)), ['stopped-open'], 'the turn ended: stopped, no longer stalled');
  });

  it('stalled when nothing at all is recorded; without turn facts only that rule, and only with an item in progress', () => {
    const settings = { stallCalls: 25, stallMinutes: 10, waitSeconds: 30 };
    const h = new SessionHealth();
    h.info({ ts: at(0), turn: turn('running', 0) });
    h.plan({ ts: at(1), todos: [P('a')] });
    assert.deepEqual(h.signals(T0 + 1000 + 599_000, settings), []);
    assert.equal(h.signals(T0 + 1000 + 600_000, settings)[0]?.stall?.reason, 'idle');
    const bare = new SessionHealth();
    bare.plan({ ts: at(1), todos: [P('a')] });
    assert.deepEqual(bare.signals(T0 + 3_600_000, settings), [], 'nothing in progress, no turn facts');
    bare.plan({ ts: at(2), todos: [W('a')] });
    assert.deepEqual(kinds(bare.signals(T0 + 2000 + 600_000, settings)), ['stalled']);
  });

  it('property: a running turn is never stopped-open, and a plan updated as it goes raises no warning', () => {
    const statuses: ItemStatus[] = ['pending', 'in_progress', 'completed'];
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.record({ content: fc.constantFrom('a', 'b', 'c', 'd'), status: fc.constantFrom(...statuses) }), { maxLength: 4 }), {
          minLength: 1,
          maxLength: 8,
        }),
        (versions) => {
          const h = new SessionHealth();
          h.info({ ts: at(0), turn: turn('running', 0) });
          versions.forEach((todos, i) => {
            h.plan({ ts: at(i + 1), todos });
            assert.equal(
              h.signals(T0 + (i + 1) * 1000).some((s) => s.kind === 'stopped-open'),
              false,
            );
          });
        },
      ),
    );
    // A normal run: the same items, each going pending → in progress → completed in order.
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), (n) => {
        const names = Array.from({ length: n }, (_, i) => `item ${i}`);
        const h = new SessionHealth();
        h.info({ ts: at(0), turn: turn('running', 0) });
        let second = 1;
        for (let done = 0; done <= n; done++) {
          const todos = names.map((name, i) => item(name, i < done ? 'completed' : i === done ? 'in_progress' : 'pending'));
          h.plan({ ts: at(second), todos });
          assert.equal(h.signals(T0 + second * 1000).some(isWarning), false);
          second++;
        }
        h.info({ ts: at(second), turn: turn('ended', second) });
        assert.deepEqual(kinds(h.signals(T0 + second * 1000 + 3_600_000)), ['done']);
      }),
    );
  });
});

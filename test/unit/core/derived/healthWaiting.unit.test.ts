// Waiting on a tool call: the pending fact a session/info line carries, from the agent's
// record to the log and back, the signal it makes once it has waited long enough, its words,
// its place in the queue, and the one time the health book checks again.
import * as assert from 'node:assert/strict';
import { SessionHealth, type HealthSignal } from '../../../../src/core/derived/health';
import { signalText, signalWord } from '../../../../src/core/derived/healthText';
import { parseLogRecord } from '../../../../src/core/log/logRecord';
import { needsYouQueue } from '../../../../src/core/derived/needsYou';
import { formatOnly } from '../../../../src/core/plan/present';
import { nextFacts, sameFacts } from '../../../../src/core/log/sessionFacts';
import type { ItemStatus, PlanItem } from '../../../../src/core/plan/plan';

const T0 = Date.UTC(2026, 11, 4, 10, 0, 0);
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();
const item = (content: string, status: ItemStatus): PlanItem => ({ content, status });
const settings = { stallCalls: 25, stallMinutes: 10, waitSeconds: 30 };
const running = { state: 'running' as const, since: at(0) };
const KEY = '0123456789abcdef0123456789abcdef';
const info = (extra: Record<string, unknown>) => ({ v: 1, type: 'session/info', ts: at(0), session: KEY, source: { agent: 'claude-code', session: 's' }, ...extra });

describe('waiting on a tool call', () => {
  it('the pending fact reads back as written; a wrong one is reported', () => {
    const pending = { tool: 'Bash', call: 'toolu_1', since: at(1) };
    assert.deepEqual(parseLogRecord(info({ pending }), KEY), info({ pending }));
    assert.deepEqual(parseLogRecord(info({ pending: { ...pending, approval: true } }), KEY), info({ pending: { ...pending, approval: true } }));
    for (const wrong of [{ ...pending, tool: '' }, { ...pending, call: 7 }, { ...pending, since: 'soon' }, { ...pending, approval: false }, { ...pending, tool: 'x'.repeat(129) }, 'Bash']) {
      assert.match(String(parseLogRecord(info({ pending: wrong }), KEY)), /^`pending` must be/, JSON.stringify(wrong));
    }
  });

  it('keeps the time a call was first seen waiting; null clears it, undefined leaves it', () => {
    const base = { agent: 'claude-code' as const, session: 's' };
    const first = nextFacts(undefined, { ...base, pending: { tool: 'Bash', call: 'c1' } }, 'T1');
    assert.deepEqual(first.pending, { tool: 'Bash', call: 'c1', since: 'T1' });
    const same = nextFacts(first, { ...base, pending: { tool: 'Bash', call: 'c1' } }, 'T2');
    assert.equal(sameFacts(first, same), true, 'the same call still waits: no new line');
    const approval = nextFacts(first, { ...base, pending: { tool: 'Bash', call: 'c1', approval: true } }, 'T3');
    assert.deepEqual(approval.pending, { tool: 'Bash', call: 'c1', since: 'T3', approval: true });
    const other = nextFacts(first, { ...base, pending: { tool: 'Read', call: 'c2' } }, 'T4');
    assert.deepEqual(other.pending, { tool: 'Read', call: 'c2', since: 'T4' });
    assert.deepEqual(nextFacts(first, { ...base, title: 't' }, 'T5').pending, first.pending, 'a parser that says nothing of calls leaves it');
    const done = nextFacts(first, { ...base, pending: null }, 'T6');
    assert.equal(done.pending, undefined);
    assert.equal(sameFacts(first, done), false, 'the call completed: a new line says so');
  });

  it('waiting once a call has waited waitSeconds; the one check is at that time; cleared when the call completes', () => {
    const h = new SessionHealth();
    h.info({ ts: at(0), turn: running });
    h.plan({ ts: at(1), todos: [item('a', 'in_progress')] });
    assert.equal(h.nextCheck(T0 + 2000, settings), T0 + 1000 + 600_000, 'only the stall rule is on the clock');
    h.info({ ts: at(5), turn: running, pending: { tool: 'Bash', call: 'c1', since: at(5) } });
    assert.deepEqual(h.signals(T0 + 34_000, settings), []);
    assert.equal(h.nextCheck(T0 + 6000, settings), T0 + 35_000, 'the wait deadline, not the stall one');
    const waiting: HealthSignal = { kind: 'waiting', since: at(5), wait: { tool: 'Bash', approval: false } };
    assert.deepEqual(h.signals(T0 + 35_000, settings), [waiting]);
    assert.deepEqual(h.signals(T0 + 3_600_000, settings), [waiting], 'an hour later: still waiting, never stalled meanwhile');
    assert.equal(h.nextCheck(T0 + 35_000, settings), undefined, 'waiting already: no clock at all');
    h.info({ ts: at(3600), turn: running });
    assert.deepEqual(h.signals(T0 + 3_601_000, settings), [], 'the call completed');
    assert.equal(h.nextCheck(T0 + 3_601_000, settings), T0 + 3_600_000 + 600_000);
  });

  it('a waitSeconds of its own; an approval says so; after a reload the same', () => {
    const h = new SessionHealth();
    const pending = { tool: 'Bash', call: 'c1', since: at(0), approval: true };
    h.seed({ ts: at(0), todos: [item('a', 'pending')] }, { ts: at(1), pending }, true);
    assert.deepEqual(h.signals(T0 + 9_000, { ...settings, waitSeconds: 10 }), []);
    assert.deepEqual(h.signals(T0 + 10_000, { ...settings, waitSeconds: 10 }), [{ kind: 'waiting', since: at(0), wait: { tool: 'Bash', approval: true } }]);
    const bare = new SessionHealth();
    bare.info({ ts: at(0) });
    assert.equal(bare.nextCheck(T0, settings), undefined, 'nothing pending: no clock');
  });

  it('words: waiting for your approval, or waiting on the tool for how long (English and the key for Chinese)', () => {
    const now = new Date(T0 + 120_000);
    const signal = (approval: boolean): HealthSignal => ({ kind: 'waiting', since: at(0), wait: { tool: 'Bash', approval } });
    assert.equal(signalText(signal(false), now, formatOnly), 'Waiting on Bash for 2 min');
    assert.equal(signalText(signal(true), now, formatOnly), 'Waiting for your approval of Bash for 2 min');
    assert.equal(signalWord(signal(true), formatOnly), 'waiting for your approval');
    assert.equal(signalWord(signal(false), formatOnly), 'waiting on Bash');
    assert.equal(signalText(signal(false), new Date(T0 + 40_000), formatOnly), 'Waiting on Bash for 40 s');
  });

  it('first in the queue, an approval before a running tool, then the oldest', () => {
    const signals: Record<string, HealthSignal[]> = {
      stopped: [{ kind: 'stopped-open', how: 'ended', since: at(0), items: ['a'] }],
      tool: [{ kind: 'waiting', since: at(10), wait: { tool: 'Bash', approval: false } }],
      approvalNew: [{ kind: 'waiting', since: at(30), wait: { tool: 'Edit', approval: true } }],
      approvalOld: [
        { kind: 'stalled', since: at(1), stall: { reason: 'calls', calls: 40 } },
        { kind: 'waiting', since: at(20), wait: { tool: 'Bash', approval: true } },
      ],
    };
    const queue = needsYouQueue(Object.keys(signals), (session) => signals[session] ?? []);
    assert.deepEqual(
      queue.map((entry) => [entry.session, entry.signal.kind]),
      [
        ['approvalOld', 'waiting'],
        ['approvalNew', 'waiting'],
        ['tool', 'waiting'],
        ['stopped', 'stopped-open'],
      ],
    );
  });
});

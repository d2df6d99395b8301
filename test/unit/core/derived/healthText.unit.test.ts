import * as assert from 'node:assert/strict';
import { signalText, signalWord } from '../../../../src/core/derived/healthText';
import { formatOnly } from '../../../../src/core/plan/present';
import type { HealthSignal } from '../../../../src/core/derived/health';

const now = new Date(Date.UTC(2026, 11, 3, 10, 4, 0));
const since = new Date(Date.UTC(2026, 11, 3, 10, 0, 0)).toISOString();

describe('plan health words', () => {
  it('say what happened and since when, with one and many items', () => {
    const text = (signal: Omit<HealthSignal, 'since'>) => signalText({ since, ...signal }, now, formatOnly);
    assert.equal(text({ kind: 'stopped-open', how: 'ended', items: ['a', 'b', 'c'] }), 'Stopped 4 min ago with 3 items open');
    assert.equal(text({ kind: 'stopped-open', how: 'ended', items: ['a'] }), 'Stopped 4 min ago with 1 item open');
    assert.equal(text({ kind: 'stopped-open', how: 'cancelled', items: ['a', 'b'] }), 'Cancelled 4 min ago with 2 items open');
    assert.equal(text({ kind: 'stopped-open', how: 'failed', items: ['a'] }), 'Failed 4 min ago with 1 item open');
    assert.equal(text({ kind: 'dropped', items: ['a'] }), '1 item dropped without being done');
    assert.equal(text({ kind: 'dropped', items: ['a', 'b'] }), '2 items dropped without being done');
    assert.equal(text({ kind: 'reworded', items: ['old', 'new'] }), '1 item reworded');
    assert.equal(text({ kind: 'reworded', items: ['a', 'b', 'c', 'd'] }), '2 items reworded');
    assert.equal(text({ kind: 'reopened', items: ['a'] }), '1 completed item reopened');
    assert.equal(text({ kind: 'stalled', stall: { reason: 'calls', calls: 31 } }), 'No plan update in 31 tool calls');
    assert.equal(text({ kind: 'stalled', stall: { reason: 'time', calls: 3 } }), 'Stalled 4 min ago: the agent works, the plan does not move');
    assert.equal(text({ kind: 'stalled', stall: { reason: 'idle', calls: 0 } }), 'Stalled 4 min ago: nothing recorded for a while');
    assert.equal(text({ kind: 'done' }), 'Plan done 4 min ago');
  });

  it('has a short word per kind for the status bar and the Sessions view', () => {
    const word = (signal: Omit<HealthSignal, 'since'>) => signalWord({ since, ...signal }, formatOnly);
    assert.equal(word({ kind: 'stopped-open', how: 'ended' }), 'stopped with items open');
    assert.equal(word({ kind: 'stopped-open', how: 'cancelled' }), 'cancelled with items open');
    assert.equal(word({ kind: 'stalled' }), 'stalled');
    assert.equal(word({ kind: 'done' }), 'done');
  });
});

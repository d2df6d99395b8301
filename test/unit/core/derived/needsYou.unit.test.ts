// The queue of sessions that wait on the user, from their health signals.
import * as assert from 'node:assert/strict';
import type { HealthSignal } from '../../../../src/core/derived/health';
import { needsYouQueue, nextNeedingYou } from '../../../../src/core/derived/needsYou';

describe('needs you: one queue of the sessions waiting on the user', () => {
  const signals: Record<string, HealthSignal[]> = {
    done: [{ kind: 'done', since: '2026-12-04T10:00:00.000Z' }],
    dropped: [{ kind: 'dropped', since: '2026-12-04T10:00:00.000Z', items: ['x'] }],
    stalledOld: [{ kind: 'stalled', since: '2026-12-04T09:00:00.000Z', stall: { reason: 'calls', calls: 30 } }],
    stalledNew: [{ kind: 'stalled', since: '2026-12-04T11:00:00.000Z', stall: { reason: 'time', calls: 2 } }],
    request: [
      { kind: 'dropped', since: '2026-12-04T08:00:00.000Z' },
      { kind: 'request-open', since: '2026-12-04T08:00:00.000Z' },
    ],
    stopped: [{ kind: 'stopped-open', how: 'ended', since: '2026-12-04T12:00:00.000Z', items: ['a'] }],
    quiet: [],
  };
  const queue = () => needsYouQueue(Object.keys(signals), (session) => signals[session] ?? []);

  it('most urgent first (stopped with items open, stalled, a request open), then the one waiting longest; others left out', () => {
    assert.deepEqual(
      queue().map((entry) => [entry.session, entry.signal.kind]),
      [
        ['stopped', 'stopped-open'],
        ['stalledOld', 'stalled'],
        ['stalledNew', 'stalled'],
        ['request', 'request-open'],
      ],
    );
  });

  it('goes round the queue from the session on screen', () => {
    const q = queue();
    assert.equal(nextNeedingYou(q, undefined)?.session, 'stopped');
    assert.equal(nextNeedingYou(q, 'done')?.session, 'stopped');
    assert.equal(nextNeedingYou(q, 'stopped')?.session, 'stalledOld');
    assert.equal(nextNeedingYou(q, 'request')?.session, 'stopped');
    assert.equal(nextNeedingYou([], 'stopped'), undefined);
  });
});

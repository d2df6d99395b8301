import * as assert from 'node:assert/strict';
import { MAX_SESSION_REQUEST_LENGTH, parseLogRecord, sessionRequestText } from '../../../../src/core/log/logRecord';
import { nextFacts, sameFacts } from '../../../../src/core/log/sessionFacts';

const KEY = '0123456789abcdef0123456789abcdef';
const info = (extra: Record<string, unknown>) => ({ v: 1, type: 'session/info', ts: '2026-12-03T10:00:00.000Z', session: KEY, source: { agent: 'codex', session: 't' }, ...extra });

describe('session/info turn facts', () => {
  it('`request` is one trimmed line of at most MAX_SESSION_REQUEST_LENGTH characters; anything else is reported', () => {
    assert.deepEqual(parseLogRecord(info({ request: 'Add a dark mode toggle' }), KEY), info({ request: 'Add a dark mode toggle' }));
    for (const request of ['', ' padded ', 'two\nlines', 'x'.repeat(MAX_SESSION_REQUEST_LENGTH + 1), 5]) {
      assert.match(String(parseLogRecord(info({ request }), KEY)), /^`request` must be one trimmed line/);
    }
    assert.equal(sessionRequestText(' a\n\tb '), 'a b');
    assert.equal(sessionRequestText(' \n '), undefined);
    const long = sessionRequestText('🙂'.repeat(MAX_SESSION_REQUEST_LENGTH));
    assert.equal(long?.length, MAX_SESSION_REQUEST_LENGTH - 1, 'never cut inside a surrogate pair');
    assert.ok(long?.endsWith('🙂…'));
  });

  it('a line with `turn` and `activity` reads back as written; a wrong one is reported', () => {
    const turn = { index: 2, state: 'cancelled', since: '2026-12-03T10:00:01.000Z' };
    const activity = { calls: 7, at: '2026-12-03T10:00:02.000Z' };
    assert.deepEqual(parseLogRecord(info({ turn, activity }), KEY), info({ turn, activity }));
    assert.match(String(parseLogRecord(info({ turn: { ...turn, state: 'paused' } }), KEY)), /^`turn` must be/);
    assert.match(String(parseLogRecord(info({ turn: { ...turn, since: 'yesterday' } }), KEY)), /^`turn` must be/);
    assert.match(String(parseLogRecord(info({ turn: { ...turn, index: -1 } }), KEY)), /^`turn` must be/);
    assert.match(String(parseLogRecord(info({ activity: { calls: 1.5, at: activity.at } }), KEY)), /^`activity` must be/);
    assert.match(String(parseLogRecord(info({ activity: { calls: 1 } }), KEY)), /^`activity` must be/);
  });

  it('a turn keeps the time it was first seen in its state; a new state or turn, and a new count, take the time now', () => {
    const first = nextFacts(undefined, { agent: 'codex', session: 't', turn: { index: 0, state: 'running' }, calls: 0 }, 'T1');
    assert.deepEqual(first.turn, { index: 0, state: 'running', since: 'T1' });
    assert.deepEqual(first.activity, { calls: 0, at: 'T1' });
    const same = nextFacts(first, { agent: 'codex', session: 't', turn: { index: 0, state: 'running' }, calls: 0 }, 'T2');
    assert.equal(sameFacts(first, same), true, 'nothing new: no line');
    const more = nextFacts(first, { agent: 'codex', session: 't', turn: { index: 0, state: 'running' }, calls: 3 }, 'T3');
    assert.deepEqual([more.turn?.since, more.activity], ['T1', { calls: 3, at: 'T3' }]);
    assert.equal(sameFacts(first, more), false);
    const ended = nextFacts(more, { agent: 'codex', session: 't', turn: { index: 0, state: 'ended' }, calls: 3 }, 'T4');
    assert.deepEqual([ended.turn, ended.activity?.at], [{ index: 0, state: 'ended', since: 'T4' }, 'T3']);
    const next = nextFacts(ended, { agent: 'codex', session: 't', turn: { index: 1, state: 'ended' } }, 'T5');
    assert.deepEqual(next.turn, { index: 1, state: 'ended', since: 'T5' }, 'another turn, even in the same state');
    const titled = nextFacts(next, { agent: 'codex', session: 't', title: 'A title' }, 'T6');
    assert.deepEqual([titled.title, titled.turn, titled.activity], ['A title', next.turn, next.activity], 'absent facts carry over');
  });
});

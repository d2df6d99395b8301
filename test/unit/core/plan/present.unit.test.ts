import * as assert from 'node:assert/strict';
import type { Todo } from '../../../../src/core/plan/plan';
import {
  activeItem,
  changeSummary,
  diffPlans,
  durationText,
  formatOnly as t,
  planMarkdown,
  progressText,
  relativeTime,
  relativeTimeChangesAt,
  sessionTitle,
  sessionName,
  singleLine,
} from '../../../../src/core/plan/present';
import type { PlanRecord } from '../../../../src/core/log/sessionLog';

const todo = (content: string, status: Todo['status']): Todo => ({ content, status });
const event = (ts: string, todos: Todo[]): PlanRecord => ({
  v: 1,
  type: 'todo/write',
  ts,
  session: '0'.repeat(32),
  todos,
  counts: {
    pending: todos.filter((x) => x.status === 'pending').length,
    inProgress: todos.filter((x) => x.status === 'in_progress').length,
    completed: todos.filter((x) => x.status === 'completed').length,
  },
});

describe('present', () => {
  it('progress text names done/total and, when any, the items in progress', () => {
    assert.equal(progressText({ pending: 3, inProgress: 1, completed: 3 }, t), '3/7 done · 1 in progress');
    assert.equal(progressText({ pending: 2, inProgress: 0, completed: 0 }, t), '0/2 done');
  });

  it('renders a Markdown checklist that marks in-progress items and folds newlines', () => {
    assert.equal(
      planMarkdown([todo('Done', 'completed'), todo('Doing\nit', 'in_progress'), todo('Later', 'pending')]),
      '- [x] Done\n- [ ] Doing it *(in progress)*\n- [ ] Later\n',
    );
    assert.equal(planMarkdown([], 'Plan'), '## Plan\n\n*(empty plan)*\n');
    assert.equal(singleLine('a\r\n  b\n\nc'), 'a b c');
  });

  it('diffs two snapshots by content: added, removed, status flips, reordering', () => {
    const before = [todo('a', 'pending'), todo('b', 'pending'), todo('c', 'in_progress')];
    const after = [todo('b', 'completed'), todo('a', 'pending'), todo('d', 'pending')];
    const change = diffPlans(before, after);
    assert.deepEqual(change.added, ['d']);
    assert.deepEqual(change.removed, ['c']);
    assert.deepEqual(change.flipped, [{ content: 'b', from: 'pending', to: 'completed' }]);
    assert.equal(change.reordered, true);
    assert.equal(changeSummary(change, t), '+1 added, −1 removed, 1 status changes, reordered');
    assert.equal(changeSummary(diffPlans(before, before), t), 'no change');
  });


  it('says durations and relative times in words', () => {
    const now = new Date('2026-01-01T12:00:00.000Z');
    assert.equal(relativeTime('2026-01-01T11:59:50.000Z', now, t), 'just now');
    assert.equal(relativeTime('2026-01-01T11:55:00.000Z', now, t), '5 min ago');
    assert.equal(relativeTime('2026-01-01T09:00:00.000Z', now, t), '3 h ago');
    assert.equal(relativeTime('2025-12-29T12:00:00.000Z', now, t), '3 d ago');
    assert.equal(durationText('2026-01-01T11:59:30.000Z', now, t), 'for 30 s');
    assert.equal(durationText('2026-01-01T11:48:00.000Z', now, t), 'for 12 min');
  });

  it('tells when a relative time next reads differently, to the millisecond, so a row is redrawn then and not on a clock', () => {
    const from = '2026-01-01T12:00:00.000Z';
    const start = Date.parse(from);
    // From the write on: "just now", each minute, each hour, each day; each change found exactly.
    let now = start;
    const seen: string[] = [];
    for (let step = 0; step < 120; step++) {
      const at = relativeTimeChangesAt(from, new Date(now));
      assert.ok(at !== undefined && at > now, `a change after ${now - start} ms`);
      assert.equal(relativeTime(from, new Date(at - 1), t), relativeTime(from, new Date(now), t), `unchanged until ${at - start} ms`);
      assert.notEqual(relativeTime(from, new Date(at), t), relativeTime(from, new Date(now), t), `changed at ${at - start} ms`);
      seen.push(relativeTime(from, new Date(now), t));
      now = at;
    }
    assert.deepEqual(seen.slice(0, 3), ['just now', '1 min ago', '2 min ago']);
    assert.ok(seen.includes('1 h ago') && seen.includes('2 d ago'), seen.join(', '));
    assert.equal(relativeTimeChangesAt(from, new Date(start + 10_000)), start + 44_500, '"just now" holds until 44.5 s');
    assert.equal(relativeTimeChangesAt('not a time', new Date(start)), undefined);
  });

  it('names a session by its first item and a plan by its first item in progress', () => {
    assert.equal(sessionTitle(event('2026-01-01T00:00:00.000Z', [todo('First\nline', 'pending')]), t), 'First line');
    assert.equal(sessionTitle(event('2026-01-01T00:00:00.000Z', []), t), '(empty plan)');
    assert.equal(activeItem([todo('a', 'completed'), todo('b', 'in_progress'), todo('c', 'in_progress')])?.content, 'b');
  });

  it('names a session by its title, else its first request, else its first item', () => {
    const plan = event('2026-01-01T00:00:00.000Z', [todo('Audit the colors', 'pending')]);
    assert.equal(sessionTitle(plan, t, { title: 'Dark mode', request: 'Add a dark mode toggle' }), 'Dark mode');
    assert.equal(sessionTitle(plan, t, { title: ' ', request: 'Add a dark mode toggle' }), 'Add a dark mode toggle');
    assert.equal(sessionTitle(plan, t, { request: 'Add a dark\nmode toggle' }), 'Add a dark mode toggle');
    assert.equal(sessionTitle(plan, t, {}), 'Audit the colors');
    assert.equal(sessionName({ request: '' }), undefined);
  });
});

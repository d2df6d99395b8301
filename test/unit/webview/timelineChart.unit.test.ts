// The Plan Timeline page's chart, placed by a pure function (src/webview/chart.ts) from the
// view model the extension posts: what the page draws where, for a range and a width.
import * as assert from 'node:assert/strict';
import { planEvent } from '../../../src/core/log/logRecord';
import type { PlanItem } from '../../../src/core/plan/plan';
import { formatOnly } from '../../../src/core/plan/present';
import { buildTimeline, type TimelineLine } from '../../../src/core/timeline/timeline';
import { timelineViewModel, type TimelineViewModel } from '../../../src/core/timeline/timelineView';
import { AXIS_HEIGHT, LANE_HEIGHT, MARK_ROW, MIN_CHART_WIDTH, NAME_WIDTH, TURN_HEIGHT, chartLayout, shownRange, tickStep, tickText } from '../../../src/webview/chart';

const T0 = Date.UTC(2026, 11, 3, 9, 0, 0);
const SOURCE = { agent: 'codex' as const, tool: 'update_plan', session: 's', call: 'c' };
const iso = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();
const version = (seconds: number, todos: PlanItem[]): TimelineLine => ({ record: planEvent('k', iso(seconds), todos, SOURCE) });
const item = (content: string, status: PlanItem['status']): PlanItem => ({ content, status });

/** Two items over 100 s: the first in progress from 0 and done at 60, the second from 60 on. */
function model(): TimelineViewModel {
  const timeline = buildTimeline(
    [
      version(0, [item('Fix', 'in_progress'), item('Test', 'pending')]),
      version(60, [item('Fix', 'completed'), item('Test', 'in_progress')]),
      version(100, [item('Fix', 'completed'), item('Test', 'completed')]),
    ],
    { now: T0 + 100_000 },
  );
  return timelineViewModel('k'.repeat(32), timeline, 'title', false, formatOnly, String, () => '');
}

describe('the timeline page: the chart placed by a pure function', () => {
  it('the whole model is shown until a range is asked for', () => {
    const m = model();
    assert.deepEqual(shownRange(m, undefined), { from: m.start, to: m.end });
    assert.deepEqual(shownRange(m, { from: 1, to: 2 }), { from: 1, to: 2 });
  });

  it('places the lanes one below the other under the axis, turns and marks, and sizes the chart to them', () => {
    const m = model();
    const layout = chartLayout(m, shownRange(m, undefined), NAME_WIDTH + 16 + 1000);
    assert.equal(layout.width, 1000);
    assert.equal(layout.lanesTop, AXIS_HEIGHT + TURN_HEIGHT + MARK_ROW);
    assert.deepEqual(layout.lanes.map((lane) => [lane.lane.name, lane.y]), [
      ['Fix', layout.lanesTop],
      ['Test', layout.lanesTop + LANE_HEIGHT],
    ]);
    assert.equal(layout.height, layout.lanesTop + 2 * LANE_HEIGHT + 4);
  });

  it('a version mark at its time, the newest the one tab stop, each with its address for Compare', () => {
    const m = model();
    const { from, to } = shownRange(m, undefined);
    const layout = chartLayout(m, { from, to }, NAME_WIDTH + 16 + 1000);
    assert.equal(layout.marks.length, 3);
    assert.deepEqual(layout.marks.map((mark) => mark.tabStop), [false, false, true]);
    assert.equal(layout.marksY, layout.lanesTop - MARK_ROW + 4);
    layout.marks.forEach((mark, index) => {
      assert.equal(mark.x, ((m.marks[index]!.time - from) / (to - from)) * 1000);
      assert.equal(mark.mark, m.marks[index]);
    });
  });

  it('a segment out of the range shown is not drawn; one that crosses its edge is cut at it', () => {
    const m = model();
    // The second minute only: Fix was in progress before it, Test from 60 s on.
    const layout = chartLayout(m, { from: T0 + 60_000, to: T0 + 120_000 }, NAME_WIDTH + 16 + 600);
    const [fix, test] = layout.lanes;
    for (const segment of [...fix!.segments, ...test!.segments]) {
      assert.ok(segment.x >= 0 && segment.x + segment.width <= layout.width + 1, `segment ${JSON.stringify(segment)} is inside the chart`);
    }
    assert.ok(!fix!.segments.some((segment) => segment.status === 'in_progress' && segment.width > 1), 'Fix was in progress only before the range shown');
    assert.ok(test!.segments.some((segment) => segment.status === 'in_progress' && segment.x === 0), 'Test is in progress from the left edge');
  });

  it('a narrow panel still gets the narrowest chart', () => {
    const m = model();
    assert.equal(chartLayout(m, shownRange(m, undefined), 100).width, MIN_CHART_WIDTH);
  });

  it('ticks about 110 px apart, labelled in local time with seconds under a minute', () => {
    assert.equal(tickStep(60_000, 1100), 10_000);
    assert.equal(tickStep(3_600_000, 1100), 600_000);
    assert.equal(tickStep(30 * 86_400_000, 330), 10 * 86_400_000);
    const at = new Date(2026, 11, 3, 9, 5, 7).getTime();
    assert.equal(tickText(at, 5_000), '09:05:07');
    assert.equal(tickText(at, 60_000), '09:05');
    assert.equal(tickText(at, 86_400_000), new Date(at).toLocaleDateString());
  });

  it('ticks fall on whole steps inside the range', () => {
    const m = model();
    const { from, to } = shownRange(m, undefined);
    const layout = chartLayout(m, { from, to }, NAME_WIDTH + 16 + 1000);
    const step = tickStep(to - from, 1000);
    assert.ok(layout.ticks.length > 0);
    for (const tick of layout.ticks) {
      const ms = from + (tick.x / 1000) * (to - from);
      assert.ok(Math.abs(ms / step - Math.round(ms / step)) < 1e-6, `tick at ${ms} is on a step of ${step}`);
      assert.ok(tick.x >= 0 && tick.x <= 1000);
    }
  });
});

// Where the Plan Timeline's page draws each thing: the time axis, the turns, the version
// marks, the signals, the lanes and their writes, placed for the range shown and the width
// at hand. Pure (no DOM, no vscode): the page draws what this returns, and unit tests
// (test/unit/webview/timelineChart.unit.test.ts) read it.
import type { ItemStatus } from '../core/plan/plan';
import type { TimelineViewModel, ViewLane, ViewMark, ViewSignal, ViewTurn } from '../core/timeline/timelineView';

export const LANE_HEIGHT = 26;
export const AXIS_HEIGHT = 28;
export const TURN_HEIGHT = 14;
export const MARK_ROW = 18;
export const NAME_WIDTH = 240;
/** The chart's narrowest width, however narrow the panel. */
export const MIN_CHART_WIDTH = 320;
const TICK_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400].map((s) => s * 1000);
const DAY_MS = 86_400_000;

/** A span of time shown, in epoch ms. */
export interface TimeRange {
  from: number;
  to: number;
}

export interface ChartTick {
  x: number;
  text: string;
}

/** A turn's band (running: to the right edge). */
export interface ChartTurn {
  turn: ViewTurn;
  x: number;
  width: number;
}

/** A version's mark, at `marksY`. */
export interface ChartMark {
  mark: ViewMark;
  x: number;
  /** The one mark in the tab order (the newest). */
  tabStop: boolean;
}

/** A health signal's flag. */
export interface ChartSignal {
  signal: ViewSignal;
  x: number;
}

export interface ChartLane {
  lane: ViewLane;
  y: number;
  segments: Array<{ x: number; width: number; status: ItemStatus }>;
  /** Where each write of a file while the item was in progress is ticked. */
  writes: number[];
  /** Where the item's durations are written (on its in-progress stretch's first segment); undefined: none. */
  durationsX: number | undefined;
}

/** Everything the chart draws, placed. */
export interface ChartLayout {
  width: number;
  height: number;
  /** The top of the first lane. */
  lanesTop: number;
  /** The middle of the marks' row. */
  marksY: number;
  ticks: ChartTick[];
  turns: ChartTurn[];
  marks: ChartMark[];
  signals: ChartSignal[];
  /** Where each write while no item was in progress is ticked. */
  sessionWrites: number[];
  lanes: ChartLane[];
}

/** The range shown: the one asked for, else the whole model. */
export function shownRange(model: TimelineViewModel, view: TimeRange | undefined): TimeRange {
  return view ?? { from: model.start, to: model.end };
}

/** The chart of a model over a range, for a panel `clientWidth` wide. */
export function chartLayout(model: TimelineViewModel, { from, to }: TimeRange, clientWidth: number): ChartLayout {
  const width = Math.max(MIN_CHART_WIDTH, clientWidth - NAME_WIDTH - 16);
  const x = (ms: number) => ((ms - from) / (to - from)) * width;
  const clampX = (ms: number) => Math.min(width, Math.max(0, x(ms)));
  const lanesTop = AXIS_HEIGHT + TURN_HEIGHT + MARK_ROW;
  const step = tickStep(to - from, width);
  const ticks: ChartTick[] = [];
  for (let tick = Math.ceil(from / step) * step; tick <= to; tick += step) ticks.push({ x: x(tick), text: tickText(tick, step) });
  return {
    width,
    height: lanesTop + model.lanes.length * LANE_HEIGHT + 4,
    lanesTop,
    marksY: lanesTop - MARK_ROW + 4,
    ticks,
    turns: model.turns.map((turn) => {
      const left = clampX(turn.start ?? from);
      return { turn, x: left, width: Math.max(2, clampX(turn.end ?? to) - left) };
    }),
    marks: model.marks.map((mark, index) => ({ mark, x: x(mark.time), tabStop: index === model.marks.length - 1 })),
    signals: model.signals.map((signal) => ({ signal, x: clampX(signal.time) })),
    sessionWrites: model.sessionWrites.filter((time) => time >= from && time <= to).map(x),
    lanes: model.lanes.map((lane, index) => laneLayout(lane, lanesTop + index * LANE_HEIGHT, x, clampX, width)),
  };
}

function laneLayout(lane: ViewLane, y: number, x: (ms: number) => number, clampX: (ms: number) => number, width: number): ChartLane {
  const segments = lane.segments
    .filter((segment) => !(x(segment.to) < 0 || x(segment.from) > width))
    .map((segment) => ({ x: clampX(segment.from), width: Math.max(1, clampX(segment.to) - clampX(segment.from)), status: segment.status }));
  const first = lane.segments.find((s) => s.status === 'in_progress') ?? lane.segments[0];
  return {
    lane,
    y,
    segments,
    writes: lane.writes.map(x).filter((at) => at >= 0 && at <= width),
    durationsX: lane.durations !== '' && first ? clampX(first.from) + 4 : undefined,
  };
}

/** A tick step that leaves about 110 px between labels. */
export function tickStep(span: number, width: number): number {
  const wanted = span / Math.max(2, width / 110);
  return TICK_STEPS.find((step) => step >= wanted) ?? Math.ceil(wanted / DAY_MS) * DAY_MS;
}

/** A tick's label in the page's local time: seconds under a minute's step, the date from a day's. */
export function tickText(ms: number, step: number): string {
  const date = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  const hm = `${two(date.getHours())}:${two(date.getMinutes())}`;
  if (step >= DAY_MS) return date.toLocaleDateString();
  return step < 60_000 ? `${hm}:${two(date.getSeconds())}` : hm;
}

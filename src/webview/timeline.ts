/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The Plan Timeline's page: draws the model the extension posts as plain SVG (a library
// would add tens of KB for a time axis a few lines give), zooms and pans, and reports what
// it drew so tests read the real DOM. Runs in the webview: no Node, no vscode module.
import type { TimelineViewModel, ViewFile, ViewLane } from '../core/timeline/timelineView';
import { AXIS_HEIGHT, LANE_HEIGHT, TURN_HEIGHT, chartLayout, shownRange, type ChartLane, type ChartLayout, type ChartMark } from './chart';
import type { TimelineHostMessage, TimelinePageMessage, TimelinePageState } from './messages';

export type { TimelinePageMessage, TimelinePageState } from './messages';

interface VsCodeApi {
  postMessage(message: TimelinePageMessage): void;
  getState(): unknown;
  setState(state: TimelinePageState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscodeApi = acquireVsCodeApi();
const SVG = 'http://www.w3.org/2000/svg';
/** A line break for hover texts, not written as an escape: esbuild would turn it into a literal one, and the bundle stays one line. */
const LINE_BREAK = String.fromCharCode(10);

let model: TimelineViewModel | undefined;
const saved = vscodeApi.getState() as TimelinePageState | undefined;
/** The visible range, in epoch ms; undefined shows everything. */
let view: { from: number; to: number } | undefined = saved?.view;
/** The file lists open (by kind and owner), kept across redraws. */
const openFiles = new Set<string>();

const root = document.getElementById('root') as HTMLElement;

window.addEventListener('message', (event: MessageEvent<TimelineHostMessage>) => {
  if (event.data.type === 'model') {
    model = event.data.model;
    saveState();
    render();
  }
});

function saveState(): void {
  vscodeApi.setState({ session: model?.session ?? saved?.session, view } satisfies TimelinePageState);
}

function setView(next: { from: number; to: number } | undefined): void {
  view = next;
  saveState();
  render();
}

function zoom(factor: number, centre?: number): void {
  if (!model) return;
  const { from, to } = shownRange(model, view);
  const mid = centre ?? (from + to) / 2;
  const width = Math.max(1000, (to - from) * factor);
  const left = mid - (mid - from) * (width / (to - from));
  setView({ from: left, to: left + width });
}

function pan(fraction: number): void {
  if (!model) return;
  const { from, to } = shownRange(model, view);
  const shift = (to - from) * fraction;
  setView({ from: from + shift, to: to + shift });
  // Panning back past the first version read: ask for the page before it.
  if (model.more && from + shift < model.start) vscodeApi.postMessage({ type: 'older' });
}

function el<K extends keyof SVGElementTagNameMap>(name: K, attrs: Record<string, string | number>, parent?: Element): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  parent?.appendChild(node);
  return node;
}

function html<K extends keyof HTMLElementTagNameMap>(name: K, attrs: Record<string, string>, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function render(): void {
  const m = model;
  if (!m) return;
  root.replaceChildren();
  root.appendChild(toolbar(m));
  if (m.sessionFiles.length > 0) root.appendChild(fileList('', m.strings.sessionFiles, m.sessionFiles, m.strings.shared, 'session-files'));
  if (m.lanes.length === 0) {
    root.appendChild(html('p', { class: 'empty' }, m.strings.empty));
    report();
    return;
  }
  const shown = shownRange(m, view);
  const layout = chartLayout(m, shown, root.clientWidth);
  const frame = html('div', { class: 'frame' });
  const names = html('div', { class: 'names' });
  // CSSOM, not a style attribute: the page's CSP allows no inline style.
  names.style.paddingTop = `${layout.lanesTop}px`;
  const svg = el('svg', { width: layout.width, height: layout.height, class: 'chart', role: 'group', 'aria-label': m.title, tabindex: 0, 'aria-describedby': 'help' });
  drawChart(svg, m, layout);
  const lists: HTMLDetailsElement[] = [];
  const lanes = el('g', { class: 'lanes', role: 'list', 'aria-label': m.strings.lanes }, svg);
  for (const chartLane of layout.lanes) {
    drawLane(lanes, chartLane);
    names.appendChild(laneName(chartLane.lane, m.strings.shared, lists));
  }
  listenToChart(svg, shown, layout.width);
  frame.append(names, svg);
  root.appendChild(frame);
  if (lists.length > 0) {
    const section = html('section', { class: 'files', 'aria-label': m.strings.files });
    section.appendChild(html('h2', {}, m.strings.files));
    section.append(...lists);
    root.appendChild(section);
  }
  root.appendChild(html('p', { id: 'help', class: 'help' }, m.strings.help));
  report();
}

function toolbar(m: TimelineViewModel): HTMLElement {
  const bar = html('div', { class: 'toolbar', role: 'toolbar' });
  const button = (text: string, action: () => void, extra: Record<string, string> = {}) => {
    const b = html('button', { type: 'button', ...extra }, text);
    b.addEventListener('click', action);
    bar.appendChild(b);
  };
  button('+', () => zoom(0.5), { 'aria-label': m.strings.zoomIn, title: m.strings.zoomIn, 'data-action': 'zoom-in' });
  button('−', () => zoom(2), { 'aria-label': m.strings.zoomOut, title: m.strings.zoomOut, 'data-action': 'zoom-out' });
  button(m.strings.reset, () => setView(undefined), { 'data-action': 'reset' });
  if (m.more) button(m.strings.older, () => vscodeApi.postMessage({ type: 'older' }), { 'data-action': 'older' });
  bar.appendChild(html('span', { class: 'summary', 'data-summary': '' }, m.summary));
  return bar;
}

/** The axis, the turns, the version marks, the signals and the session's writes. */
function drawChart(svg: SVGSVGElement, m: TimelineViewModel, layout: ChartLayout): void {
  // Time axis: readable ticks at a step that fits the width.
  const axis = el('g', { class: 'axis', 'aria-hidden': 'true' }, svg);
  for (const tick of layout.ticks) {
    el('line', { x1: tick.x, x2: tick.x, y1: AXIS_HEIGHT - 6, y2: layout.height, class: 'grid' }, axis);
    el('text', { x: tick.x + 3, y: AXIS_HEIGHT - 10, class: 'tick' }, axis).textContent = tick.text;
  }
  // The agent's turns: a thin band each, from start to end (or to the right edge while running).
  const turns = el('g', { class: 'turns', role: 'list', 'aria-label': 'turns' }, svg);
  for (const { turn, x, width } of layout.turns) {
    const g = el('g', { role: 'listitem', 'aria-label': turn.label, 'data-turn': '' }, turns);
    el('rect', { x, y: AXIS_HEIGHT, width, height: TURN_HEIGHT - 4, class: `turn${turn.end === undefined ? ' running' : ''}` }, g);
    el('title', {}, g).textContent = turn.label;
  }
  // A mark per version; Enter or a click compares it with the one before.
  const marks = el('g', { class: 'marks', role: 'list', 'aria-label': m.strings.versions }, svg);
  // One tab stop for all marks (the newest); ← → Home End move between them.
  layout.marks.forEach((mark, index) => drawMark(marks, mark, index, layout.marksY));
  // Health signals: a flag where each started.
  for (const { signal, x } of layout.signals) {
    const g = el('g', { class: `signal${signal.warning ? ' warning' : ''}`, role: 'img', 'aria-label': signal.label, 'data-signal': '' }, svg);
    el('path', { d: `M${x},${layout.lanesTop} v${layout.height - layout.lanesTop} `, class: 'flag' }, g);
    el('title', {}, g).textContent = signal.label;
  }
  // Files written while no item was in progress: ticks above the lanes.
  for (const at of layout.sessionWrites) el('rect', { x: at - 1, y: layout.lanesTop - 4, width: 2, height: 4, class: 'write', 'aria-hidden': 'true' }, svg);
}

/** A lane's name, its note, and the count that opens its list of files (added to `lists`). */
function laneName(lane: ViewLane, shared: string, lists: HTMLDetailsElement[]): HTMLElement {
  const name = html('div', { class: `name${lane.dropped ? ' dropped' : ''}`, title: laneTitle(lane) });
  const text = html('span', { class: 'text' }, lane.name);
  if (lane.note !== '') text.appendChild(html('span', { class: 'note' }, ` ${lane.note}`));
  name.appendChild(text);
  if (lane.files.length > 0) {
    const list = fileList(lane.name, lane.name, lane.files, shared, 'lane-files');
    lists.push(list);
    // The lane's count opens its list below the chart, and moves the focus into it.
    const count = html('button', { type: 'button', class: 'files-count', 'data-files-of': lane.name, 'aria-label': `${lane.name}: ${lane.filesText}`, title: lane.filesText }, lane.filesText);
    count.addEventListener('click', () => {
      list.open = true;
      list.querySelector<HTMLElement>('[data-file]')?.focus();
    });
    name.appendChild(count);
  }
  return name;
}

/** Keys and the wheel zoom and pan the chart. */
function listenToChart(svg: SVGSVGElement, { from, to }: { from: number; to: number }, width: number): void {
  svg.addEventListener('keydown', (event) => {
    const keys: Record<string, () => void> = { '+': () => zoom(0.5), '=': () => zoom(0.5), '-': () => zoom(2), ArrowLeft: () => pan(-0.2), ArrowRight: () => pan(0.2), Home: () => setView(undefined) };
    const action = keys[event.key];
    if (action && event.target === svg) {
      event.preventDefault();
      action();
      svg.focus();
    }
  });
  svg.addEventListener(
    'wheel',
    (event) => {
      if (event.ctrlKey) {
        event.preventDefault();
        const box = svg.getBoundingClientRect();
        zoom(event.deltaY > 0 ? 1.25 : 0.8, from + ((event.clientX - box.left) / width) * (to - from));
      } else if (event.shiftKey) {
        event.preventDefault();
        pan(event.deltaY > 0 ? 0.1 : -0.1);
      }
    },
    { passive: false },
  );
}

function drawLane(parent: Element, { lane, y, segments, writes, durationsX }: ChartLane): void {
  const g = el('g', { role: 'listitem', 'aria-label': lane.label, 'data-lane': lane.name, class: lane.dropped ? 'lane dropped' : 'lane' }, parent);
  el('title', {}, g).textContent = laneTitle(lane);
  for (const segment of segments) {
    el('rect', { x: segment.x, y: y + 5, width: segment.width, height: LANE_HEIGHT - 10, rx: 3, class: `seg ${segment.status}` }, g);
  }
  // A tick at each write of a file while the item was in progress.
  for (const at of writes) el('rect', { x: at - 1, y: y + LANE_HEIGHT - 5, width: 2, height: 5, class: 'write', 'aria-hidden': 'true' }, g);
  // The item's durations, on its in-progress stretch's first segment when it is in view.
  if (durationsX !== undefined) {
    const label = el('text', { x: durationsX, y: y + LANE_HEIGHT / 2 + 4, class: 'lane-time', 'aria-hidden': 'true' }, g);
    label.textContent = lane.cost === '' ? lane.durations : `${lane.durations} · ${lane.cost}`;
  }
}

function drawMark(parent: Element, { mark, x, tabStop }: ChartMark, index: number, y: number): void {
  const g = el('g', { role: 'listitem button', tabindex: tabStop ? 0 : -1, 'aria-label': mark.label, 'data-version': index, class: 'mark' }, parent);
  el('circle', { cx: x, cy: y, r: 5 }, g);
  el('title', {}, g).textContent = mark.label;
  const compare = () => {
    if (mark.at !== undefined) vscodeApi.postMessage({ type: 'compare', at: mark.at });
  };
  g.addEventListener('click', compare);
  g.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      compare();
      return;
    }
    const all = [...parent.querySelectorAll<SVGGElement>('[data-version]')];
    const next = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: all.length - 1 }[event.key];
    const target = next === undefined ? undefined : all[next];
    if (target) {
      event.preventDefault();
      event.stopPropagation();
      for (const other of all) other.setAttribute('tabindex', other === target ? '0' : '-1');
      target.focus();
    }
  });
}

/** The lane's hover text: its accessible name, then its files, one a line. */
function laneTitle(lane: ViewLane): string {
  return [lane.label, ...lane.files.map((file) => `  ${file.folder === '' ? file.name : `${file.name} — ${file.folder}`}`)].join(LINE_BREAK);
}

/**
 * A list of files, closed until asked: each a button (click or Enter opens the file in an
 * editor) named for screen readers; `owner` is the lane's name, or empty for the session's.
 */
function fileList(owner: string, heading: string, files: readonly ViewFile[], shared: string, kind: string): HTMLDetailsElement {
  const details = html('details', { class: kind, 'data-files': owner });
  const key = `${kind}:${owner}`;
  details.open = openFiles.has(key);
  details.addEventListener('toggle', () => {
    if (details.open) openFiles.add(key);
    else openFiles.delete(key);
  });
  details.appendChild(html('summary', {}, `${heading} (${files.length})`));
  const list = html('ul', {});
  for (const file of files) {
    const item = html('li', {});
    const button = html('button', { type: 'button', class: 'file', 'data-file': file.path, 'data-owner': owner, 'aria-label': file.label, title: file.path });
    button.appendChild(html('span', { class: 'file-name' }, file.name));
    if (file.folder !== '') button.appendChild(html('span', { class: 'file-folder' }, file.folder));
    if (file.shared) button.appendChild(html('span', { class: 'file-shared' }, shared));
    button.addEventListener('click', () => vscodeApi.postMessage({ type: 'open', path: file.path }));
    item.appendChild(button);
    list.appendChild(item);
  }
  details.appendChild(list);
  return details;
}

/** Tells the extension what is on the page, read from the DOM just drawn. */
function report(): void {
  const lanes = [...root.querySelectorAll('[data-lane]')].map((node) => node.getAttribute('data-lane') ?? '');
  const versions = [...root.querySelectorAll('[data-version]')].map((node) => node.getAttribute('aria-label') ?? '');
  vscodeApi.postMessage({ type: 'rendered', lanes, marks: versions.length, versions });
}

let resizeFrame = 0;
window.addEventListener('resize', () => {
  cancelAnimationFrame(resizeFrame);
  resizeFrame = requestAnimationFrame(render);
});

vscodeApi.postMessage({ type: 'ready' });

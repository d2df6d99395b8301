// What the timeline webview draws, built on the extension's side: every text (names for
// screen readers, hover texts) is made here through the translator, so the webview only
// lays out numbers and strings. Plain data: it crosses postMessage as JSON. No vscode.
import type { HealthSignal } from '../derived/health';
import { isWarning } from '../derived/health';
import type { ItemStatus } from '../plan/plan';
import { changeSummary, itemLabel, progressText, spanText, statusWord, type Translate } from '../plan/present';
import { laneDurationText, type AskMark, type Timeline } from './timeline';
import { plainText } from '../text/escape';
import type { PageFile } from './timelineFiles';
import { itemDiffstat, type ItemChanges } from '../derived/itemChanges';
import type { Ledger } from '../derived/ledger';
import { ledgerText } from '../derived/ledgerText';
import { MAX_FOREIGN_CONTENT_LENGTH, cutText } from '../log/foreignBounds';

export interface ViewSegment {
  status: ItemStatus;
  from: number;
  to: number;
}

export interface ViewLane {
  name: string;
  /** Its accessible name: text, status, marks, durations. */
  label: string;
  /** A short note shown after the name: dropped, reworded, durations. */
  note: string;
  segments: ViewSegment[];
  dropped: boolean;
  /** "in progress 4 min · done after 6 min", drawn on the lane; empty when neither applies. */
  durations: string;
  /** What it cost while in progress: "14 calls · 52k tokens"; empty when no response was recorded. */
  cost: string;
  /** What it changed, from the working tree's snapshots: "+12 −3" ("+12 −3 (partly recorded)"); empty where not recorded. */
  diffstat: string;
  /** The files written while it was in progress, in the order first written. */
  files: ViewFile[];
  /** "3 files"; empty when it has none. */
  filesText: string;
  /** When each write happened: a small mark on the lane. */
  writes: number[];
}

export interface ViewFile {
  /** The path as recorded: what the page sends back to open it. */
  path: string;
  /** The file's name, and the folder it is in as the path names it (empty for none). */
  name: string;
  folder: string;
  shared: boolean;
  /** Its accessible name: "Open parser.ts in src, shared with another item". */
  label: string;
}

export interface ViewMark {
  time: number;
  /** The version's byte offset: Compare takes it. */
  at: number | undefined;
  /** Hover and accessible name: time, progress, what changed. */
  label: string;
}

export interface ViewTurn {
  start: number | undefined;
  end: number | undefined;
  label: string;
}

export interface ViewSignal {
  time: number;
  label: string;
  warning: boolean;
}

export interface TimelineViewModel {
  /** The session's key: the page keeps it in its state, so the panel comes back after a reload. */
  session: string;
  title: string;
  start: number;
  end: number;
  /** "Elapsed 12 min · longest: Fix the bug (4 min)". */
  summary: string;
  lanes: ViewLane[];
  marks: ViewMark[];
  turns: ViewTurn[];
  signals: ViewSignal[];
  /** Files written while no item was in progress. */
  sessionFiles: ViewFile[];
  sessionWrites: number[];
  /** Older versions exist before `start`. */
  more: boolean;
  /** Lanes past MAX_VIEW_LANES, left out of `lanes` (only a plan older than the import bounds has them). */
  lanesLeftOut: number;
  strings: TimelineStrings;
}

/**
 * The most lanes one model carries to the page, and the longest item text it names: a page of
 * versions holds few lanes since plans are bounded (100 items each), but a log written before
 * the bounds may hold a plan of 60,000 items, which would post a model of many megabytes.
 */
export const MAX_VIEW_LANES = 1000;
export const MAX_VIEW_TEXT_LENGTH = MAX_FOREIGN_CONTENT_LENGTH;

/** The webview's own fixed texts, translated on the extension's side. */
export interface TimelineStrings {
  zoomIn: string;
  zoomOut: string;
  reset: string;
  older: string;
  empty: string;
  lanes: string;
  versions: string;
  help: string;
  /** The heading of the lanes' file lists. */
  files: string;
  /** The heading of the files written while no item was in progress. */
  sessionFiles: string;
  shared: string;
}

export function timelineStrings(t: Translate): TimelineStrings {
  return {
    zoomIn: t('Zoom in'),
    zoomOut: t('Zoom out'),
    reset: t('Show all'),
    older: t('Load older versions'),
    empty: t('This session has no plan yet.'),
    lanes: t('Items'),
    versions: t('Versions'),
    help: t('+ and − zoom, ← and → pan, Home shows all; Ctrl+wheel zooms. Enter on a version compares it with the previous one.'),
    files: t('Files each item changed'),
    sessionFiles: t('Files written while no item was in progress'),
    shared: t('shared'),
  };
}

/** `clock` formats an epoch time for people (the extension passes the locale's time format). */
export function timelineViewModel(
  session: string,
  timeline: Timeline,
  title: string,
  more: boolean,
  t: Translate,
  clock: (ms: number) => string,
  signalText: (signal: HealthSignal) => string,
  ledger?: Ledger,
  /** What each item changed, by its text (the Plan view's diffstats); an item without shows none. */
  changes?: ReadonlyMap<string, ItemChanges>,
): TimelineViewModel {
  const start = timeline.start ?? 0;
  const costs = new Map((ledger?.items ?? []).map((item) => [item.content, item]));
  const end = Math.max(timeline.end ?? start, start + 1000);
  const lanes = timeline.lanes.slice(0, MAX_VIEW_LANES).map((lane): ViewLane => {
    const name = itemLabel(cutText(lane.content, MAX_VIEW_TEXT_LENGTH), t);
    const notes: string[] = [];
    if (lane.dropped) notes.push(t('dropped'));
    if (lane.rewordedTo !== undefined) notes.push(t('reworded as “{0}”', itemLabel(cutText(lane.rewordedTo, MAX_VIEW_TEXT_LENGTH), t)));
    if (lane.rewordedFrom !== undefined) notes.push(t('reworded from “{0}”', itemLabel(cutText(lane.rewordedFrom, MAX_VIEW_TEXT_LENGTH), t)));
    const durations = laneDurationText(lane, t);
    if (durations !== '') notes.push(durations);
    const spent = costs.get(lane.content);
    const cost = spent ? ledgerText({ all: spent.all, shared: spent.shared, asks: spent.asks }, t) : '';
    const stat = itemDiffstat(changes?.get(lane.content));
    const diffstat = stat ? (stat.partly ? t('{0} (partly recorded)', stat.counts) : stat.counts) : '';
    if (diffstat !== '') notes.push(diffstat);
    if (cost !== '') notes.push(cost);
    const note = notes.join(' · ');
    const filesText = filesCount(lane.files.length, t);
    return {
      name,
      label: [name, statusWord(lane.status, t), note, filesText].filter((part) => part !== '').join(', '),
      note,
      segments: lane.segments.map((s) => ({ status: s.status, from: s.from, to: s.to })),
      dropped: lane.dropped,
      durations,
      cost,
      diffstat,
      files: lane.files.map((file) => viewFile(file, t)),
      filesText,
      writes: [...lane.writes],
    };
  });
  const marks = timeline.versions.map((version, index): ViewMark => {
    const change = version.change ? changeSummary(version.change, t) : t('first version');
    return { time: version.time, at: version.at, label: t('Version {0}, {1}: {2}; {3}', index + 1, clock(version.time), progressText(version.counts, t), change) };
  });
  const turns = timeline.turns.map((turn): ViewTurn => {
    const how = turn.how === undefined ? t('running') : turn.how === 'ended' ? t('ended') : turn.how === 'cancelled' ? t('cancelled') : t('failed');
    const from = turn.start === undefined ? '…' : clock(turn.start);
    const to = turn.end === undefined ? '…' : clock(turn.end);
    return { start: turn.start, end: turn.end, label: t('Turn {0}, {1} – {2}: {3}', turn.index + 1, from, to, how) };
  });
  const signals = timeline.signals
    .filter((signal) => signal.ask === undefined)
    .map((signal): ViewSignal => {
      const time = Date.parse(signal.since);
      return { time: Number.isNaN(time) ? end : time, label: signalText(signal), warning: isWarning(signal) };
    });
  // Each request of a connected agent, with how it ended, where it was asked.
  for (const ask of timeline.asks) signals.push({ time: ask.time, label: askText(ask, clock, t), warning: ask.answer !== 'allow' });
  signals.sort((a, b) => a.time - b.time);
  const parts = [t('Elapsed {0}', spanText(timeline.elapsedMs, t))];
  if (timeline.longest) parts.push(t('longest: {0} ({1})', itemLabel(timeline.longest.content, t), spanText(timeline.longest.inProgressMs, t)));
  const total = ledger ? ledgerText({ all: ledger.total }, t) : '';
  if (total !== '') parts.push(t('in all {0}', total));
  const sessionFiles = timeline.sessionFiles.files.map((file) => viewFile(file, t));
  return {
    session,
    title,
    start,
    end,
    summary: parts.join(' · '),
    lanes,
    marks,
    turns,
    signals,
    sessionFiles,
    sessionWrites: [...timeline.sessionFiles.writes],
    more,
    lanesLeftOut: Math.max(0, timeline.lanes.length - MAX_VIEW_LANES),
    strings: timelineStrings(t),
  };
}

/** "09:30 asked to run Bash: touch approved.txt; denied here: use pnpm". */
export function askText(ask: AskMark, clock: (ms: number) => string, t: Translate): string {
  const asked = t('{0} asked to run {1}: {2}', clock(ask.time), plainText(ask.tool, 40), plainText(ask.input, 120));
  const how =
    ask.answer === 'allow'
      ? t('allowed here')
      : ask.answer === 'deny'
        ? ask.message !== undefined
          ? t('denied here: {0}', plainText(ask.message, 120))
          : t('denied here')
        : ask.answer === 'ended'
          ? t('answered at the agent, or ended')
          : t('waiting');
  return `${asked}; ${how}`;
}

function filesCount(count: number, t: Translate): string {
  return count === 0 ? '' : count === 1 ? t('1 file') : t('{0} files', count);
}

/** A file's name and folder, split at the last / or \\ of the path as recorded. */
export function fileParts(path: string): { name: string; folder: string } {
  const trimmed = path.replace(/[\\/]+$/, '');
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  return cut < 0 ? { name: trimmed, folder: '' } : { name: trimmed.slice(cut + 1), folder: trimmed.slice(0, cut) || trimmed.slice(0, cut + 1) };
}

function viewFile(file: PageFile, t: Translate): ViewFile {
  const { name, folder } = fileParts(file.path);
  const where = folder === '' ? t('Open {0}', name) : t('Open {0} in {1}', name, folder);
  return { path: file.path, name, folder, shared: file.shared, label: file.shared ? t('{0}, shared with another item', where) : where };
}

// The plan over time: a session's log read as a picture — one lane per item with the
// states it went through, a mark per version, the agent's turns, the health signals, and
// how long each item took. Pure: no I/O, no clock of its own (`now` comes in), no vscode.
//
// Times are those of this machine: the `ts` of each line (when Agent Plan saved or
// imported the version), never the foreign record's own clock, so a session reads the same
// whatever the agent wrote. A lane's state holds from the version that set it to the next
// version that changed it; the newest state of an item still in the plan runs to `end`.
//
// The files each item changed come from the file/write lines among those read: each names
// the items in progress when an agent's tool call wrote (timelineFiles.ts). A lane keeps its
// files when the item is later reworded or dropped (the lane is the old text's).
//
// Same item = same trimmed text (as health.ts). With repeated texts (foreign plans allow
// them), one lane, and an open status wins over a closed one, as in health.
import { isOpen, SessionHealth, statusMap, type HealthSettings, type HealthSignal, type StopHow } from '../derived/health';
import { isCurrentPlan, isFileWrite, isPlanEvent, type FileWriteRecord, type LogRecord } from '../log/logRecord';
import type { PermissionAnswer } from '../log/permissionRecord';
import type { ItemStatus, PlanCounts, PlanItem } from '../plan/plan';
import { diffPlans, spanText, type PlanChange, type Translate } from '../plan/present';
import { collectFiles, type FilesOf, type PageFile } from './timelineFiles';

/** A span of one status on a lane, in epoch milliseconds; `to` is exclusive. */
export interface Segment {
  status: ItemStatus;
  from: number;
  to: number;
}

export interface Lane {
  content: string;
  /** The item's place in the newest plan; undefined when the newest plan no longer holds it. */
  position: number | undefined;
  segments: Segment[];
  /** When a version first held the item. */
  firstSeen: number;
  /** The newest status the item had in a version. */
  status: ItemStatus;
  /** The newest plan no longer holds it while it was open when last seen: gone without being done. */
  dropped: boolean;
  /** It left the plan in a version that held a new text in its place with the same status. */
  rewordedTo?: string;
  /** It came into the plan in place of this text, with the same status. */
  rewordedFrom?: string;
  /** Time spent in progress, over every stretch (an item reopened adds up). */
  inProgressMs: number;
  /** From first seen to the version that last made it completed; undefined while it is not completed. */
  toDoneMs: number | undefined;
  /** The files written while it was in progress, each once, in the order first written. */
  files: PageFile[];
  /** When each of those writes happened (epoch ms), oldest first. */
  writes: number[];
}

export interface VersionMark {
  /** Epoch ms of the version's line. */
  time: number;
  /** The byte offset of its line, when the reader knows it (the Compare command takes it). */
  at: number | undefined;
  counts: PlanCounts;
  /** What changed from the previous version in this timeline; undefined for the first one. */
  change: PlanChange | undefined;
}

export interface TurnSpan {
  index: number;
  /** When this machine first saw the turn running; undefined when it was first seen ended. */
  start: number | undefined;
  /** When this machine first saw it end; undefined while it runs. */
  end: number | undefined;
  how: StopHow | undefined;
}

/** A connected agent's request for the user's leave (permission/ask), and how it ended. */
export interface AskMark {
  /** When it was taken (epoch ms). */
  time: number;
  tool: string;
  input: string;
  /** Its answer line's, when read: allow or deny here, or ended at the agent. */
  answer: PermissionAnswer | undefined;
  message: string | undefined;
  /** When it was answered (epoch ms), when read. */
  answeredAt: number | undefined;
}

export interface Timeline {
  /** The connected agents' requests for the user's leave, oldest first. */
  asks: AskMark[];
  /** The newest plan's items in order, then the items it no longer holds, oldest first. */
  lanes: Lane[];
  versions: VersionMark[];
  turns: TurnSpan[];
  signals: HealthSignal[];
  /** The first line read, or undefined for an empty input. */
  start: number | undefined;
  /**
   * Where open states stop and the axis ends: when the newest plan is finished (every item
   * completed or cancelled), its last version, or a file written after it (work is work);
   * else `now` while the session may still move, else the last line read.
   */
  end: number | undefined;
  /** A finished plan: its first to its last version; else end − start. */
  elapsedMs: number;
  /** The newest plan holds items and none of them is open: the work stopped at its last version. */
  finished: boolean;
  /** The lane with the most time in progress (ties: the earlier lane), when any item was in progress. */
  longest: Lane | undefined;
  /** The files written while no item was in progress. */
  sessionFiles: FilesOf;
}

/** A log line and its byte offset, oldest first. */
export interface TimelineLine {
  record: LogRecord;
  at?: number | undefined;
}

export interface TimelineOptions {
  /**
   * The present, in epoch ms. Given, the newest states run up to it (a live session); not
   * given, up to the last line read (a finished one, or a test).
   */
  now?: number | undefined;
  health?: HealthSettings | undefined;
}

interface LaneBuilder {
  lane: Lane;
  order: number;
  /** The status since `since` (undefined while absent from the plan). */
  current: ItemStatus | undefined;
  since: number;
  lastCompleted: number | undefined;
}

/**
 * Builds the timeline of lines read oldest first (a whole file, or the newest page of it:
 * then durations count from the first line given). Superseded foreign snapshots are no
 * versions; repeated imports are the reader's to leave out (logHistory does).
 */
export function buildTimeline(lines: Iterable<TimelineLine>, options: TimelineOptions = {}): Timeline {
  const lanes = new Map<string, LaneBuilder>();
  const versions: VersionMark[] = [];
  const turns = new Map<number, TurnSpan>();
  const health = new SessionHealth();
  const fileWrites: FileWriteRecord[] = [];
  const asks = new Map<string, AskMark>();
  let lastWrite: number | undefined;
  let previous: readonly PlanItem[] | undefined;
  let latest: readonly PlanItem[] = [];
  let start: number | undefined;
  let last: number | undefined;
  let firstVersion: number | undefined;
  let lastVersion: number | undefined;
  let order = 0;

  for (const { record, at } of lines) {
    const time = Date.parse(record.ts);
    if (Number.isNaN(time)) continue;
    start ??= time;
    last = last === undefined ? time : Math.max(last, time);
    if (isPlanEvent(record)) {
      if (!isCurrentPlan(record)) continue;
      const statuses = statusMap(record.todos);
      for (const [content, status] of statuses) {
        let built = lanes.get(content);
        if (built === undefined) {
          built = {
            lane: { content, position: undefined, segments: [], firstSeen: time, status, dropped: false, inProgressMs: 0, toDoneMs: undefined, files: [], writes: [] },
            order: order++,
            current: undefined,
            since: time,
            lastCompleted: undefined,
          };
          lanes.set(content, built);
        }
        if (built.current !== status) {
          close(built, time);
          built.current = status;
          built.since = time;
          if (status === 'completed') built.lastCompleted = time;
        }
        built.lane.status = status;
      }
      for (const built of lanes.values()) {
        if (built.current !== undefined && !statuses.has(built.lane.content)) {
          close(built, time);
          built.current = undefined;
        }
      }
      if (previous !== undefined) markRewording(previous, record.todos, lanes);
      firstVersion ??= time;
      lastVersion = time;
      versions.push({ time, at, counts: { ...record.counts }, change: previous === undefined ? undefined : diffPlans(previous, record.todos) });
      health.plan(record, at);
      previous = record.todos;
      latest = record.todos;
    } else if (record.type === 'session/info') {
      const turn = record.turn;
      if (turn) {
        const since = Date.parse(turn.since);
        const span = turns.get(turn.index) ?? { index: turn.index, start: undefined, end: undefined, how: undefined };
        if (turn.state === 'running') span.start ??= since;
        else if (span.end === undefined) {
          span.end = since;
          span.how = turn.state;
        }
        turns.set(turn.index, span);
      }
      health.info(record);
    } else if (isFileWrite(record)) {
      fileWrites.push(record);
      lastWrite = Math.max(lastWrite ?? time, time);
    } else if (record.type === 'permission/ask') {
      asks.set(record.id, { time, tool: record.tool, input: record.input, answer: undefined, message: undefined, answeredAt: undefined });
      health.ask(record);
    } else if (record.type === 'permission/answer') {
      const ask = asks.get(record.id);
      if (ask !== undefined && ask.answer === undefined) Object.assign(ask, { answer: record.answer, message: record.message, answeredAt: time });
      health.answered(record.id, record.ts);
    }
  }

  const finished = latest.length > 0 && !latest.some((item) => isOpen(item.status));
  const end =
    start === undefined ? undefined : finished && lastVersion !== undefined ? Math.max(lastVersion, lastWrite ?? lastVersion) : Math.max(options.now ?? last ?? start, last ?? start);
  const positions = new Map<string, number>();
  latest.forEach((item, index) => {
    if (!positions.has(item.content)) positions.set(item.content, index);
  });
  const files = collectFiles(fileWrites);
  // An item no version read names (its versions are on an older page) has no lane to show them.
  for (const [content, of] of files.items) {
    const lane = lanes.get(content)?.lane;
    if (lane) {
      lane.files = of.files;
      lane.writes = of.writes;
    }
  }
  const built = [...lanes.values()];
  for (const b of built) {
    if (end !== undefined) close(b, end);
    const lane = b.lane;
    lane.position = positions.get(lane.content);
    lane.dropped = lane.position === undefined && isOpen(lane.status) && lane.rewordedTo === undefined;
    lane.inProgressMs = lane.segments.filter((s) => s.status === 'in_progress').reduce((sum, s) => sum + (s.to - s.from), 0);
    lane.toDoneMs = lane.status === 'completed' && b.lastCompleted !== undefined ? b.lastCompleted - lane.firstSeen : undefined;
  }
  built.sort((a, b) => {
    const pa = a.lane.position ?? Number.POSITIVE_INFINITY;
    const pb = b.lane.position ?? Number.POSITIVE_INFINITY;
    return pa !== pb ? pa - pb : a.order - b.order;
  });
  const ordered = built.map((b) => b.lane);
  let longest: Lane | undefined;
  for (const lane of ordered) if (lane.inProgressMs > 0 && (longest === undefined || lane.inProgressMs > longest.inProgressMs)) longest = lane;
  return {
    asks: [...asks.values()],
    lanes: ordered,
    versions,
    turns: [...turns.values()].sort((a, b) => a.index - b.index),
    signals: start === undefined ? [] : health.signals(end ?? start, options.health),
    start,
    end,
    elapsedMs: finished && firstVersion !== undefined && lastVersion !== undefined ? lastVersion - firstVersion : start === undefined || end === undefined ? 0 : end - start,
    finished,
    longest,
    sessionFiles: files.session,
  };
}

/** Ends the lane's open stretch at `time` (a stretch of no length leaves no segment). */
function close(built: LaneBuilder, time: number): void {
  if (built.current === undefined) return;
  if (time > built.since) {
    const segments = built.lane.segments;
    const previous = segments[segments.length - 1];
    if (previous !== undefined && previous.status === built.current && previous.to === built.since) previous.to = time;
    else segments.push({ status: built.current, from: built.since, to: time });
  }
  built.since = time;
}

/** The same rule as health's reworded: a text gone whose place holds a new text with the same status. */
function markRewording(before: readonly PlanItem[], after: readonly PlanItem[], lanes: Map<string, LaneBuilder>): void {
  const old = new Set(before.map((item) => item.content));
  const next = new Set(after.map((item) => item.content));
  before.forEach((item, index) => {
    if (next.has(item.content)) return;
    const there = after[index];
    if (there === undefined || old.has(there.content) || there.status !== item.status) return;
    const gone = lanes.get(item.content)?.lane;
    const came = lanes.get(there.content)?.lane;
    if (gone === undefined || came === undefined || came.rewordedFrom !== undefined) return;
    gone.rewordedTo = there.content;
    came.rewordedFrom = item.content;
  });
}

/**
 * The durations of one item, as its tooltip and lane say them: "in progress 4 min 12 s ·
 * done after 6 min" (each part only when it applies; empty when neither does).
 */
export function laneDurationText(lane: Lane, t: Translate): string {
  const parts: string[] = [];
  if (lane.inProgressMs > 0) parts.push(t('in progress {0}', spanText(lane.inProgressMs, t)));
  if (lane.toDoneMs !== undefined) parts.push(t('done after {0}', spanText(lane.toDoneMs, t)));
  return parts.join(' · ');
}

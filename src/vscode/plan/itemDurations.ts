// Durations as the Plan view's tooltips say them, from the timeline of the session's
// newest versions (a page, never the whole history).
import * as vscode from 'vscode';
import { buildTimeline, laneDurationText } from '../../core/timeline/timeline';
import { readTimelinePage, type TimelineLog } from '../../core/timeline/timelineRead';

const t = vscode.l10n.t;

/** Versions a tooltip reads back at most; an item older than that says "or longer". */
export const TOOLTIP_VERSIONS = 500;

/** "in progress 4 min 12 s · done after 6 min", or undefined when the item has neither. */
export async function itemDurations(log: TimelineLog, session: string, content: string): Promise<string | undefined> {
  const page = await readTimelinePage(log, session, TOOLTIP_VERSIONS);
  const timeline = buildTimeline(page.lines, { now: Date.now() });
  const lane = timeline.lanes.find((candidate) => candidate.content === content);
  if (!lane) return undefined;
  const text = laneDurationText(lane, t);
  if (text === '') return undefined;
  // The item was in the plan before the oldest version read: its times are at least these.
  const older = page.more && lane.firstSeen === timeline.start;
  return older ? t('{0} or longer', text) : text;
}

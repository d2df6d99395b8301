// Reading a timeline from the log: the newest page of versions (with the session/info
// lines among them), walked back from the end, so a session with a long history opens as
// fast as a short one; an older page starts where the previous one stopped. No vscode.
import { isCurrentPlan, type LogRecord } from '../log/logRecord';
import type { TimelineLine } from './timeline';

/** The part of SessionLog a timeline reads. */
export interface TimelineLog {
  readRecordsBackward(session: string, visit: (record: LogRecord, at: number) => boolean, before?: number): Promise<void>;
}

export interface TimelinePage {
  /** Oldest first, ready for buildTimeline. */
  lines: TimelineLine[];
  /** Older lines exist before the first one. */
  more: boolean;
  /** The byte offset of the first line: pass it as `before` for the next older page. */
  before: number | undefined;
}

/** Versions the Plan Timeline reads at first and per older page; the pull request description reads one such page. */
export const TIMELINE_PAGE = 1000;

/** Up to `versions` plan versions, newest first read, and the info lines among them. */
export async function readTimelinePage(log: TimelineLog, session: string, versions: number, before?: number): Promise<TimelinePage> {
  const lines: TimelineLine[] = [];
  let plans = 0;
  let more = false;
  await log.readRecordsBackward(
    session,
    (record, at) => {
      if (isCurrentPlan(record)) {
        if (plans >= versions) {
          more = true;
          return true;
        }
        plans++;
      }
      lines.push({ record, at });
      return false;
    },
    before,
  );
  lines.reverse();
  // Info lines older than the page's oldest version belong to the older page.
  while (more && lines.length > 0 && !isCurrentPlan(lines[0]!.record)) lines.shift();
  return { lines, more, before: lines[0]?.at };
}

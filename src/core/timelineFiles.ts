// Which item changed which file: a file written while exactly one item was in progress
// belongs to it; while several were, to each of them, marked shared; while none was, to
// the session. "In progress" is read off the timeline's lanes at the write's time (this
// machine's time of the line that recorded it). Pure; no vscode.
import type { Timeline } from './timeline';

export interface TimedWrite {
  /** Epoch ms this machine saw the write. */
  time: number;
  path: string;
}

export interface ItemFile {
  path: string;
  /** Another item was in progress too when it was written. */
  shared: boolean;
}

export interface FileAttribution {
  /** By item text, each file once, in the order first written. */
  items: Map<string, ItemFile[]>;
  /** Files written while no item was in progress. */
  session: string[];
}

export function attributeFiles(timeline: Timeline, writes: readonly TimedWrite[]): FileAttribution {
  const items = new Map<string, ItemFile[]>();
  const session: string[] = [];
  for (const write of writes) {
    const owners = timeline.lanes.filter((lane) => lane.segments.some((s) => s.status === 'in_progress' && s.from <= write.time && write.time < s.to));
    if (owners.length === 0) {
      if (!session.includes(write.path)) session.push(write.path);
      continue;
    }
    const shared = owners.length > 1;
    for (const lane of owners) {
      const files = items.get(lane.content) ?? [];
      const known = files.find((file) => file.path === write.path);
      if (known) known.shared ||= shared;
      else files.push({ path: write.path, shared });
      items.set(lane.content, files);
    }
  }
  return { items, session };
}

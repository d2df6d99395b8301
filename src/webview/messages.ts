// The Plan Timeline's messages, both ways, in one place: the extension
// (src/vscode/timeline/timelinePanel.ts) and the page (src/webview/timeline.ts) import the
// same types. No vscode, no DOM.
import type { TimelineViewModel } from '../core/timeline/timelineView';

/** What the extension posts to the page. */
export type TimelineHostMessage = { type: 'model'; model: TimelineViewModel };

/** What the page posts back to the extension. */
export type TimelinePageMessage =
  | { type: 'ready' }
  | { type: 'compare'; at: number }
  | { type: 'older' }
  | { type: 'open'; path: string }
  | { type: 'rendered'; lanes: string[]; marks: number; versions: string[] };

/** What the page keeps across a reload (vscode.setState): the session, for the panel to come back to, and the range shown. */
export interface TimelinePageState {
  session?: string;
  view?: { from: number; to: number } | undefined;
}

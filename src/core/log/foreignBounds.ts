// A plan read from another agent's files is bounded like a todo_write call: the tool's schema
// holds a call to 100 items of 1,000 characters, and nothing holds another program's files.
// Unbounded, one plan could make a line longer than the log's reader reads (it would be
// skipped, so the plan never shows, and appended again by every window that reads the file)
// or a model too large for the views. Cut, never dropped: the first items, each text with an
// ellipsis. An id too long to be one is refused: cutting it could make two calls one.
import type { PlanSource } from '../foreign';
import type { PlanItem } from '../plan/plan';
import { MAX_TOOL_LENGTH } from './logRecord';

/** At most this many items in a foreign plan: todo_write's `todos.maxItems`. */
export const MAX_FOREIGN_ITEMS = 100;
/** At most this many characters (code points) in an item's text: todo_write's `content.maxLength`. */
export const MAX_FOREIGN_CONTENT_LENGTH = 1000;
/** The longest `source.session` or `source.call` imported; a longer one is no id an agent makes. */
export const MAX_FOREIGN_ID_LENGTH = 1024;

export type BoundedPlan =
  | { items: PlanItem[]; source: PlanSource; cut?: string }
  | { refused: string };

/** `text` cut to at most `max` code points, the last one an ellipsis; unchanged when it fits. */
export function cutText(text: string, max: number): string {
  // Fewer UTF-16 units than `max` is fewer code points too: no walk for the usual text.
  if (text.length <= max) return text;
  let end = 0;
  let points = 0;
  while (end < text.length && points < max - 1) {
    const code = text.charCodeAt(end);
    end += code >= 0xd800 && code <= 0xdbff && end + 1 < text.length ? 2 : 1;
    points++;
  }
  return end >= text.length ? text : `${text.slice(0, end)}…`;
}

/** The plan within the bounds, with what was cut in words (for one report), or why it is refused. */
export function boundForeignPlan(items: readonly PlanItem[], source: PlanSource): BoundedPlan {
  for (const field of ['session', 'call'] as const) {
    if (source[field].length > MAX_FOREIGN_ID_LENGTH) {
      return { refused: `a plan whose \`source.${field}\` is longer than ${MAX_FOREIGN_ID_LENGTH} characters; not imported` };
    }
  }
  const cuts: string[] = [];
  let kept = items;
  if (items.length > MAX_FOREIGN_ITEMS) {
    kept = items.slice(0, MAX_FOREIGN_ITEMS);
    cuts.push(`${items.length} items, kept the first ${MAX_FOREIGN_ITEMS}`);
  }
  let longTexts = 0;
  const bounded = kept.map((item) => {
    const content = cutText(item.content, MAX_FOREIGN_CONTENT_LENGTH);
    if (content === item.content) return item;
    longTexts++;
    return { ...item, content };
  });
  if (longTexts > 0) cuts.push(`${longTexts === 1 ? 'an item' : `${longTexts} items`} longer than ${MAX_FOREIGN_CONTENT_LENGTH} characters, cut`);
  let boundedSource = source;
  if (source.tool.length > MAX_TOOL_LENGTH || (source.priorities !== undefined && source.priorities.length > bounded.length)) {
    boundedSource = { ...source, tool: cutText(source.tool, MAX_TOOL_LENGTH) };
    if (source.priorities !== undefined) boundedSource.priorities = source.priorities.slice(0, bounded.length);
  }
  return cuts.length > 0 ? { items: bounded, source: boundedSource, cut: cuts.join('; ') } : { items: bounded, source: boundedSource };
}

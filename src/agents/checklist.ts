// A Markdown checklist as agents write their lists in it (Copilot CLI's update_todo, Cline's
// focus chain): `- [ ] text` pending, `- [x] text` completed. Two marks only: a list written
// this way has no item in progress, and none is made up. Pure.
import type { ForeignItem, ForeignStatus } from '../core/foreign';

/** The items of a checklist; a string (for the output channel) when an item has another mark. `what` names the list in it. */
export function itemsFromChecklist(markdown: string, what: string): ForeignItem[] | string {
  const items: ForeignItem[] = [];
  for (const raw of markdown.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = /^[-*]\s+\[(.)\]\s+(.*)$/.exec(line);
    if (match === null) continue; // Prose around the list is not an item.
    const mark = match[1] ?? '';
    const status: ForeignStatus | undefined = mark === ' ' ? 'pending' : mark === 'x' || mark === 'X' ? 'completed' : undefined;
    if (status === undefined) return `${what} item marked ${JSON.stringify(mark)}`;
    items.push({ content: (match[2] ?? '').trim(), status });
  }
  return items;
}

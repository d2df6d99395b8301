// Pure presentation of plans: progress texts, Markdown, diffs between snapshots,
// how long an item has held its status, spans of time. The UI adapters turn these into tree
// items and status-bar text; a translator comes in so the core stays host-free.
import type { ItemStatus, PlanCounts, PlanItem } from './plan';
import { markdownText, plainText } from '../text/escape';

/** `vscode.l10n.t` in the extension, an identity formatter in tests. */
export type Translate = (message: string, ...args: Array<string | number>) => string;

export const formatOnly: Translate = (message, ...args) =>
  message.replace(/\{(\d+)\}/g, (whole, index: string) => {
    const value = args[Number(index)];
    return value === undefined ? whole : String(value);
  });

export function total(counts: PlanCounts): number {
  return counts.pending + counts.inProgress + counts.completed + (counts.cancelled ?? 0) + (counts.blocked ?? 0);
}

/** Items still to do: pending, in progress and blocked (a cancelled item is not open, nor done). */
export function openCount(counts: PlanCounts): number {
  return counts.pending + counts.inProgress + (counts.blocked ?? 0);
}

/**
 * "3/7 done · 1 in progress" — the view description and the status-bar text. Cancelled and
 * blocked items (foreign plans only) count in the total, never as done or in progress,
 * and are named when there are any: "3/7 done · 1 in progress · 1 blocked · 2 cancelled".
 */
export function progressText(counts: PlanCounts, t: Translate): string {
  const parts = [t('{0}/{1} done', counts.completed, total(counts))];
  if (counts.inProgress > 0) parts.push(t('{0} in progress', counts.inProgress));
  if ((counts.blocked ?? 0) > 0) parts.push(t('{0} blocked', counts.blocked ?? 0));
  if ((counts.cancelled ?? 0) > 0) parts.push(t('{0} cancelled', counts.cancelled ?? 0));
  return parts.join(' · ');
}

export function statusWord(status: ItemStatus, t: Translate): string {
  switch (status) {
    case 'pending':
      return t('pending');
    case 'in_progress':
      return t('in progress');
    case 'completed':
      return t('completed');
    case 'cancelled':
      return t('cancelled');
    case 'blocked':
      return t('blocked');
  }
}

/** A row's label: one line, or a placeholder for an item without text (foreign plans allow one). */
export function itemLabel(content: string, t: Translate): string {
  const line = singleLine(content);
  return line === '' ? t('(item without text)') : line;
}

/** Cuts `text` to at most `max` user-perceived characters, never inside one (an emoji, a combining mark). */
export function truncateText(text: string, max: number): string {
  const graphemes = Array.from(new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text), (s) => s.segment);
  if (graphemes.length <= max) return text;
  return graphemes.slice(0, Math.max(0, max - 1)).join('') + '…';
}

/** One line of a plan as it reads in a tree row: newlines folded, nothing lost. */
export function singleLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ');
}

/**
 * A Markdown checklist; since a checkbox has two states, the others are marked: in progress
 * `- [ ] x *(in progress)*`, blocked `- [ ] x *(blocked)*`, cancelled `- [ ] ~~x~~ *(cancelled)*`.
 */
export function planMarkdown(todos: readonly PlanItem[], heading?: string, { inert = true }: { inert?: boolean } = {}): string {
  // Inert: the agent's words as Markdown that shows them and nothing more wherever it is pasted
  // (no mention, link or tag). Not inert: the same lines as plain text, for a plain-text sink.
  const text = inert ? markdownText : plainText;
  const lines = heading ? [`## ${text(heading)}`, ''] : [];
  for (const todo of todos) {
    const box = todo.status === 'completed' ? '[x]' : '[ ]';
    const content = text(todo.content);
    const shown = todo.status === 'cancelled' && content !== '' ? `~~${content}~~` : content;
    const mark =
      todo.status === 'in_progress' ? ' *(in progress)*' : todo.status === 'blocked' ? ' *(blocked)*' : todo.status === 'cancelled' ? ' *(cancelled)*' : '';
    lines.push(`- ${box} ${shown}${mark}`);
  }
  if (todos.length === 0) lines.push('*(empty plan)*');
  return lines.join('\n') + '\n';
}

export interface PlanChange {
  added: string[];
  removed: string[];
  flipped: Array<{ content: string; from: ItemStatus; to: ItemStatus }>;
  reordered: boolean;
}

/** What changed from one snapshot to the next, matched by content. */
export function diffPlans(before: readonly PlanItem[], after: readonly PlanItem[]): PlanChange {
  const old = new Map(before.map((todo) => [todo.content, todo.status] as const));
  const next = new Map(after.map((todo) => [todo.content, todo.status] as const));
  const added = after.filter((todo) => !old.has(todo.content)).map((todo) => todo.content);
  const removed = before.filter((todo) => !next.has(todo.content)).map((todo) => todo.content);
  const flipped: PlanChange['flipped'] = [];
  for (const todo of after) {
    const from = old.get(todo.content);
    if (from !== undefined && from !== todo.status) flipped.push({ content: todo.content, from, to: todo.status });
  }
  const keptBefore = before.filter((todo) => next.has(todo.content)).map((todo) => todo.content);
  const keptAfter = after.filter((todo) => old.has(todo.content)).map((todo) => todo.content);
  const reordered = keptBefore.some((content, index) => keptAfter[index] !== content);
  return { added, removed, flipped, reordered };
}

/** "+2 −1 ~3" — a short summary of a change for a list of versions. */
export function changeSummary(change: PlanChange, t: Translate): string {
  const parts: string[] = [];
  if (change.added.length > 0) parts.push(t('+{0} added', change.added.length));
  if (change.removed.length > 0) parts.push(t('−{0} removed', change.removed.length));
  if (change.flipped.length > 0) parts.push(t('{0} status changes', change.flipped.length));
  if (change.reordered) parts.push(t('reordered'));
  return parts.length > 0 ? parts.join(', ') : t('no change');
}

/** "just now", "5 min ago", "3 h ago", "2 d ago". */
export function relativeTime(fromIso: string, now: Date, t: Translate): string {
  const seconds = Math.max(0, Math.round((now.getTime() - Date.parse(fromIso)) / 1000));
  if (!Number.isFinite(seconds) || seconds < 45) return t('just now');
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return t('{0} min ago', minutes);
  const hours = Math.round(minutes / 60);
  if (hours < 48) return t('{0} h ago', hours);
  return t('{0} d ago', Math.round(hours / 24));
}

/** The longest any text of relativeTime holds ("1 d ago" turns to "2 d ago" within a day). */
const LONGEST_RELATIVE_TEXT_MS = 25 * 3600_000;

/**
 * When relativeTime(fromIso, ·) next reads differently from its text at `now` (epoch ms), to
 * redraw a row exactly then rather than on a clock; undefined for a time that does not parse.
 * The text only moves forward as time passes, so the first moment it differs is found by halving.
 */
export function relativeTimeChangesAt(fromIso: string, now: Date): number | undefined {
  if (!Number.isFinite(Date.parse(fromIso))) return undefined;
  const plain: Translate = (message, ...args) => `${message}|${args.join('|')}`;
  const text = (at: number) => relativeTime(fromIso, new Date(at), plain);
  const current = text(now.getTime());
  let same = now.getTime();
  let differs = same + LONGEST_RELATIVE_TEXT_MS;
  if (text(differs) === current) return undefined;
  while (differs - same > 1) {
    const middle = Math.floor((same + differs) / 2);
    if (text(middle) === current) same = middle;
    else differs = middle;
  }
  return differs;
}

/** "for 5 min", the duration an item has held its status. */
export function durationText(fromIso: string, now: Date, t: Translate): string {
  const seconds = Math.max(0, Math.round((now.getTime() - Date.parse(fromIso)) / 1000));
  if (!Number.isFinite(seconds) || seconds < 60) return t('for {0} s', Number.isFinite(seconds) ? seconds : 0);
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return t('for {0} min', minutes);
  const hours = Math.round(minutes / 60);
  if (hours < 48) return t('for {0} h', hours);
  return t('for {0} d', Math.round(hours / 24));
}

/** "under 1 s", "42 s", "4 min 12 s", "1 h 5 min", "2 d 3 h": a span, to the two largest units. */
export function spanText(ms: number, t: Translate): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds === 0 && ms > 0) return t('under 1 s');
  if (seconds < 60) return t('{0} s', seconds);
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 === 0 ? t('{0} min', minutes) : t('{0} min {1} s', minutes, seconds % 60);
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 === 0 ? t('{0} h', hours) : t('{0} h {1} min', hours, minutes % 60);
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? t('{0} d', days) : t('{0} d {1} h', days, hours % 24);
}

/** The item to name when one line must stand for the plan: the first in progress. */
export function activeItem(todos: readonly PlanItem[]): PlanItem | undefined {
  return todos.find((todo) => todo.status === 'in_progress');
}

/** What names a session besides its plan: the chat's title and its first request's text, when known. */
export interface SessionNaming {
  title?: string | undefined;
  request?: string | undefined;
}

/** A session's name from its facts alone: its title, else its first request's text (one line); undefined when neither is known. */
export function sessionName(named: SessionNaming | undefined): string | undefined {
  for (const text of [named?.title, named?.request]) {
    if (text !== undefined && text.trim() !== '') return singleLine(text.trim());
  }
  return undefined;
}

/**
 * A label for a session in lists: the chat's title when the agent's program made one, else
 * what the user asked first (the first request's text), else its first item, the nearest
 * thing to a title a plan has. `event`: the session's plan record (or the store's summary of it).
 */
export function sessionTitle(event: { readonly todos: readonly PlanItem[] }, t: Translate, named?: SessionNaming): string {
  const name = sessionName(named);
  if (name !== undefined) return name;
  // A summary (store.ts) names its first item without keeping its plan: one met at a first look reads it back once (store.firstItemOf).
  const first = 'firstItem' in event ? (event as { firstItem?: string }).firstItem : event.todos[0]?.content;
  return first !== undefined ? itemLabel(first, t) : t('(empty plan)');
}

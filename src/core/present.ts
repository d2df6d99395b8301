// Pure presentation of plans: progress texts, Markdown, diffs between snapshots,
// how long an item has held its status. The UI adapters turn these into tree
// items and status-bar text; a translator comes in so the core stays host-free.
import type { Counts, Todo, TodoStatus } from './plan';
import type { LogEvent } from './sessionLog';

/** `vscode.l10n.t` in the extension, an identity formatter in tests. */
export type Translate = (message: string, ...args: Array<string | number>) => string;

export const formatOnly: Translate = (message, ...args) =>
  message.replace(/\{(\d+)\}/g, (whole, index: string) => {
    const value = args[Number(index)];
    return value === undefined ? whole : String(value);
  });

export function total(counts: Counts): number {
  return counts.pending + counts.inProgress + counts.completed;
}

/** "3/7 done · 1 in progress" — the view description and the status-bar text. */
export function progressText(counts: Counts, t: Translate): string {
  const done = t('{0}/{1} done', counts.completed, total(counts));
  return counts.inProgress > 0 ? `${done} · ${t('{0} in progress', counts.inProgress)}` : done;
}

export function statusWord(status: TodoStatus, t: Translate): string {
  switch (status) {
    case 'pending':
      return t('pending');
    case 'in_progress':
      return t('in progress');
    case 'completed':
      return t('completed');
  }
}

/** One line of a plan as it reads in a tree row: newlines folded, nothing lost. */
export function singleLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ');
}

/** A Markdown checklist; in-progress items are marked, since a checkbox has two states. */
export function planMarkdown(todos: readonly Todo[], heading?: string): string {
  const lines = heading ? [`## ${heading}`, ''] : [];
  for (const todo of todos) {
    const box = todo.status === 'completed' ? '[x]' : '[ ]';
    const mark = todo.status === 'in_progress' ? ' *(in progress)*' : '';
    lines.push(`- ${box} ${singleLine(todo.content)}${mark}`);
  }
  if (todos.length === 0) lines.push('*(empty plan)*');
  return lines.join('\n') + '\n';
}

export interface PlanChange {
  added: string[];
  removed: string[];
  flipped: Array<{ content: string; from: TodoStatus; to: TodoStatus }>;
  reordered: boolean;
}

/** What changed from one snapshot to the next, matched by content. */
export function diffPlans(before: readonly Todo[], after: readonly Todo[]): PlanChange {
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

/**
 * When the item took its current status: walks the history back from the newest
 * snapshot while the item keeps that status. Undefined when the item is not in
 * the newest snapshot.
 */
export function statusSince(history: readonly LogEvent[], content: string): string | undefined {
  const newest = history[history.length - 1];
  const status = newest?.todos.find((todo) => todo.content === content)?.status;
  if (!newest || status === undefined) return undefined;
  let since = newest.ts;
  for (let index = history.length - 1; index >= 0; index--) {
    const event = history[index];
    if (!event || event.todos.find((todo) => todo.content === content)?.status !== status) break;
    since = event.ts;
  }
  return since;
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

/** The item to name when one line must stand for the plan: the first in progress. */
export function activeItem(todos: readonly Todo[]): Todo | undefined {
  return todos.find((todo) => todo.status === 'in_progress');
}

/** A label for a session in lists: its first item, the nearest thing to a title a plan has. */
export function sessionTitle(event: LogEvent, t: Translate): string {
  const first = event.todos[0];
  return first ? singleLine(first.content) : t('(empty plan)');
}

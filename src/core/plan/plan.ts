// The plan's types and the model-facing contract strings. These texts are a stable
// contract with the model, byte for byte: change them only together with the README and tests.

import type { ForeignStatus } from '../foreign';

export type TodoStatus = 'pending' | 'in_progress' | 'completed';

/** A status a snapshot in the log may hold: todo_write's three, and what other agents add. */
export type ItemStatus = ForeignStatus;

export const ITEM_STATUSES: readonly ItemStatus[] = ['pending', 'in_progress', 'completed', 'cancelled', 'blocked'];

export const TODO_STATUSES: readonly TodoStatus[] = ['pending', 'in_progress', 'completed'];

export interface Todo {
  content: string;
  status: TodoStatus;
}

export interface Counts {
  pending: number;
  inProgress: number;
  completed: number;
}

/** An item of a snapshot in the log: a todo_write item, or a foreign one (from another agent). */
export interface PlanItem {
  content: string;
  status: ItemStatus;
}

/**
 * The counts stored with a snapshot. A foreign snapshot holding cancelled or blocked
 * items adds both counts; neither counts as done nor as in progress.
 */
export interface PlanCounts extends Counts {
  cancelled?: number;
  blocked?: number;
}

/** Counts of a stored snapshot: `cancelled`/`blocked` present only when one of them is not 0. */
export function countItems(items: readonly PlanItem[]): PlanCounts {
  const counts = { pending: 0, inProgress: 0, completed: 0, cancelled: 0, blocked: 0 };
  for (const item of items) {
    if (item.status === 'pending') counts.pending++;
    else if (item.status === 'in_progress') counts.inProgress++;
    else if (item.status === 'completed') counts.completed++;
    else if (item.status === 'cancelled') counts.cancelled++;
    else counts.blocked++;
  }
  if (counts.cancelled === 0 && counts.blocked === 0) {
    return { pending: counts.pending, inProgress: counts.inProgress, completed: counts.completed };
  }
  return counts;
}

export function countTodos(todos: readonly Todo[]): Counts {
  const counts: Counts = { pending: 0, inProgress: 0, completed: 0 };
  for (const todo of todos) {
    if (todo.status === 'pending') counts.pending++;
    else if (todo.status === 'in_progress') counts.inProgress++;
    else counts.completed++;
  }
  return counts;
}

/** The whole acknowledgement the model gets on success; the list itself goes to the log. */
export function successText(counts: Counts): string {
  return `Updated todo list: ${counts.pending} pending, ${counts.inProgress} in progress, ${counts.completed} completed.`;
}

export const EMPTY_CONTENT_TEXT = 'Error: invalid todo: `content` must be a non-empty string';

/** `content` is the trimmed text; it is quoted as JSON.stringify writes it (as the seed's dsh does). */
export function duplicateContentText(content: string): string {
  return `Error: invalid todos: duplicate content ${JSON.stringify(content)}`;
}

export const NO_SESSION_TEXT = 'Error: todo_write requires an owning agent session';

export function saveFailedText(reason: string): string {
  return `Error: could not save the todo list: ${reason}`;
}

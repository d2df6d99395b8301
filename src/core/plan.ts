// The plan's types and the model-facing contract strings. These texts are a stable
// contract with the model, byte for byte: change them only together with the README and tests.

export type TodoStatus = 'pending' | 'in_progress' | 'completed';

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

/** The canonical result of a successful todo_write call. */
export interface PlanResult {
  todos: Todo[];
  counts: Counts;
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

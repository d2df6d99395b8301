// One todo_write call, host-free: owning session → validation → append → the
// text the model reads. The VS Code tool is a thin wrapper around it, and the
// reliability suite drives it directly. It never throws for any input.
import { NO_SESSION_TEXT, saveFailedText, successText } from '../plan/plan';
import { sessionKeyFromToken } from '../log/sessionKey';
import type { PlanRecord } from '../log/sessionLog';
import type { PlanStore } from './store';
import { validateTodoInput } from '../plan/validate';

export type TodoWriteOutcome =
  | { kind: 'saved'; text: string; event: PlanRecord }
  | { kind: 'rejected'; text: string; reason: 'no-session' | 'invalid' }
  | { kind: 'failed'; text: string; error: unknown };

export async function runTodoWrite(store: PlanStore, toolInvocationToken: unknown, input: unknown): Promise<TodoWriteOutcome> {
  const session = sessionKeyFromToken(toolInvocationToken);
  if (session === undefined) return { kind: 'rejected', text: NO_SESSION_TEXT, reason: 'no-session' };
  const validation = validateTodoInput(input);
  if (!validation.ok) return { kind: 'rejected', text: validation.error, reason: 'invalid' };
  try {
    const event = await store.write(session, validation.todos);
    return { kind: 'saved', text: successText(event.counts), event };
  } catch (error) {
    const reason = error instanceof Error && error.message !== '' ? error.message : String(error);
    return { kind: 'failed', text: saveFailedText(reason), error };
  }
}

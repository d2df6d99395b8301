// The one tool the server offers: todo_write, with the extension's own contract. The input
// schema is the schema file itself (as the manifest's languageModelTools entry carries it),
// the validation is core's, and so are the result and error texts. Pure.
import inputSchemaFile from '../../schemas/todo-write.input.json';
import { countTodos, successText, type Todo } from '../core/plan/plan';
import { validateTodoInput } from '../core/plan/validate';

export const TOOL_NAME = 'todo_write';

/** What the model reads about the tool: short, and the same whichever agent offers it. */
export const TOOL_DESCRIPTION =
  'Replace the whole task list for this session. Send EVERY item on every call (no partial updates); ' +
  'the list you send is the plan. Use for multi-step work: add items when you plan, mark one in_progress ' +
  'when you start it and completed as soon as it is done. Several may be in_progress at once. ' +
  'An empty list clears the plan. The user follows the plan in Agent Plan; the current plan is the resource plan://current.';

/** The schema file without `$schema`: exactly the manifest's `inputSchema`. */
export const INPUT_SCHEMA: { type: 'object'; [key: string]: unknown } = (() => {
  const schema: { type: 'object'; [key: string]: unknown } = { ...inputSchemaFile, type: 'object' };
  delete schema['$schema'];
  return schema;
})();

export const TOOL = {
  name: TOOL_NAME,
  description: TOOL_DESCRIPTION,
  inputSchema: INPUT_SCHEMA,
  // It writes only its own inbox, replacing the plan it wrote before; nothing outside.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
} as const;

export type ToolCheck = { ok: true; todos: Todo[] } | { ok: false; text: string };

/** The call's arguments checked as the language-model tool checks them. */
export function checkInput(input: unknown): ToolCheck {
  const validation = validateTodoInput(input);
  return validation.ok ? { ok: true, todos: validation.todos } : { ok: false, text: validation.error };
}

/** The model's acknowledgement of a saved list, byte for byte the language-model tool's. */
export function savedText(todos: readonly Todo[]): string {
  return successText(countTodos(todos));
}

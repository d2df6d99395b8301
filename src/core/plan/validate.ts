// Validates todo_write input at the edge. The schema (compiled at build time) does the
// structural checks; this module turns its FIRST error into one of our stable texts (never
// ajv's wording, which could change under us) and adds what a schema cannot say: duplicates.
// The generated validator is CommonJS with `export =`, which this import form types exactly.
// eslint-disable-next-line @typescript-eslint/no-require-imports
import schemaValidate = require('../generated/inputValidator');
import type { SchemaError } from '../generated/inputValidator';
import { EMPTY_CONTENT_TEXT, duplicateContentText, type Todo } from './plan';

/** Matches schemas/todo-write.input.json; a unit test holds the two together. */
export const LIMITS = {
  /** `todos.maxItems` */
  maxTodos: 100,
  /** `content.maxLength`, in Unicode code points */
  maxContentLength: 1000,
  /** How much of an unknown key an error text quotes. */
  maxQuotedKeyLength: 40,
} as const;

const STATUS_LIST = '"pending", "in_progress" or "completed"';
const SHAPE = '{"todos": [{"content": string, "status": "pending" | "in_progress" | "completed"}]}';

/** Every rejection text the model can get. `n` is the 1-based position of the todo. */
export const ERRORS = {
  notObject: `Error: invalid input: expected ${SHAPE}`,
  missingTodos: 'Error: invalid input: missing `todos`; send the whole list as an array ([] clears it)',
  todosNotArray: 'Error: invalid input: `todos` must be an array of {"content", "status"} objects',
  unknownKey: (key: string) => `Error: invalid input: unknown key ${quoteKey(key)}; the only key is \`todos\``,
  tooManyTodos: `Error: invalid todos: more than ${LIMITS.maxTodos} items; keep the list to at most ${LIMITS.maxTodos}`,
  todoNotObject: (n: number) => `Error: invalid todo ${n}: must be an object {"content": string, "status": string}`,
  missingContent: (n: number) => `Error: invalid todo ${n}: missing \`content\``,
  missingStatus: (n: number) => `Error: invalid todo ${n}: missing \`status\`; use ${STATUS_LIST}`,
  contentNotString: (n: number) => `Error: invalid todo ${n}: \`content\` must be a string`,
  emptyContent: EMPTY_CONTENT_TEXT,
  contentTooLong: (n: number) =>
    `Error: invalid todo ${n}: \`content\` is longer than ${LIMITS.maxContentLength} characters; shorten it`,
  invalidStatus: (n: number) => `Error: invalid todo ${n}: \`status\` must be ${STATUS_LIST}`,
  unknownTodoKey: (n: number, key: string) =>
    `Error: invalid todo ${n}: unknown key ${quoteKey(key)}; only \`content\` and \`status\` are allowed`,
  duplicateContent: duplicateContentText,
} as const;

export type ValidationResult = { ok: true; todos: Todo[] } | { ok: false; error: string };

/**
 * The lists validateTodoInput returned, each a fresh copy no caller held before: the log
 * appends one of them as it is, without checking it again. Lines the log reads back are
 * still checked (logRecord.ts): it did not write them all.
 */
const validated = new WeakSet<readonly Todo[]>();

/** Whether `todos` is a list validateTodoInput returned (validated once, on its way in). */
export function isValidated(todos: readonly Todo[]): boolean {
  return validated.has(todos);
}

export function validateTodoInput(input: unknown): ValidationResult {
  try {
    if (!schemaValidate(input)) return { ok: false, error: schemaErrorText(schemaValidate.errors?.[0]) };
    const copy = (input as { todos: Todo[] }).todos.map((t): Todo => ({ content: t.content, status: t.status }));
    // Input that is not plain data (getters, proxies) could read differently the second
    // time; checking the copy guarantees that what we return is what we validated.
    if (!schemaValidate({ todos: copy })) return { ok: false, error: schemaErrorText(schemaValidate.errors?.[0]) };
    // The trimmed text is the canonical item (as in the seed's dsh): stored, shown, compared.
    const todos = copy.map((t): Todo => ({ content: t.content.trim(), status: t.status }));
    const duplicate = findDuplicate(todos);
    if (duplicate !== undefined) return { ok: false, error: ERRORS.duplicateContent(duplicate) };
    validated.add(todos);
    return { ok: true, todos };
  } catch {
    return { ok: false, error: ERRORS.notObject };
  }
}

/** The (trimmed) content of the first item whose content already occurred. */
function findDuplicate(todos: readonly Todo[]): string | undefined {
  const seen = new Set<string>();
  for (const todo of todos) {
    if (seen.has(todo.content)) return todo.content;
    seen.add(todo.content);
  }
  return undefined;
}

/** Maps one schema error (keyword + instancePath) to our text. Exported for tests. */
export function schemaErrorText(error: SchemaError | undefined): string {
  if (!error) return ERRORS.notObject;
  const { keyword, instancePath, params } = error;
  if (instancePath === '') {
    if (keyword === 'required') return ERRORS.missingTodos;
    if (keyword === 'additionalProperties') return ERRORS.unknownKey(String(params['additionalProperty']));
    return ERRORS.notObject;
  }
  if (instancePath === '/todos') {
    if (keyword === 'maxItems') return ERRORS.tooManyTodos;
    return ERRORS.todosNotArray;
  }
  const match = /^\/todos\/(\d+)(?:\/(content|status))?$/.exec(instancePath);
  if (!match) return ERRORS.notObject;
  const n = Number(match[1]) + 1;
  const field = match[2];
  if (field === undefined) {
    if (keyword === 'required') {
      return params['missingProperty'] === 'content' ? ERRORS.missingContent(n) : ERRORS.missingStatus(n);
    }
    if (keyword === 'additionalProperties') return ERRORS.unknownTodoKey(n, String(params['additionalProperty']));
    return ERRORS.todoNotObject(n);
  }
  if (field === 'status') return ERRORS.invalidStatus(n);
  if (keyword === 'type') return ERRORS.contentNotString(n);
  if (keyword === 'maxLength') return ERRORS.contentTooLong(n);
  return ERRORS.emptyContent;
}

/**
 * JSON-quotes a key and cuts it, so a hostile key (huge, control or bidi characters)
 * stays short and printable in the text the model reads.
 */
export function quoteKey(key: string): string {
  const json = JSON.stringify(key).replace(
    /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  const chars = Array.from(json);
  if (chars.length <= LIMITS.maxQuotedKeyLength) return json;
  return `${chars.slice(0, LIMITS.maxQuotedKeyLength - 1).join('')}…`;
}

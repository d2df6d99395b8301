// Recognizes the documented rejection texts, built from the core's exported constants
// and templates (never copied), and checks that the text's claim holds for the input.
import { EMPTY_CONTENT_TEXT, NO_SESSION_TEXT, duplicateContentText, saveFailedText } from '../../../src/core/plan/plan';
import { ERRORS, quoteKey } from '../../../src/core/plan/validate';
import { codePoints, has, isBlank, isPlainObject } from './oracle';

const N = 987654321;
const KEY = 'qqKEYSENTINELqq';
const CONTENT = 'qqCONTENTSENTINELqq';

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A regexp from a template's output: sentinels become capture groups. */
function template(text: string): RegExp {
  let source = escape(text);
  source = source.split(escape(quoteKey(KEY))).join('(.*)');
  source = source.split(escape(CONTENT)).join('(.*)');
  source = source.split(String(N)).join('([1-9][0-9]*)');
  return new RegExp(`^${source}$`, 's');
}

type Claim = (input: unknown, groups: string[]) => boolean;

function todosOf(input: unknown): unknown[] {
  return isPlainObject(input) && Array.isArray(input['todos']) ? input['todos'] : [];
}
function item(input: unknown, n: string | undefined): unknown {
  const todos = todosOf(input);
  const index = Number(n) - 1;
  return Number.isInteger(index) && index >= 0 && index < todos.length ? todos[index] : undefined;
}
function itemHasKey(input: unknown, n: string | undefined, key: string): boolean {
  const value = item(input, n);
  return isPlainObject(value) && has(value, key);
}

/** Each documented error: its name, how to recognize it, and what must be true of the input. */
export const ERROR_KINDS: ReadonlyArray<{ name: string; pattern: RegExp; claim: Claim }> = [
  { name: 'notObject', pattern: template(ERRORS.notObject), claim: (input) => !isPlainObject(input) },
  { name: 'missingTodos', pattern: template(ERRORS.missingTodos), claim: (input) => isPlainObject(input) && !has(input, 'todos') },
  {
    name: 'todosNotArray',
    pattern: template(ERRORS.todosNotArray),
    claim: (input) => isPlainObject(input) && has(input, 'todos') && !Array.isArray(input['todos']),
  },
  {
    name: 'unknownKey',
    pattern: template(ERRORS.unknownKey(KEY)),
    claim: (input, [quoted]) => isPlainObject(input) && Object.keys(input).some((k) => k !== 'todos' && quoteKey(k) === quoted),
  },
  { name: 'tooManyTodos', pattern: template(ERRORS.tooManyTodos), claim: (input) => todosOf(input).length > 100 },
  { name: 'todoNotObject', pattern: template(ERRORS.todoNotObject(N)), claim: (input, [n]) => item(input, n) !== undefined && !isPlainObject(item(input, n)) },
  { name: 'missingContent', pattern: template(ERRORS.missingContent(N)), claim: (input, [n]) => isPlainObject(item(input, n)) && !itemHasKey(input, n, 'content') },
  { name: 'missingStatus', pattern: template(ERRORS.missingStatus(N)), claim: (input, [n]) => isPlainObject(item(input, n)) && !itemHasKey(input, n, 'status') },
  {
    name: 'contentNotString',
    pattern: template(ERRORS.contentNotString(N)),
    claim: (input, [n]) => itemHasKey(input, n, 'content') && typeof (item(input, n) as Record<string, unknown>)['content'] !== 'string',
  },
  {
    name: 'emptyContent',
    pattern: template(EMPTY_CONTENT_TEXT),
    claim: (input) => todosOf(input).some((t) => isPlainObject(t) && typeof t['content'] === 'string' && isBlank(t['content'])),
  },
  {
    name: 'contentTooLong',
    pattern: template(ERRORS.contentTooLong(N)),
    claim: (input, [n]) => {
      const value = item(input, n);
      return isPlainObject(value) && typeof value['content'] === 'string' && codePoints(value['content']) > 1000;
    },
  },
  {
    name: 'invalidStatus',
    pattern: template(ERRORS.invalidStatus(N)),
    claim: (input, [n]) => {
      const value = item(input, n);
      return isPlainObject(value) && has(value, 'status') && !['pending', 'in_progress', 'completed'].includes(value['status'] as string);
    },
  },
  {
    name: 'unknownTodoKey',
    pattern: template(ERRORS.unknownTodoKey(N, KEY)),
    claim: (input, [n, quoted]) => {
      const value = item(input, n);
      return isPlainObject(value) && Object.keys(value).some((k) => k !== 'content' && k !== 'status' && quoteKey(k) === quoted);
    },
  },
  {
    name: 'duplicateContent',
    pattern: template(duplicateContentText(CONTENT)),
    // The text quotes the trimmed content as JSON.stringify writes it.
    claim: (input, [quoted]) => {
      let content: unknown;
      try {
        content = JSON.parse(`"${quoted ?? ''}"`);
      } catch {
        return false;
      }
      if (typeof content !== 'string' || quoted === undefined) return false;
      const contents = todosOf(input).map((t) => (isPlainObject(t) && typeof t['content'] === 'string' ? t['content'].trim() : undefined));
      return contents.some((c, i) => c === content && contents.slice(0, i).includes(content));
    },
  },
];

export const NO_SESSION = NO_SESSION_TEXT;
export { saveFailedText };

/** The documented error a text is, with whether its claim holds for `input`; undefined when it is none. */
export function recognizeError(text: string, input: unknown): { name: string; claimHolds: boolean } | undefined {
  for (const kind of ERROR_KINDS) {
    const match = kind.pattern.exec(text);
    if (match) return { name: kind.name, claimHolds: kind.claim(input, match.slice(1)) };
  }
  return undefined;
}

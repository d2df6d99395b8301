// An independent reading of the spec (SPEC.md §1 and §2), written without looking at
// the core's validator: what input todo_write must accept, and which log lines are
// valid events. The suites compare the core against it.

export type Status = 'pending' | 'in_progress' | 'completed';
export interface Item {
  content: string;
  status: Status;
}

const STATUSES: readonly unknown[] = ['pending', 'in_progress', 'completed'];
export const MAX_ITEMS = 100;
export const MAX_CONTENT_CODE_POINTS = 1000;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function has(value: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(value, key);
}

export function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

export function isBlank(text: string): boolean {
  return !/\S/u.test(text);
}

/** Why one item is invalid, or undefined. */
export function itemProblem(item: unknown): string | undefined {
  if (!isPlainObject(item)) return 'not an object';
  const keys = Object.keys(item);
  if (keys.some((k) => k !== 'content' && k !== 'status')) return 'extra key';
  if (!has(item, 'content')) return 'missing content';
  if (!has(item, 'status')) return 'missing status';
  const content = item['content'];
  if (typeof content !== 'string') return 'content not a string';
  if (isBlank(content)) return 'empty content';
  if (codePoints(content) > MAX_CONTENT_CODE_POINTS) return 'content too long';
  if (!STATUSES.includes(item['status'])) return 'bad status';
  return undefined;
}

/** Why a todos value is invalid, or undefined when it is a valid list. */
export function todosProblem(todos: unknown): string | undefined {
  if (!Array.isArray(todos)) return 'todos not an array';
  if (todos.length > MAX_ITEMS) return 'too many';
  for (const item of todos) {
    const problem = itemProblem(item);
    if (problem) return problem;
  }
  const seen = new Set<string>();
  for (const item of todos as Item[]) {
    const key = item.content.trim();
    if (seen.has(key)) return 'duplicate';
    seen.add(key);
  }
  return undefined;
}

/** Why a todo_write input is invalid, or undefined when the tool must accept it. */
export function inputProblem(input: unknown): string | undefined {
  if (!isPlainObject(input)) return 'not an object';
  if (!has(input, 'todos')) return 'missing todos';
  if (Object.keys(input).some((k) => k !== 'todos')) return 'extra key';
  return todosProblem(input['todos']);
}

export function countsOf(todos: readonly Item[]): { pending: number; inProgress: number; completed: number } {
  return {
    pending: todos.filter((t) => t.status === 'pending').length,
    inProgress: todos.filter((t) => t.status === 'in_progress').length,
    completed: todos.filter((t) => t.status === 'completed').length,
  };
}

export interface OracleEvent {
  ts: string;
  session: string;
  todos: Item[];
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * One complete log line (without its '\n'): 'blank' (skipped silently), an event, or
 * 'invalid' (to be skipped and reported). `session` is the key of the file.
 */
export function classifyLine(bytes: Uint8Array, session: string): 'blank' | 'invalid' | OracleEvent {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return 'invalid';
  }
  if (isBlank(text)) return 'blank';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'invalid';
  }
  if (!isPlainObject(value)) return 'invalid';
  if (value['v'] !== 1 || value['type'] !== 'todo/write' || value['session'] !== session) return 'invalid';
  const ts = value['ts'];
  if (typeof ts !== 'string' || Number.isNaN(Date.parse(ts))) return 'invalid';
  const todos = value['todos'];
  if (todosProblem(todos) !== undefined) return 'invalid';
  const counts = value['counts'];
  const expected = countsOf(todos as Item[]);
  if (
    !isPlainObject(counts) ||
    counts['pending'] !== expected.pending ||
    counts['inProgress'] !== expected.inProgress ||
    counts['completed'] !== expected.completed
  ) {
    return 'invalid';
  }
  // The log's reader validates a line as the tool does, so another writer's content comes back trimmed.
  return { ts, session, todos: (todos as Item[]).map((t) => ({ content: t.content.trim(), status: t.status })) };
}

export interface ParsedLog {
  /** Complete lines (each ended by '\n'), in file order, with their byte offsets. */
  lines: Array<{ offset: number; bytes: Uint8Array; kind: 'blank' | 'invalid' | OracleEvent }>;
  /** Bytes after the last '\n' (a torn line), possibly empty. */
  torn: Uint8Array;
}

export function parseLog(bytes: Uint8Array, session: string): ParsedLog {
  const lines: ParsedLog['lines'] = [];
  let start = 0;
  for (;;) {
    const newline = bytes.indexOf(0x0a, start);
    if (newline === -1) break;
    const line = bytes.subarray(start, newline);
    lines.push({ offset: start, bytes: line, kind: classifyLine(line, session) });
    start = newline + 1;
  }
  return { lines, torn: bytes.subarray(start) };
}

export function eventsOf(log: ParsedLog): OracleEvent[] {
  return log.lines.flatMap((line) => (typeof line.kind === 'object' ? [line.kind] : []));
}

export function invalidOffsets(log: ParsedLog): number[] {
  return log.lines.filter((line) => line.kind === 'invalid').map((line) => line.offset);
}

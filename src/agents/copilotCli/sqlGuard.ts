// The SQL a Copilot CLI model wrote into its `sql` tool, looked at before it is run again
// (./todoReplay.ts): which calls only read (nothing to run again), and which are refused
// outright because they could reach a file or load code (ATTACH, VACUUM INTO, PRAGMA,
// load_extension). Model-written SQL is hostile input: the look is one linear pass over the
// text, and anything it cannot tokenize is refused, never guessed. Pure.

/** A call's SQL longer than this is not run again: its state is not known (a plan's SQL is a few KB). */
export const MAX_CALL_SQL_CHARS = 1024 * 1024;

/** Words that are refused wherever they stand outside a string: they reach files, change SQLite's own settings, or load code. */
const REFUSED_WORDS = new Set(['attach', 'detach', 'vacuum', 'pragma', 'load_extension']);

/** First words of statements that only read. */
const READ_WORDS = new Set(['select', 'values', 'explain', 'pragma']);
const WRITE_WORDS = new Set(['insert', 'update', 'delete', 'replace']);

/** A call's statements as their words (lowercase, outside strings, quoted names and comments). */
export type SqlLook = { statements: string[][] } | { refused: string };

const WORD_START = /[A-Za-z_\u0080-\uffff]/;
const WORD = /[A-Za-z0-9_$\u0080-\uffff]*/y;

/** The statements of `query`, split at `;` outside quotes and comments; `refused` when a quote or comment is left open or the text is too long. */
export function lookAtSql(query: string): SqlLook {
  if (query.length > MAX_CALL_SQL_CHARS) return { refused: `a sql call of more than ${MAX_CALL_SQL_CHARS} characters` };
  const statements: string[][] = [];
  let words: string[] = [];
  let i = 0;
  const n = query.length;
  const skipTo = (close: string, from: number): number => {
    // A quote closes at its next twin ('' inside '…' is the twin twice: the scan goes on after it).
    const end = query.indexOf(close, from);
    return end < 0 ? -1 : end + close.length;
  };
  while (i < n) {
    const c = query[i]!;
    if (c === "'" || c === '"' || c === '`') {
      const end = skipTo(c, i + 1);
      if (end < 0) return { refused: 'a sql call with an open quote' };
      i = end;
      // A word right after a closing quote (x'…' blobs aside) starts fresh.
    } else if (c === '[') {
      const end = skipTo(']', i + 1);
      if (end < 0) return { refused: 'a sql call with an open quote' };
      i = end;
    } else if (c === '-' && query[i + 1] === '-') {
      const end = query.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
    } else if (c === '/' && query[i + 1] === '*') {
      const end = skipTo('*/', i + 2);
      if (end < 0) return { refused: 'a sql call with an open comment' };
      i = end;
    } else if (c === ';') {
      if (words.length > 0) statements.push(words);
      words = [];
      i++;
    } else if (WORD_START.test(c)) {
      WORD.lastIndex = i + 1;
      WORD.exec(query);
      const word = query.slice(i, WORD.lastIndex).toLowerCase();
      // x'0A' is a blob literal: its quote is read next as a string.
      words.push(word);
      i = WORD.lastIndex;
    } else {
      i++;
    }
  }
  if (words.length > 0) statements.push(words);
  return { statements };
}

/** True when none of the statements can change a table: a call that is not run again. */
export function onlyReads(look: SqlLook): boolean {
  if ('refused' in look) return false;
  return look.statements.every((words) => {
    const first = words[0] ?? '';
    if (READ_WORDS.has(first)) return true;
    return first === 'with' && !words.some((w) => WRITE_WORDS.has(w));
  });
}

/** Why the call may not be run again (a word that reaches a file or loads code), or undefined. */
export function refusal(look: SqlLook): string | undefined {
  if ('refused' in look) return look.refused;
  for (const words of look.statements) {
    for (const word of words) if (REFUSED_WORDS.has(word)) return `a sql call with ${word.toUpperCase()}`;
  }
  return undefined;
}

// The `todos` table of a Copilot CLI session, followed through the SQL its `sql` tool ran (the
// `query` argument of each `tool.execution_start`): the plan as it stood after each call, which
// the table itself (session.db) no longer holds once the next call changed it. Pure.
//
// Only the statement shapes the real CLI's recordings show are read (test/fixtures/agents/copilot-cli):
//   INSERT INTO todos (id, title[, description][, status]) VALUES ('…', '…', …)[, (…)]…
//   UPDATE todos SET status = '…' [WHERE id = '…']
//   UPDATE todos SET status = CASE id WHEN '…' THEN '…' … ELSE '…' END [WHERE id = '…']
// Statements that only read (SELECT, WITH … SELECT, PRAGMA, EXPLAIN) or write another table
// (todo_deps) leave the table as it is. Any other statement on `todos` is an unknown shape:
// from there on the table is not known, and nothing is guessed.

/** A row of the `todos` table, in rowid order: what a plan item needs of it. */
export interface TodoRow {
  id: string;
  title: string;
  status: string;
}

/** Rows followed at most: past it the table is not known (a plan holds far fewer). */
export const MAX_TODO_ROWS = 500;

/** The table's default status (its schema: `status TEXT DEFAULT 'pending'`). */
const DEFAULT_STATUS = 'pending';

type Token = { kind: 'word'; text: string } | { kind: 'string'; text: string } | { kind: 'punct'; text: string } | { kind: 'other'; text: string };

/** What one call's SQL did to the table. */
export type TodoSqlResult =
  /** No statement writes `todos`. */
  | { kind: 'read' }
  /** The table after the call. */
  | { kind: 'changed'; rows: TodoRow[] }
  /** A statement changes `todos` in a shape not read: why, short. */
  | { kind: 'unknown'; detail: string };

/** The query's statements, split at `;` outside quotes, as tokens; undefined when a quote is left open. */
function statements(query: string): Token[][] | undefined {
  const out: Token[][] = [];
  let current: Token[] = [];
  let i = 0;
  while (i < query.length) {
    const c = query[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '-' && query[i + 1] === '-') {
      const end = query.indexOf('\n', i);
      i = end < 0 ? query.length : end + 1;
    } else if (c === "'") {
      let text = '';
      let j = i + 1;
      for (;;) {
        if (j >= query.length) return undefined;
        if (query[j] === "'") {
          if (query[j + 1] === "'") {
            text += "'";
            j += 2;
            continue;
          }
          break;
        }
        text += query[j];
        j++;
      }
      current.push({ kind: 'string', text });
      i = j + 1;
    } else if (/[A-Za-z_]/.test(c)) {
      const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(query.slice(i))![0];
      current.push({ kind: 'word', text: word.toLowerCase() });
      i += word.length;
    } else if (c === ';') {
      if (current.length > 0) out.push(current);
      current = [];
      i++;
    } else if ('(),='.includes(c)) {
      current.push({ kind: 'punct', text: c });
      i++;
    } else {
      current.push({ kind: 'other', text: c });
      i++;
    }
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** The table a statement writes (lowercase), '' when it writes none, undefined when that is not told. */
function target(tokens: readonly Token[]): string | undefined {
  const words = tokens.map((t) => (t.kind === 'word' ? t.text : ''));
  const first = words[0];
  if (first === 'select' || first === 'pragma' || first === 'explain') return '';
  if (first === 'with') return words.some((w) => w === 'insert' || w === 'update' || w === 'delete' || w === 'replace') ? undefined : '';
  let at = 1;
  if (words[at] === 'or') at += 2; // INSERT OR REPLACE, UPDATE OR IGNORE …
  if (first === 'insert' || first === 'replace') return words[at] === 'into' ? words[at + 1] || undefined : undefined;
  if (first === 'update') return words[at] || undefined;
  if (first === 'delete') return words[at] === 'from' ? words[at + 1] || undefined : undefined;
  if (first === 'create' || first === 'drop' || first === 'alter') return tokens.some((t) => t.kind === 'word' && t.text === 'todos') ? undefined : '';
  return undefined;
}

class Reader {
  private at = 0;
  constructor(private readonly tokens: readonly Token[]) {}
  done(): boolean {
    return this.at >= this.tokens.length;
  }
  word(text: string): boolean {
    const token = this.tokens[this.at];
    if (token?.kind !== 'word' || token.text !== text) return false;
    this.at++;
    return true;
  }
  punct(text: string): boolean {
    const token = this.tokens[this.at];
    if (token?.kind !== 'punct' || token.text !== text) return false;
    this.at++;
    return true;
  }
  name(): string | undefined {
    const token = this.tokens[this.at];
    if (token?.kind !== 'word') return undefined;
    this.at++;
    return token.text;
  }
  /** A string literal, or null for NULL; undefined for anything else. */
  literal(): string | null | undefined {
    const token = this.tokens[this.at];
    if (token?.kind === 'string') {
      this.at++;
      return token.text;
    }
    if (token?.kind === 'word' && token.text === 'null') {
      this.at++;
      return null;
    }
    return undefined;
  }
}

const COLUMNS = new Set(['id', 'title', 'description', 'status']);

/** `INSERT INTO todos (…) VALUES (…), …`: the rows added; undefined when not that shape. */
function insert(tokens: readonly Token[]): TodoRow[] | undefined {
  const r = new Reader(tokens);
  if (!r.word('insert') || !r.word('into') || !r.word('todos') || !r.punct('(')) return undefined;
  const columns: string[] = [];
  do {
    const name = r.name();
    if (name === undefined || !COLUMNS.has(name) || columns.includes(name)) return undefined;
    columns.push(name);
  } while (r.punct(','));
  if (!r.punct(')') || !r.word('values') || !columns.includes('id') || !columns.includes('title')) return undefined;
  const rows: TodoRow[] = [];
  do {
    if (!r.punct('(')) return undefined;
    const values = new Map<string, string | null>();
    for (const [n, column] of columns.entries()) {
      if (n > 0 && !r.punct(',')) return undefined;
      const value = r.literal();
      if (value === undefined) return undefined;
      values.set(column, value);
    }
    if (!r.punct(')')) return undefined;
    const id = values.get('id');
    const title = values.get('title');
    const status = values.has('status') ? values.get('status') : DEFAULT_STATUS;
    if (typeof id !== 'string' || typeof title !== 'string' || typeof status !== 'string') return undefined;
    rows.push({ id, title, status });
  } while (r.punct(','));
  return r.done() ? rows : undefined;
}

/** `UPDATE todos SET status = … [WHERE id = '…']`: each row's new status; undefined when not that shape. */
function update(tokens: readonly Token[]): ((row: TodoRow) => string) | undefined {
  const r = new Reader(tokens);
  if (!r.word('update') || !r.word('todos') || !r.word('set') || !r.word('status') || !r.punct('=')) return undefined;
  let status: (row: TodoRow) => string;
  const plain = r.literal();
  if (typeof plain === 'string') {
    status = () => plain;
  } else if (plain === undefined && r.word('case') && r.word('id')) {
    const cases = new Map<string, string>();
    while (r.word('when')) {
      const id = r.literal();
      if (typeof id !== 'string' || !r.word('then')) return undefined;
      const then = r.literal();
      if (typeof then !== 'string') return undefined;
      if (!cases.has(id)) cases.set(id, then);
    }
    if (cases.size === 0 || !r.word('else')) return undefined;
    const otherwise = r.literal();
    if (typeof otherwise !== 'string' || !r.word('end')) return undefined;
    status = (row) => cases.get(row.id) ?? otherwise;
  } else {
    return undefined;
  }
  if (r.done()) return status;
  if (!r.word('where') || !r.word('id') || !r.punct('=')) return undefined;
  const only = r.literal();
  if (typeof only !== 'string' || !r.done()) return undefined;
  return (row) => (row.id === only ? status(row) : row.status);
}

/** What the SQL of one completed `sql` call did to the table as it was (`rows`, in rowid order). */
export function applyTodoSql(rows: readonly TodoRow[], query: string): TodoSqlResult {
  const parsed = statements(query);
  if (parsed === undefined) return /\btodos\b/i.test(query) ? { kind: 'unknown', detail: 'a sql call with an open quote' } : { kind: 'read' };
  let table: TodoRow[] | undefined;
  for (const tokens of parsed) {
    const written = target(tokens);
    if (written === '' || (written !== undefined && written !== 'todos')) continue;
    const verb = tokens[0]?.kind === 'word' ? tokens[0].text.toUpperCase() : 'a statement';
    if (written === undefined) {
      if (!tokens.some((t) => t.kind === 'word' && t.text === 'todos')) continue;
      return { kind: 'unknown', detail: `a sql ${verb} on the todos table in a shape not read` };
    }
    table ??= rows.map((row) => ({ ...row }));
    const added = insert(tokens);
    if (added !== undefined) {
      for (const row of added) {
        // The id is the table's primary key: the CLI's SQLite refuses a second one.
        if (table.some((known) => known.id === row.id)) return { kind: 'unknown', detail: 'a sql INSERT of a todos id already there' };
        table.push(row);
      }
      if (table.length > MAX_TODO_ROWS) return { kind: 'unknown', detail: `a todos table of more than ${MAX_TODO_ROWS} rows` };
      continue;
    }
    const status = update(tokens);
    if (status !== undefined) {
      table = table.map((row) => ({ ...row, status: status(row) }));
      continue;
    }
    return { kind: 'unknown', detail: `a sql ${verb} on the todos table in a shape not read` };
  }
  return table === undefined ? { kind: 'read' } : { kind: 'changed', rows: table };
}

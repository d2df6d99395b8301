// Agent Plan's entries in a JSON (or JSONC) settings file, added and removed in place with
// jsonc-parser's `modify`: the user's comments, order and formatting stay as they are, only
// the entries' own text changes. Three kinds of entry:
//   - `own`: an object property Agent Plan owns by its name (`mcpServers.agentplan`); one of
//     that name it did not write is refused;
//   - `append`: a JSON value (a string, an object...) added at the end of an array
//     (`permissions.allow`, `hooks.PermissionRequest`), unless an equal item (deep equality)
//     is there already; Disconnect removes the last item equal to it. An object Agent Plan
//     appended before (its record) that the new one differs from (its hook's command named an
//     older extension folder) is replaced in place, not added to;
//   - `switch`: a setting turned on (`env.CLAUDE_CODE_ENABLE_TODO_TOOLS`), left alone when the
//     user has set it, whatever the value.
// What was added is returned, so Disconnect removes exactly that and nothing of the user's.
// The ES module build: the UMD build that `main` names requires its parts in a way esbuild cannot follow.
import { applyEdits, findNodeAtLocation, modify, parseTree, type FormattingOptions, type Node, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import { isDeepStrictEqual } from 'node:util';
import { ConnectError } from './connectError';

export type JsonPath = readonly string[];

export interface JsonEntry {
  readonly kind: 'own' | 'append' | 'switch';
  readonly path: JsonPath;
  readonly value: unknown;
}

/** A setting the user had set already: left as it is (Connect says so). */
export interface KeptSwitch {
  readonly path: JsonPath;
  readonly value: unknown;
}

export interface JsonAdded {
  readonly text: string;
  /** The entries written (those already there are not). */
  readonly added: JsonEntry[];
  /** The objects and arrays that were not there and were made on the way to an entry. */
  readonly madeParents: JsonPath[];
  readonly kept: KeptSwitch[];
  /** The `append` entries of `owned` whose item was replaced by one of `added` (they are no longer in the file). */
  readonly replaced: JsonEntry[];
}

const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false };
const BOM = '\uFEFF';

/** The file's tree; refused unless it is JSON(C) with an object at its top. */
function objectTree(text: string, file: string): Node {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, PARSE_OPTIONS);
  if (errors.length > 0 || root === undefined) throw new ConnectError('not-json', file);
  if (root.type !== 'object') throw new ConnectError('not-object', file);
  return root;
}

/** The file's own indentation and line ends, so what is inserted looks like the rest. */
function formattingOf(text: string): FormattingOptions & { eol: string } {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /\n([ \t]+)\S/.exec(text)?.[1];
  if (indent?.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indent !== undefined && indent.length <= 8 ? indent.length : 2, eol };
}

function edit(text: string, path: ReadonlyArray<string | number>, value: unknown, options: { isArrayInsertion?: boolean } = {}): string {
  return applyEdits(text, modify(text, [...path], value, { formattingOptions: formattingOf(text), ...options }));
}

const dotted = (path: ReadonlyArray<string | number>) => path.join('.');

/**
 * Walks to the parent of `path`, refusing a key on the way that is not an object. Returns the
 * first of the missing parents (to be made by the write), if any.
 */
function checkParents(root: Node, path: JsonPath, file: string): JsonPath | undefined {
  for (let length = 1; length < path.length; length++) {
    const prefix = path.slice(0, length);
    const node = findNodeAtLocation(root, [...prefix]);
    if (node === undefined) return prefix;
    if (node.type !== 'object') throw new ConnectError('wrong-shape', file, dotted(prefix));
  }
  return undefined;
}

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The JSON value a node holds. */
function valueOf(node: Node): unknown {
  if (node.type === 'object') return Object.fromEntries((node.children ?? []).map((pair) => [pair.children?.[0]?.value as string, pair.children?.[1] ? valueOf(pair.children[1]) : undefined]));
  if (node.type === 'array') return (node.children ?? []).map(valueOf);
  return node.value;
}

/**
 * The object Agent Plan appended to the same array before (one of `owned`) that is still in
 * `items`, for `entry`, a new object, to replace; none when a current entry is that object.
 */
function olderOwnItem(entry: JsonEntry, items: readonly unknown[], owned: readonly JsonEntry[], entries: readonly JsonEntry[]): JsonEntry | undefined {
  if (!isObject(entry.value)) return undefined;
  const current = (mine: JsonEntry) => entries.some((other) => other.kind === 'append' && isDeepStrictEqual(other.path, mine.path) && isDeepStrictEqual(other.value, mine.value));
  return owned.find((mine) => mine.kind === 'append' && isDeepStrictEqual(mine.path, entry.path) && isObject(mine.value) && !current(mine) && items.some((item) => isDeepStrictEqual(item, mine.value)));
}

/**
 * `text` (undefined: no file yet) with `entries` added. `owned` are the entries Agent Plan wrote
 * there before (its record): an `own` entry among them is replaced, not refused.
 */
export function addJsonEntries(text: string | undefined, entries: readonly JsonEntry[], owned: readonly JsonEntry[], file: string): JsonAdded {
  const bom = text?.startsWith(BOM) ? BOM : '';
  const blank = text === undefined || text.trim() === '';
  let body = blank ? '{}' : text.slice(bom.length);
  objectTree(body, file);
  const added: JsonEntry[] = [];
  const madeParents: JsonPath[] = [];
  const kept: KeptSwitch[] = [];
  const replaced: JsonEntry[] = [];
  for (const entry of entries) {
    const root = objectTree(body, file);
    const missing = checkParents(root, entry.path, file);
    const node = missing === undefined ? findNodeAtLocation(root, [...entry.path]) : undefined;
    if (entry.kind === 'append') {
      if (entry.value === undefined) continue;
      if (node !== undefined && node.type !== 'array') throw new ConnectError('wrong-shape', file, dotted(entry.path));
      const items = (node?.children ?? []).map(valueOf);
      if (items.some((item) => isDeepStrictEqual(item, entry.value))) continue;
      const older = olderOwnItem(entry, items, owned, entries);
      if (older !== undefined) {
        body = edit(body, [...entry.path, items.map((item) => isDeepStrictEqual(item, older.value)).lastIndexOf(true)], entry.value);
        replaced.push(older);
      } else {
        body = node === undefined ? edit(body, entry.path, [entry.value]) : edit(body, [...entry.path, -1], entry.value, { isArrayInsertion: true });
        if (node === undefined) madeParents.push(entry.path);
      }
    } else {
      if (node !== undefined) {
        const current = valueOf(node);
        if (isDeepStrictEqual(current, entry.value)) continue;
        if (entry.kind === 'switch') {
          kept.push({ path: entry.path, value: current });
          continue;
        }
        if (!owned.some((mine) => mine.kind === 'own' && isDeepStrictEqual(mine.path, entry.path))) throw new ConnectError('foreign-entry', file, dotted(entry.path));
      }
      body = edit(body, entry.path, entry.value);
    }
    if (missing !== undefined) madeParents.push(missing);
    added.push(entry);
  }
  if (added.length === 0) return { text: text ?? '', added, madeParents, kept, replaced };
  const eol = formattingOf(body).eol;
  return { text: bom + body + (blank && !body.endsWith(eol) ? eol : ''), added, madeParents, kept, replaced };
}

export interface JsonRemoved {
  readonly text: string;
  /** Nothing but whitespace is left of the object (a file Connect made can go). */
  readonly empty: boolean;
}

/**
 * `text` without the entries Agent Plan `added`, and without the parents it `madeParents` for
 * them once they are empty. A switch the user has changed since is theirs and stays; an `own`
 * entry is removed whatever it holds now (its name is Agent Plan's).
 */
export function removeJsonEntries(text: string, added: readonly JsonEntry[], madeParents: readonly JsonPath[], file: string): JsonRemoved {
  const bom = text.startsWith(BOM) ? BOM : '';
  let body = text.slice(bom.length);
  for (const entry of [...added].reverse()) {
    const root = objectTree(body, file);
    const node = findNodeAtLocation(root, [...entry.path]);
    if (node === undefined) continue;
    if (entry.kind === 'append') {
      if (node.type !== 'array') continue;
      const items = node.children ?? [];
      const index = items.map((item) => isDeepStrictEqual(valueOf(item), entry.value)).lastIndexOf(true);
      if (index >= 0) body = edit(body, [...entry.path, index], undefined);
    } else if (entry.kind === 'own' || isDeepStrictEqual(valueOf(node), entry.value)) {
      body = edit(body, entry.path, undefined);
    }
  }
  const deepestFirst = [...madeParents].sort((a, b) => b.length - a.length);
  for (const parent of deepestFirst) {
    const node = findNodeAtLocation(objectTree(body, file), [...parent]);
    if (node !== undefined && (node.type === 'object' || node.type === 'array') && (node.children ?? []).length === 0) body = edit(body, parent, undefined);
  }
  const root = objectTree(body, file);
  return { text: bom + body, empty: (root.children ?? []).length === 0 && /^\s*\{\s*\}\s*$/.test(body) };
}

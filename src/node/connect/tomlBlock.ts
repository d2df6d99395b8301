// Agent Plan's entries in a TOML file (Codex's config.toml): one block of its own, between a
// comment line before and after that name Agent Plan, appended at the end of the file. TOML
// has no in-place editor here, so nothing of the user's text is touched: the block is added
// whole, checked with smol-toml before anything is written, and removed whole (its exact bytes).
import { ConnectError } from './connectError';

export const BLOCK_BEGIN = '# >>> Agent Plan: added by "Agent Plan: Connect Agents…"; "Agent Plan: Disconnect Agents…" removes this block';
export const BLOCK_END = '# <<< Agent Plan';

export type TomlTable = Record<string, unknown>;

// smol-toml is an ES module; this file is CommonJS until bundled, so it is imported once, dynamically.
let parser: ((text: string) => unknown) | undefined;

/** Loads the TOML parser; parseToml needs it done (plan and unplan await it first). */
export async function loadToml(): Promise<void> {
  parser ??= (await import('smol-toml')).parse;
}

/** The file's tables, or the stable refusal when it is not TOML. */
export function parseToml(text: string, file: string): TomlTable {
  if (parser === undefined) throw new Error('parseToml before loadToml');
  try {
    return parser(text) as TomlTable;
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] ?? '' : String(error);
    throw new ConnectError('not-toml', file, message);
  }
}

/** The value at `path` of parsed TOML, or undefined. */
export function tomlAt(table: TomlTable, path: readonly string[]): unknown {
  let current: unknown = table;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
    current = (current as TomlTable)[key];
  }
  return current;
}

/** A TOML string: JSON's escapes are all TOML's too. */
export const tomlString = (value: string): string => JSON.stringify(value);

/**
 * The block for `lines` (TOML lines, without line ends) as it is appended to `text`: a blank
 * line before it when the file has text, the line ends of the file.
 */
export function blockFor(text: string | undefined, lines: readonly string[]): string {
  const eol = text?.includes('\r\n') ? '\r\n' : '\n';
  const body = [BLOCK_BEGIN, ...lines, BLOCK_END].join(eol) + eol;
  if (text === undefined || text === '') return body;
  return (text.endsWith('\n') ? eol : eol + eol) + body;
}

/** Where Agent Plan's block is in `text`: its exact bytes if they are there, else between its two comment lines. */
function findBlock(text: string, block: string): { start: number; end: number } | undefined {
  const exact = text.lastIndexOf(block);
  if (exact >= 0) return { start: exact, end: exact + block.length };
  const begin = text.indexOf(BLOCK_BEGIN);
  if (begin < 0 || text.indexOf(BLOCK_BEGIN, begin + 1) >= 0) return undefined;
  const endMark = text.indexOf(BLOCK_END, begin);
  if (endMark < 0) return undefined;
  let end = endMark + BLOCK_END.length;
  if (text.startsWith('\r\n', end)) end += 2;
  else if (text.startsWith('\n', end)) end += 1;
  return { start: begin, end };
}

/** `text` without Agent Plan's `block`; refused when the block cannot be found, or the rest is not TOML. */
export function withoutBlock(text: string, block: string, file: string): string {
  const found = findBlock(text, block);
  if (found === undefined) throw new ConnectError('block-changed', file);
  const rest = text.slice(0, found.start) + text.slice(found.end);
  parseToml(rest, file);
  return rest;
}

/** Whether `text` holds Agent Plan's block (exactly, or between its comment lines). */
export function hasBlock(text: string, block: string): boolean {
  return findBlock(text, block) !== undefined;
}

/** `text` with `block` replacing `previous` where it is, or appended at the end. */
export function withBlock(text: string | undefined, previous: string | undefined, lines: readonly string[]): { text: string; block: string } {
  const current = text ?? '';
  const found = previous === undefined ? undefined : findBlock(current, previous);
  if (found === undefined) {
    const block = blockFor(text, lines);
    return { text: current + block, block };
  }
  const before = current.slice(0, found.start);
  // The replaced block keeps its own leading blank line, if it had one.
  const lead = /^(\r?\n)+/.exec(current.slice(found.start, found.end))?.[0] ?? '';
  const eol = current.includes('\r\n') ? '\r\n' : '\n';
  const block = lead + [BLOCK_BEGIN, ...lines, BLOCK_END].join(eol) + eol;
  return { text: before + block + current.slice(found.end), block };
}

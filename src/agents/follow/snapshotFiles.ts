// Following a JSON file that its program rewrites whole (in place, or written to a temporary
// file and renamed) instead of appending to it: Cline's `ui_messages.json` and its 3.x session
// manifests and messages. The shared follower reads lines; this reader shows it each version
// of such a file as one line, the whole document, and as another file whenever its size or
// time changed, so the follower reads every new version from its start with a fresh parser
// (the log recognizes what it already holds). Unchanged, nothing is read again.
//
// A JSON text holds a raw line break only between its tokens (never inside a string), so the
// line breaks become spaces and the document stays the same JSON on one line. A version read
// while its program was still writing it is no JSON: the parser passes over it, and the next
// write (a new size or time) is read again.
//
// Bounded in time, not only in bytes: JSON.parse runs on the host's thread, and what it costs
// grows with the arrays and objects a text opens, not its bytes alone (12 MB of nested arrays
// held the thread for seconds). So before a version reaches a parser, one pass over its bytes,
// a slice per turn of the event loop, blanks its line breaks in place (no copy of the version)
// and measures how deep it nests. A version nested deeper than `maxDepth` (no agent's record
// nests so deep) is never parsed: the follower sees it as an empty document, and it is reported
// once per file, as any foreign file in a shape not read.
import { lookAt, nodeFollowedFileReader, type FileLook, type FollowedFileReader, type OpenedFile } from './followedFiles';

/** The largest snapshot read (a larger one is passed over, reported by the follower as an over-long line). */
export const MAX_SNAPSHOT_BYTES = 64 * 1024 * 1024;
/** The deepest nesting of arrays and objects a version may have to be parsed. */
export const MAX_SNAPSHOT_DEPTH = 64;
/** The bytes scanned in one turn of the event loop (a millisecond or two). */
const SCAN_SLICE_BYTES = 1 << 20;

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const NEWLINE = Uint8Array.of(LF);

/** What a version nested too deep is reported as (once per file). */
export function tooDeepDetail(maxDepth: number): string {
  return `a version nested deeper than ${maxDepth} arrays and objects; not read`;
}

/**
 * Blanks the line breaks of a JSON text in place and tells whether it nests at most `maxDepth`
 * arrays and objects deep (strings, with their escapes, are passed over). One linear pass, a
 * slice of the bytes per turn of the event loop; it stops at the first array or object too deep.
 */
export async function blankLinesWithinDepth(bytes: Uint8Array, maxDepth: number): Promise<boolean> {
  let depth = 0;
  let inString = false;
  let i = 0;
  while (i < bytes.length) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    const end = Math.min(bytes.length, i + SCAN_SLICE_BYTES);
    for (; i < end; i++) {
      const byte = bytes[i] as number;
      if (byte === LF || byte === CR) bytes[i] = SPACE;
      else if (inString) {
        if (byte === BACKSLASH) i++;
        else if (byte === QUOTE) inString = false;
      } else if (byte === QUOTE) inString = true;
      else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
        if (++depth > maxDepth) return false;
      } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) depth--;
    }
  }
  return true;
}

export interface SnapshotReaderOptions {
  /** How files are opened; default node:fs. Its reads must hand over bytes of their own (they are blanked in place). */
  base?: FollowedFileReader;
  /** Default MAX_SNAPSHOT_DEPTH. */
  maxDepth?: number;
  /** A version of `file` was not read (`detail` says why): told once per file. */
  onRefused?(file: string, detail: string): void;
}

/** The identity of one version of a file: the same path written again is another file to the follower. */
function versionOf(look: FileLook): FileLook {
  return { identity: `${look.identity}:${look.size}:${look.modifiedMs}`, size: look.size + 1, modifiedMs: look.modifiedMs };
}

/** Each version of a whole-file JSON document, as one line. */
export function snapshotFileReader(options: SnapshotReaderOptions = {}): FollowedFileReader {
  const base = options.base ?? nodeFollowedFileReader;
  const maxDepth = options.maxDepth ?? MAX_SNAPSHOT_DEPTH;
  /** Per file, the version refused last: its look says it is empty, as its open did. */
  const refused = new Map<string, string>();
  const reported = new Set<string>();
  return {
    async look(file) {
      const look = await (base.look ? base.look(file) : lookAt(file));
      if (look === undefined) return undefined;
      const version = versionOf(look);
      return refused.get(file) === version.identity ? { ...version, size: 1 } : version;
    },
    async open(file): Promise<OpenedFile | undefined> {
      const opened = await base.open(file);
      if (opened === undefined) return undefined;
      let text: Uint8Array;
      try {
        text = await opened.read(0, Math.min(opened.size, MAX_SNAPSHOT_BYTES));
      } finally {
        await opened.close();
      }
      const version = versionOf({ identity: opened.identity, size: text.length, modifiedMs: opened.modifiedMs });
      if (!(await blankLinesWithinDepth(text, maxDepth))) {
        refused.set(file, version.identity);
        if (!reported.has(file)) {
          reported.add(file);
          options.onRefused?.(file, tooDeepDetail(maxDepth));
        }
        // An empty document: one empty line, which the parser passes over.
        return { ...version, size: 1, read: (start) => Promise.resolve(NEWLINE.subarray(start)), close: () => Promise.resolve() };
      }
      refused.delete(file);
      return {
        ...version,
        // The document, then its newline: views of the bytes read, never a copy.
        read: (start, length) => Promise.resolve(start < text.length ? text.subarray(start, Math.min(text.length, start + length)) : NEWLINE.subarray(start - text.length)),
        close: () => Promise.resolve(),
      };
    },
  };
}

/**
 * A whole JSON file (an index such as Cline's task history or a session manifest), parsed only
 * when it is at most `maxBytes` long and nests at most `maxDepth` deep; undefined when it is not
 * there, not a regular file, too long, too deep or no JSON.
 */
export async function readBoundedJson(file: string, maxBytes: number, maxDepth = MAX_SNAPSHOT_DEPTH): Promise<unknown> {
  try {
    const opened = await nodeFollowedFileReader.open(file);
    if (opened === undefined) return undefined;
    let text: Uint8Array;
    try {
      if (opened.size > maxBytes) return undefined;
      text = await opened.read(0, opened.size);
    } finally {
      await opened.close();
    }
    if (!(await blankLinesWithinDepth(text, maxDepth))) return undefined;
    return JSON.parse(Buffer.from(text.buffer, text.byteOffset, text.length).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

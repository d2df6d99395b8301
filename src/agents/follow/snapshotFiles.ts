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
import { lookAt, nodeFollowedFileReader, type FileLook, type FollowedFileReader, type OpenedFile } from './followedFiles';

/** The largest snapshot read (a larger one is passed over, reported by the follower as an over-long line). */
export const MAX_SNAPSHOT_BYTES = 64 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;

/** The identity of one version of a file: the same path written again is another file to the follower. */
function versionOf(look: FileLook): FileLook {
  return { identity: `${look.identity}:${look.size}:${look.modifiedMs}`, size: look.size + 1, modifiedMs: look.modifiedMs };
}

/** Each version of a whole-file JSON document, as one line. */
export function snapshotFileReader(base: FollowedFileReader = nodeFollowedFileReader): FollowedFileReader {
  return {
    async look(file) {
      const look = await (base.look ? base.look(file) : lookAt(file));
      return look === undefined ? undefined : versionOf(look);
    },
    async open(file): Promise<OpenedFile | undefined> {
      const opened = await base.open(file);
      if (opened === undefined) return undefined;
      let text: Uint8Array;
      try {
        const size = Math.min(opened.size, MAX_SNAPSHOT_BYTES);
        text = await opened.read(0, size);
      } finally {
        await opened.close();
      }
      const line = new Uint8Array(text.length + 1);
      for (let i = 0; i < text.length; i++) {
        const byte = text[i] ?? SPACE;
        line[i] = byte === LF || byte === CR ? SPACE : byte;
      }
      line[text.length] = LF;
      const version = versionOf({ identity: opened.identity, size: text.length, modifiedMs: opened.modifiedMs });
      return {
        ...version,
        read: (start, length) => Promise.resolve(line.subarray(start, Math.min(line.length, start + length))),
        close: () => Promise.resolve(),
      };
    },
  };
}

// The working folder a call is recorded with: the client's first file:// root, else the
// server's own working folder. Recorded as data only: it never names a file the server opens.
import { fileURLToPath } from 'node:url';

/** Longest folder recorded; a longer root is not a folder any system has. */
export const MAX_CWD = 4096;

export function firstFileRoot(roots: ReadonlyArray<{ uri: string }>): string | undefined {
  for (const root of roots) {
    if (typeof root.uri !== 'string' || !root.uri.startsWith('file:') || root.uri.length > MAX_CWD * 3) continue;
    try {
      const folder = fileURLToPath(root.uri);
      if (folder.length <= MAX_CWD && !folder.includes('\0')) return folder;
    } catch {
      // Not a local file URL (file://host/… on POSIX, say): try the next root.
    }
  }
  return undefined;
}

// How much the inbox may hold, and the stable reasons a call fails with when it is full.
// A full inbox fails the call with the contract's save-failed text; it never crashes the server.

export const INBOX_BOUNDS = {
  /** One server process's file. */
  maxFileBytes: 8 * 1024 * 1024,
  /** Every file of the folder, whoever wrote it. */
  maxFolderFiles: 2000,
  maxFolderBytes: 64 * 1024 * 1024,
  /** Files of processes long gone are removed at start after this long untouched. */
  maxAgeMs: 30 * 24 * 60 * 60 * 1000,
} as const;

export const INBOX_FULL = {
  file: 'the inbox file of this server is full (8 MiB); restart the agent to start a new one',
  folderFiles: 'the inbox folder holds 2000 files; Agent Plan has not taken them in',
  folderBytes: 'the inbox folder holds 64 MiB; Agent Plan has not taken them in',
} as const;

/** The reason for an I/O failure: its code only (a path or a message could carry the user's data). */
export function ioReason(error: unknown): string {
  const code = error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
  return `the inbox could not be written (${typeof code === 'string' ? code : 'unknown error'})`;
}

/** The reason for a write that wrote less than the whole line (the disk filled up under it). */
export const SHORT_WRITE = 'the inbox could not be written (short write)';

// The files an agent wrote, read from its own record of a tool call: each agent's reading is in
// its folder (src/agents/<agent>/fileWrites.ts); these are the pieces they share. Pure: one
// parsed JSON value in, the paths it names out (as the agent wrote them: absolute, or relative to
// its workspace). A value of any other shape names no file; nothing here throws.

export interface FileWrite {
  /** The path as the agent's record names it. */
  path: string;
  /** The tool call's id in the agent's record, when it has one. */
  call?: string;
}

export const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

export function withCall(path: string, call: unknown): FileWrite {
  return typeof call === 'string' && call !== '' ? { path, call } : { path };
}

/** The files an apply_patch text adds, updates, deletes or moves to, in order, once each. */
export function patchFiles(patch: string): string[] {
  const files: string[] = [];
  for (const match of patch.matchAll(/^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/gm)) {
    const path = match[1]!.trim();
    if (path !== '' && !files.includes(path)) files.push(path);
  }
  return files;
}

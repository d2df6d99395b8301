// The working folder calls are recorded with: asked of the client once (roots/list, when it
// declared roots), bounded by a timeout, else this process's own working folder.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { firstFileRoot } from './roots';

export const ROOTS_TIMEOUT_MS = 2000;

/** A function that gives the folder, asking the client at its first call and never again. */
export function workingFolder(server: Server, fallback: string): () => Promise<string> {
  let asked: Promise<string> | undefined;
  const ask = async (): Promise<string> => {
    if (server.getClientCapabilities()?.roots === undefined) return fallback;
    try {
      const { roots } = await server.listRoots(undefined, { timeout: ROOTS_TIMEOUT_MS });
      return firstFileRoot(roots) ?? fallback;
    } catch {
      return fallback; // no answer in time, or an error: the call is not held up by it
    }
  };
  return () => (asked ??= ask());
}

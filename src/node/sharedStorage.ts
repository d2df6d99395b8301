// The workspace storage folder every window of a workspace shares. VS Code gives a second
// extension host on the same workspace a folder of its own, `<workspace id>-1` (`-2`, …),
// because the first host holds a lock on `<workspace id>`; VS Code itself (chat files,
// the workbench's state) keeps using `<workspace id>`. Agent Plan's logs are made for
// several writers (one write per line; a short lock per session for imports), so every
// window uses the workspace's own folder: one workspace, one set of logs, and Copilot's
// chat files found beside it whichever window reads them.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The suffix VS Code adds to a workspace's storage folder for a second extension host. */
const SECOND_HOST = /^(.+)-([1-9])$/;

/**
 * `storageDir` (an extension's storageUri path, `<workspaceStorage>/<id>[-n]/<extension id>`)
 * moved to the workspace's own folder when VS Code gave this host a `-n` one and the
 * workspace's own exists; otherwise `storageDir` as it is.
 */
export function sharedWorkspaceStorage(storageDir: string): string {
  const hostFolder = path.dirname(storageDir);
  const match = SECOND_HOST.exec(path.basename(hostFolder));
  if (!match?.[1]) return storageDir;
  const shared = path.join(path.dirname(hostFolder), match[1]);
  try {
    if (!fs.statSync(shared).isDirectory()) return storageDir;
  } catch {
    return storageDir;
  }
  return path.join(shared, path.basename(storageDir));
}

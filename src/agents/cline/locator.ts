// Which of Cline's files belong to this workspace, in each of its data folders: 2.x (and the
// VS Code extension) task folders whose task history entry names a workspace folder
// (`cwdOnTaskInitialization`), and 3.x sessions whose manifest (`sessions/<sid>/<sid>.json`)
// names one (`cwd`), with their subagents' files. Read-only.
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import type { SessionFileLocator } from '../follow/follower';
import { readBoundedJson } from '../follow/snapshotFiles';
import { isRecord } from '../../core/json';
import { isInsideWorkspace } from '../locations';
import { CLINE_ID, CLINE_SUBAGENT_FILE } from './locations';

/** A task history or a manifest larger than this (or nested deeper than a snapshot may be) says nothing. */
const MAX_INDEX_BYTES = 32 * 1024 * 1024;

/** What a followed file is, for its parser. */
export type ClineFile = { kind: 'task'; task: string; cwd: string } | { kind: 'session'; cwd: string };

/** An index file, parsed only within the bounds of bytes and nesting the snapshots have (follow/snapshotFiles.ts). */
const readJson = (file: string): Promise<unknown> => readBoundedJson(file, MAX_INDEX_BYTES);

async function names(folder: string): Promise<string[]> {
  return (await fsp.readdir(folder).catch(() => [] as string[])).sort();
}

export interface ClineLocator extends SessionFileLocator {
  /** What a listed file is; undefined for a file not listed. */
  describe(file: string): ClineFile | undefined;
}

export function clineLocator(dataFolders: readonly string[], workspaceFolders: readonly string[]): ClineLocator {
  const ours = (cwd: string) => workspaceFolders.some((workspace) => isInsideWorkspace(cwd, workspace));
  const files = new Map<string, ClineFile>();
  /** 3.x session folders decided (a manifest's cwd does not change): folder → its cwd, or null when not ours. */
  const sessions = new Map<string, string | null>();
  let watched: string[] = [];
  return {
    async list() {
      files.clear();
      const watch: string[] = [];
      for (const root of dataFolders) {
        watch.push(path.join(root, 'state'), path.join(root, 'tasks'), path.join(root, 'sessions'));
        const history = await readJson(path.join(root, 'state', 'taskHistory.json'));
        for (const entry of Array.isArray(history) ? history : []) {
          if (!isRecord(entry)) continue;
          const task = entry['id'];
          const cwd = entry['cwdOnTaskInitialization'];
          if (typeof task !== 'string' || !CLINE_ID.test(task) || typeof cwd !== 'string' || !ours(cwd)) continue;
          const folder = path.join(root, 'tasks', task);
          files.set(path.join(folder, 'ui_messages.json'), { kind: 'task', task, cwd });
          watch.push(folder);
        }
        for (const sid of await names(path.join(root, 'sessions'))) {
          if (!CLINE_ID.test(sid)) continue;
          const folder = path.join(root, 'sessions', sid);
          let cwd = sessions.get(folder);
          if (cwd === undefined) {
            const manifest = await readJson(path.join(folder, `${sid}.json`));
            const found = isRecord(manifest) ? manifest['cwd'] : undefined;
            if (typeof found !== 'string') {
              watch.push(folder); // Its manifest is not written yet.
              continue;
            }
            cwd = ours(found) ? found : null;
            sessions.set(folder, cwd);
          }
          if (cwd === null) continue;
          watch.push(folder);
          files.set(path.join(folder, `${sid}.messages.json`), { kind: 'session', cwd });
          for (const name of await names(folder)) if (CLINE_SUBAGENT_FILE.test(name)) files.set(path.join(folder, name), { kind: 'session', cwd });
        }
      }
      watched = watch;
      return [...files.keys()];
    },
    watchFolders: () => (watched.length > 0 ? watched : dataFolders.flatMap((root) => [path.join(root, 'state'), path.join(root, 'tasks'), path.join(root, 'sessions')])),
    describe: (file) => files.get(file),
  };
}

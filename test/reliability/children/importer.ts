// Child process: one extension host's import side over a shared storage folder, built as
// src/extension.ts builds it: a SessionLog, the folder watcher and a PlanStore, a
// LogPlanSink with the session locks, and the real Claude Code follower.
//   importer <logDir> <storageDir> <claudeDir> <workspace> <lock|nolock> [busy]
// Prints "ready" once its first scan is done; on a line on stdin it catches up, prints its
// lock figures as JSON and exits. With `busy`, its event loop is kept half busy (5 ms of
// work in every 10 ms), as an extension host shared with other extensions is.
import * as path from 'node:path';
import { LogPlanSink } from '../../../src/core/log/planSink';
import { SessionLocks } from '../../../src/core/log/sessionLock';
import { SessionLog } from '../../../src/core/log/sessionLog';
import { PlanStore } from '../../../src/core/store/store';
import { nodeLockOwner } from '../../../src/node/lockOwner';
import { watchLogFolder } from '../../../src/node/logWatcher';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { startTerminalFollower } from '../../unit/agentStart';
import { sleep } from '../../lib/wait';

const APPEND_DELAY_MS = 3;
const BUSY_MS = 5;

async function main(): Promise<void> {
  const [logDir, storageDir, claudeDir, workspace, mode, load] = process.argv.slice(2);
  if (!logDir || !storageDir || !claudeDir || !workspace || (mode !== 'lock' && mode !== 'nolock')) {
    throw new Error('usage: importer <logDir> <storageDir> <claudeDir> <workspace> <lock|nolock>');
  }
  // Each append takes a few ms, as on a slow or busy disk: hosts that react to the same call
  // meet at the lock even when the machine is loaded, so the lock is what keeps them apart.
  const fileSystem = new (class extends NodeFileSystem {
    override async appendText(file: string, text: string): Promise<void> {
      await sleep(APPEND_DELAY_MS);
      return super.appendText(file, text);
    }
  })();
  const log = new SessionLog(logDir, fileSystem);
  const store = new PlanStore(log);
  const locks = mode === 'lock' ? new SessionLocks(fileSystem, path.join(logDir, '.locks'), nodeLockOwner()) : undefined;
  const sink = new LogPlanSink(log, locks ? { locks } : {});
  const errors: string[] = [];
  const watcher = watchLogFolder(logDir, {
    onChange: (session) => void store.ingest(session),
    onRescan: () => void store.load(),
    onPoll: () => log.poll(),
    onError: (error) => errors.push(String(error)),
  });
  const follower = startTerminalFollower({
    agent: 'claude-code',
    folder: claudeDir,
    workspaceFolders: [workspace],
    storageDir,
    sink,
    onError: (error) => errors.push(error instanceof Error ? error.message : String(error)),
    onUnknownShape: (_file, shape) => errors.push(`unknown shape: ${shape.detail}`),
  });
  const busy =
    load === 'busy'
      ? setInterval(() => {
          const until = Date.now() + BUSY_MS;
          while (Date.now() < until) {
            // other extensions' work on the same event loop
          }
        }, 2 * BUSY_MS)
      : undefined;
  await store.load();
  await follower.refresh();
  process.stdout.write('ready\n');
  await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
  process.stdin.pause();
  await follower.refresh();
  if (busy) clearInterval(busy);
  follower.dispose();
  watcher.dispose();
  sink.dispose();
  process.stdout.write(`${JSON.stringify({ locks: locks?.stats, sink: sink.stats, errors })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

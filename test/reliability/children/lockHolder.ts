// Child process: a window that takes a session's import lock and never lets go (it is
// killed while holding it, as a crashed window would be).
//   lockHolder <logDir> <session key>
// Prints "held" once it holds the lock.
import * as path from 'node:path';
import { SessionLocks } from '../../../src/core/log/sessionLock';
import { nodeLockOwner } from '../../../src/node/lockOwner';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { sleep } from '../../lib/wait';

async function main(): Promise<void> {
  const [logDir, session] = process.argv.slice(2);
  if (!logDir || !session) throw new Error('usage: lockHolder <logDir> <session key>');
  const locks = new SessionLocks(new NodeFileSystem(), path.join(logDir, '.locks'), nodeLockOwner());
  await locks.run(session, async () => {
    process.stdout.write('held\n');
    // Holds until killed; the timer keeps the process alive (bounded: a forgotten child ends in a minute).
    await sleep(60_000);
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

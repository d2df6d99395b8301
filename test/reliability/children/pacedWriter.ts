// Child process: appends one snapshot every <intervalMs> to one session's log through
// SessionLog, the step number as the first item, then exits.
//   pacedWriter <dir> <session> <count> <intervalMs>
import { SessionLog } from '../../../src/core/log/sessionLog';
import { nodeFileSystem } from '../../../src/node/nodeFileSystem';
import { sleep } from '../../lib/wait';

async function main(): Promise<void> {
  const [dir, session, countArg, intervalArg] = process.argv.slice(2);
  if (!dir || !session) throw new Error('usage: pacedWriter <dir> <session> <count> <intervalMs>');
  const count = Number(countArg);
  const interval = Number(intervalArg);
  const log = new SessionLog(dir, nodeFileSystem);
  let next = Date.now();
  for (let step = 0; step < count; step++) {
    await log.append(session, [{ content: `step ${step}`, status: 'in_progress' }]);
    next += interval;
    await sleep(Math.max(0, next - Date.now()));
  }
  process.stdout.write('done\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

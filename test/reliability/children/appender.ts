// Child process: appends stepSnapshot(writer, 0, 1, 2, …) to one session's log through
// SessionLog, and records nothing else.
//   appender <dir> <session> <writer> <count> <hugeEvery>
// count < 0: appends until killed, printing "ready" after the first append.
// count ≥ 0: prints "ready", waits for a line on stdin (so every writer starts at once),
// appends `count` snapshots and exits.
import { SessionLog } from '../../../src/core/log/sessionLog';
import { nodeFileSystem } from '../../../src/node/nodeFileSystem';
import { stepSnapshot } from '../lib/steps';

async function main(): Promise<void> {
  const [dir, session, writerArg, countArg, hugeArg] = process.argv.slice(2);
  if (!dir || !session) throw new Error('usage: appender <dir> <session> <writer> <count> <hugeEvery>');
  const writer = Number(writerArg);
  const count = Number(countArg);
  const hugeEvery = Number(hugeArg ?? 50);
  const log = new SessionLog(dir, nodeFileSystem);
  if (count < 0) {
    for (let step = 0; ; step++) {
      await log.append(session, stepSnapshot(writer, step, hugeEvery));
      if (step === 0) process.stdout.write('ready\n');
    }
  }
  process.stdout.write('ready\n');
  await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
  process.stdin.pause();
  for (let step = 0; step < count; step++) await log.append(session, stepSnapshot(writer, step, hugeEvery));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

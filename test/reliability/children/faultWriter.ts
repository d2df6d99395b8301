// Child process: loads a PlanStore over <dir>, makes ONE todo_write call and prints
// what happened as JSON, so the parent can run it under limits it cannot impose on
// itself (a file size limit, another user).
//   faultWriter <dir> <sessionId> <input JSON>
import { runTodoWrite } from '../../../src/core/store/todoWrite';
import { SessionLog } from '../../../src/core/log/sessionLog';
import { PlanStore } from '../../../src/core/store/store';
import { nodeFileSystem } from '../../../src/node/nodeFileSystem';
import { sessionKeyFromToken } from '../../../src/core/log/sessionKey';

async function main(): Promise<void> {
  const [dir, sessionId, inputJson] = process.argv.slice(2);
  if (!dir || !sessionId || !inputJson) throw new Error('usage: faultWriter <dir> <sessionId> <input JSON>');
  const store = new PlanStore(new SessionLog(dir, nodeFileSystem));
  await store.load();
  const token = { sessionId };
  const session = sessionKeyFromToken(token) ?? '';
  const before = store.get(session);
  let writes = 0;
  let changes = 0;
  store.onDidWrite(() => writes++);
  store.onDidChange(() => changes++);
  const outcome = await runTodoWrite(store, token, JSON.parse(inputJson));
  const after = store.get(session);
  process.stdout.write(
    JSON.stringify({ kind: outcome.kind, text: outcome.text, writes, changes, before, after, sameObject: before === after }) + '\n',
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

// Agent Plan's MCP server for agents it does not host: `node dist/mcp.js [--inbox <folder>]`.
// Offers todo_write over stdio and appends each accepted call to its own file in the inbox
// folder, which the extension takes in. Needs nothing but Node 18 or later.
import { randomBytes } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import { InboxWriter } from './inbox';
import { latestSessionPlan } from './inboxPlan';
import { sweepInbox } from './inboxSweep';
import { parseOptions } from './options';
import { createPlanServer } from './planServer';
import { BoundedStdioTransport } from './stdioTransport';

function report(message: string): void {
  process.stderr.write(`agent-plan MCP: ${message.length > 500 ? `${message.slice(0, 500)}…` : message}\n`);
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2), process.env, os.homedir());
  if (!options.ok) {
    process.stderr.write(options.message);
    process.exit(2);
  }
  const folder = path.resolve(options.inbox);
  sweepInbox(folder, Date.now());
  const inbox = InboxWriter.forProcess(folder, new Date(), process.pid, randomBytes(3).toString('hex'));
  const server = createPlanServer({
    env: process.env,
    pid: process.pid,
    cwd: process.cwd(),
    now: () => new Date(),
    append: (line) => inbox.append(line),
    sessionPlan: (session) => latestSessionPlan(folder, session),
  });
  server.onerror = (error) => report(error.message);
  server.onclose = () => {
    inbox.close();
    // Whatever is still queued for stdout goes out first; a stdout that is gone does not hold the exit.
    process.stdout.write('', () => process.exit(0));
    setTimeout(() => process.exit(0), 1000).unref();
  };
  await server.connect(new BoundedStdioTransport());
}

main().catch((error: unknown) => {
  report(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});

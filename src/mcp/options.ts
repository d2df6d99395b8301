// The server's command line: `--inbox <folder>` (or `--inbox=<folder>`), else the
// AGENT_PLAN_MCP_INBOX environment variable, else Agent Plan's own inbox in the user's data
// folder (src/node/mcpInbox.ts), the one the extension reads. Pure: the entry turns a refusal
// into a message on stderr and exit code 2.
import { mcpInboxFolder } from '../node/mcpInbox';

export const INBOX_ENV = 'AGENT_PLAN_MCP_INBOX';

export const USAGE = `usage: node mcp.js [--inbox <folder>]   (or set ${INBOX_ENV}=<folder>; default: Agent Plan's inbox, ~/.local/share/agent-plan/mcp-inbox)`;

export type Options = { ok: true; inbox: string } | { ok: false; message: string };

export function parseOptions(args: readonly string[], env: Readonly<Record<string, string | undefined>>, home: string): Options {
  let inbox: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--inbox') {
      inbox = args[i + 1];
      if (inbox === undefined || inbox === '' || inbox.startsWith('--')) return refuse('--inbox needs a folder');
      i++;
    } else if (arg?.startsWith('--inbox=')) {
      inbox = arg.slice('--inbox='.length);
      if (inbox === '') return refuse('--inbox needs a folder');
    } else {
      return refuse(`unknown argument ${JSON.stringify(arg)}`);
    }
  }
  inbox ??= env[INBOX_ENV] === '' ? undefined : env[INBOX_ENV];
  return { ok: true, inbox: inbox ?? mcpInboxFolder(env, home) };
}

function refuse(reason: string): Options {
  return { ok: false, message: `agent-plan MCP server: ${reason}\n${USAGE}\n` };
}

// Run by scripts/integration.mjs between the main phase and the restart phase, while no VS Code
// window runs: a made-up MCP client writes two plans through the extension's own server, with the
// host's environment (so the server's inbox is the one the host reads). The restart phase checks
// they show, each once (persist.test.ts). Plain ESM: the SDK's client over stdio.
//   node test/integration/restart/writeWhileClosed.mjs <server script> <working folder> <out.json>
import * as fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [server, cwd, out] = process.argv.slice(2);
const plans = [
  [{ content: 'Plan while no window is open', status: 'in_progress' }, { content: 'See it after the restart', status: 'pending' }],
  [{ content: 'Plan while no window is open', status: 'completed' }, { content: 'See it after the restart', status: 'in_progress' }],
];
const transport = new StdioClientTransport({ command: process.execPath, args: [server], cwd, env: Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined)), stderr: 'inherit' });
const client = new Client({ name: 'while-closed-client', version: '0.0.1' });
await client.connect(transport);
const results = [];
for (const todos of plans) {
  const result = await client.callTool({ name: 'todo_write', arguments: { todos } });
  results.push(result.content.map((part) => part.text ?? '').join(''));
}
await client.close();
fs.writeFileSync(out, JSON.stringify({ client: 'while-closed-client', plans, results }, null, 2) + '\n');

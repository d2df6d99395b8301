// Agent Plan's `todo_write` over MCP, in the real host: a made-up MCP client (the official SDK's
// client, as any agent Agent Plan does not read would be) starts the extension's own server,
// `node <extension>/dist/mcp.js`, in a folder of this workspace and writes two plans; they show as
// a session of its own, named by the client and the folder, each version once, and the agent can
// read its plan back as the resource plan://current.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { api, findSessionRow } from './helpers';
import { waitFor } from '../lib/wait';

type Todo = { content: string; status: 'pending' | 'in_progress' | 'completed' };

/** The extension's own server, as Connect names it. */
function serverScript(): string {
  const extension = vscode.extensions.all.find((candidate) => candidate.id.toLowerCase() === 'agent-plan.agent-plan');
  assert.ok(extension, 'Agent Plan is installed');
  return path.join(extension.extensionPath, 'dist', 'mcp.js');
}

/** A made-up MCP client that writes `plans` through the server (by default as Connect names it), then reads plan://current back. */
async function writeThroughServer(name: string, cwd: string, plans: Todo[][], server = { command: process.execPath, args: [serverScript()] }): Promise<{ results: string[]; current: string }> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  const transport = new StdioClientTransport({ command: server.command, args: server.args, cwd, env, stderr: 'pipe' });
  const client = new Client({ name, version: '0.0.1' });
  await client.connect(transport);
  try {
    const results: string[] = [];
    for (const todos of plans) {
      const result = (await client.callTool({ name: 'todo_write', arguments: { todos } })) as { content: Array<{ type: string; text?: string }>; isError?: boolean };
      assert.notEqual(result.isError, true, JSON.stringify(result));
      results.push(result.content.map((part) => part.text ?? '').join(''));
    }
    const read = await client.readResource({ uri: 'plan://current' });
    const current = read.contents.map((content) => ('text' in content && typeof content.text === 'string' ? content.text : '')).join('');
    return { results, current };
  } finally {
    await client.close();
  }
}

describe('todo_write over MCP: an agent Agent Plan does not read', function () {
  this.timeout(60_000);

  it('a made-up MCP client’s plans show as a session of its own, named by the client and the folder, each version once', async () => {
    const plan = await api();
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(workspace, 'a workspace folder is open');
    const folder = path.join(workspace, 'mcp-made-up');
    fs.mkdirSync(folder, { recursive: true });
    const first: Todo[] = [{ content: 'Sketch the endpoint', status: 'in_progress' }, { content: 'Wire the route', status: 'pending' }];
    const second: Todo[] = [{ content: 'Sketch the endpoint', status: 'completed' }, { content: 'Wire the route', status: 'in_progress' }];
    try {
      const { results, current } = await writeThroughServer('made-up-client', folder, [first, second]);
      assert.deepEqual(results, ['Updated todo list: 1 pending, 1 in progress, 0 completed.', 'Updated todo list: 0 pending, 1 in progress, 1 completed.'], 'the contract’s result texts');
      assert.match(current, /Wire the route/, 'plan://current holds the plan just written');
      const session = await waitFor(
        () => plan.listSessions().find((candidate) => candidate.source?.agent === 'mcp' && candidate.source.session.startsWith('made-up-client:') && candidate.todos[1]?.status === 'in_progress'),
        'the made-up client’s session with its second plan',
        30_000,
      );
      assert.deepEqual(session.todos, second);
      const history = await plan.getHistory(session.session);
      assert.deepEqual(history.map((version) => version.todos), [first, second], 'each version once, in order');
      assert.equal(plan.getSessionInfo(session.session).title, 'made-up-client · mcp-made-up');
      await vscode.commands.executeCommand('workbench.view.extension.agentPlan');
      await findSessionRow((label) => label.includes('made-up-client · mcp-made-up'), 'the made-up client’s Sessions row', 20_000);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  // Copilot CLI: an agent none of the MCP scenarios connects in this run's home (Connect refuses an
  // `agentplan` entry it did not write, as the one a scenario's own Connect left in Gemini CLI's).
  it('Connect writes the server into an agent’s user settings, the command it writes runs, and Disconnect leaves the file byte for byte as it was', async () => {
    const file = path.join(os.homedir(), '.copilot', 'mcp-config.json');
    const before = fs.existsSync(file) ? fs.readFileSync(file) : undefined;
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(workspace);
    try {
      const connected = await vscode.commands.executeCommand<{ files: Array<{ path: string; before?: string; after?: string }> } | undefined>('agentPlan.connectAgent', 'copilot-cli', { confirm: false, mcp: true });
      assert.deepEqual(connected?.files.map((change) => change.path), [file], 'the one file it changed, said');
      const settings = JSON.parse(fs.readFileSync(file, 'utf8')) as { mcpServers?: Record<string, { type?: string; command: string; args: string[]; tools?: string[] }> };
      const entry = settings.mcpServers?.['agentplan'];
      assert.deepEqual(entry && { type: entry.type, args: entry.args, tools: entry.tools }, { type: 'local', args: [serverScript()], tools: ['*'] }, 'the server, all its tools');
      // The command line as written runs the server, and a plan through it shows.
      const folder = path.join(workspace, 'mcp-connected');
      fs.mkdirSync(folder, { recursive: true });
      try {
        const { results } = await writeThroughServer('connected-client', folder, [[{ content: 'Use the connected server', status: 'in_progress' }]], { command: entry!.command, args: entry!.args });
        assert.deepEqual(results, ['Updated todo list: 0 pending, 1 in progress, 0 completed.']);
        const plan = await api();
        await waitFor(() => plan.listSessions().find((candidate) => candidate.source?.agent === 'mcp' && candidate.source.session.startsWith('connected-client:')), 'the plan written through the connected server', 30_000);
      } finally {
        fs.rmSync(folder, { recursive: true, force: true });
      }
    } finally {
      await vscode.commands.executeCommand('agentPlan.disconnectAgent', 'copilot-cli');
    }
    const after = fs.existsSync(file) ? fs.readFileSync(file) : undefined;
    assert.deepEqual(after, before, 'Disconnect left the settings file byte for byte as before Connect');
  });
});

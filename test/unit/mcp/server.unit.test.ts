// The MCP server as agents run it: src/mcp/server.ts bundled as esbuild.mjs bundles it into
// dist/mcp.js (here into a temp folder, so a build running beside this test is left alone),
// started with `node mcp.js --inbox <folder>` and driven over stdio, by the official SDK client
// and, for what that client cannot send, by raw lines.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { countTokens } from '@anthropic-ai/tokenizer';
import * as esbuild from 'esbuild';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LATEST_PROTOCOL_VERSION, ListRootsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { saveFailedText } from '../../../src/core/plan/plan';
import { ERRORS } from '../../../src/core/plan/validate';
import { INBOX_FULL } from '../../../src/mcp/inboxBounds';
import { NO_PLAN_TEXT } from '../../../src/mcp/planResource';
import { useTempDir } from '../../lib/temp';

const root = path.resolve(__dirname, '..', '..', '..');
const MAX_DESCRIPTION_TOKENS = 210;

// The root suite's folder (this file's, in a run of several: mocha runs each file's root hooks once).
const build = useTempDir('mcp-build', { per: 'suite' });
let mcpJs = '';

before(async function () {
  this.timeout(30_000);
  mcpJs = path.join(build.path, 'mcp.js');
  // The options of esbuild.mjs's MCP entry (production: what the package ships).
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['src/mcp/server.ts'],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node18',
    outfile: mcpJs,
    banner: { js: '#!/usr/bin/env node' },
    minify: true,
    logLevel: 'silent',
  });
});

interface Started {
  client: Client;
  transport: StdioClientTransport;
  pid: number;
  stderr: () => string;
}

interface StartOptions {
  inbox: string;
  clientName?: string;
  env?: Record<string, string>;
  cwd?: string;
  roots?: string[] | 'never answer';
}

/** The server started by the SDK's stdio client, as an agent starts it. */
async function start(options: StartOptions): Promise<Started> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [mcpJs, '--inbox', options.inbox],
    // Explicit: the test may itself run inside an agent whose session variables must not leak in.
    env: { PATH: process.env['PATH'] ?? '', ...options.env },
    cwd: options.cwd ?? os.tmpdir(),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client(
    { name: options.clientName ?? 'test-client', version: '1.2.3' },
    { capabilities: options.roots === undefined ? {} : { roots: {} } },
  );
  const roots = options.roots;
  if (roots !== undefined) {
    client.setRequestHandler(ListRootsRequestSchema, () =>
      roots === 'never answer' ? new Promise<never>(() => undefined) : { roots: roots.map((uri) => ({ uri })) },
    );
  }
  await client.connect(transport);
  return { client, transport, pid: transport.pid ?? -1, stderr: () => stderr };
}

async function callText(client: Client, args: unknown, meta?: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({
    name: 'todo_write',
    arguments: args as Record<string, unknown>,
    ...(meta === undefined ? {} : { _meta: meta }),
  })) as CallToolResult;
  assert.equal(result.content.length, 1, 'one content block');
  const block = result.content[0];
  assert.ok(block?.type === 'text', 'a text block');
  return { text: block.text, isError: result.isError === true };
}

function inboxFiles(inbox: string): string[] {
  return fs.existsSync(inbox) ? fs.readdirSync(inbox).filter((name) => name.endsWith('.jsonl')) : [];
}

function inboxLines(inbox: string): Array<Record<string, unknown>> {
  return inboxFiles(inbox)
    .sort()
    .flatMap((name) => fs.readFileSync(path.join(inbox, name), 'utf8').split('\n').filter((line) => line !== ''))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The server spawned directly, fed raw lines; its stdout read line by line. */
class RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  private buffer = '';
  private readonly lines: string[] = [];
  private waiting: (() => void) | undefined;
  stderr = '';

  constructor(inbox: string) {
    this.child = spawn(process.execPath, [mcpJs, '--inbox', inbox], { env: { PATH: process.env['PATH'] ?? '' }, cwd: os.tmpdir() });
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString('utf8');
      let end: number;
      while ((end = this.buffer.indexOf('\n')) !== -1) {
        this.lines.push(this.buffer.slice(0, end));
        this.buffer = this.buffer.slice(end + 1);
      }
      this.waiting?.();
    });
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
  }

  send(line: string): void {
    this.child.stdin.write(line.endsWith('\n') ? line : `${line}\n`);
  }

  /** The next message the server writes. */
  async next(timeoutMs = 5000): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    while (this.lines.length === 0) {
      if (Date.now() > deadline) throw new Error(`no answer in ${timeoutMs} ms; stderr: ${this.stderr}`);
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
        setTimeout(resolve, 50);
      });
    }
    return JSON.parse(this.lines.shift() ?? '') as Record<string, unknown>;
  }

  async initialize(protocolVersion = '2025-06-18'): Promise<Record<string, unknown>> {
    this.send(JSON.stringify({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '0' } } }));
    const answer = await this.next();
    this.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    return answer;
  }

  /** Sends tools/list and checks the answer: the server still serves. */
  async stillServes(id: number): Promise<void> {
    this.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' }));
    const answer = await this.next();
    assert.equal(answer['id'], id);
    assert.equal((answer['result'] as { tools: Array<{ name: string }> }).tools[0]?.name, 'todo_write');
  }

  exited(timeoutMs = 5000): Promise<number | null> {
    if (this.child.exitCode !== null) return Promise.resolve(this.child.exitCode);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the server did not exit')), timeoutMs);
      this.child.once('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill();
  }
}

describe('MCP server: start and protocol', function () {
  this.timeout(20_000);
  const raws: RawServer[] = [];
  afterEach(() => raws.splice(0).forEach((raw) => raw.kill()));
  const tmp = useTempDir('mcp-inbox');
  const raw = (): RawServer => {
    const server = new RawServer(tmp.path);
    raws.push(server);
    return server;
  };

  it('is one CommonJS file for Node 18 with a shebang, requiring nothing but Node itself', () => {
    const code = fs.readFileSync(mcpJs, 'utf8');
    assert.ok(code.startsWith('#!/usr/bin/env node\n'));
    // ajv's code generator holds require("…") in strings ('…' and `…`): those are text, not imports.
    const required = new Set(Array.from(code.matchAll(/(?<![`'"])\brequire\("([^"]+)"\)/g), (m) => m[1] ?? ''));
    assert.ok(required.has('node:fs') || required.has('fs'), 'the scan finds the requires');
    const builtins = new Set(require('node:module').builtinModules as string[]);
    const foreign = [...required].filter((name) => !name.startsWith('node:') && !builtins.has(name));
    assert.deepEqual(foreign, []);
  });

  it('without --inbox, writes to Agent Plan\'s own inbox in the user\'s data folder (the one the extension reads)', async () => {
    const data = path.join(tmp.path, 'home');
    fs.mkdirSync(data);
    const transport = new StdioClientTransport({ command: process.execPath, args: [mcpJs], env: { PATH: process.env['PATH'] ?? '', HOME: data, XDG_DATA_HOME: data }, stderr: 'pipe' });
    const client = new Client({ name: 'default-client', version: '1' });
    await client.connect(transport);
    try {
      assert.equal((await callText(client, { todos: [] })).isError, false);
    } finally {
      await client.close();
    }
    assert.equal(inboxLines(path.join(data, 'agent-plan', 'mcp-inbox')).length, 1);
  });

  it('refuses an unknown argument: a message on stderr, exit code 2', async () => {
    const child = spawn(process.execPath, [mcpJs, '--verbose'], { env: { PATH: process.env['PATH'] ?? '' } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.equal(code, 2);
    assert.match(stderr, /unknown argument "--verbose"/);
  });

  it('takes the inbox folder from AGENT_PLAN_MCP_INBOX too', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [mcpJs], env: { PATH: process.env['PATH'] ?? '', AGENT_PLAN_MCP_INBOX: tmp.path }, stderr: 'pipe' });
    const client = new Client({ name: 'env-client', version: '1' });
    await client.connect(transport);
    try {
      assert.deepEqual(await callText(client, { todos: [] }), { text: 'Updated todo list: 0 pending, 0 in progress, 0 completed.', isError: false });
      assert.equal(inboxLines(tmp.path).length, 1);
    } finally {
      await client.close();
    }
  });

  it('initializes with the SDK client: server name agent-plan, tools and resources', async () => {
    const { client } = await start({ inbox: tmp.path });
    try {
      assert.equal(client.getServerVersion()?.name, 'agent-plan');
      const capabilities = client.getServerCapabilities();
      assert.ok(capabilities?.tools !== undefined && capabilities.resources !== undefined);
    } finally {
      await client.close();
    }
  });

  it('negotiates the protocol version: a version it knows is kept, an unknown one gets its latest', async () => {
    const known = raw();
    const answer = await known.initialize('2025-06-18');
    assert.equal((answer['result'] as { protocolVersion: string }).protocolVersion, '2025-06-18');
    const unknown = raw();
    const other = await unknown.initialize('2099-01-01');
    assert.equal((other['result'] as { protocolVersion: string }).protocolVersion, LATEST_PROTOCOL_VERSION);
  });

  it('answers server/discover with "Method not found", then initializes (as Claude Code and Copilot CLI do)', async () => {
    const server = raw();
    server.send(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'server/discover', params: { _meta: { protocolVersion: '2026-07-28' } } }));
    const answer = await server.next();
    assert.deepEqual(answer, { jsonrpc: '2.0', id: 0, error: { code: -32601, message: 'Method not found' } });
    const init = await server.initialize('2025-11-25');
    assert.equal((init['result'] as { serverInfo: { name: string } }).serverInfo.name, 'agent-plan');
  });

  it('answers a line of garbage with a parse error and goes on serving', async () => {
    const server = raw();
    await server.initialize();
    server.send('this is {not json');
    assert.deepEqual((await server.next())['error'], { code: -32700, message: 'Parse error: the line is not JSON' });
    await server.stillServes(1);
  });

  it('answers a request with a bad id with an invalid-request error and goes on serving', async () => {
    const server = raw();
    await server.initialize();
    for (const id of [{ a: 1 }, [1], 1.5, true]) {
      server.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' }));
      const answer = await server.next();
      assert.equal((answer['error'] as { code: number }).code, -32600, `id ${JSON.stringify(id)}`);
      assert.equal('id' in answer, false);
    }
    server.send(JSON.stringify({ jsonrpc: '1.0', id: 3, method: 'tools/list' }));
    assert.equal(((await server.next())['error'] as { code: number }).code, -32600);
    await server.stillServes(2);
  });

  it('drops a 5 MiB line with an error, holding none of it, and answers the next request', async () => {
    const server = raw();
    await server.initialize();
    const huge = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'todo_write', arguments: { todos: [{ content: 'x'.repeat(5 * 1024 * 1024), status: 'pending' }] } } });
    server.send(huge);
    const answer = await server.next();
    assert.deepEqual(answer['error'], { code: -32600, message: 'Invalid Request: message over 4194304 bytes' });
    await server.stillServes(10);
    assert.match(server.stderr, /was dropped/);
    assert.equal(inboxLines(tmp.path).length, 0);
  });

  it('answers a todo_write call whose arguments are not an object with the contract text, as a tool error', async () => {
    const server = raw();
    await server.initialize();
    server.send(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'todo_write', arguments: 'todos' } }));
    const answer = await server.next();
    assert.deepEqual(answer, { jsonrpc: '2.0', id: 4, result: { content: [{ type: 'text', text: ERRORS.notObject }], isError: true } });
    assert.equal(inboxLines(tmp.path).length, 0);
  });

  it('answers a call nested 100,000 arrays deep with the contract text', async () => {
    const server = raw();
    await server.initialize();
    const nested = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    server.send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"todo_write","arguments":{"todos":[{"content":"a","status":"pending","deep":${nested}}]}}}`);
    const answer = await server.next();
    assert.deepEqual(answer['result'], { content: [{ type: 'text', text: ERRORS.unknownTodoKey(1, 'deep') }], isError: true });
    await server.stillServes(8);
  });

  it('answers a call of another tool with an error', async () => {
    const server = raw();
    await server.initialize();
    server.send(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'read_file', arguments: {} } }));
    assert.equal(((await server.next())['error'] as { code: number }).code, -32602);
    await server.stillServes(6);
  });

  it('exits when stdin closes', async () => {
    const server = raw();
    await server.initialize();
    server.child.stdin.end();
    assert.equal(await server.exited(), 0);
  });
});

describe('MCP server: tools/list', function () {
  this.timeout(20_000);
  const tmp = useTempDir('mcp-list', { per: 'suite' });
  let tool: { name: string; description?: string; inputSchema: unknown } | undefined;
  let count = 0;

  before(async () => {
    const { client } = await start({ inbox: tmp.path });
    try {
      const { tools } = await client.listTools();
      count = tools.length;
      tool = tools[0];
    } finally {
      await client.close();
    }
  });

  it('offers one tool, todo_write', () => {
    assert.deepEqual([count, tool?.name], [1, 'todo_write']);
  });

  it(`has a description of at most ${MAX_DESCRIPTION_TOKENS} tokens as sent, by each tokenizer`, async () => {
    // js-tiktoken's types are an ES module's: imported as one.
    const { getEncoding } = await import('js-tiktoken');
    const sent = JSON.stringify(tool?.description ?? '');
    const counts = [getEncoding('o200k_base').encode(sent).length, getEncoding('cl100k_base').encode(sent).length, countTokens(sent)];
    assert.ok(Math.max(...counts) <= MAX_DESCRIPTION_TOKENS, `tokens: ${counts.join(', ')}`);
    assert.ok((tool?.description ?? '').length > 0);
  });

  it('names no agent in the description', () => {
    assert.doesNotMatch(tool?.description ?? '', /claude|codex|gemini|copilot|opencode|qwen/i);
  });

  it("sends the manifest's inputSchema, which is the schema file without $schema", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      contributes: { languageModelTools: Array<{ name: string; inputSchema: unknown }> };
    };
    const declared = manifest.contributes.languageModelTools.find((t) => t.name === 'todo_write');
    const { $schema, ...file } = JSON.parse(fs.readFileSync(path.join(root, 'schemas', 'todo-write.input.json'), 'utf8')) as Record<string, unknown>;
    assert.equal($schema, 'http://json-schema.org/draft-07/schema#');
    assert.deepEqual([tool?.inputSchema, tool?.inputSchema], [declared?.inputSchema, file]);
  });
});

const item = (content: string, status = 'pending'): Record<string, unknown> => ({ content, status });

/** SPEC §1's acceptance table and every other rejection the README lists, as validate.unit.test.ts has them. */
const CASES: Array<[name: string, args: unknown, text: string, accepted: boolean]> = [
  ['success', { todos: [item('Plan', 'completed'), item('Build', 'in_progress'), item('Test')] }, 'Updated todo list: 1 pending, 1 in progress, 1 completed.', true],
  ['success: an empty list clears the plan', { todos: [] }, 'Updated todo list: 0 pending, 0 in progress, 0 completed.', true],
  ['success: several in progress at once', { todos: [item('a', 'in_progress'), item('b', 'in_progress')] }, 'Updated todo list: 0 pending, 2 in progress, 0 completed.', true],
  ['empty content', { todos: [item('')] }, 'Error: invalid todo: `content` must be a non-empty string', false],
  ['whitespace-only content', { todos: [item('ok'), item(' \t\n')] }, 'Error: invalid todo: `content` must be a non-empty string', false],
  ['duplicate content (trimmed, JSON-quoted)', { todos: [item('say "hi"'), item(' say "hi" ', 'completed')] }, 'Error: invalid todos: duplicate content "say \\"hi\\""', false],
  ['no arguments', undefined, ERRORS.notObject, false],
  ['missing `todos`', {}, 'Error: invalid input: missing `todos`; send the whole list as an array ([] clears it)', false],
  ['`todos` not an array', { todos: { 0: item('a') } }, 'Error: invalid input: `todos` must be an array of {"content", "status"} objects', false],
  ['unknown top-level key', { todos: [], merge: true }, 'Error: invalid input: unknown key "merge"; the only key is `todos`', false],
  ['more than 100 items', { todos: Array.from({ length: 101 }, (_, i) => item(`task ${i}`)) }, 'Error: invalid todos: more than 100 items; keep the list to at most 100', false],
  ['item not an object', { todos: [item('a'), 'b'] }, 'Error: invalid todo 2: must be an object {"content": string, "status": string}', false],
  ['missing `content`', { todos: [{ status: 'pending' }] }, 'Error: invalid todo 1: missing `content`', false],
  ['missing `status`', { todos: [item('a'), { content: 'b' }] }, 'Error: invalid todo 2: missing `status`; use "pending", "in_progress" or "completed"', false],
  ['`content` not a string', { todos: [{ content: 7, status: 'pending' }] }, 'Error: invalid todo 1: `content` must be a string', false],
  ['`content` too long', { todos: [item('x'.repeat(1001))] }, 'Error: invalid todo 1: `content` is longer than 1000 characters; shorten it', false],
  ['`status` outside the enum', { todos: [item('a', 'done')] }, 'Error: invalid todo 1: `status` must be "pending", "in_progress" or "completed"', false],
  ['an item key besides content and status', { todos: [item('a'), { content: 'b', status: 'pending', id: 7 }] }, 'Error: invalid todo 2: unknown key "id"; only `content` and `status` are allowed', false],
  ['activeForm is an unknown key too', { todos: [{ content: 'a', status: 'pending', activeForm: 'Doing a' }] }, 'Error: invalid todo 1: unknown key "activeForm"; only `content` and `status` are allowed', false],
  ['a hostile key stays short and printable', { todos: [{ content: 'a', status: 'pending', ['k\u202e'.repeat(50)]: 1 }] }, ERRORS.unknownTodoKey(1, 'k\u202e'.repeat(50)), false],
];

describe('MCP server: tools/call gives the contract texts, byte for byte', function () {
  this.timeout(20_000);
  let started: Started | undefined;
  // Registered before the folder's: the server closes before its inbox goes.
  after(async () => {
    await started?.client.close();
  });
  const tmp = useTempDir('mcp-calls', { per: 'suite' });
  before(async () => {
    started = await start({ inbox: tmp.path });
  });

  for (const [name, args, text, accepted] of CASES) {
    it(`${name}: ${accepted ? 'one inbox line' : 'an error result, no inbox line'}`, async () => {
      const before = inboxLines(tmp.path).length;
      const result = await callText(started!.client, args);
      assert.deepEqual({ ...result, linesAdded: inboxLines(tmp.path).length - before }, { text, isError: !accepted, linesAdded: accepted ? 1 : 0 });
    });
  }

  it('no owning session is no rejection over MCP: the call is the client and its folder’s, and accepted', async () => {
    const result = await callText(started!.client, { todos: [item('alone')] });
    assert.deepEqual(result, { text: 'Updated todo list: 1 pending, 0 in progress, 0 completed.', isError: false });
  });
});

describe('MCP server: the inbox line of an accepted call', function () {
  this.timeout(20_000);
  const tmp = useTempDir('mcp-line');
  let inbox = '';
  let work = '';
  beforeEach(() => {
    inbox = path.join(tmp.path, 'nested', 'inbox');
    work = path.join(tmp.path, 'work');
    fs.mkdirSync(work);
  });

  it('Claude Code: its env session, its tool-use id, its roots; the file 0600 in a folder 0700, named by time and pid', async () => {
    const { client, pid } = await start({ inbox, clientName: 'claude-code', env: { CLAUDE_CODE_SESSION_ID: 'sess-claude-1' }, roots: [pathToFileURL(work).href] });
    try {
      await callText(client, { todos: [item('  Write the parser  ', 'in_progress'), item('Ship')] }, { progressToken: 1, 'claudecode/toolUseId': 'toolu_01' });
    } finally {
      await client.close();
    }
    const files = inboxFiles(inbox);
    assert.equal(files.length, 1);
    assert.match(files[0] ?? '', new RegExp(`^\\d{8}T\\d{6}-${pid}-[0-9a-f]{6}\\.jsonl$`));
    const file = path.join(inbox, files[0] ?? '');
    if (process.platform !== 'win32') {
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);
      assert.equal(fs.statSync(inbox).mode & 0o777, 0o700);
    }
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(text.endsWith('\n') && text.split('\n').length === 2, 'one whole line');
    const line = JSON.parse(text) as Record<string, unknown>;
    assert.ok(typeof line['ts'] === 'string' && !Number.isNaN(Date.parse(line['ts'])));
    assert.deepEqual(Object.keys(line), ['v', 'type', 'ts', 'client', 'cwd', 'agentSession', 'call', 'todos']);
    assert.deepEqual({ ...line, ts: '' }, {
      v: 1,
      type: 'mcp/todo_write',
      ts: '',
      client: { name: 'claude-code', version: '1.2.3' },
      cwd: work,
      agentSession: 'sess-claude-1',
      call: 'toolu_01',
      todos: [
        { content: 'Write the parser', status: 'in_progress' },
        { content: 'Ship', status: 'pending' },
      ],
    });
  });

  it('Codex: the session and the call id from the call’s _meta, no roots: the server’s working folder', async () => {
    const { client } = await start({ inbox, clientName: 'codex-mcp-client', cwd: work });
    try {
      await callText(client, { todos: [item('a')] }, { sessionId: 'rollout-1', callId: 'call_7', 'x-codex-turn-metadata': { session_id: 'rollout-1' } });
      await callText(client, { todos: [item('b')] }, { 'x-codex-turn-metadata': { session_id: 'rollout-2' } });
    } finally {
      await client.close();
    }
    const lines = inboxLines(inbox);
    assert.deepEqual(
      lines.map((l) => [l['agentSession'], l['cwd']]),
      [['rollout-1', fs.realpathSync(work)], ['rollout-2', fs.realpathSync(work)]],
    );
    assert.equal(lines[0]?.['call'], 'call_7');
  });

  it('without a session: no agentSession field, the call numbered <pid>-<n>; an agent’s variable is not read for another client', async () => {
    const { client, pid } = await start({ inbox, clientName: 'gemini-cli-mcp-client', env: { CLAUDE_CODE_SESSION_ID: 'inherited' } });
    try {
      await callText(client, { todos: [item('a')] });
      await callText(client, { todos: [item('b')] });
    } finally {
      await client.close();
    }
    const lines = inboxLines(inbox);
    assert.deepEqual(lines.map((l) => ['agentSession' in l, l['call']]), [[false, `${pid}-1`], [false, `${pid}-2`]]);
  });

  it('none for a rejected call (no file at all)', async () => {
    const { client } = await start({ inbox });
    try {
      await callText(client, { todos: [item('a', 'done')] });
    } finally {
      await client.close();
    }
    assert.deepEqual(inboxFiles(inbox), []);
  });

  it('a client name, a version and ids past their bounds are cut or left out', async () => {
    const { client, pid } = await start({ inbox, clientName: 'n'.repeat(500) });
    try {
      await callText(client, { todos: [] }, { sessionId: 's'.repeat(201), callId: 'c'.repeat(201) });
    } finally {
      await client.close();
    }
    const [line] = inboxLines(inbox);
    assert.deepEqual([(line?.['client'] as { name: string }).name.length, 'agentSession' in (line ?? {}), line?.['call']], [200, false, `${pid}-1`]);
  });

  it('a root the client names is recorded as data, never opened or written', async () => {
    const hostile = path.join(work, 'not-here', '..', '..', 'elsewhere');
    const { client } = await start({ inbox, roots: ['file://remote-host/share', pathToFileURL(hostile).href] });
    try {
      await callText(client, { todos: [item('a')] });
    } finally {
      await client.close();
    }
    assert.equal(inboxLines(inbox)[0]?.['cwd'], path.resolve(hostile));
    assert.equal(fs.existsSync(path.resolve(hostile)), false);
    assert.deepEqual(fs.readdirSync(work), []);
  });

  it('a client that declares roots and never answers holds a call 2 s at most', async () => {
    const { client } = await start({ inbox, roots: 'never answer', cwd: work });
    const begun = Date.now();
    try {
      await callText(client, { todos: [item('a')] });
    } finally {
      await client.close();
    }
    assert.ok(Date.now() - begun < 4000, `${Date.now() - begun} ms`);
    assert.equal(inboxLines(inbox)[0]?.['cwd'], fs.realpathSync(work));
  });
});

describe('MCP server: a full inbox fails the call with the save-failed text', function () {
  this.timeout(20_000);
  const tmp = useTempDir('mcp-full');

  async function callOnce(): Promise<{ text: string; isError: boolean }> {
    const { client } = await start({ inbox: tmp.path });
    try {
      return await callText(client, { todos: [item('a')] });
    } finally {
      await client.close();
    }
  }

  it('2,000 files', async () => {
    for (let i = 0; i < 2000; i++) fs.writeFileSync(path.join(tmp.path, `other-${i}.txt`), '');
    assert.deepEqual(await callOnce(), { text: saveFailedText(INBOX_FULL.folderFiles), isError: true });
  });

  it('64 MiB', async () => {
    const big = path.join(tmp.path, 'big.bin');
    fs.writeFileSync(big, '');
    fs.truncateSync(big, 64 * 1024 * 1024); // sparse: 64 MiB by its size, nothing on disk
    assert.deepEqual(await callOnce(), { text: saveFailedText(INBOX_FULL.folderBytes), isError: true });
  });

  it('an inbox that is a file, not a folder: an error result, not a crash', async () => {
    const file = path.join(tmp.path, 'a-file');
    fs.writeFileSync(file, '');
    const { client } = await start({ inbox: file });
    try {
      const result = await callText(client, { todos: [item('a')] });
      assert.deepEqual([result.isError, result.text.startsWith('Error: could not save the todo list: the inbox could not be written (')], [true, true]);
      await client.listTools();
    } finally {
      await client.close();
    }
  });
});

describe('MCP server: resources', function () {
  this.timeout(20_000);
  const tmp = useTempDir('mcp-resource');

  async function read(client: Client): Promise<{ uri: string; mimeType?: string; text?: unknown }> {
    const { contents } = await client.readResource({ uri: 'plan://current' });
    assert.equal(contents.length, 1);
    return contents[0] as { uri: string; mimeType?: string; text?: unknown };
  }

  it('lists plan://current as text/markdown', async () => {
    const { client } = await start({ inbox: tmp.path });
    try {
      const { resources } = await client.listResources();
      assert.deepEqual(resources.map((r) => [r.uri, r.mimeType]), [['plan://current', 'text/markdown']]);
    } finally {
      await client.close();
    }
  });

  it('reads the plan this process wrote last, as an escaped Markdown checklist', async () => {
    const { client } = await start({ inbox: tmp.path });
    try {
      assert.equal((await read(client)).text, NO_PLAN_TEXT);
      await callText(client, { todos: [item('Old')] });
      await callText(client, { todos: [item('Plan', 'completed'), item('Build [it](https://x.test) @team', 'in_progress'), item('Test')] });
      assert.deepEqual(await read(client), {
        uri: 'plan://current',
        mimeType: 'text/markdown',
        text: '- [x] Plan\n- [ ] Build \\[it\\](https:\u200B//x.test) @\u200Bteam *(in progress)*\n- [ ] Test\n',
      });
    } finally {
      await client.close();
    }
  });

  it('a resumed agent (a new process, the same session) reads the plan its session wrote; another session does not', async () => {
    const first = await start({ inbox: tmp.path, clientName: 'claude-code', env: { CLAUDE_CODE_SESSION_ID: 'resumed' } });
    try {
      await callText(first.client, { todos: [item('Carry on')] });
    } finally {
      await first.client.close();
    }
    const other = await start({ inbox: tmp.path, clientName: 'copilot-cli', env: { COPILOT_AGENT_SESSION_ID: 'someone-else' } });
    try {
      await callText(other.client, { todos: [item('Mine')] });
    } finally {
      await other.client.close();
    }
    const again = await start({ inbox: tmp.path, clientName: 'claude-code', env: { CLAUDE_CODE_SESSION_ID: 'resumed' } });
    const fresh = await start({ inbox: tmp.path, clientName: 'qwen-cli-mcp-client-plan', env: { QWEN_CODE_SESSION_ID: 'new' } });
    try {
      assert.deepEqual([(await read(again.client)).text, (await read(fresh.client)).text], ['- [ ] Carry on\n', NO_PLAN_TEXT]);
    } finally {
      await again.client.close();
      await fresh.client.close();
    }
  });

  it('another uri is not found', async () => {
    const { client } = await start({ inbox: tmp.path });
    try {
      await assert.rejects(client.readResource({ uri: 'file:///etc/passwd' }), /Resource not found/);
    } finally {
      await client.close();
    }
  });
});

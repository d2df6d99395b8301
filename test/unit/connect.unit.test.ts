// Connect and Disconnect on real files in a temp HOME: for each agent, Connect writes exactly its
// spec's entries (src/agents/<agent>/connect.ts) and Disconnect puts every file back byte for
// byte (a file with comments and odd formatting, and a file that was not there); the user's own entries stay; a file in a shape
// Agent Plan does not know, or a link out of HOME, is refused and left untouched; Codex's TOML
// block; a second Connect changes nothing.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { apply, connectedAgents, detect, plan, unplan, type ConnectOptions } from '../../src/node/connect/connect';
import { AGENTS } from '../../src/agents/registry';
import type { ConnectAgent } from '../../src/node/connect/connectAgents';
import { ConnectError } from '../../src/node/connect/connectError';
import { findOnPath, nodeForServer } from '../../src/node/connect/onPath';
import { BLOCK_BEGIN, BLOCK_END } from '../../src/node/connect/tomlBlock';
import { useTempDir } from './helpers';

const NODE = '/usr/bin/node';
const SCRIPT = '/ext/agent-plan-0.1.0/dist/mcp.js';

interface Setup {
  home: string;
  options: ConnectOptions;
}

function setup(root: string, extra: Partial<ConnectOptions> = {}): Setup {
  const home = path.join(root, 'home');
  const options: ConnectOptions = {
    home,
    env: { PATH: '' },
    node: NODE,
    serverScript: SCRIPT,
    inbox: path.join(root, 'storage', 'mcp-inbox'),
    mcp: true,
    statePath: path.join(root, 'storage', 'connect.json'),
    ...extra,
  };
  return { home, options };
}

async function write(file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
}

const read = (file: string) => fs.readFile(file, 'utf8');
const exists = (file: string) => fs.stat(file).then(() => true, () => false);

/** The agents Connect lists: the registry's, with their Connect spec (as src/vscode/connect/ lists them). */
const CONNECT_AGENTS = AGENTS.flatMap((agent) => (agent.connect ? [agent.connect] : []));

/** The Connect spec of the agent `id`. */
function spec(id: string): ConnectAgent {
  const agent = CONNECT_AGENTS.find((candidate) => candidate.id === id);
  assert.ok(agent, `an agent ${id} with a Connect spec`);
  return agent;
}

async function connect(agent: string, options: ConnectOptions) {
  return apply(await plan(spec(agent), options));
}

async function disconnect(agent: string, options: ConnectOptions) {
  return apply(await unplan(spec(agent), options));
}

/** Every file under `folder`, with its bytes. */
async function snapshot(folder: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  if (!(await exists(folder))) return out;
  for (const name of await fs.readdir(folder, { recursive: true })) {
    const file = path.join(folder, String(name));
    const stat = await fs.lstat(file);
    if (stat.isFile()) out[String(name)] = await fs.readFile(file, 'latin1');
    else if (stat.isDirectory()) out[`${String(name)}/`] = '';
  }
  return out;
}

const SUPPORTED = CONNECT_AGENTS.filter((agent) => agent.unsupported === undefined).map((agent) => agent.id);

/** The files of each agent, under `home` with no variables set. */
function filesOf(agent: string, home: string): string[] {
  return spec(agent).files.map((spec) => spec.path({ home, env: {} }));
}

const ODD_JSONC = `// my settings
{
    "mcpServers" : { "other": {"command": "x"} } , // keep me
\t"permissions": {"allow": ["Bash(ls)",] },
  "mcp": {"mine": {"type": "local", "command": ["y"]}},
  "env": {"FOO": "1"},
  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo"}]}]}
}
`;

describe('Connect: agents\u2019 user MCP configuration', () => {
  const temp = useTempDir();

  for (const agent of SUPPORTED) {
    describe(agent, () => {
      it('Connect then Disconnect leaves absent files absent (and no folder behind)', async () => {
        const { home, options } = setup(temp.path);
        await fs.mkdir(home, { recursive: true });
        const before = await snapshot(home);
        const connected = await connect(agent, { ...options, planTools: true });
        assert.ok(connected.files.length > 0, 'Connect wrote something');
        for (const file of connected.files) assert.equal(file.before, undefined);
        const disconnected = await disconnect(agent, options);
        assert.equal(disconnected.files.length, connected.files.length);
        assert.deepEqual(await snapshot(home), before);
        assert.deepEqual(await connectedAgents(options.statePath, CONNECT_AGENTS), []);
      });

      it('Connect then Disconnect leaves a file with comments and odd formatting byte-identical, keeping the user\u2019s entries meanwhile', async () => {
        const { home, options } = setup(temp.path);
        const files = filesOf(agent, home);
        const original = agent === 'codex' ? '# mine\nmodel = "o3"\n[mcp_servers.other]\ncommand = "x"' : ODD_JSONC;
        for (const file of files) await write(file, original);
        const before = await snapshot(home);
        await connect(agent, { ...options, planTools: true });
        for (const file of files) {
          const text = await read(file);
          if (agent === 'codex') assert.ok(text.startsWith(original), `${file} keeps the user's text`);
          else {
            // The lines of the entries it touched are laid out anew; the others, and every comment, stay.
            for (const line of ['// my settings', '// keep me']) assert.ok(text.includes(line), `${file} keeps ${line}`);
            const value = parseJsonc(text) as Record<string, Record<string, unknown>>;
            assert.ok(value['mcpServers']?.['other'], 'other MCP servers kept');
            assert.deepEqual(value['permissions']?.['allow']?.toString().split(',').slice(0, 1), ['Bash(ls)']);
            assert.ok(value['hooks']?.['Stop'], 'hooks kept');
          }
        }
        await disconnect(agent, options);
        assert.deepEqual(await snapshot(home), before);
      });

      it('Connect twice changes nothing the second time', async () => {
        const { home, options } = setup(temp.path);
        await connect(agent, { ...options, planTools: true });
        const once = await snapshot(home);
        const second = await plan(spec(agent), { ...options, planTools: true });
        assert.deepEqual(second.files, []);
        assert.ok(second.notes.some((note) => note.code === 'already-connected'));
        await apply(second);
        assert.deepEqual(await snapshot(home), once);
      });
    });
  }

  it('writes each agent\u2019s entry as its spec says', async () => {
    const { home, options } = setup(temp.path);
    const args = [SCRIPT, '--inbox', options.inbox];
    for (const agent of SUPPORTED) await connect(agent, { ...options, planTools: true });
    const json = async (file: string) => JSON.parse(await read(path.join(home, file))) as Record<string, Record<string, unknown>>;
    assert.deepEqual((await json('.claude.json'))['mcpServers']?.['agentplan'], { type: 'stdio', command: NODE, args, env: {} });
    const claude = await json('.claude/settings.json');
    assert.deepEqual(claude['permissions']?.['allow'], ['mcp__agentplan__todo_write']);
    assert.deepEqual(claude['env'], { CLAUDE_CODE_ENABLE_TODO_TOOLS: '1' });
    assert.deepEqual((await json('.gemini/settings.json'))['mcpServers']?.['agentplan'], { command: NODE, args, trust: true });
    assert.deepEqual((await json('.copilot/mcp-config.json'))['mcpServers']?.['agentplan'], { type: 'local', command: NODE, args, tools: ['*'] });
    assert.deepEqual((await json('.config/opencode/opencode.json'))['mcp']?.['agentplan'], { type: 'local', command: [NODE, ...args], enabled: true });
    const qwen = await json('.qwen/settings.json');
    assert.deepEqual(qwen['mcpServers']?.['agentplan'], { command: NODE, args, trust: true });
    assert.deepEqual(qwen['tools'], { todoWrite: { enabled: true } });
    const toml = await read(path.join(home, '.codex', 'config.toml'));
    assert.equal(
      toml,
      [
        BLOCK_BEGIN,
        '[mcp_servers.agentplan]',
        `command = "${NODE}"`,
        `args = ["${SCRIPT}", "--inbox", ${JSON.stringify(options.inbox)}]`,
        '',
        '[mcp_servers.agentplan.tools.todo_write]',
        'approval_mode = "approve"',
        '',
        '[tools.update_plan]',
        'enabled = true',
        BLOCK_END,
        '',
      ].join('\n'),
    );
  });

  it('gives the server no --inbox when no inbox folder is named: the server\u2019s default inbox is Agent Plan\u2019s', async () => {
    const { home, options } = setup(temp.path);
    const { inbox: _named, ...defaultInbox } = options;
    await connect('gemini-cli', defaultInbox);
    await connect('codex', defaultInbox);
    const gemini = JSON.parse(await read(path.join(home, '.gemini', 'settings.json'))) as { mcpServers: { agentplan: { args: string[] } } };
    assert.deepEqual(gemini.mcpServers.agentplan.args, [SCRIPT]);
    assert.ok((await read(path.join(home, '.codex', 'config.toml'))).includes(`args = ["${SCRIPT}"]\n`));
  });

  it('follows CODEX_HOME and XDG_CONFIG_HOME', async () => {
    const { options } = setup(temp.path);
    const codexHome = path.join(temp.path, 'codex-home');
    const config = path.join(temp.path, 'xdg');
    const env = { PATH: '', CODEX_HOME: codexHome, XDG_CONFIG_HOME: config };
    await connect('codex', { ...options, env });
    await connect('opencode', { ...options, env });
    assert.ok(await exists(path.join(codexHome, 'config.toml')));
    assert.ok(await exists(path.join(config, 'opencode', 'opencode.json')));
  });

  it('says Copilot CLI\u2019s pre-approval is a command-line flag', async () => {
    const { options } = setup(temp.path);
    const planned = await plan(spec('copilot-cli'), options);
    assert.deepEqual(planned.notes.filter((note) => note.code === 'approval-flag'), [{ code: 'approval-flag', detail: '--allow-tool agentplan' }]);
  });

  it('refuses Kilo CLI and Cline with their reason, and lists no agent without a Connect spec', async () => {
    const { options } = setup(temp.path);
    for (const agent of ['kilo', 'cline']) await assert.rejects(plan(spec(agent), options), (error: unknown) => error instanceof ConnectError && error.code === 'unsupported');
    assert.equal(CONNECT_AGENTS.find((agent) => agent.id === 'copilot'), undefined, 'Copilot Chat has no Connect spec');
  });

  describe('the user\u2019s own entries', () => {
    it('keeps an allow rule the user had, and Disconnect does not take it away', async () => {
      const { home, options } = setup(temp.path);
      const settings = path.join(home, '.claude', 'settings.json');
      const original = '{\n  "permissions": {\n    "allow": ["mcp__agentplan__todo_write", "Read"]\n  },\n  "env": {"CLAUDE_CODE_ENABLE_TODO_TOOLS": "0"}\n}\n';
      await write(settings, original);
      const planned = await plan(spec('claude-code'), { ...options, planTools: true });
      assert.deepEqual(planned.files.map((file) => file.path), [path.join(home, '.claude.json')], 'settings.json needs nothing');
      assert.ok(planned.notes.some((note) => note.code === 'kept-setting' && note.detail === 'env.CLAUDE_CODE_ENABLE_TODO_TOOLS = "0"'));
      await apply(planned);
      await disconnect('claude-code', options);
      assert.equal(await read(settings), original);
    });

    it('removes only Agent Plan\u2019s entries from a file edited since Connect, and keeps a created file that now holds the user\u2019s', async () => {
      const { home, options } = setup(temp.path);
      const gemini = path.join(home, '.gemini', 'settings.json');
      await write(gemini, '{\n  "theme": "dark"\n}\n');
      const claude = path.join(home, '.claude', 'settings.json');
      await connect('gemini-cli', options);
      await connect('claude-code', options);
      // The user (or the agent) edits both files afterwards.
      await write(gemini, (await read(gemini)).replace('"theme": "dark"', '"theme": "light"'));
      await write(claude, (await read(claude)).replace('"mcp__agentplan__todo_write"', '"mcp__agentplan__todo_write", "Read"'));
      await disconnect('gemini-cli', options);
      await disconnect('claude-code', options);
      assert.deepEqual(JSON.parse(await read(gemini)), { theme: 'light' });
      assert.deepEqual(JSON.parse(await read(claude)), { permissions: { allow: ['Read'] } });
      assert.equal(await exists(path.join(home, '.claude.json')), false, 'the created .claude.json, unchanged, is gone');
    });

    it('deletes a file Connect created and the user emptied of all but Agent Plan\u2019s entries', async () => {
      const { home, options } = setup(temp.path);
      const file = path.join(home, '.qwen', 'settings.json');
      await connect('qwen-code', options);
      const text = await read(file);
      await write(file, text.replace(/\n/g, '\r\n'));
      await disconnect('qwen-code', options);
      assert.equal(await exists(file), false);
      assert.equal(await exists(path.join(home, '.qwen')), false);
    });

    it('updates its own entry when the server moved (a new version of the extension)', async () => {
      const { home, options } = setup(temp.path);
      await connect('gemini-cli', options);
      const moved = '/ext/agent-plan-0.2.0/dist/mcp.js';
      const planned = await plan(spec('gemini-cli'), { ...options, serverScript: moved });
      assert.equal(planned.files.length, 1);
      await apply(planned);
      const value = JSON.parse(await read(path.join(home, '.gemini', 'settings.json'))) as { mcpServers: { agentplan: { args: string[] } } };
      assert.equal(value.mcpServers.agentplan.args[0], moved);
      await disconnect('gemini-cli', options);
      assert.equal(await exists(path.join(home, '.gemini')), false);
    });
  });

  describe('refusals: nothing is written', () => {
    const cases: Array<[name: string, agent: string, file: string, text: string, code: string]> = [
      ['not JSON', 'gemini-cli', '.gemini/settings.json', '{"mcpServers": ', 'not-json'],
      ['an array at the top', 'gemini-cli', '.gemini/settings.json', '[1, 2]\n', 'not-object'],
      ['mcpServers not an object', 'qwen-code', '.qwen/settings.json', '{"mcpServers": []}\n', 'wrong-shape'],
      ['permissions.allow not an array', 'claude-code', '.claude/settings.json', '{"permissions": {"allow": "Read"}}\n', 'wrong-shape'],
      ['an agentplan entry of the user', 'copilot-cli', '.copilot/mcp-config.json', '{"mcpServers": {"agentplan": {"command": "mine"}}}\n', 'foreign-entry'],
      ['mcp not an object', 'opencode', '.config/opencode/opencode.json', '{"mcp": true}\n', 'wrong-shape'],
      ['not TOML', 'codex', '.codex/config.toml', 'model = \n', 'not-toml'],
      ['an agentplan server of the user in TOML', 'codex', '.codex/config.toml', '[mcp_servers.agentplan]\ncommand = "mine"\n', 'foreign-entry'],
      ['TOML whose tools is an inline table', 'codex', '.codex/config.toml', 'tools = { web_search = true }\n', 'not-toml'],
    ];
    for (const [name, agent, file, text, code] of cases) {
      it(`${name} (${agent})`, async () => {
        const { home, options } = setup(temp.path);
        await write(path.join(home, file), text);
        const before = await snapshot(home);
        await assert.rejects(plan(spec(agent), { ...options, planTools: true }), (error: unknown) => {
          assert.ok(error instanceof ConnectError, String(error));
          assert.equal(error.code, code);
          assert.ok(error.message.startsWith(path.join(home, file)), error.message);
          return true;
        });
        assert.deepEqual(await snapshot(home), before);
        assert.equal(await exists(options.statePath), false);
      });
    }

    it('a settings file that is a link out of HOME; a link inside HOME is written through', async () => {
      const { home, options } = setup(temp.path);
      const outside = path.join(temp.path, 'elsewhere', 'settings.json');
      await write(outside, '{}\n');
      await fs.mkdir(path.join(home, '.gemini'), { recursive: true });
      await fs.symlink(outside, path.join(home, '.gemini', 'settings.json'));
      await assert.rejects(plan(spec('gemini-cli'), options), (error: unknown) => error instanceof ConnectError && error.code === 'outside-home');
      assert.equal(await read(outside), '{}\n');

      const dotfile = path.join(home, 'dotfiles', 'qwen.json');
      await write(dotfile, '{}\n');
      await fs.mkdir(path.join(home, '.qwen'), { recursive: true });
      await fs.symlink(dotfile, path.join(home, '.qwen', 'settings.json'));
      await connect('qwen-code', options);
      assert.ok((await fs.lstat(path.join(home, '.qwen', 'settings.json'))).isSymbolicLink(), 'the link stays a link');
      assert.ok((await read(dotfile)).includes('agentplan'));
      await disconnect('qwen-code', options);
      assert.equal(await read(dotfile), '{}\n');
    });

    it('a settings folder that is a link out of HOME, and a settings path that is a folder', async () => {
      const { home, options } = setup(temp.path);
      await fs.mkdir(path.join(temp.path, 'elsewhere'), { recursive: true });
      await fs.mkdir(home, { recursive: true });
      await fs.symlink(path.join(temp.path, 'elsewhere'), path.join(home, '.gemini'));
      await assert.rejects(plan(spec('gemini-cli'), options), (error: unknown) => error instanceof ConnectError && error.code === 'outside-home');
      await fs.mkdir(path.join(home, '.copilot', 'mcp-config.json'), { recursive: true });
      await assert.rejects(plan(spec('copilot-cli'), options), (error: unknown) => error instanceof ConnectError && error.code === 'not-regular');
    });

    it('a file changed between the preview and the write', async () => {
      const { home, options } = setup(temp.path);
      const file = path.join(home, '.gemini', 'settings.json');
      await write(file, '{}\n');
      const planned = await plan(spec('gemini-cli'), options);
      await write(file, '{"theme": "dark"}\n');
      await assert.rejects(apply(planned), (error: unknown) => error instanceof ConnectError && error.code === 'changed-since-preview');
      assert.equal(await read(file), '{"theme": "dark"}\n');
    });
  });

  describe('Codex\u2019s TOML block', () => {
    it('is appended after the user\u2019s text and removed byte for byte, also when the file was edited around it', async () => {
      const { home, options } = setup(temp.path);
      const file = path.join(home, '.codex', 'config.toml');
      const original = 'model = "o3"\r\n\r\n[projects."/w"]\r\ntrust_level = "trusted"\r\n';
      await write(file, original);
      await connect('codex', options);
      const connected = await read(file);
      assert.ok(connected.startsWith(original + '\r\n' + BLOCK_BEGIN + '\r\n'), connected);
      assert.ok(connected.endsWith(BLOCK_END + '\r\n'));
      // Codex itself adds a table after the block.
      await write(file, connected + '\r\n[projects."/x"]\r\ntrust_level = "trusted"\r\n');
      await disconnect('codex', options);
      assert.equal(await read(file), original + '\r\n[projects."/x"]\r\ntrust_level = "trusted"\r\n');
    });

    it('leaves an update_plan switch the user set, and adds none to a file that has it on', async () => {
      const { home, options } = setup(temp.path);
      const file = path.join(home, '.codex', 'config.toml');
      await write(file, '[tools.update_plan]\nenabled = false\n');
      const planned = await plan(spec('codex'), { ...options, planTools: true });
      assert.ok(planned.notes.some((note) => note.code === 'kept-setting' && note.detail === 'tools.update_plan'));
      assert.ok(!(planned.files[0]?.after ?? '').includes('enabled = true'));
    });
  });

  describe('finding agents and node', () => {
    it('detects an agent by its folder or by its program on PATH', async () => {
      const { home } = setup(temp.path);
      await fs.mkdir(path.join(home, '.gemini'), { recursive: true });
      const bin = path.join(temp.path, 'bin');
      await write(path.join(bin, 'codex'), '#!/bin/sh\n');
      await fs.chmod(path.join(bin, 'codex'), 0o755);
      await write(path.join(bin, 'qwen'), 'not executable');
      const found = await detect(home, { PATH: bin }, CONNECT_AGENTS);
      assert.deepEqual(
        found.map((found) => [found.agent.id, found.how]),
        [
          ['codex', 'path'],
          ['gemini-cli', 'folder'],
        ],
      );
    });

    it('runs the server with the host\u2019s node unless the host is Electron, then node from PATH', async () => {
      const bin = path.join(temp.path, 'bin');
      await write(path.join(bin, 'node'), '#!/bin/sh\n');
      await fs.chmod(path.join(bin, 'node'), 0o755);
      assert.equal(await nodeForServer({ execPath: '/n/node', versions: { ...process.versions } }, { PATH: bin }), '/n/node');
      const electron = { execPath: '/Applications/Code', versions: { ...process.versions, electron: '37.0.0' } };
      assert.equal(await nodeForServer(electron, { PATH: `relative${path.delimiter}${bin}` }), path.join(bin, 'node'));
      assert.equal(await nodeForServer(electron, { PATH: path.join(temp.path, 'none') }), undefined);
      assert.equal(await findOnPath('node', { PATH: os.tmpdir() + path.delimiter }, 'linux'), undefined);
    });
  });
});

// Connect and Disconnect on real files in a temp HOME: for each agent, Connect writes exactly its
// spec's entries (src/agents/<agent>/connect.ts) and Disconnect puts every file back byte for
// byte (a file with comments and odd formatting, and a file that was not there); the user's own entries stay; a file in a shape
// Agent Plan does not know, or a link out of HOME, is refused and left untouched; Codex's TOML
// block; a second Connect changes nothing. The answers part: Agent Plan's permission hook in
// Claude Code's settings.json and Codex's config.toml (with Codex's trust of the hook), beside the user's own hooks.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { apply, connectedAgents, detect, plan, unplan, type ConnectOptions } from '../../../../src/node/connect/connect';
import { AGENTS } from '../../../../src/agents/registry';
import { hookCommand, shellQuote, type ConnectAgent, type ServerLine } from '../../../../src/node/connect/connectAgents';
import { ConnectError } from '../../../../src/node/connect/connectError';
import { findOnPath, nodeForServer } from '../../../../src/node/connect/onPath';
import { BLOCK_BEGIN, BLOCK_END, loadToml, parseToml } from '../../../../src/node/connect/tomlBlock';
import { codexHookHash, codexHookKey } from '../../../../src/agents/codex/hookTrust';
import { useTempDir } from '../../../lib/temp';

const NODE = '/usr/bin/node';
const SCRIPT = '/ext/agent-plan-0.1.0/dist/mcp.js';
const HOOK = { script: '/ext/agent-plan-0.1.0/dist/answer.sh', folder: '/data/agent-plan/answers' };

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
    hook: HOOK,
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
        const connected = await connect(agent, { ...options, planTools: true, answers: true });
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
        await connect(agent, { ...options, planTools: true, answers: true });
        const once = await snapshot(home);
        const second = await plan(spec(agent), { ...options, planTools: true, answers: true });
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

  describe('answers: the permission hook', () => {
    /** Agent Plan's hook group for `agent`, as Claude Code and Codex read it. */
    const ours = (agent: string, script = HOOK.script) => ({
      matcher: '*',
      hooks: [{ type: 'command', command: `sh '${script}' ${agent} '${HOOK.folder}'`, timeout: 600 }],
    });
    const USERS = { matcher: 'Bash', hooks: [{ type: 'command', command: 'my-hook.sh' }] };
    const CLAUDE_SETTINGS = `{
  // my hooks
  "hooks": {
    "PermissionRequest": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "my-hook.sh"}]}
    ]
  }
}
`;
    const hooksOf = async (file: string) => (parseJsonc(await read(file)) as { hooks: { PermissionRequest: unknown[] } }).hooks.PermissionRequest;
    const recordOf = async (statePath: string) => JSON.parse(await read(statePath)) as { agents: Record<string, Record<string, unknown>> };

    it('Claude Code: appended after the user\u2019s own PermissionRequest hook, comment kept; a second Connect adds nothing; Disconnect puts the bytes back', async () => {
      const { home, options } = setup(temp.path);
      const settings = path.join(home, '.claude', 'settings.json');
      await write(settings, CLAUDE_SETTINGS);
      const planned = await plan(spec('claude-code'), { ...options, mcp: false, answers: true });
      assert.deepEqual(planned.files.map((file) => file.path), [settings], 'only settings.json: no server entry without the MCP part');
      await apply(planned);
      const text = await read(settings);
      assert.ok(text.includes('// my hooks'), text);
      assert.deepEqual(await hooksOf(settings), [USERS, ours('claude-code')]);
      assert.equal(await exists(path.join(home, '.claude.json')), false);
      assert.equal((await recordOf(options.statePath)).agents['claude-code']?.['answers'], true);

      const second = await plan(spec('claude-code'), { ...options, mcp: false, answers: true });
      assert.deepEqual(second.files, []);
      assert.ok(second.notes.some((note) => note.code === 'already-connected'));
      // A Connect that does not choose answers keeps the earlier choice.
      assert.deepEqual((await plan(spec('claude-code'), { ...options, mcp: false })).files, []);

      await disconnect('claude-code', options);
      assert.equal(await read(settings), CLAUDE_SETTINGS);
    });

    it('Claude Code: Disconnect after the user edited the file removes only Agent Plan\u2019s hook', async () => {
      const { home, options } = setup(temp.path);
      const settings = path.join(home, '.claude', 'settings.json');
      await write(settings, CLAUDE_SETTINGS);
      await connect('claude-code', { ...options, mcp: false, answers: true });
      const edited = (await read(settings)).replace('// my hooks', '// my hooks, edited').replace('"hooks": {', '"model": "opus",\n  "hooks": {');
      await write(settings, edited);
      await disconnect('claude-code', options);
      const text = await read(settings);
      assert.ok(text.includes('// my hooks, edited'), text);
      assert.ok(!text.includes('answer.sh'), text);
      assert.deepEqual(parseJsonc(text), { model: 'opus', hooks: { PermissionRequest: [USERS] } });
    });

    it('Claude Code: a second Connect adds answers to the first, and an old record without answers is still read', async () => {
      const { home, options } = setup(temp.path);
      const settings = path.join(home, '.claude', 'settings.json');
      await connect('claude-code', options);
      const record = await recordOf(options.statePath);
      assert.equal(record.agents['claude-code']?.['answers'], false);
      await connect('claude-code', { ...options, mcp: false, answers: true });
      const value = parseJsonc(await read(settings)) as Record<string, unknown>;
      assert.deepEqual(value, { permissions: { allow: ['mcp__agentplan__todo_write'] }, hooks: { PermissionRequest: [ours('claude-code')] } });
      const after = await recordOf(options.statePath);
      assert.equal(after.agents['claude-code']?.['mcp'], true);
      assert.equal(after.agents['claude-code']?.['answers'], true);
      // A record written before Connect had answers: no such key.
      delete after.agents['claude-code']?.['answers'];
      await fs.writeFile(options.statePath, JSON.stringify(after));
      assert.deepEqual((await connectedAgents(options.statePath, CONNECT_AGENTS)).map((agent) => agent.id), ['claude-code']);
      await disconnect('claude-code', options);
      assert.equal(await exists(path.join(home, '.claude')), false);
    });

    it('Claude Code: a hook the user took out is added again, and recorded once', async () => {
      const { home, options } = setup(temp.path);
      const settings = path.join(home, '.claude', 'settings.json');
      await write(settings, CLAUDE_SETTINGS);
      await connect('claude-code', { ...options, mcp: false, answers: true });
      await write(settings, CLAUDE_SETTINGS.replace('// my hooks', '// mine'));
      await connect('claude-code', { ...options, mcp: false, answers: true });
      assert.deepEqual(await hooksOf(settings), [USERS, ours('claude-code')]);
      const files = (await recordOf(options.statePath)).agents['claude-code']?.['files'] as Array<{ entries: unknown[] }>;
      assert.deepEqual(files.map((file) => file.entries), [[{ kind: 'append', path: ['hooks', 'PermissionRequest'], value: ours('claude-code') }]]);
    });

    it('Claude Code: a new extension folder replaces Agent Plan\u2019s hook in place, not beside it, also when answers are not chosen again', async () => {
      const { home, options } = setup(temp.path);
      const settings = path.join(home, '.claude', 'settings.json');
      await write(settings, CLAUDE_SETTINGS);
      await connect('claude-code', { ...options, mcp: false, answers: true });
      const moved = '/ext/agent-plan-0.2.0/dist/answer.sh';
      // The earlier choice of answers stays: a later Connect (after an update) need not choose it again.
      await connect('claude-code', { ...options, mcp: false, hook: { ...HOOK, script: moved } });
      assert.deepEqual(await hooksOf(settings), [USERS, ours('claude-code', moved)]);
      await write(settings, (await read(settings)).replace('// my hooks', '// mine'));
      await disconnect('claude-code', options);
      assert.deepEqual(parseJsonc(await read(settings)), { hooks: { PermissionRequest: [USERS] } });
    });

    const tomlOf = async (file: string) => {
      await loadToml();
      // Plain objects (the parser's tables have no prototype).
      return JSON.parse(JSON.stringify(parseToml(await read(file), file))) as { hooks?: { PermissionRequest?: unknown[]; state?: Record<string, { trusted_hash?: string }> }; model?: string };
    };

    it('Codex trusts a hook by the hash of its identity, as its own app-server computes it', () => {
      // Measured: Codex 0.171.0's `hooks/list` gave this `currentHash` for this hook.
      assert.equal(codexHookHash('permission_request', '*', { command: "sh '/x/dist/answer.sh' codex '/y/answers'", timeout: 600 }), 'sha256:bb7478ddf23e510dc3ed4229142cfb8d2d3042d258f9e10b7d561d091356dc96');
      assert.equal(codexHookHash('permission_request', '*', { command: "sh '/x/dist/answer.sh' codex '/y/answers'" }), codexHookHash('permission_request', '*', { command: "sh '/x/dist/answer.sh' codex '/y/answers'", timeout: 600 }), 'no timeout is 600');
      assert.notEqual(codexHookHash('permission_request', '*', { command: 'a', timeout: 5 }), codexHookHash('permission_request', '*', { command: 'a', timeout: 600 }));
      assert.equal(codexHookKey('/h/.codex/config.toml', 'permission_request', 2, 0), '/h/.codex/config.toml:permission_request:2:0');
    });

    it('Codex: the hook and Codex\u2019s record that the user trusts it go into Agent Plan\u2019s block of config.toml (keyed by CODEX_HOME\u2019s real path); a second Connect adds nothing; Disconnect removes the file and its folders', async () => {
      const { options } = setup(temp.path);
      const real = path.join(temp.path, 'codex-home', 'deep');
      await fs.mkdir(real, { recursive: true });
      const link = path.join(temp.path, 'codex-link');
      await fs.symlink(real, link);
      const config = path.join(link, 'config.toml');
      const env = { PATH: '', CODEX_HOME: link };
      const planned = await plan(spec('codex'), { ...options, env, mcp: false, answers: true });
      assert.deepEqual(planned.files.map((file) => [file.path, file.before]), [[config, undefined]]);
      await apply(planned);
      const command = hookCommand({ ...options, mcp: false, answers: true }, 'codex');
      const written = await tomlOf(config);
      assert.deepEqual(written.hooks?.PermissionRequest, [{ matcher: '*', hooks: [{ type: 'command', command, timeout: 600 }] }]);
      const key = `${await fs.realpath(path.join(real, 'config.toml'))}:permission_request:0:0`;
      assert.deepEqual(written.hooks?.state, { [key]: { trusted_hash: codexHookHash('permission_request', '*', { command, timeout: 600 }) } });
      const second = await plan(spec('codex'), { ...options, env, mcp: false, answers: true });
      assert.deepEqual(second.files, []);
      await disconnect('codex', { ...options, env });
      assert.equal(await exists(path.join(real, 'config.toml')), false);
    });

    it('Codex: after the user\u2019s own PermissionRequest groups (its trust keyed by the next place, HOME\u2019s path as written); Disconnect puts the bytes back', async () => {
      const { home, options } = setup(temp.path);
      const config = path.join(home, '.codex', 'config.toml');
      const users = 'model = "gpt-5"\n\n[[hooks.PermissionRequest]]\nmatcher = "Bash"\n\n[[hooks.PermissionRequest.hooks]]\ntype = "command"\ncommand = "my-hook.sh"\n';
      await write(config, users);
      await connect('codex', { ...options, answers: true });
      const written = await tomlOf(config);
      const command = hookCommand({ ...options, answers: true }, 'codex');
      assert.equal(written.model, 'gpt-5');
      assert.deepEqual(written.hooks?.PermissionRequest, [USERS, { matcher: '*', hooks: [{ type: 'command', command, timeout: 600 }] }]);
      assert.deepEqual(Object.keys(written.hooks?.state ?? {}), [`${config}:permission_request:1:0`]);
      assert.ok((await read(config)).startsWith(users), 'the user\u2019s lines as they were');
      await disconnect('codex', options);
      assert.equal(await read(config), users);
    });

    it('Codex: a trust entry of that key with another hash, or hooks.PermissionRequest that is no list of tables, is refused, writing nothing', async () => {
      const { home, options } = setup(temp.path);
      const config = path.join(home, '.codex', 'config.toml');
      const key = `${config}:permission_request:0:0`;
      for (const text of [`[hooks.state.${JSON.stringify(key)}]\ntrusted_hash = "sha256:00"\n`, '[hooks]\nPermissionRequest = "ask"\n']) {
        await write(config, text);
        const before = await snapshot(home);
        await assert.rejects(plan(spec('codex'), { ...options, answers: true }), (error: unknown) => error instanceof ConnectError && error.code === 'foreign-entry');
        assert.deepEqual(await snapshot(home), before);
      }
    });

    for (const [agent, file] of [['claude-code', '.claude/settings.json']] as const) {
      it(`refuses a hooks.PermissionRequest that is not an array (${agent}), writing nothing`, async () => {
        const { home, options } = setup(temp.path);
        await write(path.join(home, file), '{"hooks": {"PermissionRequest": {"matcher": "*"}}}\n');
        const before = await snapshot(home);
        await assert.rejects(plan(spec(agent), { ...options, answers: true }), (error: unknown) => {
          assert.ok(error instanceof ConnectError, String(error));
          assert.equal(error.code, 'wrong-shape');
          assert.equal(error.detail, 'hooks.PermissionRequest');
          assert.equal(error.file, path.join(home, file));
          return true;
        });
        assert.deepEqual(await snapshot(home), before);
        assert.equal(await exists(options.statePath), false);
      });
    }

    it('quotes the hook\u2019s script and folder for sh, whatever their names hold', async () => {
      const folder = path.join(temp.path, "it's a folder");
      const script = path.join(folder, 'dist', 'answer.sh');
      const answers = path.join(folder, "answers 'x'");
      const line: ServerLine = { node: NODE, serverScript: SCRIPT, mcp: false, answers: true, hook: { script, folder: answers } };
      const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
      assert.equal(hookCommand(line, 'claude-code'), `sh ${quote(script)} claude-code ${quote(answers)}`);
      assert.equal(shellQuote("/a b/it's"), "'/a b/it'\\''s'");
      assert.equal(hookCommand({ ...line, hook: { script: "/x y/it's.sh", folder: '/d' } }, 'codex'), "sh '/x y/it'\\''s.sh' codex '/d'");
      assert.equal(execFileSync('sh', ['-c', 'printf %s ' + shellQuote(answers)], { encoding: 'utf8' }), answers);
      // The agent runs the command through sh -c: the script gets its agent and folder as they are.
      await write(script, 'printf "%s\\n" "$0" "$@"\n');
      assert.equal(execFileSync('sh', ['-c', hookCommand(line, 'codex')], { encoding: 'utf8' }), `${script}\ncodex\n${answers}\n`);
      assert.throws(() => hookCommand({ node: NODE, serverScript: SCRIPT, mcp: false, answers: true }, 'codex'), TypeError);
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

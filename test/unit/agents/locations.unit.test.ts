// Which terminal-agent session files belong to this workspace, over real folders in a temp dir.
import * as assert from 'node:assert/strict';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { claudeCodeLocator } from '../../../src/agents/claudeCode/locator';
import { codexLocator } from '../../../src/agents/codex/locator';
import { geminiCliLocator } from '../../../src/agents/geminiCli/locator';
import { claudeProjectFolders } from '../../../src/agents/claudeCode/locations';
import { geminiProjectHash } from '../../../src/agents/geminiCli/locations';
import { isInsideWorkspace } from '../../../src/agents/locations';
import { recording } from '../agentRecordings';
import { useTempDir } from '../../lib/temp';

async function write(file: string, text: string): Promise<void> {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  await fsp.writeFile(file, text);
}

describe('session locators', () => {
  const tmp = useTempDir();

  it('claude: the project folder named after the workspace path', async () => {
    const claudeDir = path.join(tmp.path, '.claude');
    const ws = '/work/my.project';
    assert.deepEqual(
      claudeProjectFolders(claudeDir, ws).map((f) => path.basename(f)),
      ['-work-my-project', '-work-my.project'],
    );
    const mine = path.join(claudeDir, 'projects', '-work-my-project', 'a.jsonl');
    await write(mine, '{}\n');
    await write(path.join(claudeDir, 'projects', '-work-other', 'b.jsonl'), '{}\n');
    await write(path.join(claudeDir, 'projects', '-work-my-project', 'notes.txt'), 'x');
    const locator = claudeCodeLocator(claudeDir, [ws]);
    assert.deepEqual(await locator.list(), [mine]);
    assert.deepEqual(await claudeCodeLocator(path.join(tmp.path, 'missing'), [ws]).list(), []);
  });

  it('claude: a workspace path too long for a folder name is found by the start Claude Code keeps', async () => {
    const claudeDir = path.join(tmp.path, '.claude');
    const ws = `/work/${'deep/'.repeat(50)}ws`;
    const name = ws.replace(/[^a-zA-Z0-9]/g, '-');
    assert.ok(name.length > 200);
    assert.deepEqual(claudeProjectFolders(claudeDir, ws), [], 'no full-length name is ever looked for');
    const mine = path.join(claudeDir, 'projects', `${name.slice(0, 200)}-1x9ab3`, 's.jsonl');
    await write(mine, '{}\n');
    await write(path.join(claudeDir, 'projects', `${name.slice(0, 199)}X-1x9ab3`, 's.jsonl'), '{}\n');
    const locator = claudeCodeLocator(claudeDir, [ws]);
    assert.deepEqual(await locator.list(), [mine]);
    assert.ok(locator.watchFolders().includes(path.join(claudeDir, 'projects')));
  });

  it('codex: rollouts whose first line names the workspace, deciding from the first line only', async () => {
    const home = path.join(tmp.path, '.codex');
    const day = path.join(home, 'sessions', '2026', '12', '02');
    const meta = (cwd: string) => JSON.stringify({ type: 'session_meta', payload: { id: 't', cwd } }) + '\n';
    const mine = path.join(day, 'rollout-2026-12-02T10-00-00-a.jsonl');
    const inner = path.join(day, 'rollout-2026-12-02T10-00-01-b.jsonl');
    const other = path.join(day, 'rollout-2026-12-02T10-00-02-c.jsonl');
    const unfinished = path.join(day, 'rollout-2026-12-02T10-00-03-d.jsonl');
    await write(mine, meta('/work/ws') + '{"type":"response_item"}\n');
    await write(inner, meta('/work/ws/sub'));
    await write(other, meta('/work/ws-other'));
    await write(unfinished, meta('/work/ws').slice(0, 20));
    const locator = codexLocator(home, ['/work/ws'], { now: () => new Date(2026, 11, 2) });
    assert.deepEqual(await locator.list(), [mine, inner]);
    assert.ok(locator.watchFolders().includes(day));
    // The unfinished first line is asked again once complete; decided files are not re-read.
    await fsp.writeFile(unfinished, meta('/work/ws'));
    await fsp.writeFile(other, meta('/work/ws'));
    assert.deepEqual(await locator.list(), [mine, inner, unfinished]);
    assert.deepEqual(await codexLocator(path.join(tmp.path, 'none'), ['/work/ws']).list(), []);
  });

  it('codex: decisions kept in our own storage spare a restart the first lines, for the same workspaces only', async () => {
    const home = path.join(tmp.path, '.codex');
    const day = path.join(home, 'sessions', '2026', '12', '02');
    const meta = (cwd: string) => JSON.stringify({ type: 'session_meta', payload: { id: 't', cwd } }) + '\n';
    const rollout = path.join(day, 'rollout-2026-12-02T10-00-00-a.jsonl');
    await write(rollout, meta('/work/ws'));
    const decisionsFile = path.join(tmp.path, 'storage', 'codex-decisions.json');
    assert.deepEqual(await codexLocator(home, ['/work/ws'], { decisionsFile }).list(), [rollout]);
    const stored = await fsp.readFile(decisionsFile, 'utf8');
    assert.ok(!stored.includes(rollout), 'paths are stored as hashes');
    // Its first line now says otherwise: a restart that trusts the stored decision still lists it...
    await fsp.writeFile(rollout, meta('/elsewhere'));
    assert.deepEqual(await codexLocator(home, ['/work/ws'], { decisionsFile }).list(), [rollout]);
    // ...while other workspace folders ignore those decisions and read the line.
    assert.deepEqual(await codexLocator(home, ['/elsewhere'], { decisionsFile }).list(), [rollout]);
    assert.deepEqual(await codexLocator(home, ['/work/ws'], {}).list(), []);
  });

  it('gemini: projects.json maps the workspace to its chats folder', async () => {
    const gemini = path.join(tmp.path, '.gemini');
    const locator = geminiCliLocator(gemini, ['/work/ws']);
    assert.deepEqual(await locator.list(), [], 'no projects.json yet');
    await write(path.join(gemini, 'projects.json'), JSON.stringify({ projects: { '/work/ws': 'ws', '/work/x': 'x', '/work/evil': '../..' } }));
    const mine = path.join(gemini, 'tmp', 'ws', 'chats', 'session-2026-12-02T10-00-3f2a9c10.jsonl');
    await write(mine, '{}\n');
    await write(path.join(gemini, 'tmp', 'x', 'chats', 'session-b.jsonl'), '{}\n');
    assert.deepEqual(await locator.list(), [mine]);
    assert.ok(locator.watchFolders().includes(path.join(gemini, 'tmp', 'ws', 'chats')));
    assert.equal(geminiProjectHash('/work/ws').length, 64);
  });

  it('a workspace contains its subfolders, not its look-alike neighbours', () => {
    assert.ok(isInsideWorkspace('/work/ws', '/work/ws/'));
    assert.ok(isInsideWorkspace('/work/ws/a/b', '/work/ws'));
    assert.ok(!isInsideWorkspace('/work/ws-2', '/work/ws'));
    assert.ok(!isInsideWorkspace('/work', '/work/ws'));
  });

  it('finds each recorded session from the agent folders as the real programs left them', async () => {
    const claude = recording('claude-code', 'tasks');
    assert.deepEqual(await claudeCodeLocator(claude.agentDir, [claude.workspace]).list(), claude.sessionFiles);
    assert.deepEqual(await claudeCodeLocator(claude.agentDir, ['/tmp/elsewhere']).list(), []);
    const codex = recording('codex', 'update-plan');
    assert.deepEqual(await codexLocator(codex.agentDir, [codex.workspace]).list(), codex.sessionFiles);
    assert.deepEqual(await codexLocator(codex.agentDir, [recording('codex', 'no-plan').workspace]).list(), []);
    const gemini = recording('gemini-cli', 'write-todos');
    assert.deepEqual(await geminiCliLocator(gemini.agentDir, [gemini.workspace]).list(), gemini.sessionFiles);
    assert.deepEqual(await geminiCliLocator(gemini.agentDir, ['/tmp/elsewhere']).list(), []);
  });
});

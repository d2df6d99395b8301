// Agent Plan's MCP inbox, read: each `mcp/todo_write` line of an agent Agent Plan does not follow
// otherwise is a version of that agent run's session, in the workspace that holds its working
// folder; the followed agents' lines are left to their own records.
import * as assert from 'node:assert/strict';
import { createMcpParser, isFollowedClient } from '../../../src/agents/mcp/parser';
import { mcpInboxFolder } from '../../../src/node/mcpInbox';

const WORKSPACE = '/home/me/app';
const line = (fields: Record<string, unknown>): string =>
  JSON.stringify({ v: 1, type: 'mcp/todo_write', ts: '2026-12-07T10:00:00.000Z', client: { name: 'goose', version: '1.9.0' }, cwd: `${WORKSPACE}/api`, call: '4242-1', todos: [{ content: 'Read the parser', status: 'in_progress' }], ...fields });

describe('the MCP inbox parser', () => {
  const parse = (lines: string[], options: { followed?: string[]; folders?: string[] } = {}) =>
    createMcpParser({ workspaceFolders: options.folders ?? [WORKSPACE], fileId: '20261207T100000-4242-a1b2c3', followedClients: options.followed ?? ['claude-code', 'qwen-cli-mcp-client-*'] }).push(lines);

  it('each call of a client it does not follow otherwise is a version of one session: its run, named by the client and the folder', () => {
    const out = parse([line({}), line({ call: '4242-2', todos: [{ content: 'Read the parser', status: 'completed' }, { content: 'Fix it', status: 'in_progress' }] })]);
    assert.deepEqual(out.unknown, []);
    assert.deepEqual(
      out.plans.map((plan) => [plan.source, plan.items, plan.at]),
      [
        [{ agent: 'mcp', tool: 'todo_write', session: 'goose:20261207T100000-4242-a1b2c3', call: '4242-1' }, [{ content: 'Read the parser', status: 'in_progress' }], '2026-12-07T10:00:00.000Z'],
        [{ agent: 'mcp', tool: 'todo_write', session: 'goose:20261207T100000-4242-a1b2c3', call: '4242-2' }, [{ content: 'Read the parser', status: 'completed' }, { content: 'Fix it', status: 'in_progress' }], '2026-12-07T10:00:00.000Z'],
      ],
    );
    assert.deepEqual(out.info, { agent: 'mcp', session: 'goose:20261207T100000-4242-a1b2c3', cwd: `${WORKSPACE}/api`, title: 'goose · api' });
  });

  it('an agent session the client names is the session (a resumed run continues it)', () => {
    const out = parse([line({ agentSession: 'S-1' })]);
    assert.equal(out.plans[0]?.source.session, 'goose:S-1');
  });

  it('a followed agent’s calls are left to its own record; another workspace’s are not this window’s', () => {
    assert.deepEqual(parse([line({ client: { name: 'claude-code', version: '2.1.332' } }), line({ client: { name: 'Qwen-CLI-MCP-Client-agentplan', version: '0.0.1' } })]).plans, []);
    assert.deepEqual(parse([line({ cwd: '/home/me/other' })]).plans, []);
    assert.deepEqual(parse([line({ cwd: '/home/me/app-two' })]).plans, [], 'a sibling folder whose name starts the same is not inside');
    assert.equal(isFollowedClient('CODEX-mcp-client', ['codex-mcp-client']), true);
  });

  it('a damaged or foreign line is reported once and skipped; a call is emitted once, across a resume', () => {
    const parser = createMcpParser({ workspaceFolders: [WORKSPACE], fileId: 'f' });
    const first = parser.push(['not json', line({ type: 'other' }), line({ todos: [{ content: 'x', status: 'done' }] }), line({ todos: [{ content: 'y', status: 'done' }] }), line({})]);
    assert.deepEqual(first.unknown.map((u) => u.line), [1, 2, 3]);
    assert.equal(first.plans.length, 1);
    const resumed = createMcpParser({ workspaceFolders: [WORKSPACE], fileId: 'f' }, JSON.parse(JSON.stringify(parser.state())));
    assert.deepEqual(resumed.push([line({}), line({ call: '4242-9' })]).plans.map((plan) => plan.source.call), ['4242-9']);
  });

  it('the inbox is Agent Plan’s own folder in the user’s data folder', () => {
    assert.equal(mcpInboxFolder({}, '/home/me', 'linux'), '/home/me/.local/share/agent-plan/mcp-inbox');
    assert.equal(mcpInboxFolder({ XDG_DATA_HOME: '/data' }, '/home/me', 'linux'), '/data/agent-plan/mcp-inbox');
    assert.equal(mcpInboxFolder({ XDG_DATA_HOME: 'relative' }, '/home/me', 'linux'), '/home/me/.local/share/agent-plan/mcp-inbox');
  });
});

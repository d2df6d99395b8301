import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, runDir } from '../helpers';
import { waitFor } from '../../lib/wait';

/** The session a made-up MCP client wrote while no window ran (scripts/integration.mjs, writeWhileClosed). */
const writtenWhileClosed = (snapshot: { source?: { agent: string; session: string } }): boolean => snapshot.source?.agent === 'mcp' && snapshot.source.session.startsWith('while-closed-client:');

describe('after the extension host restarts', () => {
  it('shows the session pinned before the restart, still pinned, until Follow Latest', async () => {
    const { session } = JSON.parse(fs.readFileSync(path.join(runDir(), 'pinned-before-restart.json'), 'utf8')) as { session: string };
    const plan = await api();
    assert.deepEqual({ session: plan.getViewState().session, followingLatest: plan.getViewState().followingLatest }, { session, followingLatest: false });
    // The plans an MCP client wrote while no window ran are imported after the start: their
    // session's file is then the newest, so it is waited for first (its own test is below).
    const whileClosed = JSON.parse(fs.readFileSync(path.join(runDir(), 'mcp-while-closed.json'), 'utf8')) as { failed?: string };
    if (whileClosed.failed === undefined) {
      await waitFor(() => plan.listSessions().find(writtenWhileClosed)?.todos[1]?.status === 'in_progress', 'both plans written while no window was open', 30_000);
    }
    await vscode.commands.executeCommand('agentPlan.followLatest');
    // After a reload the sessions are ordered by their files' last change (a line of any kind: the
    // Copilot chat follower may add a title to another file's chat after the last plan before the
    // restart): the view follows the newest file's session, the first the API lists.
    const newest = plan
      .listSessions()
      .map(({ session: key }) => ({ key, changed: fs.statSync(plan.logFile(key)).mtimeMs }))
      .sort((a, b) => b.changed - a.changed)[0]?.key;
    assert.equal(plan.getViewState().session, newest, 'the view follows the session whose file changed last');
    assert.equal(plan.listSessions()[0]?.session, newest, 'the API lists it first');
  });

  it('shows every session\'s last plan again', async () => {
    const file = path.join(runDir(), 'expected-after-restart.json');
    const expected = JSON.parse(fs.readFileSync(file, 'utf8')) as Array<{ session: string; todos: unknown[]; versions?: number }>;
    assert.ok(expected.length >= 2, 'the first run left at least two sessions');
    const plan = await api();
    // Less the session written through MCP while no window ran (its own test below).
    const actual = plan.listSessions().filter((s) => !writtenWhileClosed(s)).map(({ session, todos }) => ({ session, todos }));
    assert.deepEqual(
      [...actual].sort((a, b) => a.session.localeCompare(b.session)),
      expected.map(({ session, todos }) => ({ session, todos })).sort((a, b) => a.session.localeCompare(b.session)),
    );
  });

  it('imports nothing twice: the followers of Copilot chats and terminal agents resume where they were', async () => {
    const file = path.join(runDir(), 'expected-after-restart.json');
    const expected = JSON.parse(fs.readFileSync(file, 'utf8')) as Array<{ session: string; versions: number }>;
    const plan = await api();
    const followed = plan.listSessions().filter((s) => s.source !== undefined);
    assert.ok(followed.length > 0, 'the first run left followed sessions');
    // The followers' first scan done (Refresh resolves once every follower has read every file)
    // before counting: a version read twice would show by then.
    await vscode.commands.executeCommand('agentPlan.refresh');
    for (const { session, versions } of expected) {
      assert.equal((await plan.getHistory(session)).length, versions, `versions of ${session}`);
    }
  });

  it('plans written through the MCP server while no window was open show, each version once', async () => {
    const written = JSON.parse(fs.readFileSync(path.join(runDir(), 'mcp-while-closed.json'), 'utf8')) as { failed?: string; plans: Array<Array<{ content: string; status: string }>>; results: string[] };
    assert.equal(written.failed, undefined, 'the MCP client ran while no window was open');
    assert.deepEqual(written.results, ['Updated todo list: 1 pending, 1 in progress, 0 completed.', 'Updated todo list: 0 pending, 1 in progress, 1 completed.']);
    const plan = await api();
    const session = await waitFor(() => plan.listSessions().find(writtenWhileClosed), 'the session written while no window was open', 30_000);
    await vscode.commands.executeCommand('agentPlan.refresh');
    assert.deepEqual((await plan.getHistory(session.session)).map((version) => version.todos), written.plans, 'both plans, once each, in order');
    assert.equal(plan.listSessions().filter(writtenWhileClosed).length, 1, 'one session');
  });

  it('acting on a plan: shows the hand-off link of a plan continued in a new chat again, from both sessions', async () => {
    const { from, to } = JSON.parse(fs.readFileSync(path.join(runDir(), 'handoff-before-restart.json'), 'utf8')) as { from: string; to: string };
    const plan = await api();
    await waitFor(() => plan.getSessionInfo(to).continuedFrom === from, 'the new session continued from the old one');
    await waitFor(() => plan.getSessionInfo(from).continuedIn?.includes(to), 'the old session continued in the new one');
  });
});

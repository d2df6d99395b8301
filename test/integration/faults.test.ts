import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { api, chat, newChatSession, todos } from './helpers';
import type { PlanSnapshot } from '../../src/extension';
import { sleep, waitFor } from '../lib/wait';

/**
 * Long enough for the log folder watcher to have passed a change of the session's file on (at
 * most one a session per 250 ms) and the store to have read it. A fixed wait: the test checks
 * that nothing happens, and the API has no event for a read that changed nothing (a marker in
 * another session's file proves nothing here: each session has its own throttle).
 */
const SETTLE_MS = 600;

describe('a save that fails inside the extension host', () => {
  before(async () => {
    await vscode.commands.executeCommand('agentPlan.followLatest');
  });

  const created: string[] = [];

  after(async () => {
    // Leave no session of its own behind: the log folder as this file found it.
    const plan = await api();
    for (const session of created) fs.rmSync(plan.logFile(session), { recursive: true, force: true });
    await waitFor(() => plan.listSessions().every((s) => !created.includes(s.session)), 'the removed sessions to leave the store');
    await vscode.commands.executeCommand('agentPlan.followLatest');
  });

  it('answers the model with the error, fires no event, keeps the view, and the host stays up', async () => {
    const plan = await api();
    await newChatSession();
    // This file's own writes: another file's agent or chat follower may still write meanwhile.
    const ours = new Set(['Survive a broken log', 'Never saved', 'After the fault']);
    const written: PlanSnapshot[] = [];
    const subscription = plan.onDidWritePlan((snapshot) => {
      if (snapshot.todos.some((todo) => ours.has(todo.content))) written.push(snapshot);
    });
    try {
      const first = await chat(todos(['Write the plan', 'completed'], ['Survive a broken log', 'in_progress']));
      assert.equal(first.resultText, 'Updated todo list: 0 pending, 1 in progress, 1 completed.');
      assert.equal(written.length, 1);
      const session = written[0]!.session;
      const file = plan.logFile(session);
      created.push(session);
      // Held on this session: a later write of another file's session would otherwise move the view.
      await vscode.commands.executeCommand('agentPlan.selectSession', session);
      await waitFor(() => plan.getViewState().session === session && !plan.getViewState().followingLatest, 'the view held on the new session');
      await sleep(SETTLE_MS);
      const viewBefore = plan.getViewState();
      const planBefore = plan.getPlan(session);
      assert.deepEqual(planBefore?.todos, todos(['Write the plan', 'completed'], ['Survive a broken log', 'in_progress']).todos);

      // The session's log file becomes a directory of the same name (back to back, so the
      // watcher sees one change, to something that exists).
      fs.rmSync(file);
      fs.mkdirSync(file);
      written.length = 0;

      const second = await chat(todos(['Write the plan', 'completed'], ['Never saved', 'pending']));
      assert.equal(second.resultText, `Error: could not save the todo list: ${file} is a directory`);
      await sleep(SETTLE_MS);
      assert.equal(written.length, 0, 'no onDidWritePlan event');
      assert.deepEqual(plan.getPlan(session), planBefore, 'getPlan(session) is unchanged');
      assert.deepEqual(plan.getViewState(), viewBefore, 'the view is unchanged');
      assert.ok(fs.statSync(file).isDirectory());
      assert.deepEqual(fs.readdirSync(file), [], 'nothing was written into the directory');

      // The host is still up: a write in a new chat session succeeds and shows.
      await newChatSession();
      const third = await chat(todos(['After the fault', 'in_progress']));
      assert.equal(third.resultText, 'Updated todo list: 0 pending, 1 in progress, 0 completed.');
      assert.equal(written.length, 1);
      const newSession = written[0]!.session;
      created.push(newSession);
      assert.notEqual(newSession, session);
      assert.deepEqual(plan.getPlan(newSession)?.todos, todos(['After the fault', 'in_progress']).todos);
      await vscode.commands.executeCommand('agentPlan.followLatest');
      await vscode.commands.executeCommand('agentPlan.selectSession', newSession);
      await waitFor(() => plan.getViewState().session === newSession, 'the view to show the new session');
    } finally {
      subscription.dispose();
    }
  });
});

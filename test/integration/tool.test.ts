import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, bridge, chat, chatSession, logFiles, newChatSession, planLines, todos, withoutPlanWrites } from './helpers';
import { waitFor } from '../lib/wait';

function text(result: vscode.LanguageModelToolResult): string {
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

describe('todo_write and the session log, through real chat requests', () => {
  it('rejects a call without an owning chat session and writes no file', async () => {
    const { logFolder } = await api();
    const before = logFiles(logFolder);
    const result = await vscode.lm.invokeTool('todo_write', { input: todos(['Orphan', 'pending']), toolInvocationToken: undefined });
    assert.equal(text(result), 'Error: todo_write requires an owning agent session');
    assert.deepEqual(logFiles(logFolder), before);
  });

  it('writes a plan: exact text, exactly one new line in that session file, one event', async () => {
    const plan = await api();
    await newChatSession();
    // This test's own writes: another file's agent or chat follower may still write meanwhile (a
    // Copilot turn typed by the file before went on into this one in a run).
    const ours = new Set(['Read the issue', 'Write the fix']);
    const events: string[] = [];
    const subscription = plan.onDidWritePlan((snapshot) => {
      if (snapshot.todos.some((todo) => ours.has(todo.content))) events.push(snapshot.session);
    });
    try {
      const first = await chat(todos(['Read the issue', 'completed'], ['Write the fix', 'in_progress'], ['Run the tests', 'pending']));
      assert.equal(first.resultText, 'Updated todo list: 1 pending, 1 in progress, 1 completed.');
      assert.equal(events.length, 1);
      // prepareInvocation's progress message is what the chat shows for the call.
      await waitFor(
        async () => (await bridge<string[]>({ op: 'attributes', selector: '.monaco-list-row.response', name: 'aria-label' })).some((label) => label?.includes('Plan 1/3 done · now: Write the fix')),
        'the invocation message in the chat',
      );
      const session = events[0]!;
      const file = plan.logFile(session);
      assert.equal(path.dirname(file), plan.logFolder);
      const lines = planLines(file);
      assert.equal(lines.length, 1);
      const event = JSON.parse(lines[0]!);
      assert.equal(event.v, 1);
      assert.equal(event.type, 'todo/write');
      assert.equal(event.session, session);
      assert.ok(!Number.isNaN(Date.parse(event.ts)));
      assert.deepEqual(event.todos, todos(['Read the issue', 'completed'], ['Write the fix', 'in_progress'], ['Run the tests', 'pending']).todos);

      const second = await chat(todos(['Read the issue', 'completed'], ['Write the fix', 'completed'], ['Run the tests', 'in_progress']));
      assert.equal(second.resultText, 'Updated todo list: 0 pending, 1 in progress, 2 completed.');
      assert.equal(events.length, 2);
      assert.equal(events[1], session, 'the same chat is the same session');
      assert.equal(planLines(file).length, 2);
      assert.deepEqual(plan.getPlan(session)?.counts, { pending: 0, inProgress: 1, completed: 2 });
    } finally {
      subscription.dispose();
    }
  });

  it('rejects bad input from a real chat with its stable text and writes nothing', async () => {
    await newChatSession();
    // Plans only: the chat follower may add session/info lines (titles, turns) meanwhile.
    await withoutPlanWrites('bad input from a real chat', async () => {
      const cases: Array<[unknown, string]> = [
        [todos(['  ', 'pending']), 'Error: invalid todo: `content` must be a non-empty string'],
        [todos(['Same', 'pending'], ['Same', 'completed']), 'Error: invalid todos: duplicate content "Same"'],
      ];
      for (const [input, expected] of cases) {
        const call = await chat(input);
        assert.equal(call.resultText, expected);
      }
      const extraKey = await chat({ todos: [{ content: 'Has an id', status: 'pending', id: 1 }] });
      assert.match(String(extraKey.resultText), /^Error: /);
    });
  });

  it('gives a second chat session its own file', async () => {
    const plan = await api();
    await newChatSession();
    const { call: a, session: sessionA } = await chatSession(todos(['Session A task', 'pending']));
    assert.match(String(a.resultText), /^Updated todo list/);
    await newChatSession();
    const { call: b, session: sessionB } = await chatSession(todos(['Session B task', 'in_progress']));
    assert.match(String(b.resultText), /^Updated todo list/);
    assert.notEqual(sessionA, sessionB);
    assert.equal(plan.getPlan(sessionA)?.todos[0]?.content, 'Session A task');
    assert.equal(plan.getPlan(sessionB)?.todos[0]?.content, 'Session B task');
    assert.ok(fs.existsSync(plan.logFile(sessionA)) && fs.existsSync(plan.logFile(sessionB)));

  });
});

// Copilot's edits, per plan item: the demo's dark mode plan, played through the real
// Copilot agent, edits the demo's files with Copilot's own edit tools between its
// todo_write calls. VS Code records each edit in its chat session file; Agent Plan reads it
// and appends one file/write line per edit to the session's log, given to the items that
// were in progress when the edit was made. Checked from the outside: the files on disk, the
// log file, and what the model was told.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, api, logLines, newChatSession } from './helpers';
import { askAgent, copilotReady, toolResults, type ModelRecord } from './copilotAgent';
import { waitFor } from '../lib/wait';

const MATCH = '[ap:demo-edits]';
/** The demo workspace's files the dark mode plan reads and edits, copied into the test workspace for this test. */
const DEMO_FILES = ['index.html', 'src/app.js', 'src/storage.js', 'src/styles.css'];
const EDIT_TOOLS = new Set(['create_file', 'replace_string_in_file']);

interface FileWriteLine {
  type: 'file/write';
  session: string;
  source: { agent: string; session: string; call: string };
  files: string[];
  items: string[];
}

interface Expected {
  call: string;
  file: string;
  items: string[];
}

function workspaceFolder(): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!folder) throw new Error('no workspace folder');
  return folder;
}

/** Each edit call the model made, in order, with the items in progress after the todo_write call before it. */
function expectedWrites(played: readonly ModelRecord[]): Expected[] {
  const expected: Expected[] = [];
  let inProgress: string[] = [];
  for (const record of [...played].sort((a, b) => (a.reply?.step ?? 0) - (b.reply?.step ?? 0))) {
    for (const call of record.reply?.calls ?? []) {
      const args = JSON.parse(call.arguments) as { todos?: Array<{ content: string; status: string }>; filePath?: string };
      if (call.name === 'todo_write') inProgress = (args.todos ?? []).filter((todo) => todo.status === 'in_progress').map((todo) => todo.content);
      else if (EDIT_TOOLS.has(call.name)) expected.push({ call: call.id, file: args.filePath ?? '', items: inProgress });
    }
  }
  return expected;
}

describe('Copilot\'s edits, recorded per plan item', function () {
  this.timeout(150_000);
  const workspace = workspaceFolder();
  const demo = path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'demo', 'workspace');

  before(async () => {
    await copilotReady();
    for (const file of DEMO_FILES) {
      fs.mkdirSync(path.dirname(path.join(workspace, file)), { recursive: true });
      fs.copyFileSync(path.join(demo, file), path.join(workspace, file));
    }
  });

  after(() => {
    // The test workspace goes back to what the other tests expect.
    for (const name of ['index.html', 'src', 'test']) fs.rmSync(path.join(workspace, name), { recursive: true, force: true });
  });

  it('the demo\'s dark mode run really edits the files, and the log gives each edit to the item in progress then', async () => {
    const plan = await api();
    const known = plan.listSessions().map((session) => session.session);
    await newChatSession();
    const played = await askAgent(MATCH, `${MATCH} Add a dark mode toggle to Brewlog`, 90_000);

    // Every edit call ran without an error (Copilot's result text for a failed call starts with "ERROR").
    const expected = expectedWrites(played);
    assert.equal(expected.length, 9, `the plan's edit calls: ${JSON.stringify(expected.map((e) => path.relative(workspace, e.file)))}`);
    const results = new Map<string, string>();
    for (const record of played) for (const [id, text] of toolResults(record)) results.set(id, text);
    for (const { call, file } of expected) {
      const result = results.get(call);
      assert.ok(result !== undefined && !result.startsWith('ERROR'), `${call} on ${file}: ${result}`);
    }
    // The final message is the script's last one: no call failed, nothing was claimed that was not done.
    const last = played.find((record) => record.reply?.calls.length === 0);
    assert.match(last?.reply?.say ?? '', /^\*\*Done\.\*\* I changed `src\/styles\.css`/);

    // The files changed on disk.
    const read = (file: string) => fs.readFileSync(path.join(workspace, file), 'utf8');
    assert.match(read('src/styles.css'), /\[data-theme="dark"\] \{\n {2}--bg: #1c1612;/);
    assert.match(read('src/styles.css'), /background: var\(--bg\);/);
    assert.match(read('index.html'), /id="theme-toggle" aria-pressed="false"/);
    assert.match(read('index.html'), /localStorage\.getItem\('brewlog:theme'\)/);
    assert.match(read('src/app.js'), /save\('theme', theme\);/);
    assert.match(read('test/theme.test.js'), /the saved theme is read back/);

    // The chat's session holds the demo's last plan; its log has one file/write line per edit call,
    // named by Copilot's tool call id, naming the edited file, given to the items in progress then.
    const session = await waitFor(
      () => plan.listSessions().find((s) => !known.includes(s.session) && s.todos.some((todo) => todo.content === 'Add a test for the saved theme')),
      'the dark mode session',
    );
    const file = path.join(plan.logFolder, `${session.session}.jsonl`);
    let writes: FileWriteLine[] = [];
    await waitFor(
      () => {
        writes = logLines(file)
          .map((line) => JSON.parse(line) as { type?: string })
          .filter((record): record is FileWriteLine => record.type === 'file/write');
        return writes.length >= expected.length;
      },
      `${expected.length} file/write lines in ${file} (VS Code saves its chat file a few seconds late)`,
      45_000,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}; found ${JSON.stringify(writes)}`);
    });
    assert.deepEqual(
      writes.map((write) => ({ call: write.source.call, file: write.files.join(), items: write.items })),
      expected,
    );
    for (const write of writes) {
      assert.equal(write.source.agent, 'copilot');
      assert.equal(write.session, session.session);
    }
    // Each item of the plan that edited a file got its edits while it was in progress, one at a time where only one was.
    const itemsOf = (name: string) => [...new Set(writes.filter((write) => write.files[0] === path.join(workspace, name)).flatMap((write) => write.items))];
    assert.deepEqual(itemsOf('test/theme.test.js'), ['Add a test for the saved theme']);
    assert.deepEqual(itemsOf('src/app.js'), ['Add an accessible theme toggle (aria-pressed) to the header', 'Remember the choice with src/storage.js']);
    assert.deepEqual(itemsOf('src/styles.css'), ['Move the palette into CSS custom properties', 'Add a dark palette for [data-theme="dark"]', 'Add a theme toggle button to the header']);
  });
});

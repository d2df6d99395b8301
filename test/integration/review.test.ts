// Review Item in the real extension host: an agent's session (its plan lines appended to the log
// as a follower appends them) works in a git repository this file makes; the working tree is
// changed between two plan versions by the agent's own edit (a file/write line names it), by a
// shell command (`sed -i`) and by plain file changes. Each item's changes must equal
// `git diff --numstat` between the states the test saw (computed in a scratch repository of the
// test's own), Review Item opens them, and the repository is byte for byte what it was.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { gitBytes, git, inGitWorkspace, numstat, reviewTabFiles, treeState } from './gitState';
import { askAgent, copilotReady, records, toolResults, turnIndex } from './copilotAgent';
import { api, logLines, newChatSession, runDir } from './helpers';
import { waitFor } from '../lib/wait';

const SESSION = createHash('sha256').update('review an item').digest('hex').slice(0, 32);

describe('Review Item: what each item changed, from snapshots of the working tree', function () {
  this.timeout(90_000);
  let repo = '';
  let logFile = '';

  before(function () {
    if (spawnSync('git', ['--version']).status !== 0) {
      // Said, never passed silently: the snapshots need git.
      console.log('SKIPPED: Review Item needs git on this machine');
      this.skip();
    }
    repo = path.join(runDir(), 'review-repo');
    fs.rmSync(repo, { recursive: true, force: true });
    fs.mkdirSync(repo, { recursive: true });
    git(repo, 'init', '-q');
    fs.writeFileSync(path.join(repo, 'a.txt'), 'one\ntwo\nthree\n');
    fs.writeFileSync(path.join(repo, 'b.txt'), 'x1\nx2\nkeep\n');
    fs.writeFileSync(path.join(repo, 'gone.txt'), 'bye\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'start');
  });

  after(async () => {
    const plan = await api();
    fs.rmSync(plan.logFile(SESSION), { force: true });
    await waitFor(() => !plan.listSessions().some((s) => s.session === SESSION), 'the review session to leave the store');
  });

  it('gives each item the changes made while it was in progress (a shell command\'s too), opens them, and leaves the repository as it was', async () => {
    const plan = await api();
    logFile = plan.logFile(SESSION);
    const before = gitBytes(repo);
    let call = 0;
    const line = (record: Record<string, unknown>): string => JSON.stringify({ v: 1, ts: new Date().toISOString(), session: SESSION, ...record }) + '\n';
    const version = (items: Array<[string, 'pending' | 'in_progress' | 'completed']>): string => {
      const todos = items.map(([content, status]) => ({ content, status }));
      const counts = { pending: 0, inProgress: 0, completed: 0 };
      for (const todo of todos) counts[todo.status === 'in_progress' ? 'inProgress' : todo.status]++;
      call++;
      return line({ type: 'todo/write', todos, counts, source: { agent: 'claude-code', tool: 'TodoWrite', session: 'review-run', call: `c${call}` }, at: new Date().toISOString() });
    };
    const snapshots = (): number => logLines(logFile).filter((text) => (JSON.parse(text) as { type?: string }).type === 'tree/snapshot').length;

    // The agent's session, as a follower writes it: where it works first, then its plan, live.
    fs.writeFileSync(logFile, line({ type: 'session/info', source: { agent: 'claude-code', session: 'review-run' }, cwd: repo }));
    await waitFor(() => plan.getSessionInfo(SESSION).agent === 'claude-code', 'the session\'s folder in the store');
    fs.appendFileSync(logFile, version([['Edit the files', 'in_progress'], ['Check them', 'pending']]));
    await waitFor(() => snapshots() === 1, 'a snapshot when "Edit the files" starts', 30_000);
    const stateBefore = treeState(repo);

    // While it is in progress: the agent's edit (its file/write line names it), a shell command, and more.
    fs.writeFileSync(path.join(repo, 'a.txt'), 'one\nTWO\nthree\nfour\n');
    fs.appendFileSync(logFile, line({ type: 'file/write', source: { agent: 'claude-code', session: 'review-run', call: 'w1' }, files: [path.join(repo, 'a.txt')], items: ['Edit the files'] }));
    execFileSync('sed', ['-i', 's/^x/y/', 'b.txt'], { cwd: repo });
    fs.writeFileSync(path.join(repo, 'c.txt'), 'new\nfile\n');
    fs.rmSync(path.join(repo, 'gone.txt'));
    const stateAfter = treeState(repo);
    fs.appendFileSync(logFile, version([['Edit the files', 'completed'], ['Check them', 'in_progress']]));
    await waitFor(() => snapshots() === 2, 'a snapshot when the in-progress set changes', 30_000);

    // 50 versions with the same item in progress take no snapshot; the next change of the set does.
    fs.appendFileSync(logFile, Array.from({ length: 50 }, () => version([['Edit the files', 'completed'], ['Check them', 'in_progress']])).join(''));
    fs.appendFileSync(logFile, version([['Edit the files', 'completed'], ['Check them', 'completed']]));
    await waitFor(() => snapshots() >= 3, 'a snapshot when the last item completes', 30_000);
    assert.equal(snapshots(), 3, 'one snapshot per change of the in-progress set, none for the 50 versions between');

    // The item's files and line counts: git's own numstat between the two states the test saw.
    const expected = numstat(stateBefore, stateAfter, path.join(runDir(), 'review-scratch'));
    assert.deepEqual([...expected.keys()].sort(), ['a.txt', 'b.txt', 'c.txt', 'gone.txt']);
    const changes = await plan.getItemChanges(SESSION);
    const item = changes.items.find((candidate) => candidate.content === 'Edit the files');
    assert.ok(item, `the item in getItemChanges: ${JSON.stringify(changes)}`);
    const relative = (file: string): string => (path.isAbsolute(file) ? path.relative(repo, file) : file);
    const actual = new Map(item.files.map((file) => [relative(file.path), file]));
    assert.deepEqual([...actual.keys()].sort(), [...expected.keys()].sort(), 'the files changed while it was in progress');
    for (const [file, counts] of expected) {
      assert.deepEqual({ added: actual.get(file)?.added, removed: actual.get(file)?.removed }, counts, `${file}: as git diff --numstat says`);
      // The agent's own edit is its; what else changed meanwhile is said so, never claimed.
      assert.equal(actual.get(file)?.meanwhile === true, file !== 'a.txt', `${file}: ${file === 'a.txt' ? 'the agent\'s' : 'changed meanwhile'}`);
    }
    const checked = changes.items.find((candidate) => candidate.content === 'Check them');
    assert.deepEqual(checked?.files ?? [], [], 'nothing changed while "Check them" was in progress');

    // Review Item opens the multi-file diff editor on those changes.
    const reviewed = await vscode.commands.executeCommand('agentPlan.reviewItem', SESSION, 'Edit the files');
    const opened = await waitFor(() => reviewTabFiles('Review Item: Edit the files', repo), () => `the Review Item editor (the command returned ${JSON.stringify(reviewed)})`);
    // Exactly the item's files, each before → after (a deleted file's "after" is its path too).
    assert.deepEqual(opened, [...expected.keys()].sort(), 'the Review Item editor shows exactly the item\'s files');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

    // Review Since… the first version (52 versions back from the latest): the same files, opened.
    const since = (await vscode.commands.executeCommand('agentPlan.reviewSince', SESSION, 52)) as Array<{ path: string; added?: number; removed?: number }> | undefined;
    assert.deepEqual(
      (since ?? []).map((file) => relative(file.path)).sort(),
      [...expected.keys()].sort(),
      `what changed since the first version: ${JSON.stringify(since)}`,
    );
    const sinceOpened = await waitFor(() => reviewTabFiles('Review Since: ', repo), 'the Review Since editor');
    assert.deepEqual(sinceOpened, [...expected.keys()].sort(), 'the Review Since editor shows exactly those files');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

    // Nothing was written into the repository: its .git holds the same files with the same bytes.
    assert.deepEqual(gitBytes(repo), before, 'the repository\'s .git is byte for byte what it was');
    assert.equal(git(repo, 'status', '--porcelain').split('\n').filter(Boolean).length, 4, 'the working tree keeps the changes, unstaged');
  });
});

// The same with the real Copilot agent in a git workspace made here: its own edit tools and a
// terminal command (`sed -i`, allowed at VS Code's prompt) between its todo_write calls. Each call answers
// once the working tree's snapshot is taken, so each item's changes begin at its call.
describe('Review Item with the real Copilot agent: its edit tools and a terminal command', function () {
  this.timeout(150_000);
  const MATCH = '[ap:review-edits]';
  const folder = (): string => {
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (!workspace) throw new Error('no workspace folder');
    return workspace;
  };
  before(async function () {
    if (spawnSync('git', ['--version']).status !== 0) {
      console.log('SKIPPED: Review Item with the Copilot agent needs git on this machine');
      this.skip();
    }
    await copilotReady();
    const workspace = folder();
    fs.mkdirSync(path.join(workspace, 'review-edits'), { recursive: true });
    fs.writeFileSync(path.join(workspace, 'review-edits', 'greeting.txt'), 'hello\nworld\n');
    fs.writeFileSync(path.join(workspace, 'review-edits', 'notes.txt'), 'one\ntwo\nthree\n');
  });

  after(() => {
    fs.rmSync(path.join(folder(), 'review-edits'), { recursive: true, force: true });
  });

  it('gives each item what its tools and its terminal command changed, as git diff --numstat says, and opens exactly those files', () => inGitWorkspace(folder(), async () => {
    const plan = await api();
    const workspace = folder();
    const known = new Set(plan.listSessions().map((session) => session.session));
    const gitBefore = gitBytes(workspace);
    const start = treeState(workspace);

    await newChatSession();
    const turn = turnIndex(MATCH);
    const since = Math.max(0, ...records().map((record) => record.seq));
    const reached = (step: number): boolean => records().some((record) => record.seq > since && record.reply?.turn === turn && record.reply.step >= step);
    const playing = askAgent(MATCH, `${MATCH} Rename the greeting and list the steps`, 90_000);
    // VS Code asks before it runs the terminal command (step 2) in this host: allowed with the
    // chat's own Accept, as the user would; the agent's next request (step 3) says it ran.
    await waitFor(
      async () => {
        if (reached(3)) return true;
        if (reached(2)) await vscode.commands.executeCommand('workbench.action.chat.acceptTool');
        return undefined;
      },
      'the terminal command allowed and run',
      60_000,
    );
    const played = await playing;
    // Every call ran (Copilot's result of a failed call starts with "ERROR"; the script stops on one).
    for (const record of played) for (const [id, text] of toolResults(record)) assert.ok(!text.startsWith('ERROR'), `${id}: ${text}`);
    assert.match(played.find((record) => record.reply?.calls.length === 0)?.reply?.say ?? '', /^\*\*Done\.\*\*/);

    // The states around each item, from the start the test saw and the script's edits, checked
    // against the working tree at the end.
    const renamed = new Map(start);
    renamed.set('review-edits/greeting.txt', Buffer.from('hello there\nworld\n'));
    renamed.set('review-edits/notes.txt', Buffer.from('one\nTWO\nthree\n'));
    const listed = new Map(renamed);
    listed.set('review-edits/steps.txt', Buffer.from('1. rename\n2. list\n3. check\n'));
    assert.deepEqual(treeState(workspace), listed, 'the working tree holds the script\'s edits, and nothing else changed');

    const session = await waitFor(() => plan.listSessions().find((s) => !known.has(s.session) && s.todos.some((todo) => todo.content === 'List the steps')), 'the review session');
    const scratch = path.join(runDir(), 'review-copilot-scratch');
    const expected = new Map([
      ['Rename the greeting', numstat(start, renamed, scratch)],
      ['List the steps', numstat(renamed, listed, scratch)],
    ]);
    assert.deepEqual([...expected.get('Rename the greeting')!.keys()].sort(), ['review-edits/greeting.txt', 'review-edits/notes.txt']);
    assert.deepEqual([...expected.get('List the steps')!.keys()], ['review-edits/steps.txt']);
    // The agent's own edits are named by Copilot's chat file, which VS Code saves a few seconds late.
    type Changes = Awaited<ReturnType<typeof plan.getItemChanges>>;
    let changes: Changes | undefined;
    await waitFor(
      async () => {
        changes = await plan.getItemChanges(session.session);
        const agents = (content: string): string[] => changes!.items.find((item) => item.content === content)?.files.filter((file) => file.meanwhile !== true).map((file) => file.path) ?? [];
        return agents('Rename the greeting').length === 1 && agents('List the steps').length === 1;
      },
      () => `each item's own edit in getItemChanges: ${JSON.stringify(changes)}`,
      45_000,
    );
    for (const [content, counts] of expected) {
      const item = changes!.items.find((candidate) => candidate.content === content);
      assert.equal(item?.recorded, 'all', `${content}: recorded`);
      const actual = new Map(item!.files.map((file) => [file.path, file]));
      assert.deepEqual([...actual.keys()].sort(), [...counts.keys()].sort(), `${content}: the files changed while it was in progress`);
      for (const [file, numbers] of counts) {
        assert.deepEqual({ added: actual.get(file)?.added, removed: actual.get(file)?.removed }, numbers, `${content}, ${file}: as git diff --numstat says`);
        // The terminal command's change is said to have happened meanwhile: no edit tool named it.
        assert.equal(actual.get(file)?.meanwhile === true, file === 'review-edits/notes.txt', `${file}: ${file === 'review-edits/notes.txt' ? 'changed meanwhile' : 'the agent\'s'}`);
      }
    }

    // Review Item opens exactly the item's files.
    await vscode.commands.executeCommand('agentPlan.reviewItem', session.session, 'Rename the greeting');
    const opened = await waitFor(() => reviewTabFiles('Review Item: Rename the greeting', workspace), 'the Review Item editor');
    assert.deepEqual(opened, ['review-edits/greeting.txt', 'review-edits/notes.txt']);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

    assert.deepEqual(gitBytes(workspace), gitBefore, 'the repository\'s .git is byte for byte what it was');
  }));
});

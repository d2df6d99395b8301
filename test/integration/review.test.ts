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
import { api, logLines, runDir, waitFor } from './helpers';

const SESSION = createHash('sha256').update('review an item').digest('hex').slice(0, 32);
const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 'Test', GIT_AUTHOR_EMAIL: 'test@example.com', GIT_COMMITTER_NAME: 'Test', GIT_COMMITTER_EMAIL: 'test@example.com' };

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: GIT_ENV });
}

/** Every file under `.git`, by path, with the hash of its bytes. */
function gitBytes(repo: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(path.join(repo, '.git'), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out[path.relative(repo, file)] = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  }
  return out;
}

/** The working tree's files (not `.git`), by path, with their content. */
function treeState(repo: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const entry of fs.readdirSync(repo, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (!entry.isFile() || path.relative(repo, file).split(path.sep)[0] === '.git') continue;
    out.set(path.relative(repo, file), fs.readFileSync(file));
  }
  return out;
}

/** `git diff --numstat` from one state to the other, in a scratch repository of the test's own. */
function numstat(from: Map<string, Buffer>, to: Map<string, Buffer>, scratch: string): Map<string, { added: number; removed: number }> {
  fs.rmSync(scratch, { recursive: true, force: true });
  fs.mkdirSync(scratch, { recursive: true });
  const write = (state: Map<string, Buffer>): void => {
    for (const name of fs.readdirSync(scratch)) if (name !== '.git') fs.rmSync(path.join(scratch, name), { recursive: true });
    for (const [file, content] of state) {
      fs.mkdirSync(path.dirname(path.join(scratch, file)), { recursive: true });
      fs.writeFileSync(path.join(scratch, file), content);
    }
  };
  git(scratch, 'init', '-q');
  write(from);
  git(scratch, 'add', '-A');
  git(scratch, 'commit', '-qm', 'from', '--allow-empty');
  write(to);
  git(scratch, 'add', '-A');
  const out = new Map<string, { added: number; removed: number }>();
  for (const line of git(scratch, 'diff', '--cached', '--numstat', '--no-renames').split('\n').filter(Boolean)) {
    const [added, removed, file] = line.split('\t');
    out.set(file!, { added: Number(added), removed: Number(removed) });
  }
  return out;
}

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
    const tabs = (): string[] => vscode.window.tabGroups.all.flatMap((group) => group.tabs.map((tab) => `${tab.label} (${tab.input?.constructor.name ?? 'no input'})`));
    await waitFor(() => tabs().some((tab) => tab.startsWith('Review Item: Edit the files')), () => `the Review Item editor (tabs: ${JSON.stringify(tabs())}; the command returned ${JSON.stringify(reviewed)})`);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

    // Review Since… the first version (52 versions back from the latest): the same files, opened.
    const since = (await vscode.commands.executeCommand('agentPlan.reviewSince', SESSION, 52)) as Array<{ path: string; added?: number; removed?: number }> | undefined;
    assert.deepEqual(
      (since ?? []).map((file) => relative(file.path)).sort(),
      [...expected.keys()].sort(),
      `what changed since the first version: ${JSON.stringify(since)}`,
    );
    await waitFor(() => tabs().some((tab) => tab.startsWith('Review Since: ')), () => `the Review Since editor (tabs: ${JSON.stringify(tabs())})`);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

    // Nothing was written into the repository: its .git holds the same files with the same bytes.
    assert.deepEqual(gitBytes(repo), before, 'the repository\'s .git is byte for byte what it was');
    assert.equal(git(repo, 'status', '--porcelain').split('\n').filter(Boolean).length, 4, 'the working tree keeps the changes, unstaged');
  });
});

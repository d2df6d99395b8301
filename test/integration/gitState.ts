// The states of a git working tree as an integration test sees them: its `.git` bytes, its
// files, `git diff --numstat` between two states (in a scratch repository of the test's own),
// and the files a Review editor shows.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

export const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 'Test', GIT_AUTHOR_EMAIL: 'test@example.com', GIT_COMMITTER_NAME: 'Test', GIT_COMMITTER_EMAIL: 'test@example.com' };

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: GIT_ENV });
}

/** Every file under `.git`, by path, with the hash of its bytes. */
export function gitBytes(repo: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(path.join(repo, '.git'), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out[path.relative(repo, file)] = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  }
  return out;
}

/** The working tree's files (not `.git`), by path, with their content. */
export function treeState(repo: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const entry of fs.readdirSync(repo, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (!entry.isFile() || path.relative(repo, file).split(path.sep)[0] === '.git') continue;
    out.set(path.relative(repo, file), fs.readFileSync(file));
  }
  return out;
}

/** `git diff --numstat` from one state to the other, in a scratch repository of the test's own. */
export function numstat(from: Map<string, Buffer>, to: Map<string, Buffer>, scratch: string): Map<string, { added: number; removed: number }> {
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

/**
 * The files of the open Review editor labelled `label…` (a multi-file diff), relative to the
 * working tree's top folder `root`; undefined while none is open. Each side is a file of a
 * snapshot (`<scheme>:/<tree>/<path>`) or of the working tree.
 */
export function reviewTabFiles(label: string, root: string): string[] | undefined {
  const relative = (uri: vscode.Uri): string => (uri.scheme === 'file' ? path.relative(root, uri.fsPath).split(path.sep).join('/') : uri.path.split('/').slice(2).join('/'));
  for (const tab of vscode.window.tabGroups.all.flatMap((group) => group.tabs)) {
    // A multi-file diff tab's input (TabInputTextMultiDiff: still a proposed API in @types/vscode).
    const input = tab.input as { textDiffs?: ReadonlyArray<{ modified: vscode.Uri }> } | undefined;
    if (!tab.label.startsWith(label) || !Array.isArray(input?.textDiffs)) continue;
    return input.textDiffs.map((diff) => relative(diff.modified)).sort();
  }
  return undefined;
}

/**
 * Makes the workspace folder a git repository with its files committed, for the length of
 * `run`, then removes it. VS Code's Git extension is off meanwhile: it would refresh the
 * repository's index on its own, and only Agent Plan is to be seen touching `.git` (never).
 */
export async function inGitWorkspace<T>(workspace: string, run: () => Promise<T>): Promise<T> {
  const settings = vscode.workspace.getConfiguration('git');
  const was = settings.inspect<boolean>('enabled')?.globalValue;
  await settings.update('enabled', false, vscode.ConfigurationTarget.Global);
  try {
    git(workspace, 'init', '-q');
    git(workspace, 'add', '-A');
    git(workspace, 'commit', '-qm', 'start');
    return await run();
  } finally {
    fs.rmSync(path.join(workspace, '.git'), { recursive: true, force: true });
    await vscode.workspace.getConfiguration('git').update('enabled', was, vscode.ConfigurationTarget.Global);
  }
}

/** `git diff --numstat` of each item, from the states around it: `states[i]` to `states[i + 1]` for `items[i]`. */
export function itemNumstats(items: readonly string[], states: ReadonlyArray<Map<string, Buffer>>, scratch: string): Map<string, Map<string, { added: number; removed: number }>> {
  return new Map(items.map((item, i) => [item, numstat(states[i]!, states[i + 1]!, scratch)]));
}

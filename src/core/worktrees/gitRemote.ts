// A repository's GitHub address, read from the text of its git `config` (read-only, no git
// process): the `origin` remote, else the first remote, when it is on github.com. Pure.
import { isBranchName } from '../text/escape';

export interface GitHubRepository {
  owner: string;
  name: string;
}

const NAME = /^[A-Za-z0-9_.-]+$/;

/** The GitHub repository of a git config's remote, or undefined when none is on github.com. */
export function githubRepository(configText: string): GitHubRepository | undefined {
  const remotes: Array<{ name: string; url: string }> = [];
  let remote: string | undefined;
  for (const raw of configText.split(/\r?\n/)) {
    const line = raw.trim();
    const section = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (section) {
      remote = section[1]?.toLowerCase() === 'remote' ? (section[2] ?? '') : undefined;
      continue;
    }
    const url = /^url\s*=\s*(.*)$/i.exec(line);
    if (remote !== undefined && url?.[1] !== undefined) remotes.push({ name: remote, url: url[1].replace(/^"(.*)"$/, '$1').trim() });
  }
  const ordered = [...remotes.filter((r) => r.name === 'origin'), ...remotes.filter((r) => r.name !== 'origin')];
  for (const { url } of ordered) {
    const found = parseGitHubUrl(url);
    if (found) return found;
  }
  return undefined;
}

/** `https://github.com/o/r(.git)`, `git@github.com:o/r(.git)`, `ssh://git@github.com/o/r(.git)`. */
export function parseGitHubUrl(url: string): GitHubRepository | undefined {
  const match = /^(?:https?:\/\/(?:[^@/]+@)?github\.com\/|git@github\.com:|ssh:\/\/git@github\.com(?::\d+)?\/|git:\/\/github\.com\/)([^/]+)\/([^/]+?)(?:\.git)?\/?$/i.exec(url);
  const owner = match?.[1];
  const name = match?.[2];
  if (owner === undefined || name === undefined || !NAME.test(owner) || !NAME.test(name) || name === '.' || name === '..') return undefined;
  return { owner, name };
}

/**
 * Where a file of `ref` is shown on GitHub: the base a relative path is appended to;
 * undefined for a ref git itself would refuse (a hostile HEAD: `../../x`, `a/../../b`).
 */
export function githubBlobBase(repository: GitHubRepository, ref: string): string | undefined {
  if (!isBranchName(ref)) return undefined;
  const encodedRef = ref.split('/').map(encodeURIComponent).join('/');
  return `https://github.com/${repository.owner}/${repository.name}/blob/${encodedRef}/`;
}

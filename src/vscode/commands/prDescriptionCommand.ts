// Copy as Pull Request Description: a session's plan, files and costs as Markdown for a
// reviewer (src/core/plan/prDescription.ts), to the clipboard or into an untitled Markdown
// document, as the user picks. Nothing is posted. The repository's GitHub address comes
// from its git config, read-only; no git process runs.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { githubBlobBase, githubRepository } from '../../core/worktrees/gitRemote';
import { buildLedger } from '../../core/derived/ledger';
import { prDescription } from '../../core/plan/prDescription';
import { sessionTitle } from '../../core/plan/present';
import { sessionNamedBy } from '../../core/log/sessionKey';
import type { PlanStore } from '../../core/plan/store';
import { buildTimeline } from '../../core/timeline/timeline';
import { readTimelinePage, type TimelineSource } from '../../core/timeline/timelineRead';
import { discoverWorktrees, worktreeOf } from '../../core/worktrees/worktrees';
import { NodeFileSystem } from '../../node/nodeFileSystem';
import type { CommandTable } from './commandTable';
import { CommandId } from '../ids';
import { noPlan } from '../sessions/sessionPick';
import { TIMELINE_PAGE } from '../timeline/timelinePanel';

const t = vscode.l10n.t;

/** The longest git config read. */
const MAX_CONFIG = 256 * 1024;

export type PrDescriptionDestination = 'clipboard' | 'document';

export interface PrDescriptionDeps {
  store: PlanStore;
  source: TimelineSource;
  /** The session the Plan view shows. */
  shownSession: () => string | undefined;
}

/** Where the session's paths are relative to, and the GitHub base of its links (if any). */
export async function repositoryOf(folder: string | undefined): Promise<{ root: string | undefined; linkBase: string | undefined }> {
  if (folder === undefined) return { root: undefined, linkBase: undefined };
  const fs = new NodeFileSystem();
  const repository = await discoverWorktrees(fs, folder).catch(() => undefined);
  const tree = repository ? worktreeOf(repository.worktrees, folder) : undefined;
  if (!repository || !tree) return { root: folder, linkBase: undefined };
  const config = path.join(repository.commonDir, 'config');
  const size = (await fs.size(config).catch(() => undefined)) ?? 0;
  const text = size > 0 ? new TextDecoder().decode(await fs.readRange(config, 0, Math.min(size, MAX_CONFIG))) : '';
  const github = githubRepository(text);
  const ref = tree.branch ?? tree.detachedAt ?? 'HEAD';
  return { root: tree.path, linkBase: github ? githubBlobBase(github, ref) : undefined };
}

/** The Markdown for a session, or undefined when it has no plan. */
export async function describeSession(deps: PrDescriptionDeps, session: string): Promise<string | undefined> {
  const event = deps.store.get(session);
  if (!event) return undefined;
  const now = Date.now();
  const page = await readTimelinePage(deps.source, session, TIMELINE_PAGE);
  const timeline = buildTimeline(page.lines, { now });
  const ledger = buildLedger(
    page.lines.map((line) => line.record),
    now,
  );
  const folder = deps.store.folderOf(session) ?? vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath;
  const { root, linkBase } = await repositoryOf(folder);
  const title = sessionTitle(event, t, deps.store.details(session));
  return prDescription({ title, timeline, ledger, root, linkBase }, t);
}

async function pickDestination(): Promise<PrDescriptionDestination | undefined> {
  const items: Array<vscode.QuickPickItem & { destination: PrDescriptionDestination }> = [
    { label: `$(copy) ${t('Copy to the clipboard')}`, destination: 'clipboard' },
    { label: `$(new-file) ${t('Open as an untitled Markdown document')}`, destination: 'document' },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: t('Copy as Pull Request Description'), placeHolder: t('Where should the description go? Nothing is posted.') });
  return picked?.destination;
}

export const PR_DESCRIPTION_COMMANDS = {
  [CommandId.CopyAsPullRequestDescription]: copyAsPullRequestDescription,
} satisfies CommandTable<PrDescriptionDeps>;

/**
 * The command: a session key or a Sessions row first (else the shown session); second
 * (tests, other extensions): 'clipboard' or 'document' instead of the pick. Returns the Markdown.
 */
async function copyAsPullRequestDescription(deps: PrDescriptionDeps, arg?: unknown, to?: unknown): Promise<string | undefined> {
  const session = sessionNamedBy(arg) ?? deps.shownSession();
  const markdown = session === undefined ? undefined : await describeSession(deps, session);
  if (markdown === undefined) {
    await noPlan();
    return undefined;
  }
  const destination = to === 'clipboard' || to === 'document' ? to : await pickDestination();
  if (destination === 'clipboard') {
    await vscode.env.clipboard.writeText(markdown);
    void vscode.window.setStatusBarMessage(t('Pull request description copied'), 3000);
  } else if (destination === 'document') {
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: markdown });
    await vscode.window.showTextDocument(document, { preview: false });
  } else {
    return undefined;
  }
  return markdown;
}

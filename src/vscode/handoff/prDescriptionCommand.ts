// Copy as Pull Request Description: a session's plan, files and costs as Markdown for a
// reviewer (src/core/handoff/prDescription.ts), copied to the clipboard at once (the message
// that says so offers an untitled Markdown document instead). Nothing is posted. The
// repository's GitHub address comes from its git config, read-only; no git process runs.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { githubBlobBase, githubRepository } from '../../core/worktrees/gitRemote';
import { buildLedger } from '../../core/derived/ledger';
import { prDescription } from '../../core/handoff/prDescription';
import { sessionTitle } from '../../core/plan/present';
import { sessionNamedBy } from '../../core/log/sessionKey';
import type { PlanStore } from '../../core/store/store';
import { buildTimeline } from '../../core/timeline/timeline';
import { readTimelinePage, TIMELINE_PAGE, type TimelineLog } from '../../core/timeline/timelineRead';
import { discoverWorktrees, worktreeOf } from '../../core/worktrees/worktrees';
import type { ItemChangesReader } from '../../node/itemChangesReader';
import { NodeFileSystem } from '../../node/nodeFileSystem';
import type { CommandTable } from '../commands/commandTable';
import { CommandId } from '../ids';
import { noPlan } from '../sessionPick';

const t = vscode.l10n.t;

/** The longest git config read. */
const MAX_CONFIG = 256 * 1024;

export type PrDescriptionDestination = 'clipboard' | 'document';

export interface PrDescriptionDeps {
  store: PlanStore;
  log: TimelineLog;
  /** The session the Plan view shows. */
  shownSession: () => string | undefined;
  /** What each item changed, from the working tree's snapshots: the items' diffstats. */
  changes?: ItemChangesReader;
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
  const page = await readTimelinePage(deps.log, session, TIMELINE_PAGE);
  const timeline = buildTimeline(page.lines, { now });
  const ledger = buildLedger(
    page.lines.map((line) => line.record),
    now,
  );
  const folder = deps.store.folderOf(session) ?? vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath;
  const { root, linkBase } = await repositoryOf(folder);
  const title = sessionTitle(event, t, deps.store.details(session));
  // Every item the description lists (dropped ones too), up to the working tree now, as Review Item and the API; a failure shows no diffstats.
  const read = await deps.changes?.read(session, timeline.lanes.map((lane) => lane.content), { now: true }).catch(() => undefined);
  const changes = read ? new Map(read.items.map((item) => [item.content, item])) : undefined;
  return prDescription({ title, timeline, ledger, root, linkBase, changes }, t);
}

async function openDocument(markdown: string): Promise<void> {
  const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: markdown });
  await vscode.window.showTextDocument(document, { preview: false });
}

/** Copied: says so, with a button that opens the text as a document instead (not awaited: the command is done). */
function offerDocument(markdown: string): void {
  const open = t('Open as Document');
  void vscode.window.showInformationMessage(t('Pull request description copied to the clipboard. Nothing is posted.'), open).then(async (picked) => {
    if (picked === open) await openDocument(markdown);
  });
}

export const PR_DESCRIPTION_COMMANDS = {
  [CommandId.CopyAsPullRequestDescription]: copyAsPullRequestDescription,
} satisfies CommandTable<PrDescriptionDeps>;

/**
 * The command: a session key or a Sessions row first (else the shown session); second
 * (tests, other extensions): 'clipboard' (copied, a status bar message) or 'document' (opened,
 * not copied). Without it: copied, and a message offers the document. Returns the Markdown.
 */
async function copyAsPullRequestDescription(deps: PrDescriptionDeps, arg?: unknown, to?: unknown): Promise<string | undefined> {
  const session = sessionNamedBy(arg) ?? deps.shownSession();
  const markdown = session === undefined ? undefined : await describeSession(deps, session);
  if (markdown === undefined) {
    await noPlan();
    return undefined;
  }
  if (to === 'document') {
    await openDocument(markdown);
    return markdown;
  }
  await vscode.env.clipboard.writeText(markdown);
  if (to === 'clipboard') void vscode.window.setStatusBarMessage(t('Pull request description copied'), 3000);
  else offerDocument(markdown);
  return markdown;
}

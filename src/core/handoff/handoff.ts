// Every text Agent Plan hands on about a plan, built in this one place: the prompts it
// types into a chat (Continue in New Chat, Ask to Continue, Ask to Restore; Copy Hand-off
// Prompt copies the first) and the Markdown of Export Plan. Pure, no vscode import.
//
// Prompts go to a model: English, short, and made only of the plan's own texts (its items
// verbatim, the session's title, the agent's name). The README states them and their cost.
import type { HealthSignal } from '../derived/health';
import { signalText } from '../derived/healthText';
import type { PlanItem } from '../plan/plan';
import { changeSummary, diffPlans, planMarkdown, type Translate } from '../plan/present';
import { markdownText, promptLine } from '../text/escape';

/**
 * Where the plan comes from: the session's title (when known) and its agent's name as the
 * registry gives it, in English (model-facing, so not translated); undefined: a todo_write chat.
 */
export interface PlanOrigin {
  title: string | undefined;
  agent: string | undefined;
  /** The git worktree the session worked in, when it ran in one: its folder and branch (undefined: detached). */
  worktree?: { path: string; branch: string | undefined };
}

/** The hand-off's worktree line: `Worktree: /work/app-feature (branch feature).` */
export function worktreeLine(worktree: { path: string; branch: string | undefined }): string {
  return `Worktree: ${promptLine(worktree.path)} (${worktree.branch !== undefined ? `branch ${promptLine(worktree.branch)}` : 'detached'}).`;
}

/** Items still to do, in the plan's order: pending, in progress, blocked. */
export function openItems(todos: readonly PlanItem[]): PlanItem[] {
  return todos.filter((todo) => todo.status === 'pending' || todo.status === 'in_progress' || todo.status === 'blocked');
}

function originText(origin: PlanOrigin): string {
  const agent = origin.agent ?? 'a VS Code chat';
  const title = origin.title?.trim();
  return title ? `"${promptLine(title)}" (${agent})` : `a session of ${agent}`;
}

function quoted(items: readonly PlanItem[]): string {
  return items.map((item) => JSON.stringify(promptLine(item.content))).join(', ');
}

/**
 * The hand-off prompt (Continue in New Chat, Copy Hand-off Prompt):
 *
 * ```
 * Continue the plan of "Fix the build" (Claude Code).
 * Open items:
 * - [in_progress] Write the fix
 * - [pending] Add a test
 * Done: Read the issue; Reproduce the failure
 * Write this plan with your plan tool first (done items as completed), then carry on with the open items.
 * ```
 *
 * Open items verbatim with their statuses; the done items in one line (the `Done:` line is
 * left out when nothing is done; cancelled items are left out). A session that worked in a
 * git worktree gets a `Worktree:` line (worktreeLine) after the first.
 */
export function continuePrompt(todos: readonly PlanItem[], origin: PlanOrigin): string {
  const open = openItems(todos);
  const done = todos.filter((todo) => todo.status === 'completed');
  const lines = [`Continue the plan of ${originText(origin)}.`];
  if (origin.worktree !== undefined) lines.push(worktreeLine(origin.worktree));
  if (open.length > 0) {
    lines.push('Open items:');
    for (const item of open) lines.push(`- [${item.status}] ${promptLine(item.content)}`);
  } else {
    lines.push('Open items: none.');
  }
  if (done.length > 0) lines.push(`Done: ${done.map((item) => promptLine(item.content)).join('; ')}`);
  lines.push('Write this plan with your plan tool first (done items as completed), then carry on with the open items.');
  return lines.join('\n');
}

/** Ask to Continue: `Please continue your plan; still open: "Write the fix", "Add a test".` */
export function askToContinuePrompt(todos: readonly PlanItem[]): string {
  const open = openItems(todos);
  return open.length > 0
    ? `Please continue your plan; still open: ${quoted(open)}. Keep your plan tool up to date.`
    : 'Please continue your plan. Keep your plan tool up to date.';
}

/** Ask to Restore: `Your plan dropped "Add a test" before it was done. Put it back in your plan and do it, or say why not.` */
export function askToRestorePrompt(item: string): string {
  return `Your plan dropped ${JSON.stringify(promptLine(item))} before it was done. Put it back in your plan and do it, or say why not.`;
}

/** One version of the history, newest first as the log pages them. */
export interface ExportVersion {
  ts: string;
  todos: readonly PlanItem[];
}

export interface ExportInput {
  session: string;
  origin: PlanOrigin;
  /** The agent's name in the user's language (the file is for people). */
  agentName: string | undefined;
  /** The current plan's versions, newest first (the first is the current plan); at most a page. */
  versions: readonly ExportVersion[];
  /** Older versions exist beyond `versions`. */
  more: boolean;
  signals: readonly HealthSignal[];
  now: Date;
}

/**
 * Export Plan's Markdown: a heading with the title, the facts, the plan as a checklist,
 * the history (one line per version, newest first, what changed) and the signals.
 */
export function exportMarkdown(input: ExportInput, t: Translate): string {
  const current = input.versions[0];
  const todos = current?.todos ?? [];
  const title = input.origin.title?.trim() ? markdownText(input.origin.title.trim()) : undefined;
  const lines = [`# ${title ? t('Plan: {0}', title) : t('Plan')}`, ''];
  if (input.agentName) lines.push(`- ${t('Agent: {0}', markdownText(input.agentName))}`);
  lines.push(`- ${t('Session: {0}', input.session)}`);
  if (current) lines.push(`- ${t('Saved: {0}', markdownText(current.ts))}`);
  lines.push(`- ${t('Exported: {0}', input.now.toISOString())}`, '');
  lines.push(planMarkdown(todos, t('Plan')).trimEnd(), '');
  lines.push(`## ${t('History')}`, '');
  const count = input.more ? `${input.versions.length}+` : String(input.versions.length);
  lines.push(t('{0} versions, newest first.', count), '');
  input.versions.forEach((version, index) => {
    const older = input.versions[index + 1];
    const change = older ? changeSummary(diffPlans(older.todos, version.todos), t) : t('first version');
    const open = openItems(version.todos).length;
    lines.push(`- ${markdownText(version.ts)}: ${change} (${t('{0} items, {1} open', version.todos.length, open)})`);
  });
  lines.push('', `## ${t('Signals')}`, '');
  if (input.signals.length === 0) lines.push(t('None.'));
  for (const signal of input.signals) {
    const items = signal.items && signal.kind !== 'reworded' ? `: ${signal.items.map((item) => markdownText(item)).join('; ')}` : '';
    // A waiting call's tool name comes from the agent's file: escaped with the rest.
    lines.push(`- ${markdownText(signalText(signal, input.now, t))} (${signal.kind}, ${t('since {0}', markdownText(signal.since))})${items}`);
  }
  return lines.join('\n') + '\n';
}

// The `todo_write` language-model tool: validate → append to the calling
// session's log → compact acknowledgement. Nothing is written on any rejection.
import * as vscode from 'vscode';
import { countTodos } from '../core/plan/plan';
import { truncateText } from '../core/plan/present';
import type { PlanStore } from '../core/store/store';
import { runTodoWrite } from '../core/store/todoWrite';
import { validateTodoInput } from '../core/plan/validate';
import { logError, type Logger } from './log';

function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

/** How long a call waits for the working tree's snapshot before it answers anyway. */
const SNAPSHOT_WAIT_MS = 5000;

export class TodoWriteTool implements vscode.LanguageModelTool<unknown> {
  constructor(
    private readonly store: PlanStore,
    private readonly logger: Logger,
    /** Settles when the snapshot a saved version asked for is taken (Review Item). */
    private readonly snapshotTaken: (session: string) => Promise<void> = () => Promise.resolve(),
  ) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>): vscode.PreparedToolInvocation {
    const validation = validateTodoInput(options.input);
    if (!validation.ok) return { invocationMessage: vscode.l10n.t('Updating the plan') };
    const counts = countTodos(validation.todos);
    const all = validation.todos.length;
    const active = validation.todos.find((todo) => todo.status === 'in_progress');
    if (all === 0) return { invocationMessage: vscode.l10n.t('Clearing the plan') };
    const label = active ? truncateText(active.content.replace(/\s+/g, ' '), 80) : undefined;
    return {
      invocationMessage: label
        ? vscode.l10n.t('Plan {0}/{1} done · now: {2}', counts.completed, all, label)
        : vscode.l10n.t('Plan {0}/{1} done', counts.completed, all),
    };
  }

  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<unknown>,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    if (token.isCancellationRequested) throw new vscode.CancellationError();
    const outcome = await runTodoWrite(this.store, options.toolInvocationToken, options.input);
    switch (outcome.kind) {
      case 'saved':
        this.logger.trace(`todo_write saved ${outcome.event.todos.length} items for session ${outcome.event.session}`);
        // The agent's next edit comes after this answer: the snapshot of the working tree as the
        // new in-progress items start is taken first, so their changes begin there (bounded).
        await this.afterSnapshot(outcome.event.session);
        break;
      case 'rejected':
        this.logger.info(`todo_write rejected: ${outcome.text}`);
        break;
      case 'failed':
        logError(this.logger, 'todo_write could not save the plan', outcome.error);
        break;
    }
    return textResult(outcome.text);
  }

  private async afterSnapshot(session: string): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), SNAPSHOT_WAIT_MS)));
    const result = await Promise.race([this.snapshotTaken(session).then(() => 'taken' as const), late]);
    clearTimeout(timer);
    if (result === 'late') this.logger.info(`todo_write answered before the working tree's snapshot of session ${session} was taken (over ${SNAPSHOT_WAIT_MS} ms)`);
  }
}

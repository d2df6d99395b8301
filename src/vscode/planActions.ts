// Acting on a plan: continue it in a new chat, ask its chat to continue or to restore a
// dropped item, copy the hand-off prompt, export it. The texts come from src/core/handoff.ts.
// Agent Plan only TYPES into a chat's input (`isPartialQuery`): the user decides what is sent.
import * as vscode from 'vscode';
import { agentById } from '../agents/registry';
import { askToContinuePrompt, askToRestorePrompt, continuePrompt, exportMarkdown, openItems, type PlanOrigin } from '../core/handoff';
import type { HealthBook } from '../core/healthBook';
import { requestTextProblem } from '../core/logRecord';
import type { RequestBook } from '../core/requests';
import { progressText, relativeTime, sessionTitle } from '../core/present';
import { copilotChatResource, sessionNamedBy } from '../core/sessionKey';
import type { PlanStore } from '../core/store';
import { agentName } from './agents';
import { CommandId } from './ids';
import { logError, type Logger } from './log';

const t = vscode.l10n.t;

/** Copilot Chat's extension: Continue in New Chat needs it; without it the prompt is copied. */
export const COPILOT_CHAT_EXTENSION = 'GitHub.copilot-chat';
/** VS Code's commands that type into a chat input without sending (verified in VS Code 1.139). */
const CHAT_OPEN = 'workbench.action.chat.open';
const CHAT_NEW = 'workbench.action.chat.newChat';
/** Opens the chat in agent mode in the last focused chat widget (the chat editor just opened). */
const CHAT_OPEN_AGENT_HERE = 'workbench.action.chat.openagent';
/** How long after Continue in New Chat a new session's first plan is taken as its continuation. */
export const HANDOFF_LINK_MS = 30 * 60 * 1000;
/** How many versions Export Plan lists in its history: one page, whatever the history's length. */
export const EXPORT_HISTORY_VERSIONS = 100;

/** Why a command refused its arguments: a stable code for callers (and tests), a localized message for people. */
export type ActionErrorCode = 'unknown-session' | 'no-item' | 'not-text' | 'bad-request' | 'unknown-request';

class ActionError extends Error {
  constructor(
    readonly code: ActionErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface PlanActionsDeps {
  store: PlanStore;
  health: HealthBook;
  requests: RequestBook;
  logger: Logger;
  /** The session the Plan view shows, offered first in the picker. */
  shownSession: () => string | undefined;
}

/** What a command did, returned to callers (tests, other extensions). */
export interface ActionOutcome {
  done: 'typed' | 'copied' | 'exported' | 'withdrawn' | 'cancelled' | 'failed';
  /** Add a Request for the Agent: the recorded request's id. */
  request?: string;
  /** The text typed, copied or exported. */
  text?: string;
  /** Export Plan: the file written. */
  file?: string;
  /** failed: why. */
  error?: ActionErrorCode;
}

/** A key given directly, a row of a view (Sessions row, signal, dropped item), or nothing; null: neither. */
function sessionArgument(arg: unknown): string | undefined | null {
  if (arg === undefined || arg === null) return undefined;
  return sessionNamedBy(arg) ?? null;
}

function unknownSession(): ActionError {
  return new ActionError('unknown-session', t('Agent Plan: no session with this key has a plan.'));
}

export function registerPlanActions({ store, health, requests, logger, shownSession }: PlanActionsDeps): vscode.Disposable[] {
  function origin(session: string): PlanOrigin {
    const details = store.details(session);
    return { title: details.title, agent: details.agent ? agentById(details.agent).name : undefined };
  }

  /** The session a command acts on: its argument, else the user's pick (undefined: none picked). */
  async function sessionFor(arg: unknown, title: string): Promise<string | undefined> {
    const given = sessionArgument(arg);
    if (given === null) throw unknownSession();
    if (given !== undefined) {
      if (!store.get(given)) throw unknownSession();
      return given;
    }
    const sessions = store.list();
    if (sessions.length === 0) {
      await vscode.window.showInformationMessage(t('There is no agent plan yet in this workspace.'));
      return undefined;
    }
    const shown = shownSession();
    const now = new Date();
    const ordered = [...sessions.filter((event) => event.session === shown), ...sessions.filter((event) => event.session !== shown)];
    const picked = await vscode.window.showQuickPick(
      ordered.map((event) => {
        const agent = store.details(event.session).agent;
        return {
          label: sessionTitle(event, t, store.details(event.session).title),
          description: [agent ? agentName(agent) : undefined, progressText(event.counts, t), relativeTime(event.ts, now, t)]
            .filter((part) => part !== undefined)
            .join(' · '),
          detail: event.session === shown ? t('shown now') : undefined,
          session: event.session,
        };
      }),
      { title, placeHolder: t('Which session?') },
    );
    return picked?.session;
  }

  function copilotAvailable(): boolean {
    return vscode.extensions.getExtension(COPILOT_CHAT_EXTENSION) !== undefined;
  }

  async function copy(text: string, message: string): Promise<ActionOutcome> {
    await vscode.env.clipboard.writeText(text);
    void vscode.window.showInformationMessage(message);
    return { done: 'copied', text };
  }

  /** Opens a session's own VS Code chat and types `text` into its input, not sent. */
  async function typeIntoChat(chat: string, text: string): Promise<ActionOutcome> {
    await vscode.commands.executeCommand('vscode.open', vscode.Uri.from(copilotChatResource(chat)));
    await vscode.commands.executeCommand(CHAT_OPEN_AGENT_HERE, { query: text, isPartialQuery: true });
    return { done: 'typed', text };
  }

  const handlers: Record<string, (...args: unknown[]) => Promise<ActionOutcome | undefined>> = {
    [CommandId.ContinueInNewChat]: async (arg?: unknown) => {
      const session = await sessionFor(arg, t('Continue in New Chat'));
      const event = session ? store.get(session) : undefined;
      if (!session || !event) return undefined;
      const text = continuePrompt(event.todos, origin(session));
      if (!copilotAvailable()) {
        return copy(text, t('Copilot Chat is not available here: the hand-off prompt is on the clipboard. Paste it into an agent.'));
      }
      await vscode.commands.executeCommand(CHAT_OPEN, { mode: 'agent' });
      await vscode.commands.executeCommand(CHAT_NEW);
      await vscode.commands.executeCommand(CHAT_OPEN, { query: text, isPartialQuery: true, mode: 'agent' });
      logger.info(`typed the hand-off prompt of session ${session} into a new chat`);
      handoff = {
        from: session,
        items: openItems(event.todos).map((item) => item.content.trim()),
        until: Date.now() + HANDOFF_LINK_MS,
        before: new Set(store.list().map((known) => known.session)),
      };
      return { done: 'typed', text };
    },

    [CommandId.AskToContinue]: async (arg?: unknown) => {
      const session = await sessionFor(arg, t('Ask to Continue'));
      const event = session ? store.get(session) : undefined;
      if (!session || !event) return undefined;
      const text = askToContinuePrompt(event.todos);
      const chat = store.details(session).chat;
      if (chat === undefined) return copy(text, t('This session is not a VS Code chat: the request is on the clipboard. Paste it into its agent.'));
      return typeIntoChat(chat, text);
    },

    [CommandId.AskToRestore]: async (arg?: unknown, item?: unknown) => {
      if (item !== undefined && typeof item !== 'string') throw new ActionError('not-text', t('Agent Plan: the item must be given as text.'));
      const row = arg as { content?: unknown } | undefined;
      const content = typeof item === 'string' ? item : typeof row?.content === 'string' ? row.content : undefined;
      const session = await sessionFor(arg, t('Ask to Restore'));
      if (!session) return undefined;
      const restore = content ?? (await pickDropped(session));
      if (restore === undefined) return undefined;
      if (restore.trim() === '') throw new ActionError('no-item', t('Agent Plan: Ask to Restore needs the text of a dropped item.'));
      const text = askToRestorePrompt(restore);
      const chat = store.details(session).chat;
      if (chat === undefined) return copy(text, t('This session is not a VS Code chat: the request is on the clipboard. Paste it into its agent.'));
      return typeIntoChat(chat, text);
    },

    [CommandId.CopyHandoff]: async (arg?: unknown) => {
      const session = await sessionFor(arg, t('Copy Hand-off Prompt'));
      const event = session ? store.get(session) : undefined;
      if (!session || !event) return undefined;
      const text = continuePrompt(event.todos, origin(session));
      await vscode.env.clipboard.writeText(text);
      void vscode.window.setStatusBarMessage(t('Hand-off prompt copied'), 3000);
      return { done: 'copied', text };
    },

    // A second argument (a file Uri: tests, other extensions) writes there without asking.
    [CommandId.ExportPlan]: async (arg?: unknown, target?: unknown) => {
      const session = await sessionFor(arg, t('Export Plan'));
      if (!session || !store.get(session)) return undefined;
      const page = await store.page(session, EXPORT_HISTORY_VERSIONS);
      const details = store.details(session);
      const text = exportMarkdown(
        {
          session,
          origin: origin(session),
          agentName: details.agent ? agentName(details.agent) : undefined,
          versions: page.versions.map(({ event }) => ({ ts: event.ts, todos: event.todos })),
          more: page.more,
          signals: health.signals(session),
          now: new Date(),
        },
        t,
      );
      let file = target instanceof vscode.Uri ? target : undefined;
      if (!file) {
        // The suggested name comes from the session key (32 hex), never from a title.
        const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
        const name = `agent-plan-${session.slice(0, 8)}.md`;
        file = await vscode.window.showSaveDialog({
          title: t('Export Plan'),
          saveLabel: t('Export'),
          filters: { Markdown: ['md'] },
          defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
        });
        if (!file) return { done: 'cancelled' };
      }
      await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(text));
      logger.info(`exported the plan of session ${session} to ${file.toString()}`);
      void vscode.window.setStatusBarMessage(t('Plan exported'), 3000);
      return { done: 'exported', text, file: file.toString() };
    },
  };

  handlers[CommandId.AddRequest] = async (arg?: unknown, given?: unknown) => {
    if (given !== undefined && typeof given !== 'string') throw new ActionError('not-text', t('Agent Plan: the request must be given as text.'));
    const session = await sessionFor(arg, t('Add a Request for the Agent'));
    if (!session) return undefined;
    const text =
      given ??
      (await vscode.window.showInputBox({
        title: t('Add a Request for the Agent'),
        prompt: t('One line. It is typed into the chat (or copied, for a terminal agent) and shown until a plan takes it in.'),
        placeHolder: t('Also update the changelog'),
        validateInput: (value) => (value.trim() === '' ? undefined : requestTextProblem(value) ? t('A request is one line of at most 500 characters.') : undefined),
      }));
    if (text === undefined || (given === undefined && text.trim() === '')) return { done: 'cancelled' };
    if (requestTextProblem(text)) throw new ActionError('bad-request', t('A request is one line of at most 500 characters.'));
    const request = await requests.add(session, text);
    logger.info(`recorded a request for session ${session}`);
    const chat = store.details(session).chat;
    if (chat === undefined) {
      const outcome = await copy(request.text, t('This session is not a VS Code chat: the request is on the clipboard. Paste it into its agent.'));
      return { ...outcome, request: request.id };
    }
    return { ...(await typeIntoChat(chat, request.text)), request: request.id };
  };

  handlers[CommandId.WithdrawRequest] = async (arg?: unknown, id?: unknown) => {
    const row = arg as { request?: { id?: unknown } } | undefined;
    const requestId = typeof id === 'string' ? id : typeof row?.request?.id === 'string' ? row.request.id : undefined;
    const session = await sessionFor(arg, t('Withdraw Request'));
    if (!session) return undefined;
    const chosen = requestId ?? (await pickRequest(session));
    if (chosen === undefined) return { done: 'cancelled' };
    if (!(await requests.withdraw(session, chosen))) throw new ActionError('unknown-request', t('Agent Plan: this session has no such request open.'));
    return { done: 'withdrawn' };
  };

  async function pickRequest(session: string): Promise<string | undefined> {
    const open = await requests.list(session);
    if (open.length === 0) {
      await vscode.window.showInformationMessage(t('This session has no request of yours open.'));
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      open.map((request) => ({ label: request.text, id: request.id })),
      { title: t('Withdraw Request'), placeHolder: t('Which request?') },
    );
    return picked?.id;
  }

  async function pickDropped(session: string): Promise<string | undefined> {
    const dropped = health.signals(session).find((signal) => signal.kind === 'dropped')?.items ?? [];
    if (dropped.length === 0) {
      await vscode.window.showInformationMessage(t('No item of this plan is dropped.'));
      return undefined;
    }
    if (dropped.length === 1) return dropped[0];
    return vscode.window.showQuickPick(dropped, { title: t('Ask to Restore'), placeHolder: t('Which dropped item?') });
  }

  // The new chat's first plan: a session that did not exist when the prompt was typed, whose
  // plan holds an open item of the old one. Both logs then record the link.
  let handoff: { from: string; items: string[]; until: number; before: Set<string> } | undefined;
  const linkWatch = store.onDidWrite((event) => {
    const pending = handoff;
    if (!pending || pending.before.has(event.session) || event.session === pending.from) return;
    if (Date.now() > pending.until) {
      handoff = undefined;
      return;
    }
    const texts = new Set(event.todos.map((todo) => todo.content.trim()));
    if (!pending.items.some((item) => texts.has(item))) return;
    handoff = undefined;
    requests.link(pending.from, event.session).then(
      () => logger.info(`session ${event.session} continues the plan of session ${pending.from}`),
      (error: unknown) => logError(logger, 'could not record the hand-off link', error),
    );
  });

  return [linkWatch, ...Object.entries(handlers).map(([id, handler]) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await handler(...args);
      } catch (error) {
        if (error instanceof ActionError) {
          logger.warn(`command ${id}: ${error.message}`);
          void vscode.window.showErrorMessage(error.message);
          return { done: 'failed', error: error.code } satisfies ActionOutcome;
        }
        logError(logger, `command ${id} failed`, error);
        void vscode.window.showErrorMessage(t('Agent Plan: {0}', error instanceof Error ? error.message : String(error)));
        return undefined;
      }
    }),
  )];
}

// Acting on a plan: continue it in a new chat, ask its chat to continue or to restore a
// dropped item, copy the hand-off prompt, export it. The texts come from
// src/core/handoff/handoff.ts.
// Agent Plan only TYPES into a chat's input (`isPartialQuery`): the user decides what is sent.
import * as vscode from 'vscode';
import { iconText } from '../../core/text/escape';
import { askToContinuePrompt, askToRestorePrompt, continuePrompt, exportMarkdown, openItems, type PlanOrigin } from '../../core/handoff/handoff';
import type { HealthBook } from '../../core/derived/healthBook';
import { requestTextProblem, type PlanRecord } from '../../core/log/logRecord';
import { AGENT_LOOKS, VSCODE_CHAT_AGENTS } from '../../core/generated/agentIds';
import type { RequestBook } from '../../core/derived/requests';
import { copilotChatResource, sessionNamedBy } from '../../core/log/sessionKey';
import type { PlanStore } from '../../core/store/store';
import { sessionName } from '../../core/plan/present';
import { agentName } from '../agentLooks';
import { bindTable, reportFailure, type CommandTable } from '../commands/commandTable';
import { CommandId } from '../ids';
import { logError, type Logger } from '../log';
import { noPlan, pickSession } from '../sessionPick';
import type { SessionPlaces } from '../sessionPlaces';

const t = vscode.l10n.t;

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
  /** Where each session works: the hand-off names its worktree. */
  places?: SessionPlaces;
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

const NOT_A_CHAT = () => t('This session is not a VS Code chat: the request is on the clipboard. Paste it into its agent.');

/** A hand-off typed into a new chat, waiting for that chat's first plan. */
interface PendingHandoff {
  from: string;
  items: string[];
  until: number;
  before: Set<string>;
}

/** What the plan actions share: the parts they read and write, and the hand-off waiting for its new chat. */
class PlanActions {
  /** The new chat's first plan: a session that did not exist when the prompt was typed. */
  handoff: PendingHandoff | undefined;

  constructor(readonly deps: PlanActionsDeps) {}

  origin(session: string): PlanOrigin {
    const details = this.deps.store.details(session);
    const worktree = this.deps.places?.worktreeFor(session);
    return {
      title: sessionName(details),
      agent: details.agent ? AGENT_LOOKS[details.agent].name : undefined,
      ...(worktree ? { worktree: { path: worktree.path, branch: worktree.branch } } : {}),
    };
  }

  /** The session a command acts on: its argument, else the user's pick (undefined: none picked). */
  async sessionFor(arg: unknown, title: string): Promise<string | undefined> {
    const given = sessionArgument(arg);
    if (given === null) throw unknownSession();
    if (given !== undefined) {
      if (!this.deps.store.get(given)) throw unknownSession();
      return given;
    }
    if (this.deps.store.list().length === 0) {
      await noPlan();
      return undefined;
    }
    return pickSession(this.deps.store, { title, placeHolder: t('Which session?'), shown: this.deps.shownSession(), shownFirst: true });
  }

  async copy(text: string, message: string): Promise<ActionOutcome> {
    await vscode.env.clipboard.writeText(text);
    void vscode.window.showInformationMessage(message);
    return { done: 'copied', text };
  }

  /** Types `text` into the session's own VS Code chat, not sent; copies it when the session is no chat. */
  async typeOrCopy(session: string, text: string): Promise<ActionOutcome> {
    const chat = this.deps.store.details(session).chat;
    if (chat === undefined) return this.copy(text, NOT_A_CHAT());
    await vscode.commands.executeCommand('vscode.open', vscode.Uri.from(copilotChatResource(chat)));
    await vscode.commands.executeCommand(CHAT_OPEN_AGENT_HERE, { query: text, isPartialQuery: true });
    return { done: 'typed', text };
  }

  async pickRequest(session: string): Promise<string | undefined> {
    const open = await this.deps.requests.list(session);
    if (open.length === 0) {
      await vscode.window.showInformationMessage(t('This session has no request of yours open.'));
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      open.map((request) => ({ label: iconText(request.text), id: request.id })),
      { title: t('Withdraw Request'), placeHolder: t('Which request?') },
    );
    return picked?.id;
  }

  async pickDropped(session: string): Promise<string | undefined> {
    const dropped = this.deps.health.signals(session).find((signal) => signal.kind === 'dropped')?.items ?? [];
    if (dropped.length === 0) {
      await vscode.window.showInformationMessage(t('No item of this plan is dropped.'));
      return undefined;
    }
    if (dropped.length === 1) return dropped[0];
    const picked = await vscode.window.showQuickPick(
      dropped.map((item) => ({ label: iconText(item), item })),
      { title: t('Ask to Restore'), placeHolder: t('Which dropped item?') },
    );
    return picked?.item;
  }

  /** A plan written: when it is the new chat's first, with an open item of the old plan, both logs record the link. */
  linkHandoff(event: PlanRecord): void {
    const pending = this.handoff;
    if (!pending || pending.before.has(event.session) || event.session === pending.from) return;
    if (Date.now() > pending.until) {
      this.handoff = undefined;
      return;
    }
    const texts = new Set(event.todos.map((todo) => todo.content.trim()));
    if (!pending.items.some((item) => texts.has(item))) return;
    this.handoff = undefined;
    const { requests, logger } = this.deps;
    requests.link(pending.from, event.session).then(
      () => logger.info(`session ${event.session} continues the plan of session ${pending.from}`),
      (error: unknown) => logError(logger, 'could not record the hand-off link', error),
    );
  }
}

async function continueInNewChat(actions: PlanActions, arg?: unknown): Promise<ActionOutcome | undefined> {
  const { store, logger } = actions.deps;
  const session = await actions.sessionFor(arg, t('Continue in New Chat'));
  const event = session ? store.get(session) : undefined;
  if (!session || !event) return undefined;
  const text = continuePrompt(event.todos, actions.origin(session));
  if (vscode.extensions.getExtension(VSCODE_CHAT_AGENTS.copilot ?? '') === undefined) {
    return actions.copy(text, t('Copilot Chat is not available here: the hand-off prompt is on the clipboard. Paste it into an agent.'));
  }
  await vscode.commands.executeCommand(CHAT_OPEN, { mode: 'agent' });
  await vscode.commands.executeCommand(CHAT_NEW);
  await vscode.commands.executeCommand(CHAT_OPEN, { query: text, isPartialQuery: true, mode: 'agent' });
  logger.info(`typed the hand-off prompt of session ${session} into a new chat`);
  actions.handoff = {
    from: session,
    items: openItems(event.todos).map((item) => item.content.trim()),
    until: Date.now() + HANDOFF_LINK_MS,
    before: new Set(store.list().map((known) => known.session)),
  };
  return { done: 'typed', text };
}

async function askToContinue(actions: PlanActions, arg?: unknown): Promise<ActionOutcome | undefined> {
  const session = await actions.sessionFor(arg, t('Ask to Continue'));
  const event = session ? actions.deps.store.get(session) : undefined;
  if (!session || !event) return undefined;
  return actions.typeOrCopy(session, askToContinuePrompt(event.todos));
}

async function askToRestore(actions: PlanActions, arg?: unknown, item?: unknown): Promise<ActionOutcome | undefined> {
  if (item !== undefined && typeof item !== 'string') throw new ActionError('not-text', t('Agent Plan: the item must be given as text.'));
  const row = arg as { content?: unknown } | undefined;
  const content = typeof item === 'string' ? item : typeof row?.content === 'string' ? row.content : undefined;
  const session = await actions.sessionFor(arg, t('Ask to Restore'));
  if (!session) return undefined;
  const restore = content ?? (await actions.pickDropped(session));
  if (restore === undefined) return undefined;
  if (restore.trim() === '') throw new ActionError('no-item', t('Agent Plan: Ask to Restore needs the text of a dropped item.'));
  return actions.typeOrCopy(session, askToRestorePrompt(restore));
}

async function copyHandoff(actions: PlanActions, arg?: unknown): Promise<ActionOutcome | undefined> {
  const session = await actions.sessionFor(arg, t('Copy Hand-off Prompt'));
  const event = session ? actions.deps.store.get(session) : undefined;
  if (!session || !event) return undefined;
  const text = continuePrompt(event.todos, actions.origin(session));
  await vscode.env.clipboard.writeText(text);
  void vscode.window.setStatusBarMessage(t('Hand-off prompt copied'), 3000);
  return { done: 'copied', text };
}

// A second argument (a file Uri: tests, other extensions) writes there without asking.
async function exportPlan(actions: PlanActions, arg?: unknown, target?: unknown): Promise<ActionOutcome | undefined> {
  const { store, health, logger } = actions.deps;
  const session = await actions.sessionFor(arg, t('Export Plan'));
  if (!session || !store.get(session)) return undefined;
  const page = await store.page(session, EXPORT_HISTORY_VERSIONS);
  const details = store.details(session);
  const text = exportMarkdown(
    {
      session,
      origin: actions.origin(session),
      agentName: details.agent ? agentName(details.agent) : undefined,
      versions: page.versions.map(({ event }) => ({ ts: event.ts, todos: event.todos })),
      more: page.more,
      signals: health.signals(session),
      now: new Date(),
    },
    t,
  );
  const file = target instanceof vscode.Uri ? target : await exportTarget(session);
  if (!file) return { done: 'cancelled' };
  await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(text));
  logger.info(`exported the plan of session ${session} to ${file.toString()}`);
  void vscode.window.setStatusBarMessage(t('Plan exported'), 3000);
  return { done: 'exported', text, file: file.toString() };
}

/** Asks where to export; the suggested name comes from the session key (32 hex), never from a title. */
async function exportTarget(session: string): Promise<vscode.Uri | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const name = `agent-plan-${session.slice(0, 8)}.md`;
  return vscode.window.showSaveDialog({
    title: t('Export Plan'),
    saveLabel: t('Export'),
    filters: { Markdown: ['md'] },
    defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
  });
}

async function addRequest(actions: PlanActions, arg?: unknown, given?: unknown): Promise<ActionOutcome | undefined> {
  if (given !== undefined && typeof given !== 'string') throw new ActionError('not-text', t('Agent Plan: the request must be given as text.'));
  const session = await actions.sessionFor(arg, t('Add a Request for the Agent'));
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
  const request = await actions.deps.requests.add(session, text);
  actions.deps.logger.info(`recorded a request for session ${session}`);
  return { ...(await actions.typeOrCopy(session, request.text)), request: request.id };
}

async function withdrawRequest(actions: PlanActions, arg?: unknown, id?: unknown): Promise<ActionOutcome | undefined> {
  const row = arg as { request?: { id?: unknown } } | undefined;
  const requestId = typeof id === 'string' ? id : typeof row?.request?.id === 'string' ? row.request.id : undefined;
  const session = await actions.sessionFor(arg, t('Withdraw Request'));
  if (!session) return undefined;
  const chosen = requestId ?? (await actions.pickRequest(session));
  if (chosen === undefined) return { done: 'cancelled' };
  if (!(await actions.deps.requests.withdraw(session, chosen))) throw new ActionError('unknown-request', t('Agent Plan: this session has no such request open.'));
  return { done: 'withdrawn' };
}

/** Acting on a plan: each command takes a session key first, or asks with a picker. */
const PLAN_ACTIONS = {
  [CommandId.ContinueInNewChat]: continueInNewChat,
  [CommandId.AskToContinue]: askToContinue,
  [CommandId.AskToRestore]: askToRestore,
  [CommandId.CopyHandoff]: copyHandoff,
  [CommandId.ExportPlan]: exportPlan,
  [CommandId.AddRequest]: addRequest,
  [CommandId.WithdrawRequest]: withdrawRequest,
} satisfies CommandTable<PlanActions>;

/** The plan actions' commands (extension.ts registers them) and the watch that links a hand-off to the session it started. */
export function planActions(deps: PlanActionsDeps) {
  const actions = new PlanActions(deps);
  const linkWatch = deps.store.onDidWrite((event) => actions.linkHandoff(event));
  const fail = (id: CommandId, error: unknown): unknown => {
    if (!(error instanceof ActionError)) return reportFailure(deps.logger, id, error);
    deps.logger.warn(`command ${id}: ${error.message}`);
    void vscode.window.showErrorMessage(error.message);
    return { done: 'failed', error: error.code } satisfies ActionOutcome;
  };
  return { commands: bindTable(PLAN_ACTIONS, actions, fail), linkWatch };
}

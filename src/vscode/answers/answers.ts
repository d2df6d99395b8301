// Answer a waiting agent from Agent Plan: the broker (src/node/answers/) takes the permission
// requests of the connected agents' hooks whose sessions this window follows; each taken request
// becomes a permission/ask line of its session's log, so Needs You, the Plan view and every
// window show it from the log; Allow and Deny (the rows' inline actions, the notification's
// buttons, the palette, the API) hand the agent's own answer to its hook, and the end is a
// permission/answer line. Nothing answers but the user's click; a request nobody answers goes
// back to the agent's own prompt when its time runs out.
import * as os from 'node:os';
import * as vscode from 'vscode';
import { AGENTS } from '../../agents/registry';
import { isInsideWorkspace } from '../../agents/locations';
import type { AskFacts, HealthSignal } from '../../core/derived/health';
import type { HealthBook } from '../../core/derived/healthBook';
import type { NeedsYouBook } from '../../core/derived/needsYouBook';
import type { AgentId } from '../../core/foreign';
import { sessionKeyForForeign } from '../../core/log/planSink';
import type { SessionLog } from '../../core/log/sessionLog';
import { notificationText, plainText } from '../../core/text/escape';
import { AnswerBroker, type AnswerEnd, type PendingAnswer } from '../../node/answers/answerBroker';
import { answersFolder, requestName, stillAsked, writeAnswer } from '../../node/answers/answerSpool';
import type { Decision, PermissionHook } from '../../node/answers/permissionHook';
import { bindTable, type BoundTable, type CommandTable } from '../commands/commandTable';
import { CommandId, SettingId } from '../ids';
import { logError, type Logger } from '../log';

const t = vscode.l10n.t;

/** The agents whose permission hooks Agent Plan can answer, by id. */
export const ANSWER_HOOKS: ReadonlyMap<string, PermissionHook> = new Map(AGENTS.flatMap((agent) => (agent.answers ? [[agent.id, agent.answers] as const] : [])));

/** A request waiting on the user, as the API lists it. */
export interface PendingRequest {
  id: string;
  session: string;
  agent: AgentId;
  tool: string;
  input: string;
  description?: string;
  since: string;
  canAllow: boolean;
  canDeny: boolean;
}

export interface AnswersDeps {
  readonly log: SessionLog;
  readonly health: HealthBook;
  readonly needsYou: NeedsYouBook;
  readonly logger: Logger;
  /** The folders whose agents this window follows (the workspace's, its worktrees, extra folders). */
  readonly folders: () => readonly string[];
}

/** Seconds a taken request waits for an answer here (then the agent asks at its own prompt). */
export function answerWaitSeconds(): number {
  const value = vscode.workspace.getConfiguration().get<number>(SettingId.AnswerWaitSeconds, 60);
  return Number.isFinite(value) ? Math.min(600, Math.max(5, Math.round(value))) : 60;
}

const agentOf = (id: string) => id.slice(0, id.indexOf('.'));

export class Answers implements vscode.Disposable {
  private readonly broker: AnswerBroker;
  private readonly folder = answersFolder(process.env, os.homedir());
  /** Requests taken here whose ask line the health book has shown: one gone from it without an answer was answered at the agent's prompt. */
  private readonly shown = new Set<string>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly deps: AnswersDeps) {
    this.broker = new AnswerBroker({
      folder: this.folder,
      hooks: ANSWER_HOOKS,
      waitFor: (hook, request) => {
        if (!deps.folders().some((folder) => isInsideWorkspace(request.cwd, folder))) return 0;
        // An agent that hides its prompt while the hook runs waits on a window only while its user is there.
        if (!hook.promptWhileAsking && !vscode.window.state.focused) return 0;
        return answerWaitSeconds();
      },
      onError: (error, file) => deps.logger.warn(`answers: ${file}: ${error instanceof Error ? error.message : String(error)}`),
    });
    this.subscriptions.push(
      { dispose: () => this.broker.dispose() },
      this.broker.onDidAsk((pending) => void this.asked(pending)),
      this.broker.onDidEnd(({ pending, end }) => void this.ended(pending, end)),
      deps.health.onDidChange(({ session }) => this.look(session)),
    );
  }

  start(): void {
    this.broker.start().catch((error: unknown) => logError(this.deps.logger, `could not open the answers folder ${this.folder}; no agent's request is taken`, error));
  }

  /** The requests waiting on the user in the sessions this window shows, oldest first. */
  pending(): PendingRequest[] {
    const requests: PendingRequest[] = [];
    for (const { session } of this.deps.needsYou.queue()) {
      for (const signal of this.deps.health.signals(session)) {
        const ask = signal.ask;
        if (ask === undefined) continue;
        const hook = ANSWER_HOOKS.get(agentOf(ask.id));
        if (hook === undefined) continue;
        requests.push({ id: ask.id, session, agent: hook.agent, tool: ask.tool, input: ask.input, ...(ask.description !== undefined ? { description: ask.description } : {}), since: signal.since, canAllow: hook.canAllow, canDeny: hook.canDeny });
      }
    }
    return requests.sort((a, b) => (a.since < b.since ? -1 : a.since > b.since ? 1 : 0));
  }

  /**
   * Answers a request (the user's click): true when its hook took the answer. The window that
   * took it answers through its broker; another window writes the answer for the same hook,
   * after the answer line (so the taker, finding its hook gone, records nothing more).
   */
  async answer(id: string, decision: Decision, message?: string): Promise<boolean> {
    const request = this.pending().find((known) => known.id === id);
    const hook = ANSWER_HOOKS.get(agentOf(id));
    if (request === undefined || hook === undefined) return false;
    if (decision === 'allow' ? !request.canAllow : !request.canDeny) return false;
    const text = message?.trim() ? message.trim() : undefined;
    if (this.broker.pending().some((taken) => taken.id === id)) return this.broker.answer(id, decision, text);
    // Another window took it: its hook is answered from here, if it still waits.
    const name = requestName(`req.${id}.json`);
    if (name === undefined || !(await stillAsked(this.folder, name))) return false;
    await this.deps.log.appendPermission(request.session, { answer: { id, answer: decision, message: decision === 'deny' ? text : undefined } });
    return writeAnswer(this.folder, id, hook.answer(decision, text)).catch(() => false);
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  private async asked(pending: PendingAnswer): Promise<void> {
    const session = sessionKeyForForeign(pending.agent, pending.session);
    try {
      await this.deps.log.appendPermission(session, { ask: { id: pending.id, agent: pending.agent, tool: pending.tool, input: pending.input, description: pending.description, until: new Date(pending.until).toISOString() } });
    } catch (error) {
      // Not on the record: not shown either, so the hook goes back to the agent's prompt.
      logError(this.deps.logger, `could not record ${pending.agent}'s request in session ${session}`, error);
      await this.broker.withdraw(pending.id);
      return;
    }
    this.deps.logger.info(`${pending.agent} asks to run ${plainText(pending.tool, 40)} in session ${session}`);
    this.notify(session, pending).catch((error: unknown) => logError(this.deps.logger, 'an answer from a notification failed', error));
  }

  private async ended(pending: PendingAnswer, end: AnswerEnd): Promise<void> {
    this.shown.delete(pending.id);
    const session = sessionKeyForForeign(pending.agent, pending.session);
    const message = end.how === 'deny' ? end.message : undefined;
    await this.deps.log.appendPermission(session, { answer: { id: pending.id, answer: end.how, message } }).catch((error: unknown) => logError(this.deps.logger, `could not record the end of ${pending.agent}'s request in session ${session}`, error));
  }

  /** A taken request the log no longer shows waiting (answered at the agent's prompt): its hook goes now. */
  private look(session: string): void {
    const taken = this.broker.pending().filter((pending) => sessionKeyForForeign(pending.agent, pending.session) === session);
    if (taken.length === 0) return;
    const asks = new Set(this.deps.health.signals(session).flatMap((signal) => (signal.ask ? [signal.ask.id] : [])));
    for (const pending of taken) {
      if (asks.has(pending.id)) this.shown.add(pending.id);
      else if (this.shown.has(pending.id)) void this.broker.withdraw(pending.id);
    }
  }

  private async notify(session: string, pending: PendingAnswer): Promise<void> {
    if (vscode.workspace.getConfiguration().get<string>(SettingId.Notify) === 'off') return;
    const name = AGENTS.find((agent) => agent.id === pending.agent)?.name ?? pending.agent;
    const allow = t('Allow');
    const deny = t('Deny…');
    const show = t('Show Plan');
    const actions = [...(pending.canAllow ? [allow] : []), ...(pending.canDeny ? [deny] : []), show];
    const text = notificationText(t('{0} asks to run {1}: {2}', name, pending.tool, pending.input), 400);
    const picked = await vscode.window.showWarningMessage(text, ...actions);
    if (picked === allow) await vscode.commands.executeCommand(CommandId.AllowRequest, pending.id);
    else if (picked === deny) await vscode.commands.executeCommand(CommandId.DenyRequest, pending.id);
    else if (picked === show) await vscode.commands.executeCommand(CommandId.SelectSession, session);
  }
}

/** The request a command was given: its id, a row of Needs You or the Plan view, or, from the palette, the user's pick. */
async function requestOf(answers: Answers, arg: unknown, decision: Decision): Promise<PendingRequest | undefined> {
  const pending = answers.pending().filter((request) => (decision === 'allow' ? request.canAllow : request.canDeny));
  const id = typeof arg === 'string' ? arg : askOfRow(arg)?.id;
  if (id !== undefined) return pending.find((request) => request.id === id);
  if (pending.length === 0) {
    void vscode.window.showInformationMessage(t('No agent is waiting for an answer.'));
    return undefined;
  }
  if (pending.length === 1) return pending[0];
  const picked = await vscode.window.showQuickPick(
    pending.map((request) => ({ label: plainText(`${request.tool}: ${request.input}`, 120), description: AGENTS.find((agent) => agent.id === request.agent)?.name, request })),
    { placeHolder: decision === 'allow' ? t('Allow which request?') : t('Deny which request?') },
  );
  return picked?.request;
}

/** The request of a Needs You row or a signal row above the plan. */
function askOfRow(arg: unknown): AskFacts | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const element = arg as { signal?: HealthSignal; row?: { signal?: HealthSignal } };
  return element.signal?.ask ?? element.row?.signal?.ask;
}

async function answerWith(answers: Answers, arg: unknown, decision: Decision, given?: unknown): Promise<boolean> {
  const request = await requestOf(answers, arg, decision);
  if (request === undefined) return false;
  let message: string | undefined;
  if (decision === 'deny') {
    if (typeof given === 'string') message = given;
    else {
      message = await vscode.window.showInputBox({
        title: t('Deny {0}: {1}', request.tool, plainText(request.input, 60)),
        prompt: t('A message for the model (optional), e.g. "use pnpm instead".'),
        ignoreFocusOut: true,
      });
      if (message === undefined) return false;
    }
  }
  const answered = await answers.answer(request.id, decision, message);
  if (!answered) void vscode.window.showInformationMessage(t('That request is no longer waiting: it was answered or ended at the agent.'));
  return answered;
}

export const ANSWER_COMMANDS = {
  [CommandId.AllowRequest]: (answers: Answers, arg: unknown) => answerWith(answers, arg, 'allow'),
  [CommandId.DenyRequest]: (answers: Answers, arg: unknown, message: unknown) => answerWith(answers, arg, 'deny', message),
} satisfies CommandTable<Answers>;

/** The answers feature: started once the log is loaded; its commands for registerCommands. */
export function createAnswers(deps: AnswersDeps): { answers: Answers; commands: BoundTable } {
  const answers = new Answers(deps);
  return { answers, commands: bindTable(ANSWER_COMMANDS, answers) };
}

// The commands on a session, in typed tables: which session and version the Plan view shows,
// comparing versions (history/), a session's plan, chat and log. None of them writes a plan:
// the model owns it.
import * as vscode from 'vscode';
import { notificationText } from '../../core/text/escape';
import type { DisplayState } from '../../core/store/display';
import { planMarkdown, sessionTitle } from '../../core/plan/present';
import { copilotChatResource, isSessionKey, sessionNamedBy } from '../../core/log/sessionKey';
import type { PlanVersion } from '../../core/log/sessionLog';
import type { PlanStore } from '../../core/store/store';
import type { HealthBook } from '../../core/derived/healthBook';
import { bindTable, type BoundTable, type CommandTable } from '../commands/commandTable';
import { compareWithPrevious } from '../history/compare';
import { pickVersion } from '../history/historyPick';
import { CommandId, ViewId } from '../ids';
import { logError, type Logger } from '../log';
import { noPlan, pickSession } from '../sessionPick';

const t = vscode.l10n.t;

export interface CommandDeps {
  store: PlanStore;
  display: DisplayState;
  health: HealthBook;
  logger: Logger;
  logFileFor: (session: string) => string;
  /** Has every follower of other agents' files scan now. */
  refreshFollowers: () => Promise<void>;
}

/** A command's session argument: a key (API, tests), a view row that carries one, or nothing (the shown session). */
function sessionFrom(arg: unknown, display: DisplayState): string | undefined {
  return sessionNamedBy(arg) ?? display.session;
}

/** Which session the Plan view shows, and which of its versions. */
const SESSION_COMMANDS = {
  // Agent Plan's logs, and the other agents' files they copy.
  [CommandId.Refresh]: async ({ store, refreshFollowers }) => {
    await Promise.all([store.load(), refreshFollowers()]);
  },
  [CommandId.SelectSession]: selectSession,
  [CommandId.FollowLatest]: ({ display }) => display.followLatest(),
  [CommandId.ShowHistory]: showHistory,
  [CommandId.ShowLatestVersion]: ({ display }) => display.showLatestVersion(),
  [CommandId.RevealPlan]: () => vscode.commands.executeCommand(`${ViewId.Plan}.focus`),
} satisfies CommandTable<CommandDeps>;

/** Comparing a version with the one before it. */
const COMPARE_COMMANDS = {
  // The version shown, else the newest.
  [CommandId.CompareWithPrevious]: async ({ store, display }, arg?: unknown) => {
    const session = sessionFrom(arg, display);
    if (!session) return noPlan();
    const shown = display.session === session ? display.shownVersion : undefined;
    if ((await compareWithPrevious(store, session, shown?.at)) === 'missing') return noPlan();
  },
  // A signal's row (or a session key and a version's address): the diff of the version that started it.
  [CommandId.CompareSignalVersion]: async ({ store, display }, arg?: unknown, address?: unknown) => {
    const session = sessionFrom(arg, display);
    const at = typeof address === 'number' ? address : (arg as { signal?: { at?: unknown } } | undefined)?.signal?.at;
    if (!session || typeof at !== 'number') return noPlan();
    if ((await compareWithPrevious(store, session, at)) === 'missing') return noPlan();
  },
} satisfies CommandTable<CommandDeps>;

/** A session's plan, chat and log. */
const PLAN_COMMANDS = {
  [CommandId.CopyPlanAsMarkdown]: async ({ store, display }, arg?: unknown) => {
    const session = sessionFrom(arg, display);
    const event = session === display.session ? display.event : session ? store.get(session) : undefined;
    if (!event) return noPlan();
    await vscode.env.clipboard.writeText(planMarkdown(event.todos));
    void vscode.window.setStatusBarMessage(t('Plan copied as Markdown'), 3000);
  },
  // VS Code opens a chat's session resource as that chat, in an editor.
  [CommandId.OpenChat]: async ({ store, display }, arg?: unknown) => {
    const session = sessionFrom(arg, display);
    const chat = session ? store.details(session).chat : undefined;
    if (chat === undefined) {
      await vscode.window.showInformationMessage(t('Agent Plan does not know the chat of this session: it opens VS Code\'s own chats only, once VS Code has saved them.'));
      return;
    }
    await vscode.commands.executeCommand('vscode.open', vscode.Uri.from(copilotChatResource(chat)));
  },
  [CommandId.OpenSessionLog]: async ({ display, logFileFor }, arg?: unknown) => {
    const session = sessionFrom(arg, display);
    if (!session) return noPlan();
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(logFileFor(session)));
    await vscode.window.showTextDocument(document, { preview: true });
  },
  [CommandId.DeleteSession]: deleteSession,
  [CommandId.DismissDropped]: dismissDropped,
} satisfies CommandTable<CommandDeps>;

async function selectSession({ store, display }: CommandDeps, arg?: unknown): Promise<void> {
  const direct = isSessionKey(arg) ? arg : undefined;
  if (direct && store.get(direct)) {
    display.select(direct);
    return;
  }
  if (store.list().length === 0) return noPlan();
  const picked = await pickSession(store, {
    title: t('Select Agent Session'),
    placeHolder: t('The plan of which session should the sidebar show?'),
    shown: display.session,
  });
  if (picked) display.select(picked);
}

// `behind` (tests, other extensions): how many versions back from the latest to show.
async function showHistory({ store, display }: CommandDeps, arg?: unknown, behind?: unknown): Promise<void> {
  const session = sessionFrom(arg, display);
  if (!session) return noPlan();
  const show = (version: PlanVersion, back: number): void => {
    if (back === 0) {
      if (display.session !== session) display.select(session);
      display.showLatestVersion();
    } else {
      display.showVersion({ session, behind: back, ...version });
    }
  };
  if (typeof behind === 'number' && Number.isSafeInteger(behind) && behind >= 0) {
    const version = (await store.page(session, behind + 1)).versions[behind];
    if (version) return show(version, behind);
  }
  const picked = await pickVersion(store, display, session);
  if (picked === 'empty') return noPlan();
  if (picked) show(picked.version, picked.behind);
}

// Callers that already asked (other extensions, scripts) may pass `{ confirm: false }`.
async function deleteSession({ store, display, logger }: CommandDeps, arg?: unknown, options?: unknown): Promise<void> {
  const session = sessionFrom(arg, display);
  const event = session ? store.get(session) : undefined;
  if (!session || !event) return noPlan();
  const askFirst = !(typeof options === 'object' && options !== null && (options as { confirm?: unknown }).confirm === false);
  if (askFirst) {
    const remove = t('Delete');
    const answer = await vscode.window.showWarningMessage(
      t('Delete the plan log of the session "{0}"?', notificationText(sessionTitle(event, t, store.details(session)))),
      { modal: true, detail: t('Its whole history is removed. Other sessions are not touched.') },
      remove,
    );
    if (answer !== remove) return;
  }
  try {
    await store.remove(session);
  } catch (error) {
    logError(logger, `could not delete the log of session ${session}`, error);
    await vscode.window.showErrorMessage(t('Could not delete the session log: {0}', notificationText(error instanceof Error ? error.message : String(error))));
  }
}

// A dropped item's row takes that item off the list; the dropped signal's row, all of its items.
function dismissDropped({ display, health }: CommandDeps, arg?: unknown, items?: unknown): void {
  const session = sessionFrom(arg, display);
  if (!session) return;
  const row = arg as { content?: unknown; signal?: { items?: unknown } } | undefined;
  const texts = Array.isArray(items)
    ? items.filter((item): item is string => typeof item === 'string')
    : typeof row?.content === 'string'
      ? [row.content]
      : Array.isArray(row?.signal?.items)
        ? (row.signal.items as unknown[]).filter((item): item is string => typeof item === 'string')
        : [];
  health.dismiss(session, texts);
}

/** The session, compare and plan commands, bound to their deps (extension.ts registers them). */
export function sessionCommands(deps: CommandDeps) {
  return [bindTable(SESSION_COMMANDS, deps), bindTable(COMPARE_COMMANDS, deps), bindTable(PLAN_COMMANDS, deps)] as const satisfies readonly BoundTable[];
}

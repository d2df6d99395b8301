// The palette and view commands. None of them writes a plan: the model owns it.
import * as vscode from 'vscode';
import type { DisplayState } from '../core/display';
import { planMarkdown, progressText, sessionTitle, relativeTime } from '../core/present';
import { copilotChatResource, isSessionKey, sessionNamedBy } from '../core/sessionKey';
import type { PlanVersion } from '../core/sessionLog';
import type { PlanStore } from '../core/store';
import type { HealthBook } from '../core/healthBook';
import { agentName, versionTime } from './agents';
import { pickVersion } from './historyPick';
import { CommandId, ViewId } from './ids';
import { logError, type Logger } from './log';
import { snapshotUri } from './snapshotDocuments';

const t = vscode.l10n.t;

/** A command's session argument: a key (API, tests), a Sessions row, or nothing (the shown session). */
function sessionFrom(arg: unknown, display: DisplayState): string | undefined {
  return sessionNamedBy(arg) ?? display.session;
}

export interface CommandDeps {
  store: PlanStore;
  display: DisplayState;
  health: HealthBook;
  logger: Logger;
  logFileFor: (session: string) => string;
  /** Has every follower of other agents' files scan now. */
  refreshSources: () => Promise<void>;
}

export function registerCommands({ store, display, health, logger, logFileFor, refreshSources }: CommandDeps): vscode.Disposable[] {
  function agentOf(session: string): string | undefined {
    const agent = store.details(session).agent;
    return agent ? agentName(agent) : undefined;
  }

  async function noPlan(): Promise<void> {
    await vscode.window.showInformationMessage(t('There is no agent plan yet in this workspace.'));
  }

  function showVersion(session: string, version: PlanVersion, behind: number): void {
    if (behind === 0) {
      if (display.session !== session) display.select(session);
      display.showLatestVersion();
    } else {
      display.showVersion({ session, behind, ...version });
    }
  }

  const handlers: Record<string, (...args: unknown[]) => unknown> = {
    // Agent Plan's logs, and the other agents' files they mirror.
    [CommandId.Refresh]: async () => {
      await Promise.all([store.load(), refreshSources()]);
    },

    [CommandId.SelectSession]: async (arg?: unknown) => {
      const direct = isSessionKey(arg) ? arg : undefined;
      if (direct && store.get(direct)) {
        display.select(direct);
        return;
      }
      const sessions = store.list();
      if (sessions.length === 0) return noPlan();
      const now = new Date();
      const picked = await vscode.window.showQuickPick(
        sessions.map((event) => ({
          label: sessionTitle(event, t, store.details(event.session).title),
          description: [agentOf(event.session), progressText(event.counts, t), relativeTime(event.ts, now, t)].filter((part) => part !== undefined).join(' · '),
          detail: event.session === display.session ? t('shown now') : undefined,
          session: event.session,
        })),
        { title: t('Select Agent Session'), placeHolder: t('The plan of which session should the sidebar show?') },
      );
      if (picked) display.select(picked.session);
    },

    [CommandId.FollowLatest]: () => display.followLatest(),

    // `behind` (tests, other extensions): how many versions back from the latest to show.
    [CommandId.ShowHistory]: async (arg?: unknown, behind?: unknown) => {
      const session = sessionFrom(arg, display);
      if (!session) return noPlan();
      if (typeof behind === 'number' && Number.isSafeInteger(behind) && behind >= 0) {
        const version = (await store.page(session, behind + 1)).versions[behind];
        if (version) return showVersion(session, version, behind);
      }
      const picked = await pickVersion(store, display, session);
      if (picked === 'empty') return noPlan();
      if (picked) showVersion(session, picked.version, picked.behind);
    },

    [CommandId.ShowLatestVersion]: () => display.showLatestVersion(),

    [CommandId.CompareWithPrevious]: async (arg?: unknown) => {
      const session = sessionFrom(arg, display);
      if (!session) return noPlan();
      const shown = display.session === session ? display.shownVersion : undefined;
      const [newer, older] = shown ? [shown, (await store.page(session, 1, shown.at)).versions[0]] : (await store.page(session, 2)).versions;
      if (!newer) return noPlan();
      if (!older) {
        await vscode.window.showInformationMessage(t('This is the first version of the plan; there is nothing to compare it with.'));
        return;
      }
      await vscode.commands.executeCommand(
        'vscode.diff',
        snapshotUri(session, older.at),
        snapshotUri(session, newer.at),
        t('Plan: {0} ↔ {1}', versionTime(older.event.ts), versionTime(newer.event.ts)),
        { preview: true },
      );
    },

    [CommandId.CopyPlanAsMarkdown]: async (arg?: unknown) => {
      const session = sessionFrom(arg, display);
      const event = session === display.session ? display.event : session ? store.get(session) : undefined;
      if (!event) return noPlan();
      await vscode.env.clipboard.writeText(planMarkdown(event.todos));
      void vscode.window.setStatusBarMessage(t('Plan copied as Markdown'), 3000);
    },

    // VS Code opens a chat's session resource as that chat, in an editor.
    [CommandId.OpenChat]: async (arg?: unknown) => {
      const session = sessionFrom(arg, display);
      const chat = session ? store.details(session).chat : undefined;
      if (chat === undefined) {
        await vscode.window.showInformationMessage(t('Agent Plan does not know the chat of this session: it opens VS Code\'s own chats only, once VS Code has saved them.'));
        return;
      }
      await vscode.commands.executeCommand('vscode.open', vscode.Uri.from(copilotChatResource(chat)));
    },

    [CommandId.OpenSessionLog]: async (arg?: unknown) => {
      const session = sessionFrom(arg, display);
      if (!session) return noPlan();
      const document = await vscode.workspace.openTextDocument(vscode.Uri.file(logFileFor(session)));
      await vscode.window.showTextDocument(document, { preview: true });
    },

    // Callers that already asked (other extensions, scripts) may pass `{ confirm: false }`.
    [CommandId.DeleteSession]: async (arg?: unknown, options?: unknown) => {
      const session = sessionFrom(arg, display);
      const event = session ? store.get(session) : undefined;
      if (!session || !event) return noPlan();
      const askFirst = !(typeof options === 'object' && options !== null && (options as { confirm?: unknown }).confirm === false);
      if (askFirst) {
        const remove = t('Delete');
        const answer = await vscode.window.showWarningMessage(
          t('Delete the plan log of the session "{0}"?', sessionTitle(event, t, store.details(session).title)),
          { modal: true, detail: t('Its whole history is removed. Other sessions are not touched.') },
          remove,
        );
        if (answer !== remove) return;
      }
      try {
        await store.remove(session);
      } catch (error) {
        logError(logger, `could not delete the log of session ${session}`, error);
        await vscode.window.showErrorMessage(t('Could not delete the session log: {0}', error instanceof Error ? error.message : String(error)));
      }
    },

    [CommandId.RevealPlan]: () => vscode.commands.executeCommand(`${ViewId.Plan}.focus`),

    // A signal's row (or a session key and a version's address): the diff of the version that started it.
    [CommandId.CompareSignalVersion]: async (arg?: unknown, address?: unknown) => {
      const session = sessionFrom(arg, display);
      const at = typeof address === 'number' ? address : (arg as { signal?: { at?: unknown } } | undefined)?.signal?.at;
      if (!session || typeof at !== 'number') return noPlan();
      const newer = await store.versionAt(session, at);
      const older = (await store.page(session, 1, at)).versions[0];
      if (!newer) return noPlan();
      if (!older) {
        await vscode.window.showInformationMessage(t('This is the first version of the plan; there is nothing to compare it with.'));
        return;
      }
      await vscode.commands.executeCommand(
        'vscode.diff',
        snapshotUri(session, older.at),
        snapshotUri(session, at),
        t('Plan: {0} ↔ {1}', versionTime(older.event.ts), versionTime(newer.ts)),
        { preview: true },
      );
    },

    // A dropped item's row takes that item off the list; the dropped signal's row, all of its items.
    [CommandId.DismissDropped]: (arg?: unknown, items?: unknown) => {
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
    },
  };

  return Object.entries(handlers).map(([id, handler]) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await handler(...args);
      } catch (error) {
        logError(logger, `command ${id} failed`, error);
        void vscode.window.showErrorMessage(t('Agent Plan: {0}', error instanceof Error ? error.message : String(error)));
        return undefined;
      }
    }),
  );
}

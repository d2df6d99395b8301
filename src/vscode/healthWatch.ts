// Keeps the health book in step with the settings and the clock, and tells the user when a
// plan completes, stops with items open or stalls. The clock runs only while some session
// may stall (a running turn with open items): idle costs nothing.
import * as vscode from 'vscode';
import type { HealthKind, HealthSettings, HealthSignal } from '../core/health';
import { DEFAULT_HEALTH_SETTINGS } from '../core/health';
import type { HealthBook } from '../core/healthBook';
import { signalText } from '../core/healthText';
import { sessionTitle } from '../core/present';
import type { PlanStore } from '../core/store';
import type { DisplayState } from '../core/display';
import { CommandId, SettingId } from './ids';
import type { Logger } from './log';

const t = vscode.l10n.t;

export type NotifyMode = 'off' | 'whenUnfocused' | 'always';
const NOTIFIED_KINDS: ReadonlySet<HealthKind> = new Set(['done', 'stopped-open', 'stalled']);
/**
 * A stop is told only once it has held this long: VS Code may save a request's end a
 * moment before its last tool call (a plan that completes it), and a notification cannot
 * be taken back.
 */
const STOP_GRACE_MS = 5000;

export function healthSettings(): HealthSettings {
  const config = vscode.workspace.getConfiguration();
  const calls = config.get<number>(SettingId.StallToolCalls, DEFAULT_HEALTH_SETTINGS.stallCalls);
  const minutes = config.get<number>(SettingId.StallMinutes, DEFAULT_HEALTH_SETTINGS.stallMinutes);
  return {
    stallCalls: Number.isFinite(calls) && calls >= 1 ? Math.floor(calls) : DEFAULT_HEALTH_SETTINGS.stallCalls,
    stallMinutes: Number.isFinite(minutes) && minutes > 0 ? minutes : DEFAULT_HEALTH_SETTINGS.stallMinutes,
  };
}

function notifyMode(): NotifyMode {
  const mode = vscode.workspace.getConfiguration().get<string>(SettingId.Notify, 'whenUnfocused');
  return mode === 'off' || mode === 'always' ? mode : 'whenUnfocused';
}

export function watchHealth(health: HealthBook, store: PlanStore, display: DisplayState, logger: Logger): vscode.Disposable {
  const opened = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** `${session}\n${kind}` of the signals told about, until that signal goes away. */
  const told = new Set<string>();
  /** Stops waiting out STOP_GRACE_MS before they are told. */
  const held = new Map<string, ReturnType<typeof setTimeout>>();

  function schedule(): void {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    const next = health.nextCheck();
    if (next === undefined) return;
    // A little late rather than early: the rule holds once its time has passed.
    timer = setTimeout(
      () => {
        timer = undefined;
        health.check();
        schedule();
      },
      Math.max(0, next - Date.now()) + 250,
    );
  }

  function notify(session: string, live: boolean): void {
    const signals = health.signals(session);
    const present = new Set(signals.map((signal) => signal.kind));
    for (const kind of NOTIFIED_KINDS) if (!present.has(kind)) told.delete(`${session}\n${kind}`);
    if (!live) {
      // What a first look finds happened before: never told, and not told later either.
      for (const kind of present) told.add(`${session}\n${kind}`);
      return;
    }
    for (const signal of signals) {
      const key = `${session}\n${signal.kind}`;
      if (!NOTIFIED_KINDS.has(signal.kind) || told.has(key) || held.has(key)) continue;
      if (signal.kind !== 'stopped-open' || Date.parse(signal.since) < opened) {
        told.add(key);
        tell(session, signal);
        continue;
      }
      held.set(
        key,
        setTimeout(() => {
          held.delete(key);
          const still = health.signals(session).find((s) => s.kind === 'stopped-open');
          if (!still || told.has(key)) return;
          told.add(key);
          tell(session, still);
        }, STOP_GRACE_MS),
      );
    }
  }

  function tell(session: string, signal: HealthSignal): void {
    const mode = notifyMode();
    if (mode === 'off' || (mode === 'whenUnfocused' && vscode.window.state.focused)) return;
    // Never for what happened before the window opened.
    if (Date.parse(signal.since) < opened) return;
    logger.info(`notifying ${signal.kind} of session ${session}`);
    const event = store.get(session);
    const title = event ? sessionTitle(event, t, store.details(session).title) : session.slice(0, 8);
    show(session, `${title}: ${signalText(signal, new Date(), t)}`, signal.kind === 'done').catch((error: unknown) =>
      logger.warn(`a notification's action failed: ${String(error)}`),
    );
  }

  async function show(session: string, message: string, good: boolean): Promise<void> {
    const showPlan = t('Show Plan');
    const openChat = t('Open Chat');
    const actions = store.details(session).chat !== undefined ? [showPlan, openChat] : [showPlan];
    const answer = good ? await vscode.window.showInformationMessage(message, ...actions) : await vscode.window.showWarningMessage(message, ...actions);
    if (answer === showPlan) {
      display.select(session);
      await vscode.commands.executeCommand(CommandId.RevealPlan);
    } else if (answer === openChat) {
      await vscode.commands.executeCommand(CommandId.OpenChat, session);
    }
  }

  // The session on screen: after a reload, its past tells what it had dropped or reopened (once, bounded).
  // The book reads each session's past at most once; asking again costs a lookup.
  function backfillShown(): void {
    const session = display.session;
    if (session === undefined) return;
    health.backfill(session).catch((error: unknown) => logger.warn(`could not read the history of session ${session}: ${String(error)}`));
  }

  health.configure(healthSettings());
  const subscriptions = [
    display.onDidChange(backfillShown),
    health.onDidChange(({ session, live }) => {
      notify(session, live);
      schedule();
    }),
    vscode.workspace.onDidChangeConfiguration((change) => {
      if (change.affectsConfiguration(SettingId.StallToolCalls) || change.affectsConfiguration(SettingId.StallMinutes)) {
        health.configure(healthSettings());
        schedule();
      }
    }),
  ];
  schedule();
  backfillShown();
  return {
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
      for (const pending of held.values()) clearTimeout(pending);
      for (const subscription of subscriptions) subscription.dispose();
    },
  };
}

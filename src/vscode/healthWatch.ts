// Keeps the health book in step with the settings and the clock, and tells the user when a
// plan completes, stops with items open or stalls, or a tool call waits. The clock runs only
// while some session may stall (a running turn with open items) or a call waits: idle costs nothing.
import * as vscode from 'vscode';
import { notificationText } from '../core/text/escape';
import type { HealthKind, HealthSettings, HealthSignal } from '../core/derived/health';
import { DEFAULT_HEALTH_SETTINGS } from '../core/derived/health';
import type { HealthBook } from '../core/derived/healthBook';
import { signalText } from '../core/derived/healthText';
import { sessionTitle } from '../core/plan/present';
import type { PlanStore } from '../core/store/store';
import type { DisplayState } from '../core/store/display';
import { CommandId, SettingId } from './ids';
import type { Logger } from './log';

const t = vscode.l10n.t;

export type NotifyMode = 'off' | 'whenUnfocused' | 'always';
const NOTIFIED_KINDS: ReadonlySet<HealthKind> = new Set(['done', 'waiting', 'stopped-open', 'stalled']);
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
  const wait = config.get<number>(SettingId.WaitSeconds, DEFAULT_HEALTH_SETTINGS.waitSeconds);
  return {
    stallCalls: Number.isFinite(calls) && calls >= 1 ? Math.floor(calls) : DEFAULT_HEALTH_SETTINGS.stallCalls,
    stallMinutes: Number.isFinite(minutes) && minutes > 0 ? minutes : DEFAULT_HEALTH_SETTINGS.stallMinutes,
    waitSeconds: Number.isFinite(wait) && wait >= 1 ? wait : DEFAULT_HEALTH_SETTINGS.waitSeconds,
  };
}

function notifyMode(): NotifyMode {
  const mode = vscode.workspace.getConfiguration().get<string>(SettingId.Notify, 'whenUnfocused');
  return mode === 'off' || mode === 'always' ? mode : 'whenUnfocused';
}

export function watchHealth(health: HealthBook, store: PlanStore, display: DisplayState, logger: Logger): vscode.Disposable {
  return new HealthWatch(health, store, display, logger);
}

class HealthWatch implements vscode.Disposable {
  private readonly opened = Date.now();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** `${session}\n${kind}` of the signals told about, until that signal goes away. */
  private readonly told = new Set<string>();
  /** Stops waiting out STOP_GRACE_MS before they are told. */
  private readonly held = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly health: HealthBook,
    private readonly store: PlanStore,
    private readonly display: DisplayState,
    private readonly logger: Logger,
  ) {
    health.configure(healthSettings());
    this.subscriptions = [
      display.onDidChange(() => this.backfillShown()),
      health.onDidChange(({ session, live }) => {
        this.notify(session, live);
        this.schedule();
      }),
      // A call that started waiting changes no signal until its time comes: the timer is set for it now.
      health.onDidChangeNextCheck(() => this.schedule()),
      vscode.workspace.onDidChangeConfiguration((change) => {
        if ([SettingId.StallToolCalls, SettingId.StallMinutes, SettingId.WaitSeconds].some((id) => change.affectsConfiguration(id))) {
          health.configure(healthSettings());
          this.schedule();
        }
      }),
    ];
    this.schedule();
    this.backfillShown();
  }

  private schedule(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const next = this.health.nextCheck();
    if (next === undefined) return;
    // A little late rather than early: the rule holds once its time has passed.
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.health.check();
        this.schedule();
      },
      Math.max(0, next - Date.now()) + 250,
    );
  }

  private notify(session: string, live: boolean): void {
    const signals = this.health.signals(session);
    const present = new Set(signals.map((signal) => signal.kind));
    for (const kind of NOTIFIED_KINDS) if (!present.has(kind)) this.told.delete(`${session}\n${kind}`);
    if (!live) {
      // What a first look finds happened before: never told, and not told later either.
      for (const kind of present) this.told.add(`${session}\n${kind}`);
      return;
    }
    for (const signal of signals) {
      const key = `${session}\n${signal.kind}`;
      if (!NOTIFIED_KINDS.has(signal.kind) || this.told.has(key) || this.held.has(key)) continue;
      // A request to answer is told by the window that took it, with Allow and Deny (src/vscode/answers/).
      if (signal.ask) {
        this.told.add(key);
        continue;
      }
      if (signal.kind !== 'stopped-open' || Date.parse(signal.since) < this.opened) {
        this.told.add(key);
        this.tell(session, signal);
        continue;
      }
      this.held.set(
        key,
        setTimeout(() => {
          this.held.delete(key);
          const still = this.health.signals(session).find((s) => s.kind === 'stopped-open');
          if (!still || this.told.has(key)) return;
          this.told.add(key);
          this.tell(session, still);
        }, STOP_GRACE_MS),
      );
    }
  }

  private tell(session: string, signal: HealthSignal): void {
    const mode = notifyMode();
    if (mode === 'off' || (mode === 'whenUnfocused' && vscode.window.state.focused)) return;
    // Never for what happened before the window opened.
    if (Date.parse(signal.since) < this.opened) return;
    this.logger.info(`notifying ${signal.kind} of session ${session}`);
    const event = this.store.get(session);
    const title = event ? sessionTitle(event, t, this.store.details(session)) : session.slice(0, 8);
    // The title and a waiting call's tool name come from a model or a file: never a link in a notification.
    this.show(session, notificationText(`${title}: ${signalText(signal, new Date(), t)}`), signal.kind).catch((error: unknown) =>
      this.logger.warn(`a notification's action failed: ${String(error)}`),
    );
  }

  private async show(session: string, message: string, kind: HealthKind): Promise<void> {
    const good = kind === 'done';
    const showPlan = t('Show Plan');
    const openChat = t('Open Chat');
    const continueIt = t('Continue in New Chat');
    const actions = this.store.details(session).chat !== undefined ? [showPlan, openChat] : [showPlan];
    // A call that waits is answered in its chat, not in a new one.
    if (!good && kind !== 'waiting') actions.push(continueIt);
    const answer = good ? await vscode.window.showInformationMessage(message, ...actions) : await vscode.window.showWarningMessage(message, ...actions);
    if (answer === showPlan) {
      this.display.select(session);
      await vscode.commands.executeCommand(CommandId.RevealPlan);
    } else if (answer === openChat) {
      await vscode.commands.executeCommand(CommandId.OpenChat, session);
    } else if (answer === continueIt) {
      await vscode.commands.executeCommand(CommandId.ContinueInNewChat, session);
    }
  }

  // The session on screen: after a reload, its past tells what it had dropped or reopened (once, bounded).
  // The book reads each session's past at most once; asking again costs a lookup.
  private backfillShown(): void {
    const session = this.display.session;
    if (session === undefined) return;
    this.health.backfill(session).catch((error: unknown) => this.logger.warn(`could not read the history of session ${session}: ${String(error)}`));
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    for (const pending of this.held.values()) clearTimeout(pending);
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}

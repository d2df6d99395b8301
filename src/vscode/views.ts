// The Plan and Sessions tree views, wired: both created, kept in step with the plans and what
// is derived from their logs (one redraw per change), their badges, description and context
// keys. The views themselves are plan/planTree.ts and sessions/sessionsTree.ts.
import * as vscode from 'vscode';
import type { DisplayState } from '../core/store/display';
import type { PlanStore } from '../core/store/store';
import type { HealthBook } from '../core/derived/healthBook';
import type { RequestBook } from '../core/derived/requests';
import type { TimelineLog } from '../core/timeline/timelineRead';
import type { FileBook } from '../core/derived/itemFiles';
import type { NeedsYouBook } from '../core/derived/needsYouBook';
import { needsYouBadge } from '../core/derived/needsYouText';
import { ChangeFold, type FoldedChange } from '../core/store/viewChanges';
import type { LedgerBook } from '../core/derived/ledgerBook';
import type { BoundTable } from './commands/commandTable';
import { ContextKey, ViewId } from './ids';
import type { ItemDiffstats } from './diffstats';
import { PlanTreeProvider, type PlanElement } from './plan/planTree';
import { updatePlanView } from './plan/planHeader';
import type { SessionPlaces } from './sessionPlaces';
import { SessionsTreeProvider, type SessionsRow } from './sessions/sessionsTree';
import { sessionsViewCommands, type SESSIONS_VIEW_COMMANDS } from './sessions/sessionsViewCommands';

const t = vscode.l10n.t;

/**
 * The queue in the Sessions view: its section, and its count as the view's badge (VS Code adds
 * it to the Plan view's open items in the activity bar, whose hover names each).
 */
function showNeedsYou(needsYou: NeedsYouBook, sessions: vscode.TreeView<SessionsRow>, provider: SessionsTreeProvider): vscode.Disposable {
  const update = () => {
    const badge = needsYouBadge(needsYou.size, t);
    if (sessions.badge?.value !== badge?.value || sessions.badge?.tooltip !== badge?.tooltip) sessions.badge = badge;
    provider.refresh();
  };
  update();
  return needsYou.onDidChange(update);
}

/** What the views show: the plans and what is derived from their logs. */
export interface ViewsDeps {
  display: DisplayState;
  store: PlanStore;
  health: HealthBook;
  /** The logs' lines, for the items' durations. */
  timelines?: TimelineLog;
  requests?: RequestBook;
  files?: FileBook;
  places?: SessionPlaces;
  ledgers?: LedgerBook;
  needsYou?: NeedsYouBook;
  /** Each item's lines added and removed, from the working tree's snapshots. */
  diffstats?: ItemDiffstats;
}

/**
 * Creates both views and keeps their badge, description, message and context keys in step;
 * `commands` are the Sessions view's own (extension.ts registers them).
 */
export function createViews({ display, store, health, timelines, requests, files, places, ledgers, needsYou, diffstats }: ViewsDeps): vscode.Disposable & {
  plan: vscode.TreeView<PlanElement>;
  commands: BoundTable<keyof typeof SESSIONS_VIEW_COMMANDS>;
  update(): void;
} {
  const planProvider = new PlanTreeProvider(display, store, health, timelines, requests, files, ledgers, diffstats);
  const sessionsProvider = new SessionsTreeProvider(display, store, health, places, ledgers, needsYou);
  const placesSubscription = places?.onDidChange(() => sessionsProvider.refresh());
  const plan = vscode.window.createTreeView(ViewId.Plan, { treeDataProvider: planProvider, showCollapseAll: false });
  const sessions = vscode.window.createTreeView(ViewId.Sessions, { treeDataProvider: sessionsProvider });
  sessionsProvider.isVisible = () => sessions.visible;
  // Each context key costs a round trip to the window: send only changes.
  const contextValues = new Map<string, boolean>();
  function setContext(key: string, value: boolean): void {
    if (contextValues.get(key) === value) return;
    contextValues.set(key, value);
    void vscode.commands.executeCommand('setContext', key, value);
  }
  const commands = sessionsViewCommands(sessionsProvider, setContext);

  // One refresh per change, of what changed: the store's, health's, files' and costs' events of
  // one log line come in the same turn and fold into one redraw of each view.
  function update(change: FoldedChange): void {
    planProvider.apply(change);
    updatePlanView(plan, display, store);
    const sessionCount = store.size;
    const description = sessionCount > 0 ? String(sessionCount) : undefined;
    if (sessions.description !== description) sessions.description = description;
    setContext(ContextKey.FollowingLatest, display.followingLatest);
    setContext(ContextKey.ViewingHistory, display.shownVersion !== undefined);
    setContext(ContextKey.HasPlan, display.event !== undefined);
  }
  const planFold = new ChangeFold(update, queueMicrotask);
  const changed = (session: string | undefined): void => {
    planFold.add(session);
    sessionsProvider.sessionChanged(session);
  };

  const subscription = display.onDidChange(changed);
  const healthSubscription = health.onDidChange(({ session }) => changed(session));
  // The files and costs of the session on screen: a file/write or model/usage line folds into the same refresh as its read's other changes.
  const bookSubscriptions = [files, ledgers, diffstats].flatMap((book) => (book ? [book.onDidChange((session) => session === display.session && planFold.add(session))] : []));
  const needsYouSubscription = needsYou ? showNeedsYou(needsYou, sessions, sessionsProvider) : undefined;
  // "5 min ago" ages: each drawn row is redrawn when its text changes, while the view is on screen.
  const visibility = sessions.onDidChangeVisibility(() => sessionsProvider.visibilityChanged());
  // The in-progress icon turns, or stands still where the user asked for reduced motion.
  const motion = vscode.workspace.onDidChangeConfiguration((event) => event.affectsConfiguration('workbench.reduceMotion') && planProvider.redrawAll());
  changed(undefined);
  return {
    plan,
    commands,
    update: () => changed(undefined),
    dispose() {
      const parts = [visibility, motion, subscription, healthSubscription, ...bookSubscriptions, needsYouSubscription, placesSubscription];
      for (const part of [...parts, plan, sessions, planProvider, sessionsProvider]) part?.dispose();
    },
  };
}

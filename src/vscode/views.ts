// The Plan and Sessions tree views. Read-only by design: they show what the
// display state points at and never write a plan.
import * as vscode from 'vscode';
import type { DisplayState } from '../core/plan/display';
import type { ItemStatus, PlanItem } from '../core/plan/plan';
import {
  durationText,
  itemLabel,
  openCount,
  progressText,
  relativeTime,
  sessionTitle,
  statusWord,
} from '../core/plan/present';
import type { LogEvent } from '../core/log/sessionLog';
import type { PlanStore } from '../core/plan/store';
import type { HealthBook } from '../core/derived/healthBook';
import type { RequestBook } from '../core/derived/requests';
import { linkRows, linkTreeItem, requestRows, requestTreeItem, type LinkElement, type RequestElement } from './requestViews';
import { droppedTreeItem, healthRows, sessionMark, signalTreeItem, type DroppedElement, type SignalElement } from './healthViews';
import { TOOL_SESSION_ICON, agentIcon, agentName, dateTimeText, timeText, versionTime } from './agents';
import { CommandId, ContextKey, ItemContext, ViewId } from './ids';
import { itemDurations } from './timelineText';
import { groupByWorktree } from '../core/worktrees/worktreeGroups';
import { worktreeTooltip, type SessionPlaces } from './sessionPlaces';
import { worktreeGroupItem, type WorktreeGroupElement } from './worktreeViews';
import type { TimelineSource } from '../core/timeline/timelineRead';
import type { FileBook, SessionFiles } from '../core/derived/itemFiles';
import type { NeedsYouBook } from '../core/derived/needsYouBook';
import { needsYouBadge, needsYouSection } from '../core/derived/needsYouText';
import { needsYouEntries, needsYouEntryItem, needsYouSectionItem, type NeedsYouEntryElement, type NeedsYouSectionElement } from './needsYouViews';
import { fileRows, filesCount, filesTooltipLine, fileTreeItem, outsideFilesTreeItem, type FileElement, type OutsideFilesElement } from './fileViews';
import type { ItemLedger } from '../core/derived/ledger';
import type { LedgerBook } from '../core/derived/ledgerBook';
import { ledgerText } from '../core/derived/ledgerText';

const t = vscode.l10n.t;

export const STATUS_ICONS: Record<ItemStatus, { id: string; color: string }> = {
  pending: { id: 'circle-large-outline', color: 'descriptionForeground' },
  in_progress: { id: 'sync~spin', color: 'charts.blue' },
  completed: { id: 'pass-filled', color: 'testing.iconPassed' },
  cancelled: { id: 'circle-slash', color: 'disabledForeground' },
  blocked: { id: 'warning', color: 'list.warningForeground' },
};

export interface TodoElement {
  readonly kind: 'todo';
  readonly session: string;
  readonly index: number;
  readonly todo: PlanItem;
}

/**
 * A plan row, built from the data alone; the id is stable across updates so selection survives.
 * An item that changed files opens to a row per file, and says how many; an item that was in
 * progress says what it cost ("6 min · 14 calls · 52k tokens").
 */
export function todoTreeItem(element: TodoElement, files = 0, cost?: ItemLedger): vscode.TreeItem {
  const { todo } = element;
  const label = itemLabel(todo.content, t);
  const item = new vscode.TreeItem(label, files > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
  const spent = cost ? ledgerText({ ms: cost.inProgressMs, all: cost.all, shared: cost.shared }, t) : '';
  const description = [spent, files > 0 ? filesCount(files) : ''].filter((part) => part !== '').join(' · ');
  if (description !== '') item.description = description;
  // Mirrored plans may repeat an item: the position keeps those ids apart.
  item.id = `${element.session}/${todo.content}/${element.index}`;
  const icon = STATUS_ICONS[todo.status];
  item.iconPath = new vscode.ThemeIcon(icon.id, new vscode.ThemeColor(icon.color));
  item.contextValue = `${ItemContext.Todo}.${todo.status}`;
  item.accessibilityInformation = { label: t('{0}, {1}', label, statusWord(todo.status, t)) };
  return item;
}

export type PlanElement = TodoElement | SignalElement | DroppedElement | RequestElement | LinkElement | FileElement | OutsideFilesElement;

export class PlanTreeProvider implements vscode.TreeDataProvider<PlanElement>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(
    private readonly display: DisplayState,
    private readonly store: PlanStore,
    private readonly health: HealthBook,
    private readonly timelines?: TimelineSource,
    private readonly requests?: RequestBook,
    private readonly files?: FileBook,
    private readonly ledgers?: LedgerBook,
  ) {}

  private refreshQueued = false;
  /** What each item of the session on screen cost, as of its rows' last listing. */
  private costs = new Map<string, ItemLedger>();

  /**
   * One refresh per change: the store's, health's and files' events of one read all come
   * in the same turn; they fold into one (a second refresh would wait behind the tree's
   * 200 ms debounce).
   */
  refresh(): void {
    if (this.refreshQueued) return;
    this.refreshQueued = true;
    queueMicrotask(() => {
      this.refreshQueued = false;
      this.changed.fire();
    });
  }

  getChildren(element?: PlanElement): PlanElement[] {
    if (element?.kind === 'todo') return fileRows(element.session, element.todo.content, this.filesOf(element.session)?.of(element.todo.content) ?? []);
    if (element?.kind === 'outside') return fileRows(element.session, undefined, element.files);
    if (element) return [];
    const event = this.display.event;
    if (!event) return [];
    const todos = event.todos.map((todo, index): TodoElement => ({ kind: 'todo', session: event.session, index, todo }));
    this.costs = this.costsOf(event.session);
    // Signals speak of the current plan: an older version on screen shows without them.
    if (this.display.shownVersion) return todos;
    const { above, below } = healthRows(event.session, this.health.signals(event.session));
    const requests = requestRows(event.session, this.requests?.known(event.session) ?? []);
    const links = this.requests ? linkRows(event.session, this.requests.links(event.session), (other) => this.titleOf(other)) : [];
    const outside = this.filesOf(event.session)?.session() ?? [];
    const outsideRow: OutsideFilesElement[] = outside.length > 0 ? [{ kind: 'outside', session: event.session, files: [...outside] }] : [];
    return [...links, ...above, ...todos, ...outsideRow, ...requests, ...below];
  }

  /** What each item cost, once the session's past is read (the first ask starts the read; a refresh follows). */
  private costsOf(session: string): Map<string, ItemLedger> {
    const ledger = this.ledgers?.known(session)?.ledger(Date.now());
    return new Map((ledger?.items ?? []).map((item) => [item.content, item]));
  }

  /** The session's files by item, once its past is read (the first ask starts the read; a refresh follows). */
  private filesOf(session: string): SessionFiles | undefined {
    return this.files?.known(session);
  }

  private titleOf(session: string): string {
    const event = this.store.get(session);
    return event ? sessionTitle(event, t, this.store.details(session)) : session.slice(0, 8);
  }

  getTreeItem(element: PlanElement): vscode.TreeItem {
    if (element.kind === 'signal') return signalTreeItem(element);
    if (element.kind === 'dropped') return droppedTreeItem(element);
    if (element.kind === 'request') return requestTreeItem(element);
    if (element.kind === 'link') return linkTreeItem(element);
    if (element.kind === 'file') return fileTreeItem(element);
    if (element.kind === 'outside') return outsideFilesTreeItem(element);
    const cost = element.session === this.display.session ? this.costs.get(element.todo.content) : undefined;
    return todoTreeItem(element, this.filesOf(element.session)?.of(element.todo.content).length ?? 0, cost);
  }

  async resolveTreeItem(item: vscode.TreeItem, element: PlanElement, token: vscode.CancellationToken): Promise<vscode.TreeItem> {
    if (element.kind !== 'todo') return item;
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.supportThemeIcons = true;
    tooltip.appendText(element.todo.content);
    tooltip.appendMarkdown('\n\n');
    const icon = STATUS_ICONS[element.todo.status].id.replace('~spin', '');
    let status = `$(${icon}) ${statusWord(element.todo.status, t)}`;
    try {
      const shown = this.display.shownVersion;
      // Walks back only while the item keeps its status, and never past STATUS_WALK_LIMIT versions.
      const held = await this.store.statusSince(element.session, element.todo.content, shown, () => token.isCancellationRequested);
      if (token.isCancellationRequested) return item;
      if (held) {
        const duration = durationText(held.since, new Date(), t);
        status += ` · ${held.atLeast ? t('{0} or longer', duration) : duration}`;
      }
    } catch {
      // the tooltip still names the status without the history
    }
    tooltip.appendMarkdown(status);
    // How long the item took, over the current plan's newest versions (older versions on screen show without).
    if (this.timelines && !this.display.shownVersion) {
      const durations = await itemDurations(this.timelines, element.session, element.todo.content).catch(() => undefined);
      if (token.isCancellationRequested) return item;
      if (durations) tooltip.appendMarkdown('\n\n$(watch) ').appendText(durations);
    }
    const cost = this.costs.get(element.todo.content);
    const spent = cost ? ledgerText({ all: cost.all, shared: cost.shared }, t, { detail: true }) : '';
    if (spent !== '') tooltip.appendMarkdown('\n\n$(pulse) ').appendText(spent);
    const files = this.filesOf(element.session)?.of(element.todo.content) ?? [];
    if (files.length > 0) tooltip.appendMarkdown('\n\n$(files) ').appendText(filesTooltipLine(files));
    item.tooltip = tooltip;
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export interface SessionElement {
  readonly kind: 'session';
  readonly event: LogEvent;
}

/** The Sessions view's last row when older sessions are not listed yet. */
export interface MoreSessionsElement {
  readonly kind: 'more';
  /** Sessions not listed yet. */
  readonly remaining: number;
}

/** Rows the Sessions view lists at first, and adds per "Show older sessions": every row is sent to the window on each refresh. */
export const SESSIONS_PAGE = 200;

type SessionsRow = SessionElement | MoreSessionsElement | WorktreeGroupElement | NeedsYouSectionElement | NeedsYouEntryElement;

export class SessionsTreeProvider implements vscode.TreeDataProvider<SessionsRow>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private listed = SESSIONS_PAGE;
  /** List only the sessions whose most urgent signal is a warning. */
  attentionOnly = false;

  constructor(
    private readonly display: DisplayState,
    private readonly store: PlanStore,
    private readonly health: HealthBook,
    private readonly places?: SessionPlaces,
    private readonly ledgers?: LedgerBook,
    private readonly needsYou?: NeedsYouBook,
  ) {}

  private refreshQueued = false;

  /**
   * One refresh per change: the store's, health's and files' events of one read all come
   * in the same turn; they fold into one (a second refresh would wait behind the tree's
   * 200 ms debounce).
   */
  refresh(): void {
    if (this.refreshQueued) return;
    this.refreshQueued = true;
    queueMicrotask(() => {
      this.refreshQueued = false;
      this.changed.fire();
    });
  }

  /** The "Needs You" section over the queue as it is now; none when no session waits on the user. */
  private needsYouRow(): NeedsYouSectionElement | undefined {
    const section = this.needsYou ? needsYouSection(this.needsYou.queue(), (session) => this.nameOf(session), t) : undefined;
    return section ? { kind: 'needs-you', ...section } : undefined;
  }

  private nameOf(session: string): { title: string; agent: string | undefined } {
    const event = this.store.get(session);
    const details = this.store.details(session);
    return { title: event ? sessionTitle(event, t, details) : session.slice(0, 8), agent: details.agent ? agentName(details.agent) : undefined };
  }

  /** Lists the next page of older sessions. */
  showMore(): void {
    this.listed += SESSIONS_PAGE;
    this.refresh();
  }

  /** Subagent sessions by their parent's session, from the last listing of the top level. */
  private children = new Map<string, LogEvent[]>();

  getChildren(element?: SessionsRow): SessionsRow[] {
    if (element?.kind === 'worktree') return element.group.rows.map((event) => ({ kind: 'session', event }));
    if (element?.kind === 'needs-you') return needsYouEntries(element);
    if (element) return element.kind === 'session' ? (this.children.get(element.event.session) ?? []).map((event) => ({ kind: 'session', event })) : [];
    let sessions = this.store.list();
    // A subagent's session is listed under its parent's, when the parent is listed; never mixed into it.
    const present = new Set(sessions.map((event) => event.session));
    this.children = new Map();
    const top: LogEvent[] = [];
    for (const event of sessions) {
      const parent = this.store.details(event.session).parent;
      if (parent !== undefined && parent !== event.session && present.has(parent)) {
        const list = this.children.get(parent) ?? [];
        list.push(event);
        this.children.set(parent, list);
      } else {
        top.push(event);
      }
    }
    sessions = top;
    if (this.attentionOnly) sessions = sessions.filter((event) => sessionMark(this.health.signals(event.session))?.warning === true);
    const listed = sessions.slice(0, this.listed);
    const places = this.places;
    // In a repository with several worktrees, sessions working in more than one place: a row per
    // worktree, the workspace's own first.
    const worktrees = places?.worktrees() ?? [];
    const groups = places && worktrees.length > 1 ? groupByWorktree(listed, (event) => places.folderOf(event.session), worktrees, places.workspaceFolders()) : undefined;
    const rows: SessionsRow[] = groups ? groups.map((group) => ({ kind: 'worktree', group })) : listed.map((event) => ({ kind: 'session', event }));
    if (sessions.length > this.listed) rows.push({ kind: 'more', remaining: sessions.length - this.listed });
    const needsYou = this.needsYouRow();
    return needsYou ? [needsYou, ...rows] : rows;
  }

  getTreeItem(element: SessionsRow): vscode.TreeItem {
    if (element.kind === 'more') return moreSessionsItem(element.remaining);
    if (element.kind === 'worktree') return worktreeGroupItem(element);
    if (element.kind === 'needs-you') return needsYouSectionItem(element);
    if (element.kind === 'needs-you-entry') return needsYouEntryItem(element, this.store.details(element.session).chat !== undefined);
    const { event } = element;
    const details = this.store.details(event.session);
    const title = sessionTitle(event, t, details);
    const subagents = this.children.get(event.session) ?? [];
    const item = new vscode.TreeItem(title, subagents.length > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
    // VS Code keeps the state it first saw for an id: a row that gains subagents (a leaf until
    // then) gets an id of its own, so it opens.
    item.id = subagents.length > 0 ? `${event.session}/subagents` : event.session;
    const shown = this.display.session === event.session;
    const pinned = shown && !this.display.followingLatest;
    const icon = details.agent ? agentIcon(details.agent) : TOOL_SESSION_ICON;
    const mark = sessionMark(this.health.signals(event.session));
    item.iconPath = pinned ? new vscode.ThemeIcon('pinned') : shown ? new vscode.ThemeIcon('eye') : (mark?.icon ?? new vscode.ThemeIcon(icon));
    const when = relativeTime(event.ts, new Date(), t);
    const agent = details.agent ? agentName(details.agent) : undefined;
    const running = subagents.filter((child) => this.store.details(child.session).running).length;
    const subagentText = subagents.length === 0 ? undefined : subagents.length === 1 ? t('1 subagent, {0} running', running) : t('{0} subagents, {1} running', subagents.length, running);
    item.description = [mark?.word, agent, progressText(event.counts, t), subagentText, when].filter((part) => part !== undefined).join(' · ');
    // The tooltip comes on hover (resolveTreeItem): it reads the session's ledger.
    item.contextValue = details.chat !== undefined ? ItemContext.ChatSession : ItemContext.Session;
    const label = agent
      ? t('Session {0} of {1}, {2}, {3}', title, agent, progressText(event.counts, t), when)
      : t('Session {0}, {1}, {2}', title, progressText(event.counts, t), when);
    item.accessibilityInformation = { label: [label, subagentText, mark?.word].filter((part) => part !== undefined).join(', ') };
    item.command = { command: CommandId.SelectSession, title: t('Show this session'), arguments: [event.session] };
    return item;
  }

  /** A session row's tooltip: its title, signal, agent, progress, worktree and key. */
  private sessionTooltip(event: LogEvent): vscode.MarkdownString {
    const details = this.store.details(event.session);
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendText(sessionTitle(event, t, details));
    tooltip.appendMarkdown('\n\n');
    const mark = sessionMark(this.health.signals(event.session));
    if (mark) tooltip.appendMarkdown(`$(${mark.icon.id}) `).appendText(mark.word).appendMarkdown('\n\n');
    if (details.agent) tooltip.appendMarkdown(`$(${agentIcon(details.agent)}) `).appendText(agentName(details.agent)).appendMarkdown('\n\n');
    tooltip.appendText(`${progressText(event.counts, t)} · ${t('last write {0}', dateTimeText(event.ts))}`);
    tooltip.appendMarkdown('\n\n');
    const worktree = this.places?.worktreeFor(event.session);
    if (worktree) tooltip.appendMarkdown('$(git-branch) ').appendText(worktreeTooltip(worktree)).appendMarkdown('\n\n');
    tooltip.appendText(t('Session {0}', event.session.slice(0, 8)));
    return tooltip;
  }

  /** The tooltip, on hover, with the session's total (the first ask reads the session's past). */
  async resolveTreeItem(item: vscode.TreeItem, element: SessionsRow, token: vscode.CancellationToken): Promise<vscode.TreeItem> {
    if (element.kind !== 'session') return item;
    const tooltip = this.sessionTooltip(element.event);
    item.tooltip = tooltip;
    const book = await this.ledgers?.get(element.event.session).catch(() => undefined);
    if (!book || token.isCancellationRequested) return item;
    // A finished plan's time stops at its last line; an open one's runs to now.
    const ledger = book.ledger(openCount(element.event.counts) > 0 ? Date.now() : undefined);
    const total = ledgerText({ ms: ledger.elapsedMs, all: ledger.total }, t, { detail: true });
    if (total !== '') tooltip.appendMarkdown('\n\n$(pulse) ').appendText(t('Total: {0}', total));
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function moreSessionsItem(remaining: number): vscode.TreeItem {
  const next = Math.min(SESSIONS_PAGE, remaining);
  const item = new vscode.TreeItem(t('Show {0} older sessions…', next), vscode.TreeItemCollapsibleState.None);
  item.id = 'agentPlan.moreSessions';
  item.iconPath = new vscode.ThemeIcon('ellipsis');
  item.description = t('{0} not listed yet', remaining);
  item.contextValue = ItemContext.MoreSessions;
  item.command = { command: CommandId.ShowMoreSessions, title: t('Show older sessions') };
  return item;
}

/** The Plan view's description (progress) and badge (open items); both empty without items. */
export function planHeader(event: LogEvent | undefined): { description: string | undefined; badge: number | undefined } {
  if (!event || event.todos.length === 0) return { description: undefined, badge: undefined };
  const open = openCount(event.counts);
  return { description: progressText(event.counts, t), badge: open > 0 ? open : undefined };
}

/** The line above the Plan view's rows: an older version, a plan the agent emptied, or one from an earlier turn. */
export function planMessage(display: DisplayState, store: PlanStore): string | undefined {
  const version = display.shownVersion;
  if (version) {
    return version.behind === 1
      ? t('Older version, saved {0}: the latest is one version newer.', versionTime(version.event.ts))
      : t('Older version, saved {0}: the latest is {1} versions newer.', versionTime(version.event.ts), version.behind);
  }
  const event = display.event;
  if (event && event.todos.length === 0) return t('The agent cleared its plan at {0}.', timeText(event.ts));
  if (event && store.details(event.session).earlierTurn) {
    return t('This plan is from an earlier turn: the latest request has not updated it.');
  }
  return undefined;
}

/** The Plan view's description, badge and message, for the plan shown. */
function updatePlanView(plan: vscode.TreeView<PlanElement>, display: DisplayState, store: PlanStore): void {
  const header = planHeader(display.event);
  plan.description = header.description;
  plan.badge = header.badge === undefined ? undefined : { value: header.badge, tooltip: t('{0} open items in the plan', header.badge) };
  const message = planMessage(display, store);
  // Setting a message goes through the same 200 ms debounce as a tree refresh and
  // would hold the next refresh back: set it only when it changes.
  if (plan.message !== message) plan.message = message;
}

/** The Sessions view's own commands: the next page of older sessions, and the attention toggle. */
function registerSessionsCommands(sessionsProvider: SessionsTreeProvider, setContext: (key: string, value: boolean) => void): vscode.Disposable[] {
  const setAttentionOnly = (only: boolean) => {
    sessionsProvider.attentionOnly = only;
    setContext(ContextKey.AttentionOnly, only);
    sessionsProvider.refresh();
  };
  return [
    vscode.commands.registerCommand(CommandId.ShowMoreSessions, () => sessionsProvider.showMore()),
    vscode.commands.registerCommand(CommandId.ShowSessionsNeedingAttention, () => setAttentionOnly(true)),
    vscode.commands.registerCommand(CommandId.ShowAllSessions, () => setAttentionOnly(false)),
  ];
}

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

/** Creates both views and keeps their badge, description, message and context keys in step. */
export function createViews(
  display: DisplayState,
  store: PlanStore,
  health: HealthBook,
  timelines?: TimelineSource,
  requests?: RequestBook,
  files?: FileBook,
  places?: SessionPlaces,
  ledgers?: LedgerBook,
  needsYou?: NeedsYouBook,
): vscode.Disposable & { plan: vscode.TreeView<PlanElement>; update(): void } {
  const planProvider = new PlanTreeProvider(display, store, health, timelines, requests, files, ledgers);
  const sessionsProvider = new SessionsTreeProvider(display, store, health, places, ledgers, needsYou);
  const placesSubscription = places?.onDidChange(() => sessionsProvider.refresh());
  const plan = vscode.window.createTreeView(ViewId.Plan, { treeDataProvider: planProvider, showCollapseAll: false });
  const sessions = vscode.window.createTreeView(ViewId.Sessions, { treeDataProvider: sessionsProvider });
  // Each context key costs a round trip to the window: send only changes.
  const contextValues = new Map<string, boolean>();
  function setContext(key: string, value: boolean): void {
    if (contextValues.get(key) === value) return;
    contextValues.set(key, value);
    void vscode.commands.executeCommand('setContext', key, value);
  }
  const commands = registerSessionsCommands(sessionsProvider, setContext);

  function update(): void {
    planProvider.refresh();
    sessionsProvider.refresh();
    updatePlanView(plan, display, store);
    const sessionCount = store.size;
    sessions.description = sessionCount > 0 ? String(sessionCount) : undefined;
    setContext(ContextKey.FollowingLatest, display.followingLatest);
    setContext(ContextKey.ViewingHistory, display.shownVersion !== undefined);
    setContext(ContextKey.HasPlan, display.event !== undefined);
  }

  const subscription = display.onDidChange(update);
  const healthSubscription = health.onDidChange(({ session }) => {
    sessionsProvider.refresh();
    if (session === display.session) planProvider.refresh();
  });
  // The files and costs of the session on screen: a file/write or model/usage line folds into the same refresh as its read's other changes.
  const bookSubscriptions = [files, ledgers].flatMap((book) => (book ? [book.onDidChange((session) => session === display.session && planProvider.refresh())] : []));
  const needsYouSubscription = needsYou ? showNeedsYou(needsYou, sessions, sessionsProvider) : undefined;
  // "5 min ago" ages: redraw the session rows each minute while they are on screen.
  const clock = setInterval(() => {
    if (sessions.visible && store.size > 0) sessionsProvider.refresh();
  }, 60_000);
  update();
  return {
    plan,
    update,
    dispose() {
      clearInterval(clock);
      const parts = [...commands, subscription, healthSubscription, ...bookSubscriptions, needsYouSubscription, placesSubscription];
      for (const part of [...parts, plan, sessions, planProvider, sessionsProvider]) part?.dispose();
    },
  };
}

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
  relativeTimeChangesAt,
  sessionTitle,
  statusWord,
} from '../core/plan/present';
import type { PlanRecord } from '../core/log/sessionLog';
import type { PlanStore } from '../core/plan/store';
import type { HealthBook } from '../core/derived/healthBook';
import type { RequestBook } from '../core/derived/requests';
import { linkRows, linkTreeItem, requestRows, requestTreeItem, type LinkElement, type RequestElement } from './plan/requestRows';
import { droppedTreeItem, healthRows, sessionMark, signalTreeItem, type DroppedElement, type SignalElement } from './plan/healthRows';
import { TOOL_SESSION_ICON, agentIcon, agentName, dateTimeText, timeText, versionTime } from './agentLooks';
import { bindTable, type BoundTable, type CommandTable } from './commands/commandTable';
import { CommandId, ContextKey, ItemContext, ViewId } from './ids';
import { itemDurations } from './timeline/timelineText';
import { groupByWorktree } from '../core/worktrees/worktreeGroups';
import { worktreeTooltip, type SessionPlaces } from './sessions/sessionPlaces';
import { worktreeGroupItem, type WorktreeGroupElement } from './sessions/worktreeRows';
import type { TimelineSource } from '../core/timeline/timelineRead';
import type { FileBook, SessionFiles } from '../core/derived/itemFiles';
import type { NeedsYouBook } from '../core/derived/needsYouBook';
import { needsYouBadge, needsYouSection } from '../core/derived/needsYouText';
import { NEEDS_YOU_ROWS_SHOWN, needsYouEntries, needsYouEntryItem, needsYouSectionItem, type NeedsYouEntryElement, type NeedsYouSectionElement } from './sessions/needsYouRows';
import { ChangeFold, rowsInPlace, rowsToRefresh, type FoldedChange, type RowsLayout } from '../core/plan/viewChanges';
import { fileRows, filesCount, filesTooltipLine, fileTreeItem, outsideFilesTreeItem, type FileElement, type OutsideFilesElement } from './plan/fileRows';
import type { ItemLedger } from '../core/derived/ledger';
import type { LedgerBook } from '../core/derived/ledgerBook';
import { ledgerText } from '../core/derived/ledgerText';
import { changesTooltip, diffstatText, type ItemDiffstats } from './review/review';

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
  /** The item at this place: a row keeps its element while the plan keeps its shape, and is redrawn alone. */
  todo: PlanItem;
}

/**
 * A plan row, built from the data alone; the id is stable across updates so selection survives.
 * An item that changed files opens to a row per file, and says how many; an item that was in
 * progress says what it cost ("6 min · 14 calls · 52k tokens").
 */
export function todoTreeItem(element: TodoElement, files = 0, cost?: ItemLedger, changes?: string): vscode.TreeItem {
  const { todo } = element;
  const label = itemLabel(todo.content, t);
  const item = new vscode.TreeItem(label, files > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
  const spent = cost ? ledgerText({ ms: cost.inProgressMs, all: cost.all, shared: cost.shared }, t) : '';
  const description = [changes ?? '', spent, files > 0 ? filesCount(files) : ''].filter((part) => part !== '').join(' · ');
  if (description !== '') item.description = description;
  // By place: a row whose text or status changed keeps its id, so it is redrawn alone (the
  // new item goes with the refresh, no round trip); foreign plans may repeat an item.
  item.id = `${element.session}/${element.index}`;
  const icon = STATUS_ICONS[todo.status];
  item.iconPath = new vscode.ThemeIcon(icon.id, new vscode.ThemeColor(icon.color));
  item.contextValue = `${ItemContext.Todo}.${todo.status}`;
  item.accessibilityInformation = { label: t('{0}, {1}', label, statusWord(todo.status, t)) };
  return item;
}

export type PlanElement = TodoElement | SignalElement | DroppedElement | RequestElement | LinkElement | FileElement | OutsideFilesElement;

export class PlanTreeProvider implements vscode.TreeDataProvider<PlanElement>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<PlanElement[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(
    private readonly display: DisplayState,
    private readonly store: PlanStore,
    private readonly health: HealthBook,
    private readonly timelines?: TimelineSource,
    private readonly requests?: RequestBook,
    private readonly files?: FileBook,
    private readonly ledgers?: LedgerBook,
    private readonly diffstats?: ItemDiffstats,
  ) {}

  /** What each item of the session on screen cost, as of its rows' last listing. */
  private costs = new Map<string, ItemLedger>();
  /** What the view showed at its last refresh: the session, the older version if one, and the sessions its link rows name. */
  private shown: { session: string | undefined; version: unknown; linked: string } = { session: undefined, version: undefined, linked: '' };
  /** The top rows VS Code was last given, and what each showed (see rowShape); the rows a root refresh computed for VS Code's next ask. */
  private rows: { elements: PlanElement[]; shapes: string[]; looks: string[] } | undefined;
  private fresh: { elements: PlanElement[]; shapes: string[]; looks: string[] } | undefined;

  /**
   * Refreshes the plan's rows when the change concerns what is on screen: the session shown
   * (its plan, health, files, costs or requests), or which session or version is shown. A
   * change of another session redraws nothing here: a refresh would hold the next one back
   * behind the tree's 200 ms debounce. Returns whether it refreshed.
   */
  apply(change: FoldedChange): boolean {
    const session = this.display.session;
    const version = this.display.shownVersion;
    // A link row names another session by its title: a new link, or a change of a linked session, shows here too.
    const links = session !== undefined ? this.requests?.links(session) : undefined;
    const others = links ? [...(links.from !== undefined ? [links.from] : []), ...links.to] : [];
    const linked = others.join(' ');
    const moved = session !== this.shown.session || version !== this.shown.version || linked !== this.shown.linked;
    const touched = session !== undefined && (change.sessions.has(session) || others.some((other) => change.sessions.has(other)));
    if (!change.all && !moved && !touched) return false;
    this.shown = { session, version, linked };
    const next = this.topRows();
    const before = this.rows;
    // The same rows in the same places: only the items whose text, status, files or cost
    // changed, and the signals that changed, are redrawn, and their new look goes with the refresh (no round trip).
    const inPlace = rowsInPlace(before, next);
    if (before && inPlace !== 'root') {
      const redraw: PlanElement[] = [];
      for (const i of inPlace) {
        const kept = before.elements[i];
        const element = next.elements[i];
        if (kept?.kind === 'todo' && element?.kind === 'todo') kept.todo = element.todo;
        else if (kept?.kind === 'signal' && element?.kind === 'signal') kept.signal = element.signal;
        else continue;
        before.looks[i] = next.looks[i] ?? '';
        redraw.push(kept);
      }
      if (redraw.length > 0) this.changed.fire(redraw);
      return redraw.length > 0;
    }
    this.fresh = next;
    this.changed.fire(undefined);
    return true;
  }

  /**
   * The plan's top rows now, each with its shape (what fixes its place: kind, and for an item
   * whether it opens to files; for a signal its place; everything for the other rows) and its look (what its row shows).
   */
  private topRows(): { elements: PlanElement[]; shapes: string[]; looks: string[] } {
    const elements = this.listTop();
    const shapes: string[] = [];
    const looks: string[] = [];
    for (const element of elements) {
      if (element.kind === 'todo') {
        const files = this.filesOf(element.session)?.of(element.todo.content) ?? [];
        const cost = this.costs.get(element.todo.content);
        shapes.push(`todo\t${element.session}\t${element.index}\t${files.length > 0}`);
        // An item that opens to its files: a redraw of its row fetches them again when it is open.
        const changes = diffstatText(this.diffstats?.known(element.session, element.todo.content));
        looks.push(JSON.stringify([element.todo.content, element.todo.status, files, cost ? ledgerText({ ms: cost.inProgressMs, all: cost.all, shared: cost.shared }, t) : '', changes]));
      } else if (element.kind === 'signal') {
        // A signal's row by its place: a reworded item, a newer stall, is the same row redrawn.
        shapes.push(`signal\t${element.session}\t${element.index}`);
        looks.push(JSON.stringify(element.signal));
      } else {
        shapes.push(JSON.stringify(element));
        looks.push('');
      }
    }
    return { elements, shapes, looks };
  }

  getChildren(element?: PlanElement): PlanElement[] {
    if (element?.kind === 'todo') return fileRows(element.session, element.todo.content, this.filesOf(element.session)?.of(element.todo.content) ?? []);
    if (element?.kind === 'outside') return fileRows(element.session, undefined, element.files);
    if (element) return [];
    const rows = this.fresh ?? this.topRows();
    this.fresh = undefined;
    this.rows = rows;
    return rows.elements;
  }

  private listTop(): PlanElement[] {
    const event = this.display.event;
    if (!event) return [];
    const todos = event.todos.map((todo, index): TodoElement => ({ kind: 'todo', session: event.session, index, todo }));
    this.costs = this.costsOf(event.session);
    // Signals speak of the current plan: an older version on screen shows without them.
    if (this.display.shownVersion) return todos;
    const { above, below } = healthRows(event.session, this.health.signals(event.session));
    const requests = requestRows(event.session, this.requests?.known(event.session) ?? []);
    const links = this.requests ? linkRows(event.session, this.requests.links(event.session), (other) => this.titleOf(other)) : [];
    const book = this.filesOf(event.session);
    const outside = book?.session() ?? [];
    const unknown = book?.unknown() ?? [];
    const outsideRow: OutsideFilesElement[] = [
      ...(outside.length > 0 ? [{ kind: 'outside' as const, session: event.session, files: [...outside] }] : []),
      ...(unknown.length > 0 ? [{ kind: 'outside' as const, session: event.session, files: [...unknown], unknown: true }] : []),
    ];
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
    const changes = diffstatText(this.diffstats?.known(element.session, element.todo.content));
    return todoTreeItem(element, this.filesOf(element.session)?.of(element.todo.content).length ?? 0, cost, changes);
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
    const changed = changesTooltip(this.diffstats?.known(element.session, element.todo.content));
    if (changed !== undefined) tooltip.appendMarkdown('\n\n$(diff) ').appendText(changed);
    item.tooltip = tooltip;
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export interface SessionElement {
  readonly kind: 'session';
  /** The session's key: the element stays the same object while its row is listed, so one row can be redrawn alone. */
  readonly session: string;
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

/** The Sessions view's top rows, the subagents under each listed parent, and their layout. */
interface SessionsListing {
  readonly rows: SessionsRow[];
  readonly children: Map<string, PlanRecord[]>;
  readonly layout: RowsLayout;
}

export class SessionsTreeProvider implements vscode.TreeDataProvider<SessionsRow>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<SessionsRow | SessionsRow[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private listed = SESSIONS_PAGE;
  private readonly fold = new ChangeFold((change) => this.apply(change), queueMicrotask);
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

  /** Redraws every row, once for all the changes of this turn. */
  refresh(): void {
    this.fold.add(undefined);
  }

  /** Redraws the session's row (every row when the rows moved), once for all the changes of this turn. */
  sessionChanged(session: string | undefined): void {
    this.fold.add(session);
  }

  /** The listing VS Code was last sent (or is about to ask for), and the one a root refresh computed for it. */
  private listing: SessionsListing | undefined;
  private fresh: SessionsListing | undefined;
  /** One element per listed session, the same object from listing to listing. */
  private elements = new Map<string, SessionElement>();
  /** The session shown in the Plan view at the last redraw, and whether it was pinned (its row's icon). */
  private shown = { session: undefined as string | undefined, pinned: false };

  /** Whether the view is on screen; off screen, a change only marks every row stale (nothing is listed). */
  isVisible: () => boolean = () => true;

  /** When each drawn session row's "5 min ago" next reads differently (epoch ms); one timer, at the soonest, while on screen. */
  private readonly ages = new Map<string, number>();
  private ageTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the timer set fires for (Infinity: none set). */
  private ageTimerFor = Infinity;

  /** Redraws the rows whose age text has changed, and waits for the next one: no timer while no row's text can change, or off screen. */
  visibilityChanged(): void {
    this.age();
  }

  private age(): void {
    if (this.ageTimer !== undefined) clearTimeout(this.ageTimer);
    this.ageTimer = undefined;
    this.ageTimerFor = Infinity;
    if (!this.isVisible() || this.ages.size === 0) return;
    const now = Date.now();
    let next = Infinity;
    for (const [session, at] of this.ages) {
      if (at <= now) {
        this.ages.delete(session);
        this.fold.add(session);
      } else {
        next = Math.min(next, at);
      }
    }
    // A second after the soonest change: its text is new when drawn, and rows that change
    // within that second are redrawn in the same refresh.
    if (next === Infinity) return;
    this.ageTimerFor = next;
    this.ageTimer = setTimeout(() => this.age(), next - now + 1000);
  }

  private apply(change: FoldedChange): void {
    if (!this.isVisible()) {
      this.listing = undefined;
      this.fresh = undefined;
      this.changed.fire(undefined);
      return;
    }
    const next = this.list();
    const shown = { session: this.display.session, pinned: !this.display.followingLatest };
    const marks = shown.session !== this.shown.session || shown.pinned !== this.shown.pinned ? [this.shown.session, shown.session].filter((s): s is string => s !== undefined) : [];
    this.shown = shown;
    const rows = rowsToRefresh(this.listing?.layout, next.layout, change, marks);
    if (rows === 'root') {
      this.listing = next;
      this.fresh = next;
      this.changed.fire(undefined);
    } else if (rows.length > 0) {
      this.changed.fire(rows.map((session) => this.element(session)));
    }
  }

  private element(session: string): SessionElement {
    let element = this.elements.get(session);
    if (!element) {
      element = { kind: 'session', session };
      this.elements.set(session, element);
    }
    return element;
  }

  /** The "Needs You" section over the queue as it is now; none when no session waits on the user. */
  private needsYouRow(): NeedsYouSectionElement | undefined {
    const section = this.needsYou ? needsYouSection(this.needsYou.queue(), (session) => this.nameOf(session), t, NEEDS_YOU_ROWS_SHOWN) : undefined;
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

  getChildren(element?: SessionsRow): SessionsRow[] {
    if (element?.kind === 'worktree') return element.group.rows.map((event) => this.element(event.session));
    if (element?.kind === 'needs-you') return needsYouEntries(element);
    if (element) return element.kind === 'session' ? (this.listing?.children.get(element.session) ?? []).map((event) => this.element(event.session)) : [];
    const listing = this.fresh ?? this.list();
    this.fresh = undefined;
    this.listing = listing;
    // Elements of rows no longer listed go; those still listed stay the same objects.
    const kept = new Map<string, SessionElement>();
    for (const session of listing.layout.parents.keys()) kept.set(session, this.element(session));
    this.elements = kept;
    for (const session of this.ages.keys()) if (!kept.has(session)) this.ages.delete(session);
    return listing.rows;
  }

  /** What the view lists now: computed at each change, to tell whether only some rows changed. */
  private list(): SessionsListing {
    let sessions = this.store.list();
    // A subagent's session is listed under its parent's, when the parent is listed; never mixed into it.
    const present = new Set(sessions.map((event) => event.session));
    const children = new Map<string, PlanRecord[]>();
    const top: PlanRecord[] = [];
    for (const event of sessions) {
      const parent = this.store.details(event.session).parent;
      if (parent !== undefined && parent !== event.session && present.has(parent)) {
        const list = children.get(parent) ?? [];
        list.push(event);
        children.set(parent, list);
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
    const rows: SessionsRow[] = groups ? groups.map((group) => ({ kind: 'worktree', group })) : listed.map((event) => this.element(event.session));
    const remaining = sessions.length - this.listed;
    if (remaining > 0) rows.push({ kind: 'more', remaining });
    const needsYou = this.needsYouRow();
    const layout = sessionsLayout(needsYou, groups ?? [{ key: '', rows: listed }], children, remaining);
    return { rows: needsYou ? [needsYou, ...rows] : rows, children, layout };
  }

  getTreeItem(element: SessionsRow): vscode.TreeItem {
    if (element.kind === 'more') return moreSessionsItem(element.remaining);
    if (element.kind === 'worktree') return worktreeGroupItem(element);
    if (element.kind === 'needs-you') return needsYouSectionItem(element);
    if (element.kind === 'needs-you-entry') return needsYouEntryItem(element, this.store.details(element.session).chat !== undefined);
    const event = this.store.get(element.session);
    // Gone since it was listed: the root's refresh that drops it follows.
    if (!event) return new vscode.TreeItem(element.session.slice(0, 8));
    const details = this.store.details(event.session);
    const title = sessionTitle(event, t, details);
    const subagents = this.listing?.children.get(event.session) ?? [];
    const item = new vscode.TreeItem(title, subagents.length > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
    // VS Code keeps the state it first saw for an id: a row that gains subagents (a leaf until
    // then) gets an id of its own, so it opens.
    item.id = subagents.length > 0 ? `${event.session}/subagents` : event.session;
    const shown = this.display.session === event.session;
    const pinned = shown && !this.display.followingLatest;
    const icon = details.agent ? agentIcon(details.agent) : TOOL_SESSION_ICON;
    const mark = sessionMark(this.health.signals(event.session));
    item.iconPath = pinned ? new vscode.ThemeIcon('pinned') : shown ? new vscode.ThemeIcon('eye') : (mark?.icon ?? new vscode.ThemeIcon(icon));
    const now = new Date();
    const when = relativeTime(event.ts, now, t);
    this.noteAge(event.session, relativeTimeChangesAt(event.ts, now));
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
  private sessionTooltip(event: PlanRecord): vscode.MarkdownString {
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
    const event = element.kind === 'session' ? this.store.get(element.session) : undefined;
    if (!event) return item;
    const tooltip = this.sessionTooltip(event);
    item.tooltip = tooltip;
    const book = await this.ledgers?.get(event.session).catch(() => undefined);
    if (!book || token.isCancellationRequested) return item;
    // A finished plan's time stops at its last line; an open one's runs to now.
    const ledger = book.ledger(openCount(event.counts) > 0 ? Date.now() : undefined);
    const total = ledgerText({ ms: ledger.elapsedMs, all: ledger.total }, t, { detail: true });
    if (total !== '') tooltip.appendMarkdown('\n\n$(pulse) ').appendText(t('Total: {0}', total));
    return item;
  }

  /** Notes when a drawn row's age text changes; sets the timer sooner when this row changes first. */
  private noteAge(session: string, at: number | undefined): void {
    if (at === undefined) this.ages.delete(session);
    else this.ages.set(session, at);
    if (at !== undefined && at < this.ageTimerFor) this.age();
  }

  dispose(): void {
    if (this.ageTimer !== undefined) clearTimeout(this.ageTimer);
    this.ageTimer = undefined;
    this.ageTimerFor = -Infinity;
    this.ages.clear();
    this.changed.dispose();
  }
}

/**
 * The rows' shape: the Needs You section's rows as drawn, each listed session (after its
 * group, before its subagents) and the count not listed. Equal shapes: only rows' contents changed.
 */
function sessionsLayout(
  needsYou: NeedsYouSectionElement | undefined,
  groups: ReadonlyArray<{ key: string; rows: readonly PlanRecord[] }>,
  children: ReadonlyMap<string, readonly PlanRecord[]>,
  remaining: number,
): RowsLayout {
  const parts: string[] = needsYou ? [`n:${needsYou.label}`, ...needsYouEntries(needsYou).map(({ row }) => `n:${row.session}\t${row.title}\t${row.description}`)] : [];
  const parents = new Map<string, string | undefined>();
  for (const group of groups) {
    parts.push(`w:${group.key}`);
    for (const { session } of group.rows) {
      parts.push(`s:${session}`);
      parents.set(session, undefined);
      for (const child of children.get(session) ?? []) {
        parts.push(`c:${child.session}`);
        parents.set(child.session, session);
      }
    }
  }
  parts.push(`more:${Math.max(0, remaining)}`);
  return { key: parts.join('\n'), parents };
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
export function planHeader(event: PlanRecord | undefined): { description: string | undefined; badge: number | undefined } {
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
  // Each of these is a message to the window: send only changes.
  if (plan.description !== header.description) plan.description = header.description;
  if (plan.badge?.value !== header.badge) plan.badge = header.badge === undefined ? undefined : { value: header.badge, tooltip: t('{0} open items in the plan', header.badge) };
  const message = planMessage(display, store);
  // Setting a message goes through the same 200 ms debounce as a tree refresh, so it is set
  // after the refresh of the same change (which then goes at once) and only when it changes.
  if (plan.message !== message) plan.message = message;
}

/** What the Sessions view's own commands act on. */
interface SessionsViewControl {
  showMore(): void;
  setAttentionOnly(only: boolean): void;
}

/** The Sessions view's own commands: the next page of older sessions, and the attention toggle. */
const SESSIONS_VIEW_COMMANDS = {
  [CommandId.ShowMoreSessions]: (view) => view.showMore(),
  [CommandId.ShowSessionsNeedingAttention]: (view) => view.setAttentionOnly(true),
  [CommandId.ShowAllSessions]: (view) => view.setAttentionOnly(false),
} satisfies CommandTable<SessionsViewControl>;

function sessionsViewCommands(provider: SessionsTreeProvider, setContext: (key: string, value: boolean) => void) {
  return bindTable(SESSIONS_VIEW_COMMANDS, {
    showMore: () => provider.showMore(),
    setAttentionOnly: (only) => {
      provider.attentionOnly = only;
      setContext(ContextKey.AttentionOnly, only);
      provider.refresh();
    },
  });
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

/** What the views show: the plans and what is derived from their logs. */
export interface ViewsDeps {
  display: DisplayState;
  store: PlanStore;
  health: HealthBook;
  /** The logs' lines, for the items' durations. */
  timelines?: TimelineSource;
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
  changed(undefined);
  return {
    plan,
    commands,
    update: () => changed(undefined),
    dispose() {
      const parts = [visibility, subscription, healthSubscription, ...bookSubscriptions, needsYouSubscription, placesSubscription];
      for (const part of [...parts, plan, sessions, planProvider, sessionsProvider]) part?.dispose();
    },
  };
}

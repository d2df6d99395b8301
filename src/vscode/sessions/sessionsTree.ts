// The Sessions tree view: a row per session (its subagents under it, grouped by worktree when
// sessions work in several), the "Needs You" section on top, and a row for the older sessions
// not listed yet. Read-only by design: a row shows a session, a click shows its plan.
import * as vscode from 'vscode';
import type { DisplayState } from '../../core/store/display';
import { openCount, progressText, relativeTime, relativeTimeChangesAt, sessionTitle } from '../../core/plan/present';
import type { PlanRecord } from '../../core/log/sessionLog';
import type { PlanStore } from '../../core/store/store';
import type { HealthBook } from '../../core/derived/healthBook';
import { groupByWorktree } from '../../core/worktrees/worktreeGroups';
import type { NeedsYouBook } from '../../core/derived/needsYouBook';
import { needsYouSection } from '../../core/derived/needsYouText';
import { ChangeFold, rowsToRefresh, type FoldedChange, type RowsLayout } from '../../core/store/viewChanges';
import type { LedgerBook } from '../../core/derived/ledgerBook';
import { ledgerText } from '../../core/derived/ledgerText';
import { TOOL_SESSION_ICON, agentIcon, agentName, dateTimeText } from '../agentLooks';
import { CommandId, ItemContext } from '../ids';
import { sessionMark } from '../signalLooks';
import { worktreeTooltip, type SessionPlaces } from '../sessionPlaces';
import { worktreeGroupItem, type WorktreeGroupElement } from './worktreeRows';
import { NEEDS_YOU_ROWS_SHOWN, needsYouEntries, needsYouEntryItem, needsYouSectionItem, type NeedsYouEntryElement, type NeedsYouSectionElement } from './needsYouRows';

const t = vscode.l10n.t;

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

export type SessionsRow = SessionElement | MoreSessionsElement | WorktreeGroupElement | NeedsYouSectionElement | NeedsYouEntryElement;

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
    const event = this.store.summary(session);
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
    const event = this.store.summary(element.session);
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
    const event = element.kind === 'session' ? this.store.summary(element.session) : undefined;
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

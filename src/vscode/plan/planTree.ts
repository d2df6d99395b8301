// The Plan tree view: the rows of the plan on screen (its items, and around them its health
// signals, requests, links and files). Read-only by design: it shows what the display state
// points at and never writes a plan.
import * as vscode from 'vscode';
import type { DisplayState } from '../../core/store/display';
import type { ItemStatus, PlanItem } from '../../core/plan/plan';
import { itemLabel, sessionTitle, statusWord, durationText } from '../../core/plan/present';
import type { PlanStore } from '../../core/store/store';
import type { HealthBook } from '../../core/derived/healthBook';
import type { RequestBook } from '../../core/derived/requests';
import type { TimelineLog } from '../../core/timeline/timelineRead';
import type { FileBook, SessionFiles } from '../../core/derived/itemFiles';
import { rowsInPlace, type FoldedChange } from '../../core/store/viewChanges';
import type { ItemLedger } from '../../core/derived/ledger';
import type { LedgerBook } from '../../core/derived/ledgerBook';
import { ledgerText } from '../../core/derived/ledgerText';
import { ItemContext } from '../ids';
import { itemDurations } from './itemDurations';
import { changesTooltip, diffstatText, type ItemDiffstats } from '../diffstats';
import { linkRows, linkTreeItem, requestRows, requestTreeItem, type LinkElement, type RequestElement } from './requestRows';
import { droppedTreeItem, healthRows, signalTreeItem, type DroppedElement, type SignalElement } from './healthRows';
import { fileRows, filesCount, filesTooltipLine, fileTreeItem, outsideFilesTreeItem, type FileElement, type OutsideFilesElement } from './fileRows';

const t = vscode.l10n.t;

const STATUS_ICONS: Record<ItemStatus, { id: string; color: string }> = {
  pending: { id: 'circle-large-outline', color: 'descriptionForeground' },
  in_progress: { id: 'sync~spin', color: 'charts.blue' },
  completed: { id: 'pass-filled', color: 'testing.iconPassed' },
  cancelled: { id: 'circle-slash', color: 'disabledForeground' },
  blocked: { id: 'warning', color: 'list.warningForeground' },
};

/** Whether the user asked the workbench not to move (`workbench.reduceMotion` "on"): the in-progress icon then stands still. */
function motionReduced(): boolean {
  return vscode.workspace.getConfiguration('workbench').get<string>('reduceMotion') === 'on';
}

/** A status's icon as the views draw it now: in progress turns, but where the user asked for reduced motion. */
export function statusIcon(status: ItemStatus): { id: string; color: string } {
  const icon = STATUS_ICONS[status];
  return motionReduced() ? { ...icon, id: icon.id.replace('~spin', '') } : icon;
}

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
  const spent = cost ? ledgerText({ ms: cost.inProgressMs, all: cost.all, shared: cost.shared, asks: cost.asks }, t) : '';
  const description = [changes ?? '', spent, files > 0 ? filesCount(files) : ''].filter((part) => part !== '').join(' · ');
  if (description !== '') item.description = description;
  // By place: a row whose text or status changed keeps its id, so it is redrawn alone (the
  // new item goes with the refresh, no round trip); foreign plans may repeat an item.
  item.id = `${element.session}/${element.index}`;
  const icon = statusIcon(todo.status);
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
    private readonly timelines?: TimelineLog,
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
        looks.push(JSON.stringify([element.todo.content, element.todo.status, files, cost ? ledgerText({ ms: cost.inProgressMs, all: cost.all, shared: cost.shared, asks: cost.asks }, t) : '', changes]));
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

  /** Redraws every row: a change of how every row looks (the workbench's motion setting). */
  redrawAll(): void {
    this.fresh = this.topRows();
    this.changed.fire(undefined);
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
    const spent = cost ? ledgerText({ all: cost.all, shared: cost.shared, asks: cost.asks }, t, { detail: true }) : '';
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

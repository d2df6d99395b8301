// The Plan Timeline: an editor-area webview per session. It reads the newest page of the
// session's versions (never the whole file), older pages as the user pans back, and the
// newest page again as the agent writes (a plan, or a file/write line). The page
// (src/webview/timeline.ts) only draws; every text comes from here, translated. A panel
// open when the window reloads comes back on the same session (the page keeps the
// session's key in its state; the serializer reads it).
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { openWrittenFile } from '../writtenFiles';
import { signalText } from '../../core/derived/healthText';
import { sessionTitle } from '../../core/plan/present';
import { sessionNamedBy } from '../../core/log/sessionKey';
import type { PlanStore } from '../../core/store/store';
import { isFileWrite } from '../../core/log/logRecord';
import { buildLedger } from '../../core/derived/ledger';
import { isUsage } from '../../core/log/usageRecord';
import { buildTimeline, type TimelineLine } from '../../core/timeline/timeline';
import { readTimelinePage, TIMELINE_PAGE, type TimelineLog } from '../../core/timeline/timelineRead';
import type { Event } from '../../core/emitter';
import type { LogRead } from '../../core/log/sessionLog';
import { timelineViewModel } from '../../core/timeline/timelineView';
import type { TimelineHostMessage, TimelinePageMessage } from '../../webview/messages';
import type { DisplayState } from '../../core/store/display';
import type { HealthBook } from '../../core/derived/healthBook';
import type { ItemChanges } from '../../core/derived/itemChanges';
import { versionTime } from '../agentLooks';
import { compareWithPrevious } from '../history/compare';
import { bindTable, type CommandTable } from '../commands/commandTable';
import { CommandId, TIMELINE_VIEW_TYPE } from '../ids';
import { logError, type Logger } from '../log';

import { worktreeLabel } from '../../core/worktrees/worktrees';
import type { SessionPlaces } from '../sessionPlaces';
const t = vscode.l10n.t;

/** What the page reports it drew, read from its DOM. */
export interface TimelineRendered {
  lanes: string[];
  marks: number;
  versions: string[];
}

class TimelinePanel implements vscode.Disposable {
  private lines: TimelineLine[] = [];
  private more = false;
  private before: number | undefined;
  private versions = TIMELINE_PAGE;
  private ready = false;
  /** The first page has been read: until then the page has nothing to draw (not an empty plan). */
  private read = false;
  private waiting: Array<(rendered: TimelineRendered) => void> = [];
  private pending: NodeJS.Timeout | undefined;
  /** The paths the page shows, as recorded: the only ones it may ask to open. */
  private files = new Set<string>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly session: string,
    private readonly deps: TimelineDeps,
    onDispose: () => void,
  ) {
    this.subscriptions.push(
      panel.onDidDispose(() => {
        onDispose();
        this.dispose();
      }),
      panel.webview.onDidReceiveMessage((message: TimelinePageMessage) => this.receive(message)),
      deps.store.onDidWrite((event) => {
        if (event.session === this.session) this.refreshSoon();
      }),
      // A file/write or model/usage line is no plan: the store does not announce it; the log's reader does.
      deps.log.onDidRead((read) => {
        if (read.session === this.session && read.records.some((record) => isFileWrite(record) || isUsage(record))) this.refreshSoon();
      }),
      // A turn's end or a signal comes in a session/info line or from the clock, not as a new version.
      deps.health.onDidChange((change) => {
        if (change.session === this.session) this.refreshSoon();
      }),
    );
    // The items' diffstats, once read (after a snapshot line of the session): drawn again, nothing read.
    if (deps.diffstats) {
      this.subscriptions.push(
        deps.diffstats.onDidChange((session) => {
          if (session === this.session) this.post();
        }),
      );
    }
  }

  /** The next report of what the page drew. */
  nextRender(): Promise<TimelineRendered> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  async reload(): Promise<void> {
    // An older page being read would be lost under the newest one: let it land first.
    await this.loadingOlder;
    const page = await readTimelinePage(this.deps.log, this.session, this.versions);
    this.lines = page.lines;
    this.more = page.more;
    this.before = page.before;
    this.read = true;
    this.post();
  }

  private loadingOlder: Promise<void> | undefined;

  /** The page before the oldest version shown; asked again while it loads, the same load. */
  private older(): Promise<void> {
    this.loadingOlder ??= this.readOlder().finally(() => (this.loadingOlder = undefined));
    return this.loadingOlder;
  }

  private async readOlder(): Promise<void> {
    if (!this.more) return;
    const page = await readTimelinePage(this.deps.log, this.session, TIMELINE_PAGE, this.before);
    this.lines = [...page.lines, ...this.lines];
    this.more = page.more;
    this.before = page.before;
    this.versions += TIMELINE_PAGE;
    this.post();
  }

  private refreshSoon(): void {
    if (this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      void this.reload().catch((error: unknown) => logError(this.deps.logger, 'could not read the timeline', error));
    }, 100);
  }

  private post(): void {
    // The page's `ready` can come before the first read ends: it would draw (and report) no versions.
    if (!this.ready || !this.read) return;
    const now = new Date();
    const timeline = buildTimeline(this.lines, { now: now.getTime() });
    const current = this.deps.store.get(this.session);
    const named = current ? sessionTitle(current, t, this.deps.store.details(this.session)) : this.session.slice(0, 8);
    // Where the session works, when the repository has several worktrees.
    const worktree = this.deps.places?.worktreeFor(this.session);
    const title = worktree ? t('{0} (worktree {1})', named, worktreeLabel(worktree)) : named;
    this.panel.title = t('Timeline: {0}', title);
    const model = timelineViewModel(
      this.session,
      timeline,
      title,
      this.more,
      t,
      (ms) => versionTime(new Date(ms).toISOString(), now),
      (signal) => signalText(signal, now, t),
      // What each item cost, from the same lines as the lanes.
      buildLedger(
        this.lines.map((line) => line.record),
        now.getTime(),
      ),
      this.changesOf(timeline.lanes.map((lane) => lane.content)),
    );
    this.files = new Set([...model.sessionFiles, ...model.lanes.flatMap((lane) => lane.files)].map((file) => file.path));
    void this.panel.webview.postMessage({ type: 'model', model } satisfies TimelineHostMessage);
  }

  /** Each item's changes the diffstats hold (the first ask starts their read; a change event follows). */
  private changesOf(items: readonly string[]): Map<string, ItemChanges> | undefined {
    const diffstats = this.deps.diffstats;
    if (!diffstats) return undefined;
    const known = new Map<string, ItemChanges>();
    for (const item of items) {
      const changes = diffstats.known(this.session, item);
      if (changes) known.set(item, changes);
    }
    return known;
  }

  private receive(message: TimelinePageMessage): void {
    const fail = (error: unknown) => logError(this.deps.logger, 'the timeline failed', error);
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.post();
        return;
      case 'older':
        void this.older().catch(fail);
        return;
      case 'compare':
        void compareWithPrevious(this.deps.store, this.session, message.at).catch(fail);
        return;
      case 'open':
        void this.open(message.path).catch(fail);
        return;
      case 'rendered': {
        const rendered = { lanes: message.lanes, marks: message.marks, versions: message.versions };
        for (const resolve of this.waiting.splice(0)) resolve(rendered);
        return;
      }
    }
  }

  /** Opens a file the page lists (nothing else), when it exists. */
  private async open(recorded: unknown): Promise<void> {
    if (typeof recorded !== 'string' || !this.files.has(recorded)) return;
    await openWrittenFile(recorded);
  }

  dispose(): void {
    if (this.pending) clearTimeout(this.pending);
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
  }
}

/**
 * What a timeline reads of the log: older pages, backwards; and each read of new lines
 * (a file/write line is no plan: the store does not announce it, the log's reader does).
 */
export interface LiveTimelineLog extends TimelineLog {
  readonly onDidRead: Event<LogRead>;
}

export interface TimelineDeps {
  extensionUri: vscode.Uri;
  store: PlanStore;
  display: DisplayState;
  health: HealthBook;
  log: LiveTimelineLog;
  logger: Logger;
  /** Settles when the store's first load is done (a panel revived at start waits for it). */
  loaded: Promise<void>;
  /** Where each session works (its worktree), named in the title. */
  places?: SessionPlaces;
  /** What each item changed (the Plan view's diffstats, review.ts): on each lane. */
  diffstats?: {
    known(session: string, content: string): ItemChanges | undefined;
    readonly onDidChange: Event<string>;
  };
}

/** What Show Timeline acts on: the open panels. */
interface Timelines {
  show(arg?: unknown): Promise<TimelineRendered | undefined>;
}

const TIMELINE_COMMANDS = {
  [CommandId.ShowTimeline]: (timelines, arg?: unknown) => timelines.show(arg),
} satisfies CommandTable<Timelines>;

/** The open panels, one per session, and the Show Timeline command (extension.ts registers it). */
export function createTimelines(deps: TimelineDeps) {
  const panels = new Map<string, TimelinePanel>();

  async function show(arg?: unknown): Promise<TimelineRendered | undefined> {
    const session = sessionNamedBy(arg) ?? deps.display.session;
    if (session === undefined || deps.store.get(session) === undefined) {
      await vscode.window.showInformationMessage(t('There is no agent plan yet in this workspace.'));
      return undefined;
    }
    const open = panels.get(session);
    if (open) {
      open.panel.reveal();
      const rendered = open.nextRender();
      await open.reload();
      return rendered;
    }
    const panel = vscode.window.createWebviewPanel(TIMELINE_VIEW_TYPE, t('Timeline'), vscode.ViewColumn.Active, webviewOptions(deps.extensionUri));
    return attach(panel, session);
  }

  function attach(panel: vscode.WebviewPanel, session: string): Promise<TimelineRendered> {
    panel.webview.html = pageHtml(panel.webview, deps.extensionUri);
    const open = new TimelinePanel(panel, session, deps, () => {
      if (panels.get(session) === open) panels.delete(session);
    });
    panels.set(session, open);
    const rendered = open.nextRender();
    return open.reload().then(() => rendered);
  }

  /** A panel open before the window reloaded: the same session again, or a message when it is gone. */
  async function revive(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    panel.webview.options = webviewOptions(deps.extensionUri);
    const session = sessionNamedBy(state);
    await deps.loaded;
    if (session === undefined || deps.store.get(session) === undefined) {
      panel.title = t('Timeline');
      panel.webview.html = messageHtml(panel.webview, deps.extensionUri, t('The session this timeline showed is no longer in the log (it was deleted, or the workspace changed).'));
      return;
    }
    const known = panels.get(session);
    if (known) {
      // Shown already (Show Timeline ran first): one panel per session.
      panel.dispose();
      known.panel.reveal();
      return;
    }
    // The page reports its first drawing when it is visible; a tab in the background draws later.
    void attach(panel, session).catch((error: unknown) => logError(deps.logger, 'could not restore the timeline', error));
  }

  const serializer = vscode.window.registerWebviewPanelSerializer(TIMELINE_VIEW_TYPE, {
    deserializeWebviewPanel: (panel, state) => revive(panel, state),
  });
  return {
    commands: bindTable(TIMELINE_COMMANDS, { show }),
    dispose() {
      serializer.dispose();
      for (const open of [...panels.values()]) open.panel.dispose();
    },
  };
}

function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

/** The page: one script and one style sheet from the extension, a nonce, nothing remote, no inline handler. */
function pageHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = randomBytes(16).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'timeline.js'));
  const csp = [`default-src 'none'`, `style-src ${webview.cspSource}`, `img-src ${webview.cspSource}`, `script-src 'nonce-${nonce}'`].join('; ');
  return htmlPage(webview, extensionUri, csp, `<main id="root"></main>\n<script nonce="${nonce}" src="${script.toString()}"></script>`);
}

/** A page with one message and no script: the same style sheet, no script allowed. */
function messageHtml(webview: vscode.Webview, extensionUri: vscode.Uri, message: string): string {
  const escaped = message.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return htmlPage(webview, extensionUri, `default-src 'none'; style-src ${webview.cspSource}`, `<p class="empty" role="status" data-gone="">${escaped}</p>`);
}

/** The document around a body: the policy, the viewport, the extension's style sheet. */
function htmlPage(webview: vscode.Webview, extensionUri: vscode.Uri, csp: string, body: string): string {
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'timeline.css'));
  return `<!DOCTYPE html>
<html lang="${vscode.env.language}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
</head>
<body>
${body}
</body>
</html>`;
}

// What each plan item changed, as the views show it: the changes of the session on screen (and
// a timeline's), read once for their rows (ItemDiffstats); an item's "+12 −3" and tooltip lines
// in the Plan view; why changes were not recorded (those tooltips, and Review's messages).
import * as vscode from 'vscode';
import { Emitter } from '../core/emitter';
import { diffstat, type ItemChanges, type Miss } from '../core/derived/itemChanges';
import { isSnapshot, type SkippedFile } from '../core/log/snapshotRecord';
import type { SessionLog } from '../core/log/sessionLog';
import type { DisplayState } from '../core/store/display';
import type { PlanStore } from '../core/store/store';
import { notificationText } from '../core/text/escape';
import type { ItemChangesReader } from '../node/itemChangesReader';
import { SettingId } from './ids';
import { logError, type Logger } from './log';

const t = vscode.l10n.t;

/** A megabytes setting in bytes (machine scope: a workspace cannot set it). */
export function megabytes(id: string, fallback: number): number {
  const value = vscode.workspace.getConfiguration().get<number>(id, fallback);
  return Math.max(0, typeof value === 'number' && Number.isFinite(value) ? value : fallback) * 1024 * 1024;
}

/**
 * Each item's changes for the session on screen (and a timeline's), for its rows' diffstats: read
 * when the session is first shown and again when a snapshot line of it is read (no timer). The stretch
 * still open shows up to the newest snapshot; Review Item shows it up to now.
 */
export class ItemDiffstats implements vscode.Disposable {
  private readonly cache = new Map<string, Map<string, ItemChanges> | 'reading'>();
  private readonly emitter = new Emitter<string>();
  readonly onDidChange = this.emitter.event;
  private readonly subscription: { dispose(): void };

  constructor(
    log: SessionLog,
    private readonly store: PlanStore,
    private readonly display: DisplayState,
    private readonly reader: ItemChangesReader,
    private readonly logger: Logger,
  ) {
    this.subscription = log.onDidRead((read) => {
      if (read.gone || read.records.some(isSnapshot)) {
        // The session on screen, or one another view asked about (a timeline): read again when asked.
        const asked = this.cache.delete(read.session);
        if (asked || read.session === this.display.session) this.emitter.fire(read.session);
      }
    });
  }

  /** The item's changes once read (the first ask starts the read; a change event follows). */
  known(session: string, content: string): ItemChanges | undefined {
    const cached = this.cache.get(session);
    if (cached === undefined) {
      this.cache.set(session, 'reading');
      for (const other of this.cache.keys()) if (other !== session && this.cache.size > 8) this.cache.delete(other);
      const items = this.store.get(session)?.todos.map((todo) => todo.content) ?? [];
      // Items the plan no longer holds too: a dropped item's lane in the Plan Timeline shows what it changed.
      this.reader.read(session, items, { worked: true }).then(
        (changes) => {
          this.cache.set(session, new Map(changes.items.map((item) => [item.content, item])));
          this.emitter.fire(session);
        },
        (error: unknown) => {
          this.cache.delete(session);
          logError(this.logger, `could not read the changes of session ${session}`, error);
        },
      );
      return undefined;
    }
    return cached === 'reading' ? undefined : cached.get(content);
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}

/** Why an item's changes were not recorded, in words. */
export function missText(miss: Miss): string {
  if (miss.why === 'timed-out') return t('a snapshot of its working tree was stopped by its time bound');
  if (miss.why === 'parent-repository') return t('the repository is in a parent folder');
  if (miss.why === 'read-together') return t('its plan versions were read together, after the agent had gone on (a busy machine, or a catch-up): the moment it started or ended was not snapshotted');
  return t('a snapshot of its working tree failed: {0}', notificationText(miss.detail ?? '', 200));
}

/** A file left out of the snapshots, in words. */
export function skippedText(file: SkippedFile): string {
  const name = notificationText(file.path, 200);
  if (file.why === 'large') return t('not recorded: {0} is larger than {1} MB', name, Math.round((megabytes(SettingId.ReviewMaxUntrackedFileMegabytes, 50) / 1024 / 1024) * 10) / 10);
  return t('not recorded: {0} could not be read', name);
}

/** "+12 −3" for an item's row, "changes not recorded" where a snapshot of its work was missed and nothing is known. */
export function diffstatText(changes: ItemChanges | undefined): string | undefined {
  if (!changes) return undefined;
  if (changes.missed && changes.files.length === 0) return t('changes not recorded');
  if (changes.recorded === 'none') return undefined;
  return diffstat(changes.files);
}

/** The tooltip's lines of an item's changes: each file with its counts and marks, and what was not recorded, with why. */
export function changesTooltip(changes: ItemChanges | undefined): string | undefined {
  if (!changes) return undefined;
  const why = changes.missed ? missText(changes.missed) : undefined;
  if (changes.recorded === 'none') return why ? t('Changes not recorded: {0}', why) : t('Changes not recorded');
  const lines = changes.files.slice(0, 20).map((file) => {
    const counts = file.added === undefined ? t('binary') : `+${file.added} \u2212${file.removed ?? 0}`;
    const marks = [file.shared ? t('shared') : undefined, file.meanwhile ? t('changed meanwhile') : undefined].filter((mark) => mark !== undefined);
    return `${file.path} ${counts}${marks.length > 0 ? ` (${marks.join(', ')})` : ''}`;
  });
  if (changes.files.length > 20) lines.push(t('{0} more', changes.files.length - 20));
  for (const file of changes.skipped ?? []) lines.push(skippedText(file));
  if (changes.recorded === 'part') lines.push(why ? t('Partly recorded: {0}', why) : t('Partly recorded'));
  return lines.length > 0 ? lines.join('\n') : undefined;
}

// The Plan History picker: the newest versions first, a page at a time. "Load older
// versions…" reads the next page backwards, so opening it costs the same however long
// the history has grown.
import * as vscode from 'vscode';
import type { DisplayState } from '../../core/store/display';
import { changeSummary, diffPlans, progressText } from '../../core/plan/present';
import type { PlanVersion } from '../../core/log/sessionLog';
import type { PlanStore } from '../../core/store/store';
import { versionTime } from '../agentLooks';

const t = vscode.l10n.t;

/** Versions read per page of the picker. */
export const HISTORY_PAGE = 100;

interface VersionItem extends vscode.QuickPickItem {
  /** Undefined on the "Load older versions…" row. */
  choice?: { version: PlanVersion; behind: number };
}

/** Asks for a version of the session; 'empty' when it has none, undefined when dismissed. */
export async function pickVersion(
  store: PlanStore,
  display: DisplayState,
  session: string,
  words: { title?: string; placeholder?: string; note?: (version: PlanVersion) => string | undefined } = {},
): Promise<{ version: PlanVersion; behind: number } | 'empty' | undefined> {
  const first = await store.page(session, HISTORY_PAGE);
  if (first.versions.length === 0) return 'empty';
  const list: VersionList = {
    loaded: [...first.versions],
    more: first.more,
    onScreen: display.session === session,
    shownAt: display.session === session ? display.shownVersion?.at : undefined,
    now: new Date(),
    note: words.note,
  };
  const quickPick = vscode.window.createQuickPick<VersionItem>();
  quickPick.title = words.title ?? t('Plan History');
  quickPick.placeholder = words.placeholder ?? t('Pick a version to show in the Plan view');
  quickPick.matchOnDescription = true;
  quickPick.matchOnDetail = true;
  const show = (start: number): VersionItem[] => {
    const items = versionItems(list);
    quickPick.items = items;
    return items.slice(start);
  };
  const loadOlder = async (): Promise<void> => {
    // This row is there only while older versions are: the oldest read is the first new row.
    const firstNew = list.loaded.length - 1;
    const next = await store.page(session, HISTORY_PAGE, list.loaded[firstNew]?.at);
    list.loaded.push(...next.versions);
    list.more = next.more;
    quickPick.value = '';
    const fresh = show(firstNew);
    if (fresh[0]) quickPick.activeItems = [fresh[0]];
  };
  show(0);
  return awaitChoice(quickPick, loadOlder);
}

/** The versions read so far, and what the picker marks. */
interface VersionList {
  loaded: PlanVersion[];
  more: boolean;
  onScreen: boolean;
  shownAt: number | undefined;
  now: Date;
  /** More to say of a version (its detail's end): already escaped for a quick pick. */
  note?: ((version: PlanVersion) => string | undefined) | undefined;
}

function versionItems({ loaded, more, onScreen, shownAt, now, note }: VersionList): VersionItem[] {
  // The oldest version read waits for the next page, which holds what it changed from.
  const ready = more ? loaded.length - 1 : loaded.length;
  const items = loaded.slice(0, ready).map((version, behind): VersionItem => {
    const previous = loaded[behind + 1];
    const shown = onScreen && (shownAt === undefined ? behind === 0 : shownAt === version.at);
    return {
      label: versionTime(version.event.ts, now),
      description: [progressText(version.event.counts, t), behind === 0 ? t('latest') : undefined, shown ? t('shown now') : undefined]
        .filter((part) => part !== undefined)
        .join(' · '),
      detail: [previous ? changeSummary(diffPlans(previous.event.todos, version.event.todos), t) : t('first version'), note?.(version)].filter((part) => part !== undefined).join(' · '),
      choice: { version, behind },
    };
  });
  if (more) items.push({ label: `$(history) ${t('Load older versions…')}`, alwaysShow: true });
  return items;
}

/** Shows the picker until a version is chosen (or it is dismissed); the last row loads older versions. */
function awaitChoice(
  quickPick: vscode.QuickPick<VersionItem>,
  loadOlder: () => Promise<void>,
): Promise<{ version: PlanVersion; behind: number } | undefined> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      outcome();
      quickPick.hide();
    };
    quickPick.onDidAccept(async () => {
      const item = quickPick.selectedItems[0];
      if (!item) return;
      if (item.choice) {
        const picked = item.choice;
        finish(() => resolve(picked));
        return;
      }
      quickPick.busy = true;
      try {
        await loadOlder();
      } catch (error) {
        finish(() => reject(error instanceof Error ? error : new Error(String(error))));
      } finally {
        quickPick.busy = false;
      }
    });
    quickPick.onDidHide(() => {
      if (!settled) {
        settled = true;
        resolve(undefined);
      }
      quickPick.dispose();
    });
    quickPick.show();
  });
}

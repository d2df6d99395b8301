// The Plan History picker: the newest versions first, a page at a time. "Load older
// versions…" reads the next page backwards, so opening it costs the same however long
// the history has grown.
import * as vscode from 'vscode';
import type { DisplayState } from '../core/display';
import { changeSummary, diffPlans, progressText } from '../core/present';
import type { PlanVersion } from '../core/sessionLog';
import type { PlanStore } from '../core/store';
import { versionTime } from './agents';

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
): Promise<{ version: PlanVersion; behind: number } | 'empty' | undefined> {
  const first = await store.page(session, HISTORY_PAGE);
  if (first.versions.length === 0) return 'empty';
  const loaded = [...first.versions];
  let more = first.more;
  const onScreen = display.session === session;
  const shownAt = onScreen ? display.shownVersion?.at : undefined;
  const now = new Date();

  const quickPick = vscode.window.createQuickPick<VersionItem>();
  quickPick.title = t('Plan History');
  quickPick.placeholder = t('Pick a version to show in the Plan view');
  quickPick.matchOnDescription = true;
  quickPick.matchOnDetail = true;

  function itemsFrom(start: number): VersionItem[] {
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
        detail: previous ? changeSummary(diffPlans(previous.event.todos, version.event.todos), t) : t('first version'),
        choice: { version, behind },
      };
    });
    if (more) items.push({ label: `$(history) ${t('Load older versions…')}`, alwaysShow: true });
    quickPick.items = items;
    return items.slice(start);
  }

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
        // This row is there only while older versions are: the oldest read is the first new row.
        const firstNew = loaded.length - 1;
        const next = await store.page(session, HISTORY_PAGE, loaded[firstNew]?.at);
        loaded.push(...next.versions);
        more = next.more;
        quickPick.value = '';
        const fresh = itemsFrom(firstNew);
        if (fresh[0]) quickPick.activeItems = [fresh[0]];
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
    itemsFrom(0);
    quickPick.show();
  });
}

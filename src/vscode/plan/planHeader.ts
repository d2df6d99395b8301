// The Plan view's header: its description (progress), badge (open items) and the message
// above its rows; the API reads the same.
import * as vscode from 'vscode';
import type { DisplayState } from '../../core/store/display';
import { openCount, progressText } from '../../core/plan/present';
import type { PlanRecord } from '../../core/log/sessionLog';
import type { PlanStore } from '../../core/store/store';
import { timeText, versionTime } from '../agentLooks';
import type { PlanElement } from './planTree';

const t = vscode.l10n.t;

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
export function updatePlanView(plan: vscode.TreeView<PlanElement>, display: DisplayState, store: PlanStore): void {
  const header = planHeader(display.event);
  // Each of these is a message to the window: send only changes.
  if (plan.description !== header.description) plan.description = header.description;
  if (plan.badge?.value !== header.badge) plan.badge = header.badge === undefined ? undefined : { value: header.badge, tooltip: t('{0} open items in the plan', header.badge) };
  const message = planMessage(display, store);
  // Setting a message goes through the same 200 ms debounce as a tree refresh, so it is set
  // after the refresh of the same change (which then goes at once) and only when it changes.
  if (plan.message !== message) plan.message = message;
}

// The words for plan health signals: what happened and since when. Pure; the translator
// comes in (vscode.l10n.t in the extension, formatOnly in tests).
import type { HealthKind, HealthSignal } from './health';
import { durationText, relativeTime, type Translate } from '../plan/present';
import { plainText } from '../text/escape';

/** How much of a request's command line a one-line text shows. */
const ASK_INPUT_SHOWN = 80;

/** A codicon and a theme colour per kind. */
export const SIGNAL_ICONS: Record<HealthKind, { id: string; color: string }> = {
  waiting: { id: 'bell', color: 'list.warningForeground' },
  'stopped-open': { id: 'debug-pause', color: 'list.warningForeground' },
  stalled: { id: 'watch', color: 'list.warningForeground' },
  dropped: { id: 'trash', color: 'list.warningForeground' },
  reopened: { id: 'issue-reopened', color: 'list.warningForeground' },
  reworded: { id: 'edit', color: 'descriptionForeground' },
  done: { id: 'check-all', color: 'testing.iconPassed' },
  'request-open': { id: 'person', color: 'list.warningForeground' },
};

/** One line: "Waiting on Bash for 2 min", "Stopped 4 min ago with 3 items open", "1 item dropped without being done", "No plan update in 31 tool calls". */
export function signalText(signal: HealthSignal, now: Date, t: Translate): string {
  const count = signal.items?.length ?? 0;
  const when = relativeTime(signal.since, now, t);
  switch (signal.kind) {
    case 'waiting': {
      const wait = signal.wait;
      const duration = durationText(signal.since, now, t);
      if (signal.ask) return t('Asks to run {0}: {1}', plainText(signal.ask.tool, 40), plainText(signal.ask.input, ASK_INPUT_SHOWN));
      if (wait?.approval === true) return t('Waiting for your approval of {0} {1}', wait.tool, duration);
      return t('Waiting on {0} {1}', wait?.tool ?? '?', duration);
    }
    case 'stopped-open':
      if (signal.how === 'cancelled') return count === 1 ? t('Cancelled {0} with 1 item open', when) : t('Cancelled {0} with {1} items open', when, count);
      if (signal.how === 'failed') return count === 1 ? t('Failed {0} with 1 item open', when) : t('Failed {0} with {1} items open', when, count);
      return count === 1 ? t('Stopped {0} with 1 item open', when) : t('Stopped {0} with {1} items open', when, count);
    case 'dropped':
      return count === 1 ? t('1 item dropped without being done') : t('{0} items dropped without being done', count);
    case 'reworded':
      return count / 2 === 1 ? t('1 item reworded') : t('{0} items reworded', count / 2);
    case 'reopened':
      return count === 1 ? t('1 completed item reopened') : t('{0} completed items reopened', count);
    case 'stalled': {
      const stall = signal.stall;
      if (stall?.reason === 'calls') return t('No plan update in {0} tool calls', stall.calls);
      if (stall?.reason === 'time') return t('Stalled {0}: the agent works, the plan does not move', when);
      return t('Stalled {0}: nothing recorded for a while', when);
    }
    case 'done':
      return t('Plan done {0}', when);
    case 'request-open':
      return count === 1 ? t('Your request is not in the plan; the turn ended {0}', when) : t('{0} of your requests are not in the plan; the turn ended {1}', count, when);
  }
}

/** A short word for the status bar and the Sessions view. */
export function signalWord(signal: HealthSignal, t: Translate): string {
  switch (signal.kind) {
    case 'waiting':
      if (signal.ask) return t('asks to run {0}', plainText(signal.ask.tool, 40));
      return signal.wait?.approval === true ? t('waiting for your approval') : t('waiting on {0}', signal.wait?.tool ?? '?');
    case 'stopped-open':
      return signal.how === 'cancelled' ? t('cancelled with items open') : signal.how === 'failed' ? t('failed with items open') : t('stopped with items open');
    case 'dropped':
      return t('items dropped');
    case 'reworded':
      return t('items reworded');
    case 'reopened':
      return t('items reopened');
    case 'stalled':
      return t('stalled');
    case 'done':
      return t('done');
    case 'request-open':
      return t('request not taken');
  }
}

// A session's plan as a pull request's description, for a reviewer: a Markdown checklist of
// the newest plan (an item in progress or blocked is marked), each item with the files it
// changed (relative to the repository's folder; links where the repository is on GitHub),
// its diffstat where the working tree's snapshots recorded it, and what it cost; then the
// items dropped or cancelled, the files changed while no item was in progress, and the
// session's totals. Built from the timeline and the ledger of the same
// log lines. Pure; its fixed words come through the translator. Nothing is posted anywhere.
import { itemDiffstat, type ItemChanges } from '../derived/itemChanges';
import type { ItemLedger, Ledger } from '../derived/ledger';
import { ledgerText } from '../derived/ledgerText';
import { itemLabel, spanText, type Translate } from '../plan/present';
import { blobLink, markdownCode, markdownText } from '../text/escape';
import type { Lane, Timeline } from '../timeline/timeline';
import type { PageFile } from '../timeline/timelineFiles';

export interface PrDescriptionInput {
  /** The session's title: the heading. */
  title: string;
  timeline: Timeline;
  ledger: Ledger;
  /** The folder of the repository (or worktree) the session worked in: paths are said relative to it. */
  root?: string | undefined;
  /** Where a file is shown on GitHub ("https://github.com/o/r/blob/main/"); undefined: no links. */
  linkBase?: string | undefined;
  /** What each item changed, by its text, from the working tree's snapshots; an item without (or 'none') shows no diffstat. */
  changes?: ReadonlyMap<string, ItemChanges> | undefined;
}

/** The description, Markdown, ending in a newline. */
export function prDescription(input: PrDescriptionInput, t: Translate): string {
  const { timeline, ledger } = input;
  const costs = new Map(ledger.items.map((item) => [item.content, item]));
  const kept = timeline.lanes.filter((lane) => lane.rewordedTo === undefined);
  const listed = kept.filter((lane) => !lane.dropped && lane.status !== 'cancelled' && (lane.position !== undefined || lane.status === 'completed'));
  const gone = kept.filter((lane) => lane.dropped || lane.status === 'cancelled');
  const lines = [`## ${markdownText(input.title)}`, ''];
  for (const lane of listed) lines.push(...itemLines(lane, costs.get(lane.content), input, t));
  if (listed.length === 0) lines.push(t('The plan holds no items.'));
  if (gone.length > 0) {
    lines.push('', `### ${t('Dropped and cancelled')}`, '');
    for (const lane of gone) lines.push(...itemLines(lane, costs.get(lane.content), input, t));
  }
  const outside = timeline.sessionFiles.files;
  if (outside.length > 0) {
    lines.push('', `### ${t('Files changed outside any item')}`, '');
    for (const file of outside) lines.push(`- ${fileText(file, input, t)}`);
  }
  lines.push('', `### ${t('Session totals')}`, '');
  const usage = ledgerText({ all: ledger.total }, t, { detail: true });
  lines.push(`- ${[t('Elapsed {0}', spanText(timeline.elapsedMs, t)), usage].filter((part) => part !== '').join(' · ')}`);
  if (ledger.session.responses > 0) lines.push(`- ${t('While no item was in progress: {0}', ledgerText({ all: ledger.session }, t, { detail: true }))}`);
  if (ledger.unknown.responses > 0) lines.push(`- ${t('While the item in progress is not known: {0}', ledgerText({ all: ledger.unknown }, t, { detail: true }))}`);
  return `${lines.join('\n')}\n`;
}

/** "- [x] text — +12 −3 · 2 min · 3 calls · 90 tokens", then a line per file. */
function itemLines(lane: Lane, cost: ItemLedger | undefined, input: PrDescriptionInput, t: Translate): string[] {
  const text = markdownText(itemLabel(lane.content, t));
  let head: string;
  if (lane.dropped) head = `- ~~${text}~~ *(${t('dropped')})*`;
  else if (lane.status === 'cancelled') head = `- ~~${text}~~ *(${t('cancelled')})*`;
  else if (lane.status === 'completed') head = `- [x] ${text}`;
  else if (lane.status === 'in_progress') head = `- [ ] ${text} *(${t('in progress')})*`;
  else if (lane.status === 'blocked') head = `- [ ] ${text} *(${t('blocked')})*`;
  else head = `- [ ] ${text}`;
  const spent = cost ? ledgerText({ ms: cost.inProgressMs, all: cost.all, shared: cost.shared, asks: cost.asks }, t) : ledgerText({ ms: lane.inProgressMs, all: { responses: 0, calls: 0, tokens: undefined, cost: undefined } }, t);
  const after = [changesText(input.changes?.get(lane.content), t), spent].filter((part) => part !== '').join(' · ');
  return [after === '' ? head : `${head} — ${after}`, ...lane.files.map((file) => `  - ${fileText(file, input, t)}`)];
}

/**
 * "+12 −3" (lines added and removed, as `git diff --numstat` counts them), marked when only
 * part of the item's work was recorded; '' when none was or nothing changed: never invented.
 * Only figures and fixed words, after the item's escaped text: nothing to escape.
 */
function changesText(changes: ItemChanges | undefined, t: Translate): string {
  const stat = itemDiffstat(changes);
  if (!stat) return '';
  return stat.partly ? `${stat.counts} *(${t('partly recorded')})*` : stat.counts;
}

/** A file as the reviewer reads it: relative to the repository, a link where there is one, marked shared. */
function fileText(file: PageFile, input: PrDescriptionInput, t: Translate): string {
  const relative = relativePath(file.path, input.root);
  const code = markdownCode(relative);
  // A link only to a file inside the repository: `docs/../../x` and absolute paths stay code.
  const link = input.linkBase !== undefined && !isAbsolute(relative) ? blobLink(input.linkBase, relative) : undefined;
  const shown = link !== undefined ? `[${code}](${link})` : code;
  return file.shared ? `${shown} *(${t('shared')})*` : shown;
}

function isAbsolute(path: string): boolean {
  return path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:[\\/]/.test(path);
}

/** `path` relative to `root` with forward slashes when it is inside it; a relative path as recorded (the agent's workspace is the root). */
export function relativePath(path: string, root: string | undefined): string {
  const slashed = path.replace(/\\/g, '/');
  if (!isAbsolute(path)) return slashed.replace(/^(\.\/)+/, '');
  if (root === undefined) return slashed;
  const base = root.replace(/\\/g, '/').replace(/\/+$/, '');
  const windows = /^[A-Za-z]:\//.test(base);
  const same = (a: string, b: string) => (windows ? a.toLowerCase() === b.toLowerCase() : a === b);
  if (same(slashed, base)) return '.';
  const head = slashed.slice(0, base.length + 1);
  return same(head, `${base}/`) ? slashed.slice(base.length + 1) : slashed;
}

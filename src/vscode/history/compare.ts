// "Compare with the previous version", the one way: the Plan view's Compare, a health
// signal's row and the timeline's marks all open the same diff of two saved versions.
import * as vscode from 'vscode';
import type { PlanVersion } from '../../core/log/sessionLog';
import type { PlanStore } from '../../core/store/store';
import { versionTime } from '../agentLooks';
import { snapshotUri } from './snapshotDocuments';

const t = vscode.l10n.t;

/** What a compare did: the diff is open; the version is the first (the user was told); no such version. */
export type CompareOutcome = 'shown' | 'first' | 'missing';

/**
 * Opens the diff of a session's version with the one before it: the version at the log
 * address `at`, else the newest.
 */
export async function compareWithPrevious(store: PlanStore, session: string, at?: number): Promise<CompareOutcome> {
  const [newer, older] = at === undefined ? await newestTwo(store, session) : await atAndBefore(store, session, at);
  if (!newer) return 'missing';
  if (!older) {
    await vscode.window.showInformationMessage(t('This is the first version of the plan; there is nothing to compare it with.'));
    return 'first';
  }
  await vscode.commands.executeCommand(
    'vscode.diff',
    snapshotUri(session, older.at),
    snapshotUri(session, newer.at),
    t('Plan: {0} ↔ {1}', versionTime(older.ts), versionTime(newer.ts)),
    { preview: true },
  );
  return 'shown';
}

interface Stamp {
  at: number;
  ts: string;
}

const stamp = (version: PlanVersion | undefined): Stamp | undefined => version && { at: version.at, ts: version.event.ts };

async function newestTwo(store: PlanStore, session: string): Promise<Array<Stamp | undefined>> {
  const [newer, older] = (await store.page(session, 2)).versions;
  return [stamp(newer), stamp(older)];
}

async function atAndBefore(store: PlanStore, session: string, at: number): Promise<Array<Stamp | undefined>> {
  const event = Number.isSafeInteger(at) ? await store.versionAt(session, at) : undefined;
  if (!event) return [];
  return [{ at, ts: event.ts }, stamp((await store.page(session, 1, at)).versions[0])];
}

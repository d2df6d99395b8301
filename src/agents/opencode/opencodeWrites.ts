// The files opencode's and Kilo CLI's write tools wrote, from the `part` rows of their
// database: a tool part of `write`, `edit` (or `multiedit`, `apply_patch`) whose
// `state.status` is "completed" wrote the file its input names; one that ended "error" (an
// edit whose text was not found) wrote nothing. Pure: rows in, writes out.
import { isRecord } from '../lineParser';
import { toolCallFiles, type WriteTools } from '../toolWrites';
import type { ForeignWrite } from '../../core/foreign';
import { OPENCODE_PLAN_TOOL, type OpencodeAgent, type OpencodePartRow } from './opencodeParser';

/** The write tools of opencode and of Kilo CLI (its fork). */
const WRITE_TOOLS: WriteTools = {
  paths: { write: 'filePath', edit: 'filePath', multiedit: 'filePath' },
  patches: { apply_patch: ['patchText', 'patch'], patch: ['patchText', 'patch'] },
};

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function partData(part: OpencodePartRow): Record<string, unknown> | undefined {
  try {
    const data = JSON.parse(part.data) as unknown;
    return isRecord(data) && data['type'] === 'tool' ? data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Notes each completed todowrite part of `parts` in `plans` (session id → the part ids of its
 * plan calls, kept sorted): what a write's `plansBefore` counts.
 */
export function notePlanParts(parts: readonly OpencodePartRow[], plans: Record<string, string[]>): void {
  for (const part of parts) {
    const data = partData(part);
    const state = data?.['state'];
    if (data?.['tool'] !== OPENCODE_PLAN_TOOL || !isRecord(state) || state['status'] !== 'completed') continue;
    const ids = (plans[part.session_id] ??= []);
    if (!ids.includes(part.id)) {
      ids.push(part.id);
      ids.sort();
    }
  }
}

/**
 * The writes of the completed write-tool parts in `parts` (sorted by part id, which opencode
 * makes ascending in time), of the sessions in `plans` only; each counts the session's plan
 * calls with a smaller part id before it.
 */
export function writesFromParts(agent: OpencodeAgent, parts: readonly OpencodePartRow[], plans: Readonly<Record<string, readonly string[]>>): ForeignWrite[] {
  const writes: ForeignWrite[] = [];
  for (const part of [...parts].sort(byId)) {
    const planned = plans[part.session_id];
    if (planned === undefined) continue;
    const data = partData(part);
    const state = data?.['state'];
    const tool = data?.['tool'];
    const call = data?.['callID'];
    if (typeof tool !== 'string' || typeof call !== 'string' || call === '' || !isRecord(state) || state['status'] !== 'completed') continue;
    const files = toolCallFiles(WRITE_TOOLS, tool, state['input']);
    if (files.length === 0) continue;
    const time = state['time'];
    const end = isRecord(time) ? time['end'] : undefined;
    const write: ForeignWrite = { source: { agent, session: part.session_id, call }, files, plansBefore: planned.filter((id) => id < part.id).length };
    if (typeof end === 'number' && Number.isFinite(end)) write.at = new Date(end).toISOString();
    writes.push(write);
  }
  return writes;
}

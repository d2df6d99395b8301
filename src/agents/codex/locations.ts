// Where Codex keeps its rollouts, as pure functions over paths and first lines.
import * as path from 'node:path';
import { isRecord } from '../../core/json';

/** Codex's day folder for a date: `<codexHome>/sessions/YYYY/MM/DD`. */
export function codexDayFolder(codexHome: string, year: number, month: number, day: number): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return path.join(codexHome, 'sessions', String(year), pad(month), pad(day));
}

/** A Codex rollout file name: `rollout-<start time>-<thread id>.jsonl`. */
export function isCodexRolloutName(name: string): boolean {
  return name.startsWith('rollout-') && name.endsWith('.jsonl');
}

/**
 * The workspace recorded on a Codex rollout's first line (`session_meta.payload.cwd`),
 * or undefined when the line is not a session_meta line.
 */
export function codexRolloutCwd(firstLine: string): string | undefined {
  try {
    const value = JSON.parse(firstLine) as unknown;
    if (!isRecord(value) || value['type'] !== 'session_meta') return undefined;
    const payload = value['payload'];
    if (!isRecord(payload)) return undefined;
    const cwd = payload['cwd'];
    return typeof cwd === 'string' && cwd !== '' ? cwd : undefined;
  } catch {
    return undefined;
  }
}

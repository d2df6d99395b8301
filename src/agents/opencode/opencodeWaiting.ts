// The tool call an opencode (or Kilo CLI) session waits on, from its `part` rows: a tool part
// whose `state.status` is "pending" (the model still writing the call) or "running", with no
// "completed" or "error" yet, in the session's newest turn while that turn runs. Pure; its
// state is JSON, kept in the follower's cursor, since a scan reads only the rows that changed.
//
// Observed with the real programs (opencode 1.18.33, Kilo CLI 7.7.7, interactive, bash set to
// "ask"): while the permission prompt is on screen the part is "running" with its input and
// `time.start`, as any running tool's is; no table holds the question (the `permission` table
// keeps only "always" answers, and stayed empty). The part changes only once answered (bash's
// output in `state.metadata`; Kilo CLI's `metadata.approval`). So the call is handed on
// without `approval`: "waiting on bash".
import type { ForeignPending } from '../../core/foreign';
import { isRecord } from '../lineParser';
import { OpenCalls } from '../openCalls';
import { byIdTime, idTime, type OpencodePartRow, type OpencodeTurn } from './opencodeParser';

/** What is kept between scans: the turn the open calls belong to, and the calls. */
export interface WaitingCallsState {
  user: string;
  open: unknown;
}

export interface WaitingCalls {
  /** undefined when the session has no turn yet. */
  state: WaitingCallsState | undefined;
  /** The call waited on, or null when none is; undefined when the session has no turn yet. */
  pending: ForeignPending | null | undefined;
}

/**
 * The calls of the session's newest turn (`turn`, as followTurn made it from the same rows) after
 * the tool part rows read now (any order; a row read again changes nothing). A new turn starts
 * with none open; a turn that is not running has none waiting.
 */
export function followWaitingCalls(previous: unknown, turn: OpencodeTurn | undefined, parts: readonly OpencodePartRow[]): WaitingCalls {
  if (turn === undefined) return { state: undefined, pending: undefined };
  const same = isRecord(previous) && previous['user'] === turn.user;
  const open = new OpenCalls(same ? previous['open'] : undefined);
  const sorted = [...parts].sort((a, b) => byIdTime(a.id, b.id));
  for (const part of sorted) {
    let data: unknown;
    try {
      data = JSON.parse(part.data);
    } catch {
      continue;
    }
    if (!isRecord(data) || data['type'] !== 'tool') continue;
    const call = data['callID'];
    const tool = data['tool'];
    const state = data['state'];
    if (typeof call !== 'string' || typeof tool !== 'string' || !isRecord(state)) continue;
    const status = state['status'];
    if (status === 'completed' || status === 'error') open.finish(call);
    // Only a call of this turn starts a wait (an older turn's part left running waits on nothing).
    else if ((status === 'pending' || status === 'running') && idTime(part.id) > idTime(turn.user)) open.start(call, tool);
  }
  if (turn.state !== 'running') open.clear();
  return { state: { user: turn.user, open: open.state() }, pending: open.pending() };
}

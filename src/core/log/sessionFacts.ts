// What a session/info line should say next, from the newest facts a follower found and the
// facts the log holds: absent facts carry over, and the times turn facts carry (when this
// machine first saw a turn's state, when it saw the record grow) are kept while the fact
// stays the same, so a reload reads the same times. No I/O.
import type { ForeignPending, ForeignSessionInfo } from '../foreign';
import { MAX_CALL_LENGTH, MAX_CWD_LENGTH, MAX_TOOL_LENGTH, sessionRequestText, type PendingFact, type SessionFacts } from './logRecord';

export function nextFacts(last: SessionFacts | undefined, info: ForeignSessionInfo, now: string): SessionFacts {
  const facts: SessionFacts = {
    title: info.title ?? last?.title,
    // The first request names the session once: a later one never replaces it.
    request: last?.request ?? usableRequest(info.request),
    latestTurn: info.latestTurn ?? last?.latestTurn,
    participant: info.participant ?? last?.participant,
    turn: last?.turn,
    activity: last?.activity,
    pending: last?.pending,
    parent: info.parent ?? last?.parent,
    cwd: usableCwd(info.cwd) ?? last?.cwd,
  };
  if (info.turn) {
    const before = last?.turn;
    const same = before !== undefined && before.index === info.turn.index && before.state === info.turn.state;
    facts.turn = same ? before : { index: info.turn.index, state: info.turn.state, since: now };
  }
  if (info.calls !== undefined && info.calls !== last?.activity?.calls) facts.activity = { calls: info.calls, at: now };
  if (info.pending !== undefined) facts.pending = nextPending(last?.pending, info.pending, now);
  return facts;
}

/** The pending call's fact: its first-seen time kept while the same call waits the same way. */
function nextPending(before: PendingFact | undefined, pending: ForeignPending | null, now: string): PendingFact | undefined {
  if (pending === null || pending.tool === '' || pending.call === '' || pending.call.length > MAX_CALL_LENGTH) return undefined;
  const tool = pending.tool.slice(0, MAX_TOOL_LENGTH);
  const approval = pending.approval === true;
  if (before !== undefined && before.call === pending.call && before.tool === tool && (before.approval === true) === approval) return before;
  return { tool, call: pending.call, since: now, ...(approval ? { approval: true as const } : {}) };
}

/** Whether a line with `next` would say nothing new after `last`. */
export function sameFacts(last: SessionFacts | undefined, next: SessionFacts): boolean {
  if (last === undefined) return false;
  return (
    last.title === next.title &&
    last.request === next.request &&
    last.latestTurn?.index === next.latestTurn?.index &&
    last.latestTurn?.planned === next.latestTurn?.planned &&
    last.participant === next.participant &&
    last.turn?.index === next.turn?.index &&
    last.turn?.state === next.turn?.state &&
    last.turn?.since === next.turn?.since &&
    last.activity?.calls === next.activity?.calls &&
    last.activity?.at === next.activity?.at &&
    last.pending?.call === next.pending?.call &&
    last.pending?.tool === next.pending?.tool &&
    last.pending?.since === next.pending?.since &&
    last.pending?.approval === next.pending?.approval &&
    last.parent === next.parent &&
    last.cwd === next.cwd
  );
}

/** A first request's text as the log keeps it (one line, bounded), or undefined. */
function usableRequest(request: string | undefined): string | undefined {
  return request === undefined ? undefined : sessionRequestText(request);
}

/** A recorded folder the log can keep (one that is not, is left out). */
function usableCwd(cwd: string | undefined): string | undefined {
  return cwd !== undefined && cwd !== '' && cwd.length <= MAX_CWD_LENGTH ? cwd : undefined;
}

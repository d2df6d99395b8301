// The deterministic snapshots the child writers append, so a reader can tell from a
// line alone which writer wrote it, at which step, and whether it is intact.
import type { Todo } from '../../../src/core/plan/plan';

const STATUSES = ['pending', 'in_progress', 'completed'] as const;

/**
 * Writer `writer`'s snapshot number `step`. Most are small; every 10th is ~6 KB (above
 * PIPE_BUF) and every `hugeEvery`-th is ~100 KB (above the 64 KB read chunk, and long
 * enough that a kill can land in the middle of its write).
 */
export function stepSnapshot(writer: number, step: number, hugeEvery = 50): Todo[] {
  const huge = step % hugeEvery === hugeEvery - 1;
  const medium = !huge && step % 10 === 4;
  const items = huge ? 100 : medium ? 10 : 1 + (step % 4);
  const padding = huge ? 'h'.repeat(980) : medium ? 'm'.repeat(560) : '';
  return Array.from({ length: items }, (_, i) => ({
    content: `w${writer} step ${step} item ${i} ${padding}`.trimEnd(),
    status: STATUSES[(step + i) % 3] as Todo['status'],
  }));
}

/** Writer and step of a snapshot written by stepSnapshot, from its first item. */
export function stepOf(todos: ReadonlyArray<{ content: string }>): { writer: number; step: number } | undefined {
  const match = /^w(\d+) step (\d+) item 0\b/.exec(todos[0]?.content ?? '');
  return match ? { writer: Number(match[1]), step: Number(match[2]) } : undefined;
}

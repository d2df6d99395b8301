// The tool calls of a session that started and have no result yet, in the order they
// started: what a parser hands on as the call waiting (`ForeignSessionInfo.pending`). Pure;
// its state is JSON, so a parser resumed from its state knows them.
import type { ForeignPending } from '../core/foreign';
import { isRecord } from './lineParser';

/** Calls kept while their results have not come (a run cut short never sends some). */
const MAX_OPEN_CALLS = 64;

interface OpenCall {
  call: string;
  tool: string;
  approval?: boolean;
}

export class OpenCalls {
  private calls: OpenCall[] = [];

  constructor(state?: unknown) {
    if (!Array.isArray(state)) return;
    for (const entry of state.slice(-MAX_OPEN_CALLS)) {
      if (!isRecord(entry) || typeof entry['call'] !== 'string' || typeof entry['tool'] !== 'string') continue;
      this.calls.push(entry['approval'] === true ? { call: entry['call'], tool: entry['tool'], approval: true } : { call: entry['call'], tool: entry['tool'] });
    }
  }

  /** A call started (again: kept where it was). */
  start(call: string, tool: string): void {
    if (call === '' || tool === '' || this.calls.some((open) => open.call === call)) return;
    if (this.calls.length >= MAX_OPEN_CALLS) this.calls.shift();
    this.calls.push({ call, tool });
  }

  /** The record says the call waits for the user's approval (true) or runs (false). */
  approval(call: string, waits: boolean): void {
    const open = this.calls.find((entry) => entry.call === call);
    if (!open) return;
    if (waits) open.approval = true;
    else delete open.approval;
  }

  /** Its result came (or the record says it ended). */
  finish(call: string): void {
    this.calls = this.calls.filter((open) => open.call !== call);
  }

  /** The turn moved on (a new prompt, its end): no call of it waits. */
  clear(): void {
    this.calls = [];
  }

  /** The call waiting: the oldest one without a result (the one the others wait behind), or null. */
  pending(): ForeignPending | null {
    const first = this.calls[0];
    if (first === undefined) return null;
    return first.approval === true ? { tool: first.tool, call: first.call, approval: true } : { tool: first.tool, call: first.call };
  }

  state(): OpenCall[] {
    return this.calls.map((open) => ({ ...open }));
  }
}

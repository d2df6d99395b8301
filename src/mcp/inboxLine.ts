// The inbox's line: one accepted todo_write call, as Agent Plan's reader takes it in. The
// fields are a contract with that reader: change them only together with it and docs/mcp.md.
// Pure.
import { isRecord } from '../core/json';
import type { Todo } from '../core/plan/plan';
import { validateTodoInput } from '../core/plan/validate';
import { INBOX_FILE_PATTERN, INBOX_RECORD_TYPE } from '../node/mcpInbox';

export { INBOX_FILE_PATTERN, INBOX_RECORD_TYPE };

export interface InboxRecord {
  v: 1;
  type: typeof INBOX_RECORD_TYPE;
  ts: string;
  client: { name: string; version: string };
  cwd: string;
  agentSession?: string;
  call: string;
  todos: Todo[];
}

export function inboxFileName(now: Date, pid: number, random: string): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, '');
  return `${stamp}-${pid}-${random}.jsonl`;
}

/** The pid in an inbox file's name, or undefined when the name is not an inbox file's. */
export function inboxFilePid(name: string): number | undefined {
  const match = INBOX_FILE_PATTERN.exec(name);
  return match?.[2] === undefined ? undefined : Number(match[2]);
}

/** The record as one line: the field order is the contract's, `agentSession` only when known. */
export function inboxLine(record: Omit<InboxRecord, 'v' | 'type'>): string {
  const line: InboxRecord = {
    v: 1,
    type: INBOX_RECORD_TYPE,
    ts: record.ts,
    client: { name: record.client.name, version: record.client.version },
    cwd: record.cwd,
    ...(record.agentSession === undefined ? {} : { agentSession: record.agentSession }),
    call: record.call,
    todos: record.todos,
  };
  return JSON.stringify(line) + '\n';
}

/** A line read back: its time, session and todos, or undefined when it is not a valid record. */
export function parseInboxLine(line: string): { ts: string; agentSession: string | undefined; todos: Todo[] } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
  if (!isRecord(value) || value['v'] !== 1 || value['type'] !== INBOX_RECORD_TYPE || typeof value['ts'] !== 'string') return undefined;
  const session = value['agentSession'];
  if (session !== undefined && typeof session !== 'string') return undefined;
  // Another program could have written the folder: the todos are checked again as they come in.
  const validation = validateTodoInput({ todos: value['todos'] });
  if (!validation.ok) return undefined;
  return { ts: value['ts'], agentSession: session, todos: validation.todos };
}

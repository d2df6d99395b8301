// Cline 3.x: a session's `<sid>.messages.json` (or a subagent's `agent_<id>.messages.json`), read
// whole at each version (the program rewrites it after every step). Pure: the document in, the
// team task board's versions, the files written, each model response's usage and the session out.
//
// Observed with the real `cline@3.0.65`, run offline:
// - `{version: 1, agent: "lead" | "subagent", sessionId, origin: {parentThreadId?}, messages}`;
//   each message `{id, role, ts, content: [blocks]}`, blocks Anthropic-style: `text`,
//   `tool_use {id, name, input}`, `tool_result {tool_use_id, name, content, is_error?}`.
//   The prompt is the first user text, wrapped in `<user_input mode="act">…</user_input>`.
// - The board: `team_task` calls (`action` create | claim | complete | block; `list` changes
//   nothing), each answered with `{action, taskId, status}` (pending, in_progress, blocked,
//   completed). A create names the title. Every change is one `team_task_updated` event of
//   the team in `db/teams.db` too; the list here is the board after each change, in task order.
// - `editor` `{path, old_text?, new_text}` wrote `path` (absolute) once its result is not an error.
// - Each assistant message carries `metrics {inputTokens, outputTokens, cacheReadTokens,
//   cacheWriteTokens}`: one model response.
// - A subagent's file names its parent in `origin.parentThreadId`. It is offered no `team_task`
//   (no board of its own): its edits are handed on with their parent, under whose items in
//   progress the log counts them.
import type { ForeignStatus, SessionParser } from '../../core/foreign';
import { type Batch, type JsonRecord, JsonLineParser, describeValue, isRecord, stringField } from '../lineParser';
import { CLINE_AGENT } from './focusChain';

export const CLINE_BOARD_TOOL = 'team_task';
const STATUSES: readonly ForeignStatus[] = ['pending', 'in_progress', 'blocked', 'completed'];
const CHANGES = new Set(['create', 'claim', 'complete', 'block']);

const n = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0);

export interface ClineSessionOptions {
  /** The workspace the session ran in (its manifest's `cwd`), when known. */
  cwd?: string;
}

/** A parser of one version of a session's (or subagent's) messages file. */
export function createClineSessionParser(options: ClineSessionOptions, state?: unknown): SessionParser {
  return new ClineSessionParser(options, state);
}

/** The text of a tool result: a string, or the texts of its blocks. */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((block) => (isRecord(block) && typeof block['text'] === 'string' ? block['text'] : '')).join('') : '';
}

function parsed(text: string): JsonRecord | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

class ClineSessionParser extends JsonLineParser {
  private parent: string | undefined;

  constructor(options: ClineSessionOptions, state: unknown) {
    super(CLINE_AGENT, state);
    if (options.cwd !== undefined) this.base.cwd = options.cwd;
  }

  protected ownState(): JsonRecord {
    return {};
  }

  /** A version read while it was being written: the next one is read whole. */
  protected override notJson(): void {}

  protected override info() {
    const info = super.info();
    return info === undefined || this.parent === undefined ? info : { ...info, parent: this.parent };
  }

  protected handle(record: JsonRecord, line: number, batch: Batch): void {
    const session = stringField(record, 'sessionId');
    const messages = record['messages'];
    if (session === undefined || !Array.isArray(messages)) {
      batch.report(line, 'a messages file without sessionId or messages');
      return;
    }
    this.base.session = session;
    const origin = record['origin'];
    const parent = isRecord(origin) ? stringField(origin, 'parentThreadId') : undefined;
    if (parent !== undefined && parent !== session) this.parent = parent;
    const calls = new Map<string, { name: string; input: JsonRecord }>();
    const board = new Map<string, { title: string; status: ForeignStatus }>();
    for (const message of messages) {
      if (!isRecord(message) || !Array.isArray(message['content'])) continue;
      const role = message['role'];
      const at = typeof message['ts'] === 'number' ? new Date(message['ts']).toISOString() : undefined;
      const blocks = message['content'].filter(isRecord);
      if (role === 'user') {
        const first = blocks.find((block) => block['type'] === 'text');
        if (first !== undefined && typeof first['text'] === 'string') this.firstRequest(first['text'].replace(/^\s*<user_input[^>]*>([\s\S]*)<\/user_input>\s*$/, '$1'));
      }
      if (role === 'assistant') {
        const uses = blocks.filter((block) => block['type'] === 'tool_use');
        for (const use of uses) {
          const id = stringField(use, 'id');
          const name = stringField(use, 'name');
          if (id !== undefined && name !== undefined) calls.set(id, { name, input: isRecord(use['input']) ? use['input'] : {} });
        }
        const metrics = message['metrics'];
        const id = stringField(message, 'id');
        if (isRecord(metrics) && id !== undefined && !batch.alreadyEmitted(`usage:${id}`)) {
          batch.used({
            source: { agent: CLINE_AGENT, session, call: id },
            calls: uses.length,
            tokens: { input: n(metrics['inputTokens']), output: n(metrics['outputTokens']), cached: n(metrics['cacheReadTokens']) + n(metrics['cacheWriteTokens']) },
            ...(at !== undefined ? { at } : {}),
          });
        }
        continue;
      }
      for (const result of blocks.filter((block) => block['type'] === 'tool_result')) {
        const id = stringField(result, 'tool_use_id');
        const call = id === undefined ? undefined : calls.get(id);
        if (id === undefined || call === undefined || result['is_error'] === true) continue;
        if (call.name === 'editor') {
          const file = stringField(call.input, 'path');
          const answer = parsed(resultText(result['content']));
          if (file === undefined || answer?.['success'] === false) continue;
          if (batch.alreadyEmitted(`write:${id}`)) continue;
          // A subagent never has a board of its own: its edits count under its parent's items in progress.
          batch.write({ source: { agent: CLINE_AGENT, session, call: id }, files: [file], ...(at !== undefined ? { at } : {}), ...(this.parent !== undefined ? { parent: this.parent } : {}) });
        } else if (call.name === CLINE_BOARD_TOOL && CHANGES.has(String(call.input['action']))) {
          this.change(board, call.input, resultText(result['content']), { session, call: id, line, batch, ...(at !== undefined ? { at } : {}) });
        }
      }
    }
  }

  /** One change of the board, as its result tells it: the board after it is a plan version. */
  private change(
    board: Map<string, { title: string; status: ForeignStatus }>,
    input: JsonRecord,
    text: string,
    where: { session: string; call: string; line: number; batch: Batch; at?: string },
  ): void {
    const answer = parsed(text);
    const task = answer === undefined ? undefined : stringField(answer, 'taskId');
    const status = answer?.['status'];
    if (answer === undefined || task === undefined) return; // An error in words: nothing changed.
    if (typeof status !== 'string' || !(STATUSES as readonly string[]).includes(status)) {
      where.batch.report(where.line, `a team_task result with status ${describeValue(status)}`);
      return;
    }
    const known = board.get(task);
    const title = input['action'] === 'create' ? stringField(input, 'title') : known?.title;
    if (title === undefined) {
      where.batch.report(where.line, 'a team_task change of a task this session did not create');
      return;
    }
    board.set(task, { title: title.trim(), status: status as ForeignStatus });
    if (where.batch.alreadyEmitted(where.call)) return;
    const items = [...board.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, item]) => ({ content: item.title, status: item.status }));
    where.batch.emit({ source: { agent: CLINE_AGENT, tool: CLINE_BOARD_TOOL, session: where.session, call: where.call }, items, ...(where.at !== undefined ? { at: where.at } : {}) });
  }
}

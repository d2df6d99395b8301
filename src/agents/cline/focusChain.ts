// Cline 2.x and the VS Code extension's core: a task's `ui_messages.json`, read whole at each
// version (the program writes it to a temporary file and renames it at every step). Pure: the
// document in, plans, writes, usage and the session out.
//
// Observed with the real `cline@2.18.0` (core 3.82.0), run offline:
// - The file is one JSON array of messages `{ts, type: "say" | "ask", say?, ask?, text}`; `ts`
//   (ms) is unique in a task and is its key here.
// - The focus chain: `say: "task_progress"`, its text the Markdown checklist the model passed
//   with its last tool call (`- [ ]` and `- [x]` only: two states, no item in progress), written
//   after that tool ran. Each is a plan version, the whole list.
// - `say: "tool"`, its text JSON `{tool, path, content}`: `newFileCreated` and
//   `editedExistingFile` wrote `path` (relative to the task's workspace).
// - `say: "api_req_started"`, its text JSON `{request, tokensIn, tokensOut, cacheWrites,
//   cacheReads, cost}`: one model request; its calls are the tools and commands said after it.
// - `say: "task"`: the user's prompt.
import type { ForeignUsage, SessionParser } from '../../core/foreign';
import { itemsFromChecklist } from '../checklist';
import { type Batch, type JsonRecord, JsonLineParser, isRecord } from '../lineParser';

export const CLINE_AGENT = 'cline';
/** The tool of a focus-chain version: the parameter the model passes it in. */
export const CLINE_FOCUS_CHAIN_TOOL = 'task_progress';
const WRITE_TOOLS = new Set(['newFileCreated', 'editedExistingFile']);

const n = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0);

function jsonText(text: unknown): JsonRecord | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export interface ClineTaskOptions {
  /** The task's id: its folder's name. */
  task: string;
  /** The workspace the task ran in (`cwdOnTaskInitialization` of the task history), when known. */
  cwd?: string;
}

/** A parser of one version of a task's `ui_messages.json`. */
export function createClineTaskParser(options: ClineTaskOptions, state?: unknown): SessionParser {
  return new ClineTaskParser(options, state);
}

class ClineTaskParser extends JsonLineParser {
  constructor(options: ClineTaskOptions, state: unknown) {
    super(CLINE_AGENT, state);
    this.base.session = options.task;
    if (options.cwd !== undefined) this.base.cwd = options.cwd;
  }

  protected ownState(): JsonRecord {
    return {};
  }

  /** A version read while it was being written: the next one is read whole. */
  protected override notJson(): void {}

  protected override recordOf(value: unknown): JsonRecord | undefined {
    return Array.isArray(value) ? { messages: value } : undefined;
  }

  protected handle(record: JsonRecord, line: number, batch: Batch): void {
    const messages = record['messages'] as unknown[];
    let request: ForeignUsage | undefined;
    const settle = () => {
      if (request !== undefined && !batch.alreadyEmitted(`usage:${request.source.call}`)) batch.emitUsage(request);
      request = undefined;
    };
    for (const message of messages) {
      if (!isRecord(message)) continue;
      const ts = message['ts'];
      const say = message['say'];
      if (typeof ts !== 'number' || message['type'] !== 'say' || typeof say !== 'string') continue;
      const at = new Date(ts).toISOString();
      const call = String(ts);
      if (say === 'task') this.firstRequest(typeof message['text'] === 'string' ? message['text'] : undefined);
      else if (say === 'api_req_started') {
        settle();
        const info = jsonText(message['text']);
        if (info === undefined) {
          batch.report(line, 'an api_req_started message whose text is not JSON');
          continue;
        }
        request = {
          source: { agent: CLINE_AGENT, session: this.base.session ?? '', call },
          calls: 0,
          tokens: { input: n(info['tokensIn']), output: n(info['tokensOut']), cached: n(info['cacheReads']) + n(info['cacheWrites']) },
          plansBefore: this.base.plans,
          at,
        };
        if (typeof info['cost'] === 'number' && Number.isFinite(info['cost']) && info['cost'] >= 0) request.cost = info['cost'];
      } else if (say === 'tool' || say === 'command') {
        if (request !== undefined) request.calls++;
        const tool = say === 'tool' ? jsonText(message['text']) : undefined;
        const path = tool?.['path'];
        if (tool === undefined || !WRITE_TOOLS.has(String(tool['tool'])) || typeof path !== 'string' || path === '') continue;
        if (!batch.alreadyEmitted(`write:${call}`)) batch.write({ source: { agent: CLINE_AGENT, session: this.base.session ?? '', call }, files: [path], at });
      } else if (say === CLINE_FOCUS_CHAIN_TOOL) {
        const text = message['text'];
        const items = typeof text === 'string' ? itemsFromChecklist(text, 'a task_progress') : 'a task_progress message without text';
        if (typeof items === 'string') {
          batch.report(line, items);
          continue;
        }
        if (batch.alreadyEmitted(call)) continue;
        batch.emit({ source: { agent: CLINE_AGENT, tool: CLINE_FOCUS_CHAIN_TOOL, session: this.base.session ?? '', call }, items, at });
      }
    }
    settle();
  }
}

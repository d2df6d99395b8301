// Gemini CLI chat logs (`<geminiDir>/tmp/<project>/chats/session-*.jsonl`): each successful
// `write_todos` call, a whole list. Pure: lines in, plans out.
//
// - Line 1 holds `sessionId` and `projectHash` (SHA-256 of the workspace path).
// - Each model turn is written more than once under the same `id` (a later copy adds its tool
//   calls, or their outcome); `{"$set": …}` lines patch the session. The last record per `id`
//   wins, so a call counts once its record shows it succeeded, and only once.
// - Items are `{description, status}`; all five statuses (pending, in_progress, completed,
//   cancelled, blocked) are kept as they are.
// - Usage: each `gemini` message's tokens, once per response (usage.ts).
// - Files: a write_file or replace call whose record shows it succeeded wrote its `file_path`;
//   it comes after the write_todos calls before it, in record order (its own message's calls too).
// - An MCP server's todo_write (Agent Plan's own tool, `mcp_<server>_todo_write`, any server) is a
//   plan call as write_todos is, once it succeeded and when its input holds to Agent Plan's
//   contract. A call Gemini CLI did not run (a tool it does not offer: an untrusted server outside
//   yolo mode) has `status: "error"`.
import { isGeminiMcpTodoWrite, mcpTodoItems } from '../mcpTodoWrite';
import { geminiFilesWritten } from './fileWrites';
import { geminiProjectHash } from './locations';
import { geminiUsageOf, readGeminiHeldResponse, type GeminiHeldResponse } from './usage';
import { normalizeFolder } from '../locations';
import { type Batch, type JsonRecord, JsonLineParser, isRecord, mapItems, stringField } from '../lineParser';
import type { ForeignStatus, SessionParser } from '../../core/foreign';

const STATUSES: readonly ForeignStatus[] = ['pending', 'in_progress', 'completed', 'cancelled', 'blocked'];

export interface GeminiCliParserOptions {
  /** The workspace folders: the one whose hash the file records becomes the session's cwd. */
  workspaceFolders?: readonly string[];
}

export function createGeminiCliParser(options: GeminiCliParserOptions = {}, state?: unknown): SessionParser {
  return new GeminiCliParser(options, state);
}

class GeminiCliParser extends JsonLineParser {
  /** A response whose tool calls may still be written (usage.ts). */
  private held: GeminiHeldResponse | undefined;

  constructor(
    private readonly options: GeminiCliParserOptions,
    state: unknown,
  ) {
    super('gemini-cli', state);
    this.held = isRecord(state) ? readGeminiHeldResponse(state['held']) : undefined;
  }

  protected ownState(): JsonRecord {
    return this.held !== undefined ? { held: { ...this.held } } : {};
  }

  protected handle(record: JsonRecord, line: number, batch: Batch): void {
    const patch = record['$set'];
    if (patch !== undefined) {
      if (!isRecord(patch)) {
        batch.report(line, 'a $set line without an object');
        return;
      }
      this.readSession(patch);
      // A patch may set the whole message list (the first turn, a resumed or compressed chat).
      const messages = patch['messages'];
      if (Array.isArray(messages)) for (const message of messages) if (isRecord(message)) this.readMessage(message, line, batch);
      return;
    }
    if (record['id'] === undefined && stringField(record, 'sessionId') !== undefined) {
      this.readSession(record);
      return;
    }
    this.readMessage(record, line, batch);
  }

  /** A message record: its successful write_todos, write_file and replace calls, in order. */
  private readMessage(record: JsonRecord, line: number, batch: Batch): void {
    this.held = geminiUsageOf(this.base.session, this.held, record, this.base.plans, batch);
    if (record['type'] === 'user') this.firstRequest(geminiRequestText(record['content']));
    const calls = record['toolCalls'];
    if (calls === undefined) return;
    if (!Array.isArray(calls)) {
      batch.report(line, 'toolCalls that is not a list');
      return;
    }
    for (const call of calls) {
      if (isRecord(call) && (call['name'] === 'write_file' || call['name'] === 'replace')) {
        this.readWrite(record, call, batch);
        continue;
      }
      const name = isRecord(call) ? call['name'] : undefined;
      const mcp = isGeminiMcpTodoWrite(name);
      if (!isRecord(call) || (name !== 'write_todos' && !mcp)) continue;
      // Only a call that ran: a scheduled, cancelled or failed one changed nothing.
      if (call['status'] !== 'success') continue;
      const id = stringField(call, 'id');
      if (id === undefined) {
        batch.report(line, `a ${mcp ? 'MCP todo_write' : 'write_todos'} call without an id`);
        continue;
      }
      if (batch.alreadyEmitted(id)) continue;
      const args = call['args'];
      const mapped = mcp ? mcpTodoItems(args) : mapItems(isRecord(args) ? args['todos'] : undefined, 'description', STATUSES, 'write_todos');
      if (!mapped.ok) {
        batch.report(line, mapped.detail);
        continue;
      }
      if (this.base.session === undefined) {
        batch.report(line, 'a write_todos call before the session line');
        continue;
      }
      const at = stringField(call, 'timestamp') ?? stringField(record, 'timestamp');
      batch.emit({
        source: { agent: 'gemini-cli', tool: mcp ? name : 'write_todos', session: this.base.session, call: id },
        items: mapped.items,
        ...(at !== undefined ? { at } : {}),
      });
    }
  }

  /** A write_file or replace call: once its record shows it succeeded, the file it wrote. */
  private readWrite(record: JsonRecord, call: JsonRecord, batch: Batch): void {
    // geminiFilesWritten reads a message's calls; only a call that succeeded names its file.
    const [write] = geminiFilesWritten({ toolCalls: [call] });
    if (write?.call === undefined || this.base.session === undefined || batch.alreadyEmitted(write.call)) return;
    const at = stringField(call, 'timestamp') ?? stringField(record, 'timestamp');
    batch.write({ source: { agent: 'gemini-cli', session: this.base.session, call: write.call }, files: [write.path], ...(at !== undefined ? { at } : {}) });
  }

  /** The session line, or a patch of it: its id, its workspace (by hash), its summary. */
  private readSession(fields: JsonRecord): void {
    const session = stringField(fields, 'sessionId');
    if (session !== undefined && this.base.session === undefined) this.base.session = session;
    const hash = stringField(fields, 'projectHash');
    if (hash !== undefined && this.base.cwd === undefined) {
      const folder = this.options.workspaceFolders?.map(normalizeFolder).find((f) => geminiProjectHash(f) === hash);
      if (folder !== undefined) this.base.cwd = folder;
    }
    const summary = stringField(fields, 'summary');
    if (summary !== undefined) this.base.title = summary.trim();
  }
}

/**
 * What the user typed in a `user` message: its text parts (a string in older files); not a
 * tool's response, nor the context Gemini CLI sends first (`<session_context>`).
 */
function geminiRequestText(content: unknown): string | undefined {
  let text: string | undefined;
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content) && !content.some((part) => isRecord(part) && part['functionResponse'] !== undefined)) {
    const texts = content.filter((part): part is JsonRecord => isRecord(part) && typeof part['text'] === 'string');
    if (texts.length > 0) text = texts.map((part) => part['text'] as string).join(' ');
  }
  return text === undefined || text.trimStart().startsWith('<') ? undefined : text;
}

// Plans written through Agent Plan's MCP server (src/mcp/) by an agent Agent Plan does not
// follow: one inbox file per server process (one agent run), one `mcp/todo_write` line per
// accepted call, already validated by the server against the todo_write contract. Pure: lines in,
// plans out.
//
//   {"v":1,"type":"mcp/todo_write","ts","client":{"name","version"},"cwd","agentSession"?,"call","todos":[{content,status}]}
//
// A client that is an agent whose follower reads its MCP plan calls from its own record (its
// descriptor's `mcpClients`) is skipped: the plan joins that agent's session with its edits and
// costs. A line whose working folder is in none of the workspace folders belongs to
// another window's workspace: skipped, silently. The file's session is the agent's own session id
// where the server learned one, else the server process's file: one agent run.
import { INBOX_RECORD_TYPE } from '../../node/mcpInbox';
import { isInsideWorkspace } from '../locations';
import { type Batch, type JsonRecord, JsonLineParser, mapItems, stringField } from '../lineParser';
import type { ForeignStatus, SessionParser } from '../../core/foreign';

/** The tool the plan came through, as the log's `source.tool` names it. */
export const MCP_TOOL = 'todo_write';
const STATUSES: readonly ForeignStatus[] = ['pending', 'in_progress', 'completed'];
/** Longest client name and session id kept. */
const MAX_NAME = 200;

/** Whether `name` is one of `followed` (without case; a trailing `*` matches any rest). */
export function isFollowedClient(name: string, followed: readonly string[]): boolean {
  const lower = name.toLowerCase();
  return followed.some((known) => (known.endsWith('*') ? lower.startsWith(known.slice(0, -1).toLowerCase()) : lower === known.toLowerCase()));
}

export interface McpParserOptions {
  /** The workspace folders: a line whose working folder is in none of them yields nothing. */
  workspaceFolders: readonly string[];
  /** The file's own id (its name without `.jsonl`): the session of a client that names none. */
  fileId: string;
  /** The MCP client names of the agents that read their own MCP plan calls (their descriptors' `mcpClients`). */
  followedClients?: readonly string[];
}

export function createMcpParser(options: McpParserOptions, state?: unknown): SessionParser {
  return new McpInboxParser(options, state);
}

class McpInboxParser extends JsonLineParser {
  private client: string | undefined;

  constructor(
    private readonly options: McpParserOptions,
    state: unknown,
  ) {
    super('mcp', state);
    const saved = (state ?? {}) as JsonRecord;
    if (typeof saved['client'] === 'string') this.client = saved['client'];
  }

  protected handle(record: JsonRecord, line: number, batch: Batch): void {
    if (record['type'] !== INBOX_RECORD_TYPE || record['v'] !== 1) {
      batch.report(line, `a line of type ${JSON.stringify(String(record['type']).slice(0, 40))}, not ${INBOX_RECORD_TYPE} v1`);
      return;
    }
    const client = record['client'];
    const name = typeof client === 'object' && client !== null ? stringField(client as JsonRecord, 'name') : undefined;
    const cwd = stringField(record, 'cwd');
    const call = stringField(record, 'call');
    if (name === undefined || cwd === undefined || call === undefined) {
      batch.report(line, `an ${INBOX_RECORD_TYPE} line without its client name, cwd or call`);
      return;
    }
    if (isFollowedClient(name, this.options.followedClients ?? [])) return;
    if (!this.options.workspaceFolders.some((folder) => isInsideWorkspace(cwd, folder))) return;
    const items = mapItems(record['todos'], 'content', STATUSES, MCP_TOOL);
    if (!items.ok) {
      batch.report(line, items.detail);
      return;
    }
    const named = stringField(record, 'agentSession');
    // The session: the file's first line decides (one server process is one agent run).
    if (this.base.session === undefined) {
      this.base.session = `${name.slice(0, MAX_NAME)}:${(named ?? this.options.fileId).slice(0, MAX_NAME)}`;
      this.base.cwd = cwd;
      this.client = name.slice(0, MAX_NAME);
      this.base.title = `${this.client} · ${folderName(cwd)}`;
    }
    if (batch.alreadyEmitted(call)) return;
    const at = stringField(record, 'ts');
    batch.emit({ source: { agent: 'mcp', tool: MCP_TOOL, session: this.base.session, call }, items: items.items, ...(at !== undefined ? { at } : {}) });
  }

  protected ownState(): JsonRecord {
    return this.client === undefined ? {} : { client: this.client };
  }
}

/** The last part of a folder path, either separator. */
function folderName(folder: string): string {
  const parts = folder.split(/[\\/]+/).filter((part) => part !== '');
  return parts.at(-1) ?? folder;
}

// Plans written through Agent Plan's own MCP server (src/mcp/, `todo_write` for any agent) by
// agents Agent Plan does not follow otherwise: its inbox of one JSONL file per server process
// (src/node/mcpInbox.ts), read-only, each agent run a session named by its MCP client and working
// folder. Plans of the followed agents are read from their own records instead (parser.ts).
import * as path from 'node:path';
import { mcpInboxFolder, INBOX_FILE_PATTERN } from '../../node/mcpInbox';
import type { AgentDescriptor } from '../agent';
import { startJsonlAgent } from '../follow/jsonlAgent';
import { jsonlFilesIn } from '../follow/jsonlFiles';
import { normalizeFolder } from '../locations';
import { createMcpParser } from './parser';

export * from './parser';

export const mcp: AgentDescriptor = {
  id: 'mcp',
  name: 'MCP clients',
  icon: 'plug',
  settingKey: 'mcp',
  parserVersion: 'mcp/1',
  /** Agent Plan's MCP inbox. */
  defaultFolder: (env, home) => mcpInboxFolder(env, home),
  about: {
    docsName: 'Any MCP client (Agent Plan\'s `todo_write` server)',
    tested: 'MCP SDK 1.32.2 client',
    planTools: '`todo_write` over MCP',
    switchOn: '*Agent Plan: Connect Agents…*, or the server added by hand ([MCP](mcp.md)).',
    reads: {
      agent: 'MCP clients (`todo_write` over MCP)',
      files: "Agent Plan's inbox, `~/.local/share/agent-plan/mcp-inbox/*.jsonl` (written by its own server)",
      sessions: 'whose working folder is in the workspace',
      session: 'one agent run (one server process), or the agent\'s own session where it names one',
    },
    readme: { agent: 'Any MCP client', reads: "`todo_write` served over MCP (`node <extension>/dist/mcp.js`)", switchOn: '*Connect Agents…* or [by hand](docs/mcp.md)' },
    rows: {
      naming: { cells: ["the MCP client's name and the working folder's name", '—'] },
      mapping: [{ label: '`todo_write` (MCP)', cells: ['`content`', '', 'pending, in_progress, completed: the contract of `todo_write`'] }],
      waiting: { cells: ['**none**: the server sees only the plan calls', '—'] },
      ledger: [{ cells: ['not recorded', 'not recorded', 'not recorded', 'not recorded', 'not recorded', 'not recorded'] }],
    },
    settings: {
      enabled: { en: 'Show the plans that agents Agent Plan does not follow otherwise wrote through its MCP server (`todo_write`), for sessions that ran in this workspace.', zhCn: '显示 Agent Plan 未另行跟踪的智能体通过其 MCP 服务器（`todo_write`）写下的计划，仅限在此工作区中运行的会话。' },
      folder: { name: "Agent Plan's MCP inbox", note: { en: 'written by its own MCP server', zhCn: '由其自身的 MCP 服务器写入' }, empty: ['`~/.local/share/agent-plan/mcp-inbox`'] },
      meaning: 'Plans written through Agent Plan\'s MCP server by other agents, and the inbox folder to read.',
    },
  },
  start: (options) =>
    startJsonlAgent(
      {
        id: mcp.id,
        parserVersion: mcp.parserVersion,
        locator: (folder) => ({
          list: () => jsonlFilesIn(folder, (name) => INBOX_FILE_PATTERN.test(name)),
          watchFolders: () => [normalizeFolder(folder)],
        }),
        createParser: (file, state, workspaceFolders) => createMcpParser({ workspaceFolders, fileId: path.basename(file, '.jsonl'), followedClients: options.followedMcpClients ?? [] }, state),
      },
      options,
    ),
};

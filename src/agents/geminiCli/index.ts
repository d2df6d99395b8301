// Gemini CLI: its write_todos plans from its chat logs, read-only. Its pure parser is parser.ts,
// its folders locations.ts and locator.ts, the files its tools wrote fileWrites.ts, what each
// model response used usage.ts; the shared follower (src/agents/follow/) reads the files.
import * as path from 'node:path';
import type { AgentDescriptor } from '../agent';
import { startJsonlAgent } from '../follow/jsonlAgent';
import { geminiCliLocator } from './locator';
import { createGeminiCliParser } from './parser';
import { geminiCliConnect } from './connect';

export * from './parser';

export const geminiCli: AgentDescriptor = {
  id: 'gemini-cli',
  name: 'Gemini CLI',
  icon: 'star-full',
  settingKey: 'geminiCli',
  parserVersion: 'gemini-cli/3',
  /** `~/.gemini`. */
  defaultFolder: (_env, home) => path.join(home, '.gemini'),
  /** Its MCP client name: its calls of Agent Plan's MCP todo_write are read from its own record. */
  mcpClients: ['gemini-cli-mcp-client'],
  about: {
    tested: '0.61.0',
    planTools: '`write_todos`',
    switchOn: '`--approval-mode yolo` (the tool is offered only then), and a model named with `-m` (e.g. `gemini-2.5-pro`): without `-m` its router picked a model without `write_todos`.',
    reads: {
      agent: 'Gemini CLI (`write_todos`)',
      files: '`~/.gemini/projects.json`, then `~/.gemini/tmp/<project>/chats/session-*.jsonl`',
      sessions: 'the project `projects.json` maps the workspace to',
      session: 'one chat',
    },
    readme: { agent: 'Gemini CLI (0.61.0)', reads: '`write_todos`, `write_file`, `replace`, from `~/.gemini/tmp/<project>/chats/`', switchOn: '`--approval-mode yolo` and a model named with `-m`' },
    rows: {
      naming: { cells: ["the session's `summary`, once it has one", "the first `user` message's text parts, not a `functionResponse`, not the `<session_context>` it sends first"] },
      mapping: [
        { label: '`write_todos`', cells: ['`description`', '', 'pending, in_progress, completed, and **cancelled** and **blocked**, kept as they are: neither counts as done nor as in progress'] },
      ],
      waiting: { cells: ['**none**: its chat file writes a model message first without its calls and again with them only once they completed (`status: "success"`), so a call that waits is not in the record', '— (recorded only with `--approval-mode yolo`, which `write_todos` needs)'] },
      ledger: [
        { cells: ['`gemini` message (`id`), `tokens`', '`input` − `cached` + `tool`', '`output` + `thoughts`', '`cached`', 'not recorded', 'its `toolCalls`'] },
      ],
    },
    settings: {
      enabled: { planTools: ['write_todos'] },
      folder: { empty: ['`~/.gemini`'] },
      meaning: "Gemini CLI's plans, and the folder to read.",
    },
  },
  connect: geminiCliConnect,
  start: (options) =>
    startJsonlAgent(
      {
        id: geminiCli.id,
        parserVersion: geminiCli.parserVersion,
        locator: (folder, workspaceFolders) => geminiCliLocator(folder, workspaceFolders),
        createParser: (_file, state, workspaceFolders) => createGeminiCliParser({ workspaceFolders }, state),
      },
      options,
    ),
};

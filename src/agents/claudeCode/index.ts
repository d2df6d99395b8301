// Claude Code: its TodoWrite and Task plans from its transcripts, read-only. Its pure parser is
// parser.ts, its folders locations.ts and locator.ts, the files its tools wrote fileWrites.ts;
// the shared follower (src/agents/follow/) reads the files.
import * as path from 'node:path';
import type { AgentDescriptor } from '../agent';
import { startJsonlAgent } from '../follow/jsonlAgent';
import { claudeCodeLocator } from './locator';
import { createClaudeCodeParser, isClaudeSubagentFile } from './parser';
import { claudeCodeConnect } from './connect';
import { claudeCodeAnswers } from './answers';

export * from './parser';

export const claudeCode: AgentDescriptor = {
  id: 'claude-code',
  name: 'Claude Code',
  icon: 'sparkle',
  settingKey: 'claudeCode',
  parserVersion: 'claude-code/3',
  /** `~/.claude`. */
  defaultFolder: (_env, home) => path.join(home, '.claude'),
  /** Its MCP client name: its calls of Agent Plan's MCP todo_write are read from its own record. */
  mcpClients: ['claude-code'],
  about: {
    tested: '2.1.332',
    planTools: '`TaskCreate`/`TaskUpdate`, or `TodoWrite`',
    switchOn: 'Nothing with a model that offers them (`claude-sonnet-4-6` offered the Task tools; the default model of a `-p` run offered no plan tool here). `CLAUDE_CODE_ENABLE_TASKS=false` gives `TodoWrite` instead; both are read.',
    reads: {
      agent: 'Claude Code (`TodoWrite`, `TaskCreate`/`TaskUpdate`)',
      files: '`~/.claude/projects/<workspace path, "/" → "-">/<session id>.jsonl`',
      sessions: 'transcripts whose first `cwd` is a workspace folder',
      session: 'one run (session id)',
    },
    readme: { agent: 'Claude Code (2.1.332)', reads: '`TaskCreate`/`TaskUpdate` or `TodoWrite`, and its edits, from `~/.claude/projects/…/<session>.jsonl`', switchOn: 'nothing with a model that offers them (`claude-sonnet-4-6`); `CLAUDE_CODE_ENABLE_TASKS=false` gives `TodoWrite`' },
    rows: {
      naming: { cells: ['a `custom-title` (set with `/rename`) over an `ai-title` over a `summary` line', "the first `user` line the user typed: not a tool result, not `isMeta`, not Claude Code's own `<command-name>`, `<local-command-stdout>`, `<task-notification>` or `<system-reminder>` wrappers; a subagent's is what its parent asked of it"] },
      mapping: [
        { label: '`TodoWrite`', cells: ['`content`', '`activeForm`', 'pending, in_progress, completed, as sent; a call counts once its result came back without an error'] },
        { label: '`TaskCreate`/`TaskUpdate`', cells: ['`subject`', '`description`, `activeForm`, owners, `blocks`', 'per task; the whole list is folded from the calls, in task-id order; `deleted` takes the task off the list; an update that changes nothing visible adds no version'] },
      ],
      waiting: { cells: ['a `tool_use` of the main transcript whose `tool_result` has not come (until the turn moves on)', '**no**: while it asks for leave the transcript writes nothing (recorded: an interactive run with `--permission-mode default` left at its prompt ends at the `tool_use`), so it reads "waiting on Bash"'] },
      ledger: [
        { cells: ['API message (`message.id`)', '`input_tokens`', '`output_tokens`', '`cache_read_` + `cache_creation_input_tokens`', 'not recorded', 'its `tool_use` blocks'] },
      ],
    },
    settings: {
      enabled: { planTools: ['TodoWrite', 'TaskCreate/TaskUpdate'] },
      folder: { empty: ['`~/.claude`'] },
      meaning: "Claude Code's plans, and the folder to read.",
    },
  },
  connect: claudeCodeConnect,
  answers: claudeCodeAnswers,
  start: (options) =>
    startJsonlAgent(
      {
        id: claudeCode.id,
        parserVersion: claudeCode.parserVersion,
        locator: (folder, workspaceFolders) => claudeCodeLocator(folder, workspaceFolders),
        createParser: (file, state, workspaceFolders) => createClaudeCodeParser({ workspaceFolders, subagent: isClaudeSubagentFile(file) }, state),
      },
      options,
    ),
};

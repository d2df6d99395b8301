// Codex: its update_plan plans from its rollouts, read-only. Its pure parser is parser.ts, its
// folders locations.ts and locator.ts, the files its apply_patch calls wrote fileWrites.ts; the
// shared follower (src/agents/follow/) reads the files.
import * as path from 'node:path';
import type { AgentDescriptor } from '../agent';
import { startJsonlAgent } from '../follow/jsonlAgent';
import { codexLocator } from './locator';
import { createCodexParser } from './parser';
import { codexConnect } from './connect';
import { codexAnswers } from './answers';

export * from './parser';

export const codex: AgentDescriptor = {
  id: 'codex',
  name: 'Codex',
  icon: 'terminal',
  settingKey: 'codex',
  parserVersion: 'codex/3',
  /** `$CODEX_HOME`, or `~/.codex`. */
  defaultFolder: (env, home) => {
    const codexHome = env['CODEX_HOME'];
    return codexHome !== undefined && codexHome !== '' ? codexHome : path.join(home, '.codex');
  },
  /** Its MCP client name: its calls of Agent Plan's MCP todo_write are read from its own record. */
  mcpClients: ['codex-mcp-client'],
  about: {
    docsName: 'Codex CLI',
    tested: '0.171.0',
    planTools: '`update_plan`',
    switchOn: '`[tools.update_plan] enabled = true` in `$CODEX_HOME/config.toml` (`~/.codex`): without it `codex exec` offered no `update_plan`.',
    reads: {
      agent: 'Codex CLI (`update_plan`)',
      files: '`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl` (default `~/.codex`)',
      sessions: 'rollouts whose `session_meta.payload.cwd` is a workspace folder (only the first line is read to decide, once)',
      session: 'one thread',
    },
    readme: { agent: 'Codex CLI (0.171.0)', reads: '`update_plan` and `apply_patch`, from `~/.codex/sessions/…/rollout-*.jsonl`', switchOn: '`[tools.update_plan] enabled = true` in `~/.codex/config.toml`' },
    rows: {
      naming: { cells: ['none', "the first user `message` (`response_item`) or `user_message` (`event_msg`), not Codex's own `<environment_context>`, `<user_instructions>` or `# AGENTS.md instructions` messages"] },
      mapping: [
        { label: '`update_plan`', cells: ['`step`', '`explanation`', 'pending, in_progress, completed'] },
      ],
      waiting: { cells: ['a `function_call` / `custom_tool_call` / `local_shell_call` whose output has not come (until the turn ends)', '**yes, for a command that asks to leave the sandbox**: its arguments say `sandbox_permissions: "require_escalated"` and the turn\'s `turn_context` has `approval_policy` `on-request` or `untrusted` (recorded, interactive, left at its prompt). Codex writes no approval event: any other waiting call reads "waiting on exec_command"'] },
      ledger: [
        { cells: ['response (`token_count` event, `last_token_usage`)', '`input_tokens` − `cached_input_tokens`', '`output_tokens`', '`cached_input_tokens`', 'not recorded', 'its function, custom, shell and web-search calls'] },
      ],
    },
    settings: {
      enabled: { planTools: ['update_plan'] },
      folder: { empty: ['`$CODEX_HOME`', '`~/.codex`'] },
      meaning: "Codex's plans, and the folder to read.",
    },
  },
  connect: codexConnect,
  answers: codexAnswers,
  start: (options) =>
    startJsonlAgent(
      {
        id: codex.id,
        parserVersion: codex.parserVersion,
        locator: (folder, workspaceFolders, own) => codexLocator(folder, workspaceFolders, { decisionsFile: path.join(own, 'rollouts.json') }),
        createParser: (_file, state) => createCodexParser(state),
      },
      options,
    ),
};

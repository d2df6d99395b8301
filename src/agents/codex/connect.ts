// What Connect writes for Codex (src/node/connect/): Agent Plan's block in `config.toml`
// (`$CODEX_HOME`, else `~/.codex`), its server and the tool's `approval_mode`, and the
// `update_plan` switch when chosen. Measured with the real program: docs/connect.md.
import * as path from 'node:path';
import { MCP_TOOL, SERVER_NAME, args, ownFolder, type ConnectAgent } from '../../node/connect/connectAgents';
import { tomlAt, tomlString } from '../../node/connect/tomlBlock';

export const codexConnect: ConnectAgent = {
  id: 'codex',
  name: 'Codex',
  ownPlanTool: 'update_plan',
  planSwitch: '[tools.update_plan] enabled = true',
  preApproval: 'approval_mode = "approve"',
  files: [
    {
      format: 'toml',
      path: (place) => path.join(ownFolder(place, 'CODEX_HOME', '.codex'), 'config.toml'),
      block: (line, parsed) => {
        if (line.mcp && tomlAt(parsed, ['mcp_servers', SERVER_NAME]) !== undefined) return { lines: undefined, kept: [], foreign: `mcp_servers.${SERVER_NAME}` };
        const lines: string[] = [];
        const kept: string[] = [];
        if (line.mcp) {
          lines.push(`[mcp_servers.${SERVER_NAME}]`, `command = ${tomlString(line.node)}`, `args = [${args(line).map(tomlString).join(', ')}]`, '');
          lines.push(`[mcp_servers.${SERVER_NAME}.tools.${MCP_TOOL}]`, 'approval_mode = "approve"');
        }
        if (line.planTools) {
          const current = tomlAt(parsed, ['tools', 'update_plan']);
          if (current === undefined) {
            if (lines.length > 0) lines.push('');
            lines.push('[tools.update_plan]', 'enabled = true');
          } else if (tomlAt(parsed, ['tools', 'update_plan', 'enabled']) !== true) {
            kept.push('tools.update_plan');
          }
        }
        return { lines: lines.length > 0 ? lines : undefined, kept };
      },
    },
  ],
  folders: (place) => [ownFolder(place, 'CODEX_HOME', '.codex')],
  binary: 'codex',
};

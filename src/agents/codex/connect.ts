// What Connect writes for Codex (src/node/connect/): Agent Plan's block in `config.toml`
// (`$CODEX_HOME`, else `~/.codex`), its server and the tool's `approval_mode`, and the
// `update_plan` switch when chosen; when answers are chosen, Agent Plan's `PermissionRequest`
// hook in `hooks.json` beside it (Codex runs it only once the user trusts it). Measured with
// the real program: docs/connect.md.
import * as path from 'node:path';
import { MCP_TOOL, SERVER_NAME, args, ownFolder, permissionHookGroup, type ConnectAgent, type Place } from '../../node/connect/connectAgents';
import { tomlAt, tomlString } from '../../node/connect/tomlBlock';

const codexFolder = (place: Place) => ownFolder(place, 'CODEX_HOME', '.codex');

export const codexConnect: ConnectAgent = {
  id: 'codex',
  name: 'Codex',
  ownPlanTool: 'update_plan',
  planSwitch: '[tools.update_plan] enabled = true',
  preApproval: 'approval_mode = "approve"',
  answersHook: 'hooks.PermissionRequest (hooks.json)',
  files: [
    {
      format: 'toml',
      path: (place) => path.join(codexFolder(place), 'config.toml'),
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
    {
      // Codex asks this hook only when an approval is needed, before its own prompt. A new or
      // changed hook runs once the user has trusted it (Codex's review at its next start).
      format: 'json',
      path: (place) => path.join(codexFolder(place), 'hooks.json'),
      entries: (line) => (line.answers ? [{ kind: 'append' as const, path: ['hooks', 'PermissionRequest'], value: permissionHookGroup(line, 'codex') }] : []),
      hookTrust: true,
    },
  ],
  folders: (place) => [codexFolder(place)],
  binary: 'codex',
};

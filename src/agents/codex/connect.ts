// What Connect writes for Codex (src/node/connect/): Agent Plan's block in `config.toml`
// (`$CODEX_HOME`, else `~/.codex`): its server and the tool's `approval_mode`, the `update_plan`
// switch when chosen, and, when answers are chosen, Agent Plan's `PermissionRequest` hook with
// Codex's own record that the user trusts it (`[hooks.state."<key>"] trusted_hash`,
// hookTrust.ts): Codex runs only hooks it trusts, and Connect is the user's choice of this one,
// shown before it is written. Measured with the real program: docs/connect.md.
import * as path from 'node:path';
import { MCP_TOOL, SERVER_NAME, args, hookCommand, ownFolder, type ConnectAgent, type Place } from '../../node/connect/connectAgents';
import { tomlAt, tomlString, type TomlTable } from '../../node/connect/tomlBlock';
import { codexHookHash, codexHookKey } from './hookTrust';

const codexFolder = (place: Place) => ownFolder(place, 'CODEX_HOME', '.codex');
const EVENT = 'permission_request';
const MATCHER = '*';
const TIMEOUT = 600;

/**
 * The hook group's lines (after the user's own `PermissionRequest` groups of this file), and its
 * trust. Codex keys the trust by the file's real path when `CODEX_HOME` names its folder, by the
 * path as written under HOME otherwise.
 */
function answersLines(command: string, parsed: TomlTable, file: { path: string; real: string; place: Place }): { lines: string[]; foreign?: string } {
  const groups = tomlAt(parsed, ['hooks', 'PermissionRequest']);
  if (groups !== undefined && !Array.isArray(groups)) return { lines: [], foreign: 'hooks.PermissionRequest' };
  const own = file.place.env['CODEX_HOME'];
  const key = codexHookKey(own !== undefined && own !== '' && path.isAbsolute(own) ? file.real : file.path, EVENT, Array.isArray(groups) ? groups.length : 0, 0);
  const hash = codexHookHash(EVENT, MATCHER, { command, timeout: TIMEOUT });
  const trusted = tomlAt(parsed, ['hooks', 'state', key]);
  if (trusted !== undefined && tomlAt(parsed, ['hooks', 'state', key, 'trusted_hash']) !== hash) return { lines: [], foreign: `hooks.state."${key}"` };
  const lines = ['[[hooks.PermissionRequest]]', `matcher = ${tomlString(MATCHER)}`, '', '[[hooks.PermissionRequest.hooks]]', 'type = "command"', `command = ${tomlString(command)}`, `timeout = ${TIMEOUT}`];
  if (trusted === undefined) lines.push('', `[hooks.state.${tomlString(key)}]`, `trusted_hash = ${tomlString(hash)}`);
  return { lines };
}

export const codexConnect: ConnectAgent = {
  id: 'codex',
  name: 'Codex',
  ownPlanTool: 'update_plan',
  planSwitch: '[tools.update_plan] enabled = true',
  preApproval: 'approval_mode = "approve"',
  answersHook: '[[hooks.PermissionRequest]] (config.toml)',
  files: [
    {
      format: 'toml',
      path: (place) => path.join(codexFolder(place), 'config.toml'),
      block: (line, parsed, file) => {
        if (line.mcp && tomlAt(parsed, ['mcp_servers', SERVER_NAME]) !== undefined) return { lines: undefined, kept: [], foreign: `mcp_servers.${SERVER_NAME}` };
        const lines: string[] = [];
        const kept: string[] = [];
        const next = () => {
          if (lines.length > 0) lines.push('');
        };
        if (line.mcp) {
          lines.push(`[mcp_servers.${SERVER_NAME}]`, `command = ${tomlString(line.node)}`, `args = [${args(line).map(tomlString).join(', ')}]`, '');
          lines.push(`[mcp_servers.${SERVER_NAME}.tools.${MCP_TOOL}]`, 'approval_mode = "approve"');
        }
        if (line.planTools) {
          const current = tomlAt(parsed, ['tools', 'update_plan']);
          if (current === undefined) {
            next();
            lines.push('[tools.update_plan]', 'enabled = true');
          } else if (tomlAt(parsed, ['tools', 'update_plan', 'enabled']) !== true) {
            kept.push('tools.update_plan');
          }
        }
        if (line.answers) {
          const hook = answersLines(hookCommand(line, 'codex'), parsed, file);
          if (hook.foreign !== undefined) return { lines: undefined, kept, foreign: hook.foreign };
          next();
          lines.push(...hook.lines);
        }
        return { lines: lines.length > 0 ? lines : undefined, kept };
      },
    },
  ],
  folders: (place) => [codexFolder(place)],
  binary: 'codex',
};

// What Connect writes for Claude Code (src/node/connect/): its server in `~/.claude.json`, the
// allow rule for its tool in `~/.claude/settings.json`, and there too, when answers are chosen,
// Agent Plan's `PermissionRequest` hook; `CLAUDE_CONFIG_DIR` moves both files into it. Measured
// with the real program: docs/connect.md.
import * as path from 'node:path';
import { MCP_TOOL, SERVER_NAME, mcpServersEntry, ownFolder, permissionHookGroup, type ConnectAgent, type Place } from '../../node/connect/connectAgents';

const claudeFolder = (place: Place) => ownFolder(place, 'CLAUDE_CONFIG_DIR', '.claude');
const claudeJson = (place: Place) => (place.env['CLAUDE_CONFIG_DIR'] ? path.join(claudeFolder(place), '.claude.json') : path.join(place.home, '.claude.json'));

export const claudeCodeConnect: ConnectAgent = {
  id: 'claude-code',
  name: 'Claude Code',
  planSwitch: 'env.CLAUDE_CODE_ENABLE_TODO_TOOLS = "1"',
  preApproval: `permissions.allow: mcp__${SERVER_NAME}__${MCP_TOOL}`,
  answersHook: 'hooks.PermissionRequest',
  files: [
    { format: 'json', path: claudeJson, entries: (line) => mcpServersEntry(line, { env: {} }, { type: 'stdio' }) },
    {
      format: 'json',
      path: (place) => path.join(claudeFolder(place), 'settings.json'),
      entries: (line) => [
        ...(line.mcp ? [{ kind: 'append' as const, path: ['permissions', 'allow'], value: `mcp__${SERVER_NAME}__${MCP_TOOL}` }] : []),
        ...(line.planTools ? [{ kind: 'switch' as const, path: ['env', 'CLAUDE_CODE_ENABLE_TODO_TOOLS'], value: '1' }] : []),
        // Claude Code asks this hook only when it would show its permission dialog (and shows the dialog meanwhile).
        ...(line.answers ? [{ kind: 'append' as const, path: ['hooks', 'PermissionRequest'], value: permissionHookGroup(line, 'claude-code') }] : []),
      ],
    },
  ],
  folders: (place) => [claudeFolder(place), claudeJson(place)],
  binary: 'claude',
};

// What Connect writes for Qwen Code (src/node/connect/): its server, trusted, and the
// todo_write switch when chosen, in `settings.json` (`$QWEN_HOME`, else `~/.qwen`). Measured
// with the real program: docs/connect.md.
import * as path from 'node:path';
import { mcpServersEntry, ownFolder, type ConnectAgent } from '../../node/connect/connectAgents';

export const qwenCodeConnect: ConnectAgent = {
  id: 'qwen-code',
  name: 'Qwen Code',
  ownPlanTool: 'todo_write',
  planSwitch: 'tools.todoWrite.enabled = true',
  preApproval: '"trust": true',
  files: [
    {
      format: 'json',
      path: (place) => path.join(ownFolder(place, 'QWEN_HOME', '.qwen'), 'settings.json'),
      entries: (line) => [
        ...mcpServersEntry(line, { trust: true }),
        ...(line.planTools ? [{ kind: 'switch' as const, path: ['tools', 'todoWrite', 'enabled'], value: true }] : []),
      ],
    },
  ],
  folders: (place) => [ownFolder(place, 'QWEN_HOME', '.qwen')],
  binary: 'qwen',
};

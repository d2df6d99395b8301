// Connect (src/node/connect/) does not write Cline's settings: why, in both languages.
import * as path from 'node:path';
import type { ConnectAgent } from '../../node/connect/connectAgents';

export const clineConnect: ConnectAgent = {
  id: 'cline',
  name: 'Cline',
  ownPlanTool: 'team_task / task_progress',
  unsupported: {
    en: 'Cline keeps its MCP servers in its own settings (in VS Code, a file in its global storage that Cline itself owns and rewrites); where the Cline CLI keeps them was not measured.',
    zhCn: 'Cline 将其 MCP 服务器保存在自己的设置中（在 VS Code 中，是其全局存储中由 Cline 自己拥有并重写的文件）；尚未测定 Cline CLI 将其保存在何处。',
  },
  files: [],
  folders: (place) => [path.join(place.home, '.cline')],
  binary: 'cline',
};

// Connect (src/node/connect/) does not write Kilo CLI's settings yet: why, in both languages.
import * as path from 'node:path';
import { configHome, dataHome, type ConnectAgent } from '../../node/connect/connectAgents';

export const kiloConnect: ConnectAgent = {
  id: 'kilo',
  name: 'Kilo CLI',
  ownPlanTool: 'todowrite',
  unsupported: {
    en: 'where Kilo CLI keeps its user MCP configuration was not measured (its recordings pass the whole configuration in KILO_CONFIG_CONTENT).',
    zhCn: '尚未测定 Kilo CLI 将其用户 MCP 配置保存在何处（其录制通过 KILO_CONFIG_CONTENT 传入全部配置）。',
  },
  files: [],
  folders: (place) => [path.join(configHome(place), 'kilo'), path.join(dataHome(place), 'kilo')],
  binary: 'kilo',
};

// What Connect writes for opencode (src/node/connect/): its server as `mcp.agentplan` in
// `$XDG_CONFIG_HOME/opencode/opencode.json`; opencode runs it without approval. Measured with
// the real program: docs/connect.md.
import * as path from 'node:path';
import { SERVER_NAME, args, configHome, dataHome, type ConnectAgent } from '../../node/connect/connectAgents';

export const opencodeConnect: ConnectAgent = {
  id: 'opencode',
  name: 'opencode',
  ownPlanTool: 'todowrite',
  files: [
    {
      format: 'json',
      path: (place) => path.join(configHome(place), 'opencode', 'opencode.json'),
      entries: (line) => (line.mcp ? [{ kind: 'own', path: ['mcp', SERVER_NAME], value: { type: 'local', command: [line.node, ...args(line)], enabled: true } }] : []),
    },
  ],
  folders: (place) => [path.join(configHome(place), 'opencode'), path.join(dataHome(place), 'opencode')],
  binary: 'opencode',
};

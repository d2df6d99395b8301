// What Connect writes for Copilot CLI (src/node/connect/): its server in `mcp-config.json`
// (`$COPILOT_HOME`, else `~/.copilot`); only a command-line flag pre-approves its tool.
// Measured with the real program: docs/connect.md.
import * as path from 'node:path';
import { SERVER_NAME, mcpServersEntry, ownFolder, type ConnectAgent } from '../../node/connect/connectAgents';

/** Its own folder under HOME (`COPILOT_HOME` moves it). */
const FOLDER = '.copilot';

export const copilotCliConnect: ConnectAgent = {
  id: 'copilot-cli',
  name: 'Copilot CLI',
  ownPlanTool: 'sql (todos)',
  approvalFlag: `--allow-tool ${SERVER_NAME}`,
  files: [
    {
      format: 'json',
      path: (place) => path.join(ownFolder(place, 'COPILOT_HOME', FOLDER), 'mcp-config.json'),
      entries: (line) => mcpServersEntry(line, { tools: ['*'] }, { type: 'local' }),
    },
  ],
  folders: (place) => [ownFolder(place, 'COPILOT_HOME', FOLDER)],
  // Its program is its folder's name without the dot. That word is also Copilot Chat's agent id,
  // which only Copilot Chat's folder writes (test/unit/project/agentFolders.unit.test.ts).
  binary: 'copilot',
};

// What Connect writes for Gemini CLI (src/node/connect/): its server, trusted, in
// `~/.gemini/settings.json`. Measured with the real program: docs/connect.md.
import * as path from 'node:path';
import { mcpServersEntry, type ConnectAgent } from '../../node/connect/connectAgents';

export const geminiCliConnect: ConnectAgent = {
  id: 'gemini-cli',
  name: 'Gemini CLI',
  ownPlanTool: 'write_todos',
  preApproval: '"trust": true',
  files: [{ format: 'json', path: (place) => path.join(place.home, '.gemini', 'settings.json'), entries: (line) => mcpServersEntry(line, { trust: true }) }],
  folders: (place) => [path.join(place.home, '.gemini')],
  binary: 'gemini',
};

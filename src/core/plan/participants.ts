// Which agents' sessions are VS Code chats, and which chat participant is such an agent's own:
// the store tells an agent's chat from a chat another extension answered. The facts are each
// agent's descriptor (`vscodeChat`), generated into core so core imports nothing of the agents.
import { VSCODE_CHAT_AGENTS } from '../generated/agentIds';

/** Whether the agent's sessions are VS Code chats (keyed as VS Code names a chat session). */
export function isVscodeChatAgent(agent: string | undefined): boolean {
  return agent !== undefined && Object.hasOwn(VSCODE_CHAT_AGENTS, agent);
}

/** Whether a chat participant's extension id is the agent's own (compared without case). */
export function isAgentParticipant(agent: string, id: string): boolean {
  const own = VSCODE_CHAT_AGENTS[agent];
  return own !== undefined && id.toLowerCase() === own.toLowerCase();
}

// Which VS Code chat participant is Copilot's own: the store tells a Copilot chat from a
// chat another extension answered. Kept in core so core imports nothing from an agent's folder.

/** Copilot Chat's extension id, as VS Code saves a request's participant (compared without case). */
export const COPILOT_CHAT_EXTENSION = 'github.copilot-chat';

/** Whether a chat participant's extension id is Copilot Chat's. */
export function isCopilotParticipant(id: string): boolean {
  return id.toLowerCase() === COPILOT_CHAT_EXTENSION;
}

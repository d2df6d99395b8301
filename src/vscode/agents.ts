// How each agent whose plans Agent Plan mirrors is shown: a codicon and its name in words.
import * as vscode from 'vscode';
import type { AgentId } from '../sources/types';

const t = vscode.l10n.t;

export const AGENT_ICONS: Record<AgentId, string> = {
  copilot: 'copilot',
  'claude-code': 'sparkle',
  codex: 'terminal',
  'gemini-cli': 'star-full',
};

/** The icon of todo_write's own sessions (no `source`). */
export const TOOL_SESSION_ICON = 'comment-discussion';

export function agentName(agent: AgentId): string {
  switch (agent) {
    case 'copilot':
      return t('Copilot');
    case 'claude-code':
      return t('Claude Code');
    case 'codex':
      return t('Codex');
    case 'gemini-cli':
      return t('Gemini CLI');
  }
}

/** Times in VS Code's display language, not the host's locale. */
export function dateTimeText(iso: string): string {
  return new Date(iso).toLocaleString(vscode.env.language);
}

export function timeText(iso: string): string {
  return new Date(iso).toLocaleTimeString(vscode.env.language);
}

/** A saved version's time: the time of day when it is from today, else the date and time. */
export function versionTime(iso: string, now: Date = new Date()): string {
  return new Date(iso).toDateString() === now.toDateString() ? timeText(iso) : dateTimeText(iso);
}

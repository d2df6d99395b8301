// How each agent whose plans Agent Plan follows is shown: a codicon and its name in words.
import * as vscode from 'vscode';
import type { AgentId } from '../core/foreign';
import { AGENT_LOOKS } from '../core/generated/agentIds';

/** The codicon of an agent's sessions, from the registry (generated into core, so the views import no agent). */
export function agentIcon(agent: AgentId): string {
  return AGENT_LOOKS[agent].icon;
}

/** The icon of todo_write's own sessions (no `source`). */
export const TOOL_SESSION_ICON = 'comment-discussion';

/** An agent's name in VS Code's display language: the registry's English name through the l10n bundle. */
export function agentName(agent: AgentId): string {
  return vscode.l10n.t(AGENT_LOOKS[agent].name);
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

// The agents Connect lists: those of the registry whose descriptor has a Connect spec (its
// `connect`, src/agents/<agent>/connect.ts), in the registry's order.
import * as vscode from 'vscode';
import { AGENTS } from '../../agents/registry';
import type { ConnectAgent } from '../../node/connect/connectAgents';

export const CONNECT_AGENTS: readonly ConnectAgent[] = AGENTS.flatMap((agent) => (agent.connect ? [agent.connect] : []));

/** The agent of `id` (a registry id); an unknown id is an error naming the known ones, never another agent. */
export function connectAgentOf(id: string): ConnectAgent {
  const agent = CONNECT_AGENTS.find((candidate) => candidate.id === id);
  if (agent === undefined) throw new Error(vscode.l10n.t('Agent Plan cannot connect an agent named "{0}"; it knows {1}.', id, CONNECT_AGENTS.map((known) => known.id).join(', ')));
  return agent;
}

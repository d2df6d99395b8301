// Every agent Agent Plan follows, in the order the settings and the README list them. The
// follower, the settings, the Sessions view, the agent ids the log accepts (generated from this
// list by scripts/gen-agent-ids.mjs) and the README's tables are driven by this list.
// Adding an agent: its folder src/agents/<agent>/ (index.ts with its descriptor, its parser,
// locator and file writes), one line here, its settings in package.json (+ package.nls*.json)
// and its name in the l10n bundles. Nothing else changes (test/unit/agentFolders.unit.test.ts).
import type { AgentDescriptor } from './agent';
import { claudeCode } from './claudeCode';
import { cline } from './cline';
import { codex } from './codex';
import { copilot } from './copilotChat';
import { copilotCli } from './copilotCli';
import { geminiCli } from './geminiCli';
import { kilo } from './kilo';
import { opencode } from './opencode';
import { qwenCode } from './qwenCode';
import type { AgentId } from '../core/foreign';

export const AGENTS: readonly AgentDescriptor[] = [copilot, claudeCode, codex, geminiCli, opencode, kilo, qwenCode, copilotCli, cline];

/** The descriptor of `id`; every AgentId has one (a unit test holds the list to AGENT_IDS). */
export function agentById(id: AgentId): AgentDescriptor {
  const found = AGENTS.find((agent) => agent.id === id);
  if (found === undefined) throw new Error(`no agent ${id} in the registry`);
  return found;
}

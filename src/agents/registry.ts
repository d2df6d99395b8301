// Every agent Agent Plan follows, in the order the settings and the README list them. The
// follower, the settings, the Sessions view, the agent ids the log accepts (generated from this
// list by `npm run generate`, scripts/generate.mjs) and the README's tables are driven by this list.
// Adding an agent: its folder src/agents/<agent>/ (index.ts with its descriptor, its parser,
// locator and file writes), one line here, then `npm run generate` writes its settings, strings
// and docs rows from its descriptor. Nothing else changes (test/unit/project/agentFolders.unit.test.ts).
import type { AgentDescriptor } from './agent';
import { claudeCode } from './claudeCode';
import { cline } from './cline';
import { codex } from './codex';
import { copilot } from './copilotChat';
import { copilotCli } from './copilotCli';
import { geminiCli } from './geminiCli';
import { kilo } from './kilo';
import { mcp } from './mcp';
import { opencode } from './opencode';
import { qwenCode } from './qwenCode';

export const AGENTS: readonly AgentDescriptor[] = [copilot, claudeCode, codex, geminiCli, opencode, kilo, qwenCode, copilotCli, cline, mcp];

// Starting one agent's follower by its id, through its descriptor in the registry, as the
// extension does; and the files an agent's record line names, by the function its parser calls.
import type { AgentId, PlanSink, UnknownShape } from '../../src/core/foreign';
import type { RunningFollower } from '../../src/agents/agent';
import type { FileWrite } from '../../src/agents/fileWrites';
import { AGENTS } from '../../src/agents/registry';
import { claudeFilesWritten } from '../../src/agents/claudeCode/fileWrites';
import { codexFilesWritten } from '../../src/agents/codex/fileWrites';
import { copilotFilesWritten } from '../../src/agents/copilotChat/fileWrites';
import { geminiFilesWritten } from '../../src/agents/geminiCli/fileWrites';

/** The registry's descriptor of `id`; an id it does not hold is an error. */
function agentById(id: AgentId) {
  const found = AGENTS.find((agent) => agent.id === id);
  if (found === undefined) throw new Error(`no agent ${id} in the registry`);
  return found;
}

export interface AgentFollowerOptions {
  agent: AgentId;
  folder: string;
  workspaceFolders: readonly string[];
  storageDir: string;
  sink: PlanSink;
  onUnknownShape?(file: string, shape: UnknownShape): void;
  onError?(error: unknown, file?: string): void;
  onPolling?(reason: string): void;
  throttleMs?: number;
  pollMs?: number;
}

/** The agent's follower over `workspaceFolders` (at least one), started. */
export function startTerminalFollower(options: AgentFollowerOptions): RunningFollower {
  const started = agentById(options.agent).start({
    folder: options.folder,
    workspaceFolders: options.workspaceFolders,
    workspaceStorageFolder: undefined,
    storageDir: options.storageDir,
    sink: options.sink,
    onUnknownShape: (file, shape) => options.onUnknownShape?.(file, shape),
    onError: (error, file) => options.onError?.(error, file),
    onPolling: (reason) => options.onPolling?.(reason),
    ...(options.throttleMs !== undefined ? { throttleMs: options.throttleMs } : {}),
    ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
  });
  if (started === undefined) throw new Error(`${options.agent} started nothing`);
  return started;
}

/** The agents' default folders, by id, for the ids given. */
export function defaultAgentFolders(ids: readonly AgentId[], env: NodeJS.ProcessEnv, home: string): Record<string, string> {
  return Object.fromEntries(ids.map((id) => [id, agentById(id).defaultFolder?.(env, home) ?? '']));
}

/** The agents whose parsers read the files a tool call wrote from each line, by the function they call. */
const FILES_WRITTEN: Partial<Record<AgentId, (line: unknown) => FileWrite[]>> = {
  'claude-code': claudeFilesWritten,
  codex: codexFilesWritten,
  copilot: copilotFilesWritten,
  'gemini-cli': geminiFilesWritten,
};

/** The files one line of `agent`'s record names; an agent not read line by line for files is an error. */
export function filesWritten(agent: AgentId, line: unknown): FileWrite[] {
  const read = FILES_WRITTEN[agent];
  if (read === undefined) throw new Error(`${agent}'s parser reads no files line by line`);
  return read(line);
}

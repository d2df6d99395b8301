// Starting one agent's follower by its id, through its descriptor in the registry, as the
// extension does; and the files an agent's record line names, through its descriptor.
import type { AgentId, PlanSink, UnknownShape } from '../../src/core/foreign';
import type { RunningSource } from '../../src/agents/agent';
import type { FileWrite } from '../../src/agents/fileWrites';
import { agentById } from '../../src/agents/registry';

export interface AgentSourceOptions {
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
export function startTerminalSource(options: AgentSourceOptions): RunningSource {
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

/** The files one line of `agent`'s record names (none for an agent whose records are not read for files). */
export function filesWritten(agent: AgentId, line: unknown): FileWrite[] {
  return agentById(agent).filesWritten?.(line) ?? [];
}

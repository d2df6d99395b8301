// The three terminal-agent sources (Claude Code, Codex, Gemini CLI) as followers: each one
// its locator, its parser and a cursor folder of its own in Agent Plan's storage. The
// extension builds them from its settings; nothing here knows about vscode.
import * as os from 'node:os';
import * as path from 'node:path';
import { Follower, type FollowerOptions } from './follower';
import { claudeCodeLocator, codexLocator, geminiCliLocator } from './sessionLocators';
import { createClaudeCodeParser, isClaudeSubagentFile } from '../sources/claudeCode/parser';
import { createCodexParser } from '../sources/codex/parser';
import { createGeminiCliParser } from '../sources/geminiCli/parser';
import { followerReports, type AgentStartOptions } from '../sources/agent';
import type { PlanSink, UnknownShape } from '../sources/types';

export type TerminalAgent = 'claude-code' | 'codex' | 'gemini-cli';

/** Bumped when a parser changes what it reads: every file of that agent is read again once. */
export const PARSER_VERSIONS: Record<TerminalAgent, string> = {
  // 2: the parsers read the files each tool call wrote (file/write lines); plans are imported once, so only those are new.
  // 3: each model response's usage (model/usage lines).
  'claude-code': 'claude-code/3',
  codex: 'codex/3',
  'gemini-cli': 'gemini-cli/2',
};

/** The agents' default folders: `~/.claude`, `$CODEX_HOME` or `~/.codex`, `~/.gemini`. */
export function defaultAgentFolders(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): Record<TerminalAgent, string> {
  const codexHome = env['CODEX_HOME'];
  return {
    'claude-code': path.join(home, '.claude'),
    codex: codexHome !== undefined && codexHome !== '' ? codexHome : path.join(home, '.codex'),
    'gemini-cli': path.join(home, '.gemini'),
  };
}

export interface TerminalSourceOptions {
  agent: TerminalAgent;
  /** The agent's folder (a setting, or defaultAgentFolders()). */
  folder: string;
  workspaceFolders: readonly string[];
  /** Agent Plan's own storage; this source keeps `sources/<agent>/` in it. */
  storageDir: string;
  sink: PlanSink;
  onUnknownShape?(file: string, shape: UnknownShape): void;
  onError?(error: unknown, file?: string): void;
  onPolling?(reason: string): void;
  /** Passed to the follower (tests shorten them). */
  throttleMs?: number;
  pollMs?: number;
}

/** A started follower for one terminal agent; dispose it to stop. */
export function startTerminalSource(options: TerminalSourceOptions): Follower {
  const own = path.join(options.storageDir, 'sources', options.agent);
  const folders = options.workspaceFolders;
  const common = {
    parserVersion: PARSER_VERSIONS[options.agent],
    sink: options.sink,
    cursorDir: path.join(own, 'cursors'),
    onUnknownShape: (file: string, shape: UnknownShape) => options.onUnknownShape?.(file, shape),
    onError: (error: unknown, file?: string) => options.onError?.(error, file),
    onPolling: (reason: string) => options.onPolling?.(reason),
    ...(options.throttleMs !== undefined ? { throttleMs: options.throttleMs } : {}),
    ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
  };
  let follower: FollowerOptions;
  switch (options.agent) {
    case 'claude-code':
      follower = {
        ...common,
        locator: claudeCodeLocator(options.folder, folders),
        createParser: (file, state) => createClaudeCodeParser({ workspaceFolders: folders, subagent: isClaudeSubagentFile(file) }, state),
      };
      break;
    case 'codex':
      follower = {
        ...common,
        locator: codexLocator(options.folder, folders, { decisionsFile: path.join(own, 'rollouts.json') }),
        createParser: (_file, state) => createCodexParser(state),
      };
      break;
    case 'gemini-cli':
      follower = {
        ...common,
        locator: geminiCliLocator(options.folder, folders),
        createParser: (_file, state) => createGeminiCliParser({ workspaceFolders: folders }, state),
      };
      break;
  }
  const started = new Follower(follower);
  started.start();
  return started;
}

/** A terminal agent's `start` on the registry: its follower over the workspace folders (none: nothing to follow). */
export function startTerminalAgent(agent: TerminalAgent): (options: AgentStartOptions) => Follower | undefined {
  return (options) =>
    options.workspaceFolders.length === 0
      ? undefined
      : startTerminalSource({
          agent,
          folder: options.folder,
          workspaceFolders: options.workspaceFolders,
          storageDir: options.storageDir,
          sink: options.sink,
          ...followerReports(options),
        });
}

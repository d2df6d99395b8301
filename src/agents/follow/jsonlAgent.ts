// How an agent that records its sessions as JSONL files is followed (Claude Code, Codex, Gemini
// CLI): its locator and its parser under the shared follower, with a cursor folder of its own in
// Agent Plan's storage (`sources/<agent id>/`). Each agent's index.ts says which locator and
// parser; nothing here knows an agent by name, nor about vscode.
import * as path from 'node:path';
import type { SessionParser } from '../../core/foreign';
import { followerReports, type AgentStartOptions } from '../agent';
import { Follower, type SessionFileLocator } from './follower';

export interface JsonlAgent {
  /** The agent's id: its storage folder is `sources/<id>/`. */
  id: string;
  /** Bumped when the parser changes what it reads: every file of that agent is read again once. */
  parserVersion: string;
  /** Its session files of these workspace folders; `own` is its folder in Agent Plan's storage. */
  locator(folder: string, workspaceFolders: readonly string[], own: string): SessionFileLocator;
  /** A parser for one of its files, resumed from `state`. */
  createParser(file: string, state: unknown, workspaceFolders: readonly string[]): SessionParser;
}

/** A started follower of one JSONL agent over the workspace folders; none without a workspace folder. */
export function startJsonlAgent(agent: JsonlAgent, options: AgentStartOptions): Follower | undefined {
  const folders = options.workspaceFolders;
  if (folders.length === 0) return undefined;
  const own = path.join(options.storageDir, 'sources', agent.id);
  const follower = new Follower({
    locator: agent.locator(options.folder, folders, own),
    createParser: (file, state) => agent.createParser(file, state, folders),
    parserVersion: agent.parserVersion,
    sink: options.sink,
    cursorDir: path.join(own, 'cursors'),
    ...followerReports(options),
  });
  follower.start();
  return follower;
}

// The foreign sources Agent Plan follows, in one table: for each program, where its files
// are by default, which of them belong to this workspace, and how its lines are read.
// No vscode import: the adapter in src/vscode/sources.ts reads the settings and starts one
// Follower per enabled source. Adding a program means adding a row here and a parser.
import * as os from 'node:os';
import * as path from 'node:path';
import { createClaudeCodeParser } from '../sources/claudeCode';
import { createCodexParser } from '../sources/codex';
import { createGeminiCliParser } from '../sources/geminiCli';
import type { AgentId, SessionParser } from '../sources/types';
import type { SessionFileLocator } from './follower';
import { claudeCodeLocator, codexLocator, geminiCliLocator } from './sessionLocators';

/** What a source needs to know about where it runs. */
export interface SourcePlace {
  /** The program's folder: the user's setting, or the default. */
  folder: string;
  /** The workspace folders (file paths) whose sessions are shown. */
  workspaceFolders: readonly string[];
  /** A folder of Agent Plan's own storage for this source (cursors, decisions). */
  storage: string;
}

export interface SourceDefinition {
  agent: AgentId;
  /** The key under `agentPlan.sources.` in the settings. */
  settingKey: string;
  /** Whether the user chooses the folder (terminal agents) or it is VS Code's own. */
  hasFolderSetting: boolean;
  /** The folder when the setting is empty. */
  defaultFolder(env: NodeJS.ProcessEnv, home: string): string;
  locator(place: SourcePlace): SessionFileLocator;
  createParser(place: SourcePlace, file: string, state?: unknown): SessionParser;
  /** Bump when a parser's output changes: every file of the source is read again (importing stays idempotent). */
  parserVersion: string;
}

export const TERMINAL_SOURCES: readonly SourceDefinition[] = [
  {
    agent: 'claude-code',
    settingKey: 'claudeCode',
    hasFolderSetting: true,
    defaultFolder: (_env, home) => path.join(home, '.claude'),
    locator: (place) => claudeCodeLocator(place.folder, place.workspaceFolders),
    createParser: (place, _file, state) => createClaudeCodeParser({ workspaceFolders: place.workspaceFolders }, state),
    parserVersion: 'claude-code/1',
  },
  {
    agent: 'codex',
    settingKey: 'codex',
    hasFolderSetting: true,
    defaultFolder: (env, home) => (env['CODEX_HOME'] !== undefined && env['CODEX_HOME'] !== '' ? env['CODEX_HOME'] : path.join(home, '.codex')),
    locator: (place) => codexLocator(place.folder, place.workspaceFolders, { decisionsFile: path.join(place.storage, 'workspace-decisions.json') }),
    createParser: (_place, _file, state) => createCodexParser(state),
    parserVersion: 'codex/1',
  },
  {
    agent: 'gemini-cli',
    settingKey: 'geminiCli',
    hasFolderSetting: true,
    defaultFolder: (_env, home) => path.join(home, '.gemini'),
    locator: (place) => geminiCliLocator(place.folder, place.workspaceFolders),
    createParser: (place, _file, state) => createGeminiCliParser({ workspaceFolders: place.workspaceFolders }, state),
    parserVersion: 'gemini-cli/1',
  },
];

/** The folder a source reads: the setting when it names one (`~` expanded), else the default. */
export function sourceFolder(definition: SourceDefinition, setting: string | undefined, env = process.env, home = os.homedir()): string {
  const value = setting?.trim() ?? '';
  if (value === '') return definition.defaultFolder(env, home);
  if (value === '~') return home;
  if (value.startsWith('~/')) return path.join(home, value.slice(2));
  return path.resolve(value);
}

// What Connect knows of an agent (ConnectAgent): its user MCP configuration file(s), the entry
// that adds Agent Plan's stdio server under the name `agentplan`, the agent's own
// pre-approval of that one tool, and (where the agent has one) the permission hook that lets
// Agent Plan answer the agent's waiting tool call; with the helpers the agents' specs share. Each agent's spec is
// in its own folder (src/agents/<agent>/connect.ts, its descriptor's `connect`), measured with
// the real programs (notes: agents-mcp.md); see docs/connect.md. No agent is named here.
import * as path from 'node:path';
import type { AgentId } from '../../core/foreign';
import type { JsonEntry } from './jsonSettings';
import type { TomlTable } from './tomlBlock';

/** The name Agent Plan's server is configured under in every agent. */
export const SERVER_NAME = 'agentplan';
/** Agent Plan's tool, as the MCP server offers it. */
export const MCP_TOOL = 'todo_write';

export type Env = Readonly<Record<string, string | undefined>>;

/** Where the agents' files are: the user's home folder and the environment the agents would run in. */
export interface Place {
  readonly home: string;
  readonly env: Env;
}

/** What a connection writes: the server's command line and which parts the user chose. */
export interface ServerLine {
  /** The node program that runs the server. */
  readonly node: string;
  /** `<extension folder>/dist/mcp.js`. */
  readonly serverScript: string;
  /** The folder the server hands its calls to (`--inbox`); undefined: the server's default inbox (src/node/mcpInbox.ts). */
  readonly inbox?: string;
  /** Add the MCP server and its pre-approval. */
  readonly mcp: boolean;
  /** Switch on the agent's own plan tool (where the agent's spec has a switch for it). */
  readonly planTools?: boolean;
  /** Add the permission hook through which Agent Plan answers the agent's waiting tool call (where the agent's spec has one: `answersHook`). */
  readonly answers?: boolean;
  /** The hook's program: `script` (`<extension folder>/dist/answer.sh`), and the folder its requests go through. Needed when `answers` is. */
  readonly hook?: { readonly script: string; readonly folder: string };
}

export interface JsonFile {
  readonly format: 'json';
  readonly path: (place: Place) => string;
  readonly entries: (line: ServerLine) => JsonEntry[];
}

/** A TOML file: the lines of Agent Plan's block, given the file as parsed without that block. */
export interface TomlFile {
  readonly format: 'toml';
  readonly path: (place: Place) => string;
  /**
   * The block's lines, and the settings left as the user set them; undefined lines: nothing to
   * add. `file` is where the file is (as named, and its real path) and the environment it is read in.
   */
  readonly block: (line: ServerLine, parsed: TomlTable, file: { readonly path: string; readonly real: string; readonly place: Place }) => { lines: string[] | undefined; kept: string[]; foreign?: string };
}

export type SettingsFileSpec = JsonFile | TomlFile;

/** An agent's own text, in English and Simplified Chinese (no l10n bundle holds it). */
export interface ConnectText {
  readonly en: string;
  readonly zhCn: string;
}

export interface ConnectAgent {
  /** The agent's id in the registry. */
  readonly id: AgentId;
  readonly name: string;
  /** Why Connect does not write this agent's settings (yet), in English and Simplified Chinese; undefined when it does. */
  readonly unsupported?: ConnectText;
  /** The agent's own plan tool that Agent Plan already reads; with Connect it has two. Undefined: none by default. */
  readonly ownPlanTool?: string;
  /** What `planTools` switches on, when the agent has a setting for it. */
  readonly planSwitch?: string;
  /** How its file pre-approves Agent Plan's tool, as the file writes it (`"trust": true`); undefined: it asks for no approval, or only `approvalFlag` can. */
  readonly preApproval?: string;
  /** The pre-approval that is a command-line flag only (no file holds it). */
  readonly approvalFlag?: string;
  /** Where its file holds Agent Plan's permission hook (`hooks.PermissionRequest`), as shown to the user; undefined: Connect cannot answer this agent's prompts. */
  readonly answersHook?: string;
  readonly files: readonly SettingsFileSpec[];
  /** The folders (or files) that exist when the agent is installed. */
  readonly folders: (place: Place) => string[];
  /** Its program's name on PATH. */
  readonly binary: string;
}

/** An agent's own folder: the one its variable names (an absolute path), else `~/<name>`. */
export function ownFolder(place: Place, variable: string, name: string): string {
  const own = place.env[variable];
  return own !== undefined && own !== '' && path.isAbsolute(own) ? own : path.join(place.home, name);
}

/** `$XDG_CONFIG_HOME` (absolute), else `~/.config`. */
export function configHome(place: Place): string {
  return ownFolder(place, 'XDG_CONFIG_HOME', '.config');
}

/** `$XDG_DATA_HOME` (absolute), else `~/.local/share`. */
export function dataHome(place: Place): string {
  return ownFolder(place, 'XDG_DATA_HOME', path.join('.local', 'share'));
}

/** The folders a settings file may be written in: HOME, and the folder an agent's variable moves it to. */
export function rootsOf(place: Place, variables: readonly string[]): string[] {
  return [place.home, ...variables.map((variable) => place.env[variable]).filter((folder): folder is string => folder !== undefined && folder !== '' && path.isAbsolute(folder))];
}

/** The variables that move an agent's files out of HOME (their folders may be written in too). */
export const ROOT_VARIABLES = ['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'COPILOT_HOME', 'QWEN_HOME', 'XDG_CONFIG_HOME'] as const;

/** The server's arguments: its script, then `--inbox <folder>` only when the user named one (else the server's default inbox). */
export const args = (line: ServerLine): string[] => [line.serverScript, ...(line.inbox !== undefined ? ['--inbox', line.inbox] : [])];

/** `text` as one word for a POSIX shell: in single quotes, each `'` written `'\''`. */
export const shellQuote = (text: string): string => `'${text.replaceAll("'", "'\\''")}'`;

/**
 * The permission hook's command, as the agent runs it through `/bin/sh -c`:
 * `sh '<answer.sh>' <agent> '<folder>'` (a `sh` script: the agents run hooks with their own PATH,
 * where there may be no node; notes: agent-hooks.md). Needs `line.hook`.
 */
export function hookCommand(line: ServerLine, agent: AgentId): string {
  if (line.hook === undefined) throw new TypeError(`the permission hook of ${agent} needs the hook's script and folder`);
  return `sh ${shellQuote(line.hook.script)} ${agent} ${shellQuote(line.hook.folder)}`;
}

/**
 * The usual hook entry: a `PermissionRequest` group for every tool (`matcher: "*"`) running
 * `hookCommand`, allowed 600 s (the agents' default for a command hook) before the agent falls
 * back to its own prompt.
 */
export const permissionHookGroup = (line: ServerLine, agent: AgentId): Record<string, unknown> => ({
  matcher: '*',
  hooks: [{ type: 'command', command: hookCommand(line, agent), timeout: 600 }],
});

/** The usual JSON entry: `mcpServers.agentplan` = `{ ...first, command, args, ...extra }` (nothing when the MCP server is not chosen). */
export const mcpServersEntry = (line: ServerLine, extra: Record<string, unknown>, first: Record<string, unknown> = {}): JsonEntry[] =>
  line.mcp ? [{ kind: 'own', path: ['mcpServers', SERVER_NAME], value: { ...first, command: line.node, args: args(line), ...extra } }] : [];

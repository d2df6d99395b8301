// What one agent brings to the registry (src/agents/registry.ts): its id, its name and
// icon, its settings key and default folder, its parser version, the files its tool calls
// wrote, and how to follow its sessions of this workspace. Each agent is one folder,
// src/agents/<agent>/, whose index.ts exports one AgentDescriptor; its parser there is pure.
import type { Disposable } from '../core/emitter';
import type { AgentId, ForeignPlan, PlanSink, UnknownShape } from '../core/foreign';
import type { ConnectAgent } from '../node/connect/connectAgents';
import type { PermissionHook } from '../node/answers/permissionHook';

export interface AgentStartOptions {
  /** The agent's folder: the `folder` setting, or the descriptor's defaultFolder(). */
  folder: string;
  /** The workspace folders on disk; a terminal agent follows only sessions that ran in them. */
  workspaceFolders: readonly string[];
  /** VS Code's storage folder of this workspace (Copilot's chat files are there); undefined without a folder open. */
  workspaceStorageFolder: string | undefined;
  /** Agent Plan's own storage: the agent keeps `sources/<id>/` in it (its cursors). */
  storageDir: string;
  sink: PlanSink;
  onUnknownShape: (file: string, shape: UnknownShape) => void;
  onError: (error: unknown, file?: string) => void;
  onPolling: (reason: string) => void;
  /**
   * The MCP client names of the agents whose followers read their MCP `todo_write` calls from
   * their own records (each descriptor's `mcpClients`): Agent Plan's MCP inbox leaves them to them.
   */
  followedMcpClients?: readonly string[];
  /** Passed to the follower (tests shorten them). */
  throttleMs?: number;
  pollMs?: number;
}

/** A started follower; dispose it to stop. */
export interface RunningFollower extends Disposable {
  /** Reads everything new now (the Refresh command); resolves when caught up. */
  refresh(): Promise<void>;
}

export interface AgentDescriptor {
  id: AgentId;
  /** Its name in English; the views show it through the l10n bundle (a test holds the bundles to it). */
  name: string;
  /** A codicon id. */
  icon: string;
  /** Its key under `agentPlan.sources.` (`<key>.enabled`, and `<key>.folder` when it has a folder). */
  settingKey: string;
  /** Bumped when the parser changes what it reads: that agent's files are read again once. */
  parserVersion: string;
  /** Where its files are when the `folder` setting is empty; undefined for an agent without a folder setting (Copilot). */
  defaultFolder?(env: NodeJS.ProcessEnv, home: string): string;
  /**
   * Set when its sessions are VS Code chats (keyed as VS Code names a chat session, not by its
   * own id): the extension id of its chat participant, compared without case. A chat another
   * participant answered is not this agent's; a chat has no subagents.
   */
  vscodeChat?: { participant: string };
  /**
   * The names it gives itself as an MCP client (`clientInfo.name`), where its parser reads its
   * calls of Agent Plan's MCP `todo_write` from its own record: those plans join its own session.
   */
  mcpClients?: readonly string[];
  /**
   * What *Agent Plan: Connect Agents…* writes in its user MCP configuration (its `connect.ts`,
   * read by src/node/connect/): the server's entry and the agent's pre-approval of its tool, or
   * why Connect does not write it (`unsupported`). Undefined: Connect does not list it.
   */
  connect?: ConnectAgent;
  /**
   * Its permission hook, when Agent Plan can answer its waiting tool calls (its `answers.ts`,
   * src/node/answers/): what the hook hands over, and the answer it prints.
   */
  answers?: PermissionHook;
  /** What the manifest, its strings and the docs say of it: `npm run generate` writes them from here. */
  about: AgentAbout;
  /** Starts following; undefined when there is nothing to follow (no workspace folder, say). */
  start(options: AgentStartOptions): RunningFollower | undefined;
}

/**
 * What `npm run generate` (scripts/generate.mjs) writes about an agent besides its id, name and
 * settings key: the descriptions of its settings in English and Simplified Chinese, and its rows
 * in the tables of docs/agents.md and the README. Every text is Markdown, in English.
 */
export interface AgentAbout {
  /** Its name in docs/agents.md's first table, when that says more than `name` ('Codex CLI'). */
  docsName?: string;
  /** The versions its recordings were made with. */
  tested: string;
  /** Its plan tools, as docs/agents.md's "What to switch on" names them. */
  planTools: string;
  /** What a user must switch on for it to plan at all ("What to switch on"). */
  switchOn: string;
  /** Its row of docs/agents.md's "Plans from other agents": its name there, the files read, which sessions, what one session is. */
  reads: { agent: string; files: string; sessions: string; session: string };
  /** Its row of the README's table: its name (tested), what is read, what to switch on. */
  readme: { agent: string; reads: string; switchOn: string };
  /** Its rows in docs/agents.md's tables that set the agents side by side. */
  rows: AgentRows;
  settings: AgentSettingsText;
}

/**
 * A row of a table of docs/agents.md: its first cell is the agent's name, then `label` when there
 * is one; then `cells`. Agents whose rows of a table are the same share them: one row names them
 * all (opencode's and Kilo CLI's).
 */
export interface AgentRow {
  label?: string;
  cells: readonly string[];
}

/** An agent's rows in docs/agents.md's tables that set the agents side by side. */
export interface AgentRows {
  /** "How a session is named": its title, its first request. */
  naming: AgentRow;
  /** "Mapping", one row per plan tool (its `label`): the item's text, what is not content, the statuses. */
  mapping: readonly AgentRow[];
  /** "Waiting on a tool call": a waiting call, whether an approval is told apart. */
  waiting: AgentRow;
  /** "The ledger", one row per kind of record: the unit, input, output, cached, cost, calls. */
  ledger: readonly AgentRow[];
}

/** A text in English and Simplified Chinese. */
export interface BothLanguages {
  en: string;
  zhCn: string;
}

/**
 * Its settings' descriptions. `enabled` in the generator's words, "Show the plans (<planTools>) of
 * <name> sessions that ran in this workspace[, read from its database].", or its own text in both
 * languages; `folder` (set exactly when the descriptor has a defaultFolder): "<name>'s [data ]folder,
 * read only[ (<note>)]. Empty: <empty, joined by "or">." The Chinese is the generator's
 * translation of the same sentence, the agent's name, tools and paths as they are.
 */
export interface AgentSettingsText {
  enabled: { planTools: readonly string[]; fromDatabase?: true } | BothLanguages;
  folder?: { name?: string; data?: true; note?: BothLanguages; empty: readonly string[] };
  /** What the settings do, in docs/agents.md's settings table. */
  meaning: string;
}

/** What every follower takes from the start options as they are: the reports, and the timings tests shorten. */
export function followerReports(options: AgentStartOptions): Pick<AgentStartOptions, 'onUnknownShape' | 'onError' | 'onPolling' | 'throttleMs' | 'pollMs'> {
  return {
    onUnknownShape: options.onUnknownShape,
    onError: options.onError,
    onPolling: options.onPolling,
    ...(options.throttleMs !== undefined ? { throttleMs: options.throttleMs } : {}),
    ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
  };
}

/** A sink that hands plans to `importPlans` and everything else on to `sink` as it is (an agent's own check or filter of its plans). */
export function withImportPlans(sink: PlanSink, importPlans: (plans: readonly ForeignPlan[]) => Promise<void>): PlanSink {
  return {
    importPlans,
    updateSession: (info) => sink.updateSession(info),
    importWrites: (writes) => sink.importWrites(writes),
    importUsage: async (usage) => {
      await sink.importUsage?.(usage);
    },
  };
}

// Every id the manifest contributes, in one place; a unit test holds package.json to it.
export const EXTENSION_ID = 'agent-plan.agent-plan';
export const TOOL_NAME = 'todo_write';
export const TOOL_REFERENCE_NAME = 'todos';
export const VIEW_CONTAINER = 'agentPlan';
export const SNAPSHOT_SCHEME = 'agent-plan-snapshot';
/** A file of a working-tree snapshot in Agent Plan's own store (Review Item's diff editor). */
export const TREE_SCHEME = 'agent-plan-tree';
export const OUTPUT_CHANNEL = 'Agent Plan';
/** The Plan Timeline's webview panels. */
export const TIMELINE_VIEW_TYPE = 'agentPlan.timeline';

export const ViewId = {
  Plan: 'agentPlan.plan',
  Sessions: 'agentPlan.sessions',
} as const;

/** The commands' ids, by name; each command is declared (title, icon, menus) in commandManifest.ts. */
export { CommandId } from './commands/commandManifest';

export const SettingId = {
  FollowLatest: 'agentPlan.followLatest',
  StatusBarEnabled: 'agentPlan.statusBar.enabled',
  Notify: 'agentPlan.notify',
  StallToolCalls: 'agentPlan.health.stallToolCalls',
  StallMinutes: 'agentPlan.health.stallMinutes',
  WaitSeconds: 'agentPlan.health.waitSeconds',
  /** Folders whose agents are followed besides the workspace's (absolute paths). */
  ExtraFolders: 'agentPlan.extraFolders',
  /** Whether every worktree of the workspace's git repositories is followed. */
  WorktreesEnabled: 'agentPlan.worktrees.enabled',
  /** Whether the working tree is snapshotted when a session's in-progress items change (Review Item). */
  ReviewEnabled: 'agentPlan.review.enabled',
  /** The snapshot store's cap, in megabytes: the oldest snapshots are pruned past it. */
  ReviewMaxStoreMegabytes: 'agentPlan.review.maxStoreMegabytes',
  /** Untracked files larger than this many megabytes are left out of snapshots (named, not recorded). */
  ReviewMaxUntrackedFileMegabytes: 'agentPlan.review.maxUntrackedFileMegabytes',
  /** How long a connected agent's permission request waits here for an answer (seconds). */
  AnswerWaitSeconds: 'agentPlan.answers.waitSeconds',
} as const;

/**
 * Each agent's settings live under `agentPlan.sources.<key>` (the key is in the agent registry,
 * src/agents/registry.ts): `enabled` and, for an agent with a folder, `folder`.
 */
export const SOURCES_SETTING = 'agentPlan.sources';

/** The id of one of an agent's settings. */
export function sourceSettingId(settingKey: string, setting: 'enabled' | 'folder'): string {
  return `${SOURCES_SETTING}.${settingKey}.${setting}`;
}

/** Context keys that `when` clauses in the manifest match. */
export const ContextKey = {
  FollowingLatest: 'agentPlan.followingLatest',
  ViewingHistory: 'agentPlan.viewingHistory',
  HasPlan: 'agentPlan.hasPlan',
  /** The Sessions view lists only the sessions that need attention. */
  AttentionOnly: 'agentPlan.attentionOnly',
} as const;

/** Keys of what Agent Plan keeps in VS Code's workspace state. */
export const StateKey = {
  /** The session the Plan view shows, and whether it is pinned (see viewMemory.ts). */
  ShownSession: 'agentPlan.shownSession',
  /** Dropped items the user dismissed, by session and the version that dropped them. */
  DismissedDropped: 'agentPlan.dismissedDropped',
} as const;

/** `contextValue` tokens of tree items. */
export const ItemContext = {
  Todo: 'agentPlan.todo',
  Session: 'agentPlan.session',
  /** A session whose Copilot chat is known: it can be opened. */
  ChatSession: 'agentPlan.session.chat',
  /** A Needs You row whose session asks for an answer (its agent's permission hook). */
  AskingSession: 'agentPlan.session.ask',
  /** The Sessions view's "Needs You" section. */
  NeedsYou: 'agentPlan.needsYou',
  /** The Sessions view's "Show older sessions" row. */
  MoreSessions: 'agentPlan.moreSessions',
  /** A health signal above the plan (`.<kind>`; `.compare` when it names a version to compare). */
  Signal: 'agentPlan.signal',
  /** A dropped item below the plan. */
  Dropped: 'agentPlan.signal.dropped.item',
  /** The user's own request below the plan. */
  Request: 'agentPlan.request.user',
  /** "Continued from …" / "Continued in …" above the plan. */
  Link: 'agentPlan.link.handoff',
  /** A file an item changed, under the item. */
  File: 'agentPlan.file.changed',
  /** The row of files changed while no item was in progress. */
  OutsideFiles: 'agentPlan.file.outside',
} as const;

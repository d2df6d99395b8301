// What every follower hands to the log: a plan call found in another program's
// files, already mapped to Agent Plan's items. No vscode import; no I/O.
//
// Data flows one way: a follower reads new bytes of a foreign file → a pure parser of
// that program's lines → ForeignPlan → the log (one `todo/write` line with `source`) →
// the store → the views. Nothing here writes into the foreign program's folders.

import { AGENT_IDS } from './generated/agentIds';

/**
 * The programs Agent Plan follows, by the id their log lines carry in `source.agent`: generated
 * from the agent registry (`npm run generate`), one per agent folder. The todo_write tool
 * itself writes lines with no `source`.
 */
export { AGENT_IDS };
export type AgentId = (typeof AGENT_IDS)[number];

/**
 * Item statuses a foreign snapshot may hold. todo_write accepts only the first three;
 * other programs have more, and a status Agent Plan cannot show as one of the three is
 * kept as it is, never turned into another.
 */
export type ForeignStatus = 'pending' | 'in_progress' | 'completed' | 'cancelled' | 'blocked';

export interface ForeignItem {
  /** The item's text, trimmed. May repeat or be empty: other programs enforce neither. */
  content: string;
  status: ForeignStatus;
}

/** Where a foreign snapshot came from; stored as the line's `source` field. */
export interface PlanSource {
  agent: AgentId;
  /** The foreign tool that wrote the list: manage_todo_list, TodoWrite, TaskCreate, TaskUpdate, update_plan, write_todos. */
  tool: string;
  /** The foreign program's own session id (chat uuid, Claude sessionId, Codex thread id, Gemini sessionId). */
  session: string;
  /** The foreign tool call id: with `session`, the key that makes importing idempotent. */
  call: string;
  /** 0-based index of the chat request (turn) the call belongs to, where the program records turns. */
  turn?: number;
  /**
   * True when a later todo_write call of the same chat was saved before this call could be
   * read (VS Code writes its chat files seconds late): the snapshot is history, not the
   * current plan.
   */
  superseded?: boolean;
  /**
   * The foreign program's priority of each item, in item order (opencode, Kilo CLI: high,
   * medium, low): kept beside the items, since a plan item has no priority.
   */
  priorities?: string[];
}

/** One plan call found in a foreign file: the whole list after that call. */
export interface ForeignPlan {
  source: PlanSource;
  items: ForeignItem[];
  /** The foreign record's own time (ISO 8601), when it has one: shown, never used for ordering. */
  at?: string;
  /**
   * A time (ISO 8601, this machine's clock) by which the call had run, where the record tells
   * one (a VS Code chat: its request's end, or the next request's start). A todo_write line of
   * the same session saved after it is a later call: read late, this snapshot joins the history
   * superseded. Not written to the log.
   */
  ranBy?: string;
}

/**
 * The files one tool call wrote, found in the agent's own record of its calls (Claude Code's
 * Edit/Write/MultiEdit/NotebookEdit, Codex's apply_patch, Gemini CLI's write_file/replace, the
 * edits of a Copilot chat; see fileWrites.ts). Stored as a `file/write` line.
 */
export interface ForeignWrite {
  /** The agent, its session id, and the call's id in its record (with `session`, the import's key). */
  source: { agent: AgentId; session: string; call: string };
  /** The paths as the record names them: absolute, or relative to the session's workspace. */
  files: string[];
  /**
   * How many plan calls of this session the agent's record holds before this write, every
   * todo tool counted (for a VS Code chat, todo_write's calls too). The log gives the write to
   * the items in progress in that version; a count the log does not hold (yet) gives it to
   * the items of the current plan.
   */
  plansBefore: number;
  /**
   * True when the agent's record does not tell which items were in progress then (a plan
   * version it does not hold): the log says the items are not known, never that none was.
   */
  itemsUnknown?: boolean;
  /** The record's own time of the call, when it has one. */
  at?: string;
  /**
   * A subagent's write: the program's own id of the session that started it (same agent). While
   * the subagent's session has no plan, the write counts under the parent's items in progress
   * at `at`, marked as the subagent's.
   */
  parent?: string;
}

/** One model response of a session, as the agent's record counts it (a `model/usage` line). */
export interface ForeignUsage {
  /** The agent, its session id and the response's id in its record. */
  source: { agent: AgentId; session: string; call: string };
  /** The tool calls the response made. */
  calls: number;
  /** Its tokens, where the record has them. */
  tokens?: { input: number; output: number; cached: number };
  /** Its cost, where the record has one. */
  cost?: number;
  /** As for a write: the plan calls of the session the record holds before this response. */
  plansBefore: number;
  /** As for a write: the record does not tell which items were in progress then. */
  itemsUnknown?: boolean;
  at?: string;
}

/** Longest chat participant id kept (extension ids, publisher.name, are far shorter). */
export const MAX_PARTICIPANT_LENGTH = 256;

/** Where the newest turn (run) stands: running, or how it ended. */
export type TurnState = 'running' | 'ended' | 'cancelled' | 'failed';
export const TURN_STATES: readonly TurnState[] = ['running', 'ended', 'cancelled', 'failed'];

/**
 * A tool call the program's record shows started, with neither its result nor a later record
 * yet: the call's tool and id, and `approval: true` where the record tells that the call waits
 * for the user's approval (not for a running tool).
 */
export interface ForeignPending {
  tool: string;
  call: string;
  approval?: boolean;
}

/** What a parser learned about a session besides its plans. */
export interface ForeignSessionInfo {
  agent: AgentId;
  session: string;
  /** The chat's title, once the program has made one. */
  title?: string;
  /** The text of the session's first request (the user's first prompt), as recorded: the log keeps one line of it, once. */
  request?: string;
  /** The workspace folder the session ran in, as the program recorded it. */
  cwd?: string;
  /** Index of the newest request (turn) seen, and whether any plan call was made in it. */
  latestTurn?: { index: number; planned: boolean };
  /** VS Code chats: the extension id of the participant that answered the newest request (e.g. "GitHub.copilot-chat"). */
  participant?: string;
  /**
   * The newest turn as the program records it, where it does: its 0-based index (to tell
   * turns apart) and whether it is running or how it ended.
   */
  turn?: { index: number; state: TurnState };
  /** Tool calls other than plan calls in the newest turn since its last plan call. */
  calls?: number;
  /**
   * The newest tool call still waiting for its result (the record holds nothing after it), or
   * null when none is: a parser that tracks calls always says one or the other. Undefined
   * (from parsers that do not track them) leaves what the log holds.
   */
  pending?: ForeignPending | null;
  /**
   * A subagent's session: the program's own id of the session that started it (same agent).
   * Its plan is its own; the views show it under that session.
   */
  parent?: string;
}

/** A line the parser did not recognize: reported once per file by the caller, then skipped. */
export interface UnknownShape {
  /** 1-based line number in the foreign file. */
  line: number;
  /** A short, stable description (no raw content beyond a short excerpt). */
  detail: string;
}

/** The result of feeding lines to a parser. */
export interface ParseOutput {
  plans: ForeignPlan[];
  /** The files the session's tool calls wrote, in record order (parsers that read none leave it out). */
  writes?: ForeignWrite[];
  /** The model responses of the session, in record order (parsers that read none leave it out). */
  usage?: ForeignUsage[];
  info?: ForeignSessionInfo;
  unknown: UnknownShape[];
}

/**
 * A parser for one program's session file, fed incrementally with complete lines in
 * file order. Its state serializes to JSON, so a follower can resume after a restart
 * from the byte offset it reached instead of re-reading the whole file.
 */
export interface SessionParser {
  push(lines: readonly string[]): ParseOutput;
  /** JSON-safe state to resume from (pass it to the parser's factory). */
  state(): unknown;
}

/** Where followers hand what they found: the log's import side. */
export interface PlanSink {
  /**
   * Appends each plan whose (agent, source.session, source.call) is not in the log yet, in the
   * order given, to the Agent Plan session that `source` maps to; resolves when they are saved.
   * Idempotent: a plan already imported is recognized from the log itself and skipped.
   */
  importPlans(plans: readonly ForeignPlan[]): Promise<void>;
  /** Records what changed about a foreign session (its title, its newest turn). */
  updateSession(info: ForeignSessionInfo): Promise<void>;
  /**
   * Appends a `file/write` line for each write whose (agent, session, call) is not in the log
   * yet, after the plans already imported, with the items in progress then. Idempotent.
   */
  importWrites(writes: readonly ForeignWrite[]): Promise<void>;
  /** Appends a `model/usage` line for each response not in the log yet, as importWrites does. */
  importUsage?(usage: readonly ForeignUsage[]): Promise<void>;
}

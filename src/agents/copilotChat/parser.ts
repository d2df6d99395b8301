// Copilot's built-in todo list, read from VS Code's chat session files. Pure: lines in,
// plans out; no I/O, no vscode import.
//
// What writes the files (VS Code 1.139, read in microsoft/vscode: chat/common/model/
// chatSessionStore.ts, chatSessionOperationLog.ts, objectMutationLog.ts, chatUri.ts,
// chatProgressTypes/chatToolInvocation.ts, tools/builtinTools/manageTodoListTool.ts):
//
// - One file per local chat: `workspaceStorage/<workspace id>/chatSessions/<sessionId>.jsonl`
//   (an empty window uses `globalStorage/emptyWindowChatSessions/`). `chat.useLogSessionStorage:
//   false` makes VS Code write a flat `<sessionId>.json` instead, which is not followed.
// - Each line is one entry of a mutation log over the serialized chat (`version: 3`):
//   kind 0 `{v}` the whole state; kind 1 `{k: path, v}` sets the value at `path`; kind 2
//   `{k: path, v?: [...], i?: n}` cuts the array at `path` to length `i` when `i` is given,
//   then appends `v`; kind 3 `{k: path}` deletes the value at `path`. Paths are property
//   names and array indexes from the root.
// - The file is rewritten, not appended to, when the log passes 1,024 entries (and when a
//   chat is first saved): it then holds one new kind 0 line with the whole chat. A follower
//   sees a shorter file and starts again from byte 0; calls already emitted are kept in the
//   state (bounded) so none is emitted twice.
// - The root: `sessionId` (the file name's uuid), `customTitle` (the chat's title once Copilot
//   or the user gave it one; absent before), `requests` (one per turn, in order), and fields
//   this parser does not need (`inputState`, `pendingRequests`, `repoData`, …).
// - A request is addressed as `["requests", n]`; a new one arrives as a kind 2 push on
//   `["requests"]` (a cut `i` when earlier ones were removed). Its `response` is an array of
//   parts compared by value: a part that changes is sent again, as a kind 2 push on
//   `["requests", n, "response"]` cutting at the first changed part and appending the rest.
//   So one tool call can appear several times; its `toolCallId` says it is the same call.
// - A tool call is a part `{kind: "toolInvocationSerialized", toolId, toolCallId, isConfirmed,
//   toolSpecificData, …}`. `isComplete` is always true there; `isConfirmed` is unset while the
//   call streams or waits for approval, `{type: 0}` (denied) or `{type: 5}` (skipped) when it
//   did not run, another `{type}` once it runs. `manage_todo_list` puts the list it writes in
//   `toolSpecificData: {kind: "todoList", todoList: [{id, title, status}]}` (ids are strings,
//   statuses not-started | in-progress | completed). Agent Plan's own `todo_write` appears as a
//   part with `toolId: "todo_write"` and no toolSpecificData; it only marks the turn as planned.
// - The tool also has an internal `operation: "read"` (not in the schema the model sees) whose
//   part carries the current list unchanged; the file does not tell it from a write, so it
//   would come through as a snapshot equal to the one before. Calls made by a subagent
//   (`subAgentInvocationId` set) sit in the same response and count as the chat's.
// - A request's `modelState` says where its response stands: `{value: 0}` pending (running),
//   4 waiting for the user's input, and once it is over `{value, completedAt}` with 1 complete,
//   2 cancelled, 3 failed; it comes in the request's push, then as a kind 1 on
//   `["requests", n, "modelState"]`. Every other tool call of the newest request after its
//   last todo call counts as activity without a plan update. A request's `timestamp` (ms) is
//   when it was sent, after the one before it ended: with `completedAt`, a time by which a
//   call had run, which tells a list read seconds late from the todo_write calls saved since
//   (ForeignPlan.ranBy).
// - Waiting on the user (measured with Copilot Chat 0.67.0, a terminal command with auto-approve
//   off): when a tool asks before it runs, the request's `modelState` becomes `{value: 4}` and
//   its part comes without `isConfirmed`; once allowed, `modelState` is `{value: 0}` again and the
//   part is sent again with `isConfirmed` set (`{type: 4}`, the user). A part without
//   `isConfirmed` under state 0 is a call still streaming, not a wait. A terminal command that
//   runs is told apart: its `toolSpecificData` (`kind: "terminal"`) has a `terminalCommandState`
//   without `exitCode` until the command ends (then `{exitCode, timestamp, duration}`); other
//   tools write nothing while they run. The request's end (state 1, 2, 3) or any later part of
//   its response (the model moved on) ends a running call's wait.
// - A request names the participant that answered it: `agent: {extensionId: {value}, id, …}`
//   ("GitHub.copilot-chat" for Copilot; another extension's id for its own chat participant).
// - Edits (measured with Copilot Chat 0.67.0): an edit tool's call (`copilot_createFile`,
//   `copilot_replaceString`, `copilot_insertEdit`, `copilot_applyPatch`, … — the model knows them
//   as create_file, replace_string_in_file, …) is a toolInvocationSerialized part, followed by a
//   `{kind: "textEditGroup", uri, edits, done}` part for each file it edited (`notebookEditGroup`
//   for a notebook; a replace also puts a markdown fence, an `undoStop` and a `codeblockUri`
//   between them). The group carries no toolCallId: it belongs to the tool call before it in the
//   response. A second call on the same file in the same request gets a group of its own. The
//   file on disk is written when the tool runs (the chat's Keep/Undo can revert it later).
//   Each group is one write, after the todo calls (both tools) that ran before it in the chat;
//   a todo_write part whose result (`resultDetails.output[].value`) is the tool's `Error: …`
//   text saved no plan and is not counted.
// - The chat's uuid is also what todo_write's invocation token names: `sessionResource` is
//   `vscode-chat-session://local/<unpadded base64url of the uuid>`.
//
// It is VS Code's internal format: every field is checked, a shape not recognized is
// reported once per file and skipped.
import * as path from 'node:path';
import { copilotEditFile } from './fileWrites';
import { copilotChatUsageOf } from './usage';
import { type Batch, type JsonRecord, JsonLineParser, describeValue, isRecord } from '../lineParser';
import { MAX_PARTICIPANT_LENGTH, type ForeignItem, type ForeignPending, type ForeignSessionInfo, type ForeignStatus, type SessionParser, type TurnState } from '../../core/foreign';


/** The tool whose lists are copied into the log. */
export const MANAGE_TODO_LIST = 'manage_todo_list';
/** Every todo tool a turn may use; any of them makes the turn "planned". */
const TODO_TOOLS: ReadonlySet<string> = new Set([MANAGE_TODO_LIST, 'todo_write']);
/** The serialized chat format this parser knows. */
const KNOWN_VERSION = 3;
/** Calls remembered so a rewritten file emits none twice (the log recognizes older ones itself). */
const MAX_REMEMBERED_CALLS = 2000;
/** Planned turns remembered (the newest ones). */
const MAX_PLANNED_TURNS = 256;

/** Tool calls remembered, with the files they edited, in the response read last (to give an edit group its call). */
const MAX_RESPONSE_TOOLS = 500;

/** Tool call ids remembered per newest request, to count its calls since the last plan call. */
const MAX_COUNTED_CALLS = 1000;
/** VS Code's ResponseModelState values: Pending, Complete, Cancelled, Failed, NeedsInput. */
const MODEL_STATES: readonly TurnState[] = ['running', 'ended', 'cancelled', 'failed', 'running'];
/** The ResponseModelState of a request waiting for the user (a tool's confirmation). */
const NEEDS_INPUT = 4;
/** Calls of one request kept as waiting (a response cut short never confirms some). */
const MAX_OPEN_CALLS = 64;
/** Requests whose end time is kept (the newest ones): a list is followed within a few requests of its call. */
const MAX_RAN_BY = 16;

const STATUS_MAP: ReadonlyMap<string, ForeignStatus> = new Map([
  ['not-started', 'pending'],
  ['in-progress', 'in_progress'],
  ['completed', 'completed'],
]);

/**
 * The folder of a workspace's chat session files, from the workspace's storage folder (the
 * parent of an extension's `context.storageUri`).
 */
export function copilotChatFolder(workspaceStorageFolder: string): string {
  return path.join(workspaceStorageFolder, 'chatSessions');
}

/** True for a chat session log VS Code writes in that folder: `<uuid>.jsonl`. */
export function isCopilotChatFileName(name: string): boolean {
  return name.endsWith('.jsonl') && name.length > '.jsonl'.length;
}

export function createCopilotChatParser(state?: unknown): SessionParser {
  return new CopilotChatParser(state);
}

/**
 * A parser factory for a follower: when the follower starts a file again from byte 0 with
 * no state (VS Code rewrote it as one kind 0 line), the new parser inherits the calls the
 * previous parser of that file emitted and the shapes it reported, so a rewrite re-emits
 * nothing. (After a restart, the log itself recognizes calls already imported.)
 */
export function copilotChatParserFactory(): (file: string, state?: unknown) => SessionParser {
  const last = new Map<string, SessionParser>();
  return (file, state) => {
    let seed = state;
    const previous = last.get(file);
    if (seed === undefined && previous !== undefined) {
      const old = previous.state() as { emitted?: unknown; reported?: unknown };
      seed = { emitted: old.emitted, reported: old.reported };
    }
    const parser = createCopilotChatParser(seed);
    last.set(file, parser);
    return parser;
  };
}

interface CopilotState {
  /** A kind 0 line of a known version has been read. */
  started: boolean;
  /** The file holds a format this parser does not know: lines are skipped until a known kind 0. */
  skipping: boolean;
  /** How many requests (turns) the chat has. */
  requests: number;
  /** Indexes of requests in which a todo tool ran. */
  planned: number[];
  /** toolCallIds of the todo_write calls seen (the newest ones), to know a later one when it first appears. */
  todoWrites: string[];
  /** For the newest requests, a time (ms) by which each had run: its end, or the next request's start. */
  ranBy: Array<{ index: number; at: number }>;
  /** The participant's extension id of the newest request that named one, and that request's index. */
  participant?: { index: number; id: string };
  /** The newest request's response state, with that request's index; `input` when it waits for the user (modelState 4). */
  turn?: { index: number; state: TurnState; input?: true };
  /** Tool calls of request `index` that may wait: asking (no `isConfirmed` yet) or a terminal command running, by part position. */
  open?: { index: number; calls: OpenPart[] };
  /** Ids of the tool calls (not todo tools) of request `index` after its last todo call. */
  calls?: { index: number; ids: string[] };
  /** Todo tool calls that ran, both tools, the whole chat: what a write comes after. */
  plans: number;
  /** Their toolCallIds (the newest ones), so a part sent again is counted once. */
  counted: string[];
  /**
   * The response read last: its request, how many parts it has, and its tool calls (not todo
   * tools) by part position, each with the files its edit groups named, in order.
   */
  response?: { index: number; length: number; tools: ResponseTool[] };
}

interface OpenPart {
  at: number;
  call: string;
  tool: string;
  /** Allowed and running (a terminal command without its exit code yet); else it has not been allowed. */
  running?: true;
}

interface ResponseTool {
  at: number;
  call: string;
  files: string[];
}

class CopilotChatParser extends JsonLineParser {
  private readonly own: CopilotState;

  constructor(state: unknown) {
    super('copilot', state);
    this.own = readOwnState(state);
  }

  protected ownState(): JsonRecord {
    return {
      ...this.own,
      // The base keeps every emitted call; the saved state keeps the newest ones.
      emitted: this.base.emitted.slice(-MAX_REMEMBERED_CALLS),
    };
  }

  protected override info(): ForeignSessionInfo | undefined {
    const info = super.info();
    if (info === undefined || this.own.requests === 0) return info;
    const index = this.own.requests - 1;
    const participant = this.own.participant?.index === index ? this.own.participant.id : undefined;
    const turn = this.own.turn?.index === index ? this.own.turn : undefined;
    const calls = this.own.calls?.index === index ? this.own.calls.ids.length : 0;
    return {
      ...info,
      latestTurn: { index, planned: this.own.planned.includes(index) },
      ...(participant !== undefined ? { participant } : {}),
      ...(turn !== undefined ? { turn: { index, state: turn.state } } : {}),
      calls,
      pending: this.pending(index, turn),
    };
  }

  /**
   * The call the newest request waits on: the first one allowed and running, or, while the
   * request waits for the user (modelState 4), the first one not allowed yet; else none.
   */
  private pending(index: number, turn: CopilotState['turn']): ForeignPending | null {
    if (this.own.open?.index !== index || turn === undefined || turn.state !== 'running') return null;
    for (const open of this.own.open.calls) {
      if (open.running) return { tool: open.tool, call: open.call };
      if (turn.input) return { tool: open.tool, call: open.call, approval: true };
    }
    return null;
  }

  protected handle(record: JsonRecord, line: number, batch: Batch): void {
    const kind = record['kind'];
    if (kind === 0) {
      this.initial(record['v'], line, batch);
      return;
    }
    if (kind !== 1 && kind !== 2 && kind !== 3) {
      batch.report(line, `a chat session line of kind ${describe(kind)}`);
      return;
    }
    if (this.own.skipping) return;
    if (!this.own.started) {
      batch.report(line, 'a chat change before the initial state');
      return;
    }
    const path = record['k'];
    if (!Array.isArray(path) || !path.every((key) => typeof key === 'string' || Number.isSafeInteger(key))) {
      batch.report(line, `a chat change of kind ${kind} without a path`);
      return;
    }
    if (kind === 1) this.set(path as (string | number)[], record['v'], line, batch);
    else if (kind === 2) this.pushed(path as (string | number)[], record, line, batch);
    else this.set(path as (string | number)[], undefined, line, batch);
  }

  /** Kind 0: the whole chat, at the start of a file or after VS Code rewrote it. */
  private initial(value: unknown, line: number, batch: Batch): void {
    if (!isRecord(value)) {
      batch.report(line, 'an initial chat state that is not an object');
      this.own.skipping = true;
      return;
    }
    const version = value['version'];
    if (version !== KNOWN_VERSION) {
      batch.report(line, `a chat session of version ${describe(version)}`);
      this.own.skipping = true;
      return;
    }
    const session = value['sessionId'];
    const requests = value['requests'];
    if (typeof session !== 'string' || session === '' || !Array.isArray(requests)) {
      batch.report(line, 'an initial chat state without sessionId or requests');
      this.own.skipping = true;
      return;
    }
    this.own.skipping = false;
    this.own.started = true;
    this.base.session = session;
    this.setTitle(value['customTitle']);
    this.replaceRequests(0, requests, line, batch);
  }

  /** Kind 1 (and kind 3, with no value): the value at `path` replaced. */
  private set(path: (string | number)[], value: unknown, line: number, batch: Batch): void {
    const [head, index, field] = path;
    if (head === 'customTitle' && path.length === 1) {
      this.setTitle(value);
      return;
    }
    if (head !== 'requests') return;
    if (path.length === 1) {
      this.replaceRequests(0, Array.isArray(value) ? value : [], line, batch);
      return;
    }
    if (!isTurnIndex(index)) {
      batch.report(line, 'a chat change at an unknown request path');
      return;
    }
    if (path.length === 2) {
      // A whole request replaced (or deleted): what it planned, and who answered it, are read again.
      this.forgetPlanned(index, index + 1);
      if (this.own.participant?.index === index) this.own.participant = undefined;
      if (this.own.open?.index === index) this.own.open = undefined;
      this.forgetRanBy(index, index + 1);
      if (value !== undefined) {
        this.own.requests = Math.max(this.own.requests, index + 1);
        this.scanRequest(index, value, line, batch);
      }
      return;
    }
    if (field === 'modelState' && path.length === 3) {
      this.modelState(index, value, batch);
      return;
    }
    if (field === 'result' && path.length === 3) {
      copilotChatUsageOf(this.base.session, index, value, this.own.plans, this.own.counted, batch);
      return;
    }
    if (field !== 'response') return;
    if (path.length === 3) {
      this.forgetPlanned(index, index + 1);
      this.own.requests = Math.max(this.own.requests, index + 1);
      if (value !== undefined) this.scanParts(index, value, 0, line, batch);
      return;
    }
    // One part replaced in place: not written by VS Code 1.139, read all the same (its position
    // is not a cut: the parts after it stay).
    if (value !== undefined && path.length === 4 && isTurnIndex(path[3])) {
      const response = this.own.response;
      this.scanPart(index, value, path[3], response?.index === index ? response.tools : undefined, line, batch);
    }
  }

  /** Kind 2: an array at `path` cut to `i` (when given), then `v` appended. */
  private pushed(path: (string | number)[], record: JsonRecord, line: number, batch: Batch): void {
    const [head, index, field] = path;
    if (head !== 'requests') return;
    const values = record['v'] ?? [];
    const cut = record['i'];
    if (!Array.isArray(values) || (cut !== undefined && !isTurnIndex(cut))) {
      batch.report(line, 'a chat push without a list or with an odd cut');
      return;
    }
    if (path.length === 1) {
      const start = cut === undefined ? this.own.requests : Math.min(cut, this.own.requests);
      this.replaceRequests(start, values, line, batch);
      return;
    }
    if (!isTurnIndex(index)) {
      batch.report(line, 'a chat change at an unknown request path');
      return;
    }
    if (path.length !== 3 || field !== 'response') return;
    // Parts before the cut stay as they were, so what they planned stays too.
    this.own.requests = Math.max(this.own.requests, index + 1);
    this.scanParts(index, values, cut, line, batch);
  }

  /** Requests from `start` on replaced by `requests`. */
  private replaceRequests(start: number, requests: readonly unknown[], line: number, batch: Batch): void {
    this.forgetPlanned(start, Infinity);
    if ((this.own.participant?.index ?? -1) >= start) this.own.participant = undefined;
    if ((this.own.open?.index ?? -1) >= start) this.own.open = undefined;
    this.forgetRanBy(start, Infinity);
    this.own.requests = start + requests.length;
    requests.forEach((request, offset) => this.scanRequest(start + offset, request, line, batch));
  }

  private scanRequest(index: number, request: unknown, line: number, batch: Batch): void {
    if (!isRecord(request)) {
      batch.report(line, 'a chat request that is not an object');
      return;
    }
    if (index === 0) this.firstRequest(chatRequestText(request['message']));
    const participant = participantOf(request['agent']);
    if (participant !== undefined && index >= (this.own.participant?.index ?? -1)) this.own.participant = { index, id: participant };
    this.modelState(index, request['modelState'], batch);
    // A request is sent once the one before it is over.
    if (index > 0 && typeof request['timestamp'] === 'number') this.ranBy(index - 1, request['timestamp'], batch);
    const response = request['response'];
    if (response !== undefined) this.scanParts(index, response, 0, line, batch);
    // After its parts: the todo calls it made are counted.
    copilotChatUsageOf(this.base.session, index, request['result'], this.own.plans, this.own.counted, batch);
  }

  /**
   * Parts of request `index`'s response from position `start` on (undefined: where the
   * response read last ended, when it is this request's). Parts at `start` and after
   * replace what was there.
   */
  private scanParts(index: number, parts: unknown, start: number | undefined, line: number, batch: Batch): void {
    if (!Array.isArray(parts)) {
      batch.report(line, 'a chat response that is not a list');
      return;
    }
    const response = this.responseFrom(index, start);
    this.openFrom(index, start ?? response.length);
    for (const part of parts) this.scanPart(index, part, response.length++, response.tools, line, batch);
  }

  /** Parts of request `index` from `start` on are sent again: the calls there wait only if they come again so. */
  private openFrom(index: number, start: number): void {
    const open = this.own.open;
    if (open?.index === index) open.calls = open.calls.filter((call) => call.at < start);
  }

  /**
   * A part at position `at` of request `index`: a tool call that asks or runs waits; any part
   * after a running call says the model moved on from it.
   */
  private followOpen(index: number, at: number, part: JsonRecord): void {
    let open = this.own.open;
    if (open !== undefined && open.index > index) return;
    if (open === undefined || open.index < index) open = this.own.open = { index, calls: [] };
    const call = part['toolCallId'];
    const id = part['kind'] === 'toolInvocationSerialized' && typeof call === 'string' && call !== '' ? call : undefined;
    open.calls = open.calls.filter((entry) => entry.at !== at && entry.call !== id && !(entry.running && entry.at < at));
    const tool = part['toolId'];
    if (id === undefined || typeof tool !== 'string' || tool === '') return;
    const ran = hasRun(part['isConfirmed']);
    if (ran === 'not yet') open.calls.push({ at, call: id, tool });
    else if (ran === 'yes' && terminalRunning(part['toolSpecificData'])) open.calls.push({ at, call: id, tool, running: true });
    if (open.calls.length > MAX_OPEN_CALLS) open.calls.shift();
    open.calls.sort((a, b) => a.at - b.at);
  }

  /** One part at position `at`: a tool call (kept in `tools` when not a todo tool), or an edit group. */
  private scanPart(index: number, part: unknown, at: number, tools: ResponseTool[] | undefined, line: number, batch: Batch): void {
    if (!isRecord(part)) return;
    this.followOpen(index, at, part);
    if (part['kind'] === 'toolInvocationSerialized') {
      this.toolCall(index, part, line, batch);
      const call = part['toolCallId'];
      if (tools !== undefined && typeof call === 'string' && call !== '' && !TODO_TOOLS.has(part['toolId'] as string)) {
        const same = tools.find((tool) => tool.at === at);
        if (same === undefined) tools.push({ at, call, files: [] });
        else if (same.call !== call) Object.assign(same, { call, files: [] });
        if (tools.length > MAX_RESPONSE_TOOLS) tools.shift();
      }
      return;
    }
    const file = copilotEditFile(part);
    if (file !== undefined) this.editGroup(index, at, file, tools ?? [], batch);
  }

  /** The response model for parts of request `index` from `start` on. */
  private responseFrom(index: number, start: number | undefined): NonNullable<CopilotState['response']> {
    let response = this.own.response;
    if (response === undefined || response.index !== index) {
      response = { index, length: start ?? 0, tools: [] };
      this.own.response = response;
      return response;
    }
    if (start !== undefined) {
      response.length = start;
      response.tools = response.tools.filter((tool) => tool.at < start);
    }
    return response;
  }

  /**
   * An edit group at position `at`: one write for the tool call before it, named by that call's
   * id (its second file and later by the id and a number), or, with no call before it, by the
   * request, the position and the file. A group sent again names the same write, emitted once.
   */
  private editGroup(index: number, at: number, file: string, tools: ResponseTool[], batch: Batch): void {
    const session = this.base.session;
    if (session === undefined) return;
    let call: string;
    let tool: ResponseTool | undefined;
    for (const entry of tools) if (entry.at < at && (tool === undefined || entry.at > tool.at)) tool = entry;
    if (tool !== undefined) {
      let n = tool.files.indexOf(file);
      if (n < 0) n = tool.files.push(file) - 1;
      call = n === 0 ? tool.call : `${tool.call}#${n + 1}`;
    } else {
      call = `request ${index} part ${at} ${file}`;
    }
    if (batch.alreadyEmitted(`write\n${call}`)) return;
    batch.emitWrite({ source: { agent: 'copilot', session, call }, files: [file], plansBefore: this.own.plans });
  }

  private toolCall(index: number, part: JsonRecord, line: number, batch: Batch): void {
    const tool = part['toolId'];
    if (typeof tool !== 'string') return;
    if (!TODO_TOOLS.has(tool)) {
      this.countCall(index, part['toolCallId']);
      return;
    }
    const ran = hasRun(part['isConfirmed']);
    if (ran === undefined) {
      batch.report(line, `a ${tool} call whose approval is ${describeValue(part['isConfirmed'])}`);
      return;
    }
    // Still streaming or waiting for approval: it comes again once it runs.
    if (ran === 'not yet' || ran === 'no') return;
    this.markPlanned(index);
    // A plan call: the calls before it were made with the plan in step.
    this.own.calls = { index, ids: [] };
    const call = part['toolCallId'];
    if (tool !== MANAGE_TODO_LIST) {
      // A todo_write call the tool turned down wrote no version (its result may come in a later sending of the part).
      if (todoWriteRejected(part)) this.uncountPlan(call);
      else this.countPlan(call);
      if (typeof call === 'string') this.todoWriteSeen(call, batch);
      return;
    }
    if (typeof call !== 'string' || call === '') {
      batch.report(line, 'a manage_todo_list call without a toolCallId');
      return;
    }
    const items = mapTodoList(part['toolSpecificData']);
    // Only a list that becomes a version in the log counts as one.
    if (typeof items !== 'string') this.countPlan(call);
    if (batch.alreadyEmitted(call)) return;
    if (typeof items === 'string') {
      batch.report(line, items);
      return;
    }
    const session = this.base.session;
    if (session === undefined) return; // started implies a session; kept for the type checker
    const ranBy = this.own.ranBy.find((entry) => entry.index === index)?.at;
    batch.emit({ source: { agent: 'copilot', tool: MANAGE_TODO_LIST, session, call, turn: index }, items, ...(ranBy !== undefined ? { ranBy: new Date(ranBy).toISOString() } : {}) });
  }

  /**
   * Request `index` had run by `at` (ms): its end, or the next request's start. The earliest
   * such time is kept, and given to the lists of its calls read in this batch without one.
   */
  private ranBy(index: number, at: number, batch: Batch): void {
    if (!Number.isSafeInteger(at) || at <= 0) return;
    const known = this.own.ranBy.find((entry) => entry.index === index);
    if (known !== undefined) known.at = Math.min(known.at, at);
    else {
      this.own.ranBy.push({ index, at });
      this.own.ranBy.sort((a, b) => a.index - b.index);
      if (this.own.ranBy.length > MAX_RAN_BY) this.own.ranBy.shift();
    }
    const iso = new Date(known?.at ?? at).toISOString();
    for (const plan of batch.plans) if (plan.source.turn === index && plan.ranBy === undefined) plan.ranBy = iso;
  }

  /**
   * todo_write saves its line at once, VS Code its chat file seconds later: a todo_write
   * call that first appears after manage_todo_list calls of this batch was saved before
   * them, so they join the history without becoming the current plan.
   */
  private todoWriteSeen(call: string, batch: Batch): void {
    if (this.own.todoWrites.includes(call)) return;
    this.own.todoWrites.push(call);
    if (this.own.todoWrites.length > MAX_REMEMBERED_CALLS) this.own.todoWrites.shift();
    for (const plan of batch.plans) plan.source.superseded = true;
  }

  /** A request's `modelState`: kept for the newest request only. Once it is over, none of its calls waits, and its end says when its calls had run. */
  private modelState(index: number, value: unknown, batch: Batch): void {
    if (!isRecord(value) || typeof value['value'] !== 'number') return;
    const state = MODEL_STATES[value['value']];
    if (state !== undefined && state !== 'running' && typeof value['completedAt'] === 'number') this.ranBy(index, value['completedAt'], batch);
    if (state === undefined || index < (this.own.turn?.index ?? -1)) return;
    this.own.turn = value['value'] === NEEDS_INPUT ? { index, state, input: true } : { index, state };
    if (state !== 'running' && this.own.open?.index === index) this.own.open = { index, calls: [] };
  }

  /** A todo call that ran, counted once however often its part is sent. */
  private countPlan(call: unknown): void {
    // Without an id a part sent again could not be told from a new call.
    if (typeof call !== 'string' || call === '' || this.own.counted.includes(call)) return;
    this.own.counted.push(call);
    if (this.own.counted.length > MAX_REMEMBERED_CALLS) this.own.counted.shift();
    this.own.plans++;
  }

  private uncountPlan(call: unknown): void {
    const at = typeof call === 'string' ? this.own.counted.indexOf(call) : -1;
    if (at < 0) return;
    this.own.counted.splice(at, 1);
    this.own.plans--;
  }

  private countCall(index: number, call: unknown): void {
    if (typeof call !== 'string' || call === '') return;
    const calls = this.own.calls;
    if (calls === undefined || calls.index < index) {
      this.own.calls = { index, ids: [call] };
      return;
    }
    if (calls.index > index || calls.ids.includes(call) || calls.ids.length >= MAX_COUNTED_CALLS) return;
    calls.ids.push(call);
  }

  private setTitle(value: unknown): void {
    const title = typeof value === 'string' ? value.trim() : '';
    if (title === '') delete this.base.title;
    else this.base.title = title;
  }

  /**
   * Requests `from` to `to` (excluded) are replaced: their times go. (The time a replaced request
   * gave the one before it stays true: it was sent after that one had run.)
   */
  private forgetRanBy(from: number, to: number): void {
    this.own.ranBy = this.own.ranBy.filter((entry) => entry.index < from || entry.index >= to);
  }

  private markPlanned(index: number): void {
    if (this.own.planned.includes(index)) return;
    this.own.planned.push(index);
    this.own.planned.sort((a, b) => a - b);
    if (this.own.planned.length > MAX_PLANNED_TURNS) this.own.planned.splice(0, this.own.planned.length - MAX_PLANNED_TURNS);
  }

  private forgetPlanned(from: number, to: number): void {
    this.own.planned = this.own.planned.filter((index) => index < from || index >= to);
  }
}

/** A small number as itself (kinds, versions), anything else as describeValue names it: few distinct reports. */
function describe(value: unknown): string {
  return Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) < 100 ? String(value) : describeValue(value);
}

function isTurnIndex(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/**
 * True when a todo_write part's result (`resultDetails.output`, as VS Code 1.139 records it:
 * `[{type: "embed", isText: true, value}]`) is the tool's error text: the call saved no plan.
 */
function todoWriteRejected(part: JsonRecord): boolean {
  const details = part['resultDetails'];
  const output = isRecord(details) ? details['output'] : undefined;
  return Array.isArray(output) && output.some((entry) => isRecord(entry) && typeof entry['value'] === 'string' && entry['value'].startsWith('Error:'));
}

/** Whether a call ran, from its `isConfirmed`: undefined for a value not recognized. */
function hasRun(confirmed: unknown): 'yes' | 'no' | 'not yet' | undefined {
  if (confirmed === undefined || confirmed === null) return 'not yet';
  if (typeof confirmed === 'boolean') return confirmed ? 'yes' : 'no'; // before VS Code 1.100
  if (!isRecord(confirmed) || typeof confirmed['type'] !== 'number') return undefined;
  // ToolConfirmKind: 0 Denied, 5 Skipped; the others (not needed, setting, per tool, user) ran.
  return confirmed['type'] === 0 || confirmed['type'] === 5 ? 'no' : 'yes';
}

/**
 * True for a terminal command that was started and has not ended: `toolSpecificData` of kind
 * `terminal` whose `terminalCommandState` has no `exitCode` yet (VS Code 1.139 writes
 * `{timestamp}`, then `{timestamp, duration}`, then `{exitCode, timestamp, duration}`).
 */
function terminalRunning(data: unknown): boolean {
  if (!isRecord(data) || data['kind'] !== 'terminal') return false;
  const state = data['terminalCommandState'];
  return isRecord(state) && state['exitCode'] === undefined;
}

/**
 * A manage_todo_list list as Agent Plan's items: title trimmed, status mapped, id dropped,
 * order kept; repeated and empty titles stay. Returns a report for a list not recognized.
 */
export function mapTodoList(data: unknown): ForeignItem[] | string {
  if (!isRecord(data) || data['kind'] !== 'todoList' || !Array.isArray(data['todoList'])) {
    return 'a manage_todo_list call without a todo list';
  }
  const items: ForeignItem[] = [];
  for (const entry of data['todoList'] as unknown[]) {
    if (!isRecord(entry) || typeof entry['title'] !== 'string') return 'a manage_todo_list item without a title';
    const status = typeof entry['status'] === 'string' ? STATUS_MAP.get(entry['status']) : undefined;
    if (status === undefined) return `a manage_todo_list status ${describeValue(entry['status'])}`;
    items.push({ content: entry['title'].trim(), status });
  }
  return items;
}

function readOwnState(state: unknown): CopilotState {
  const own: CopilotState = { started: false, skipping: false, requests: 0, planned: [], todoWrites: [], ranBy: [], plans: 0, counted: [] };
  if (!isRecord(state)) return own;
  own.started = state['started'] === true;
  own.skipping = state['skipping'] === true;
  if (isTurnIndex(state['requests'])) own.requests = state['requests'];
  const planned = state['planned'];
  if (Array.isArray(planned)) own.planned = planned.filter(isTurnIndex).slice(-MAX_PLANNED_TURNS);
  const participant = state['participant'];
  if (isRecord(participant) && isTurnIndex(participant['index']) && typeof participant['id'] === 'string') {
    own.participant = { index: participant['index'], id: participant['id'] };
  }
  const turn = state['turn'];
  if (isRecord(turn) && isTurnIndex(turn['index']) && MODEL_STATES.includes(turn['state'] as TurnState)) {
    own.turn = turn['input'] === true ? { index: turn['index'], state: turn['state'] as TurnState, input: true } : { index: turn['index'], state: turn['state'] as TurnState };
  }
  const open = state['open'];
  if (isRecord(open) && isTurnIndex(open['index']) && Array.isArray(open['calls'])) {
    const calls = open['calls'].filter(
      (call): call is OpenPart => isRecord(call) && isTurnIndex(call['at']) && typeof call['call'] === 'string' && call['call'] !== '' && typeof call['tool'] === 'string' && call['tool'] !== '',
    );
    own.open = { index: open['index'], calls: calls.slice(-MAX_OPEN_CALLS).map((call) => (call.running === true ? { at: call.at, call: call.call, tool: call.tool, running: true } : { at: call.at, call: call.call, tool: call.tool })) };
  }
  const calls = state['calls'];
  if (isRecord(calls) && isTurnIndex(calls['index']) && Array.isArray(calls['ids'])) {
    own.calls = { index: calls['index'], ids: calls['ids'].filter((id): id is string => typeof id === 'string').slice(0, MAX_COUNTED_CALLS) };
  }
  if (isTurnIndex(state['plans'])) own.plans = state['plans'];
  const counted = state['counted'];
  if (Array.isArray(counted)) own.counted = counted.filter((id): id is string => typeof id === 'string').slice(-MAX_REMEMBERED_CALLS);
  const response = state['response'];
  if (isRecord(response) && isTurnIndex(response['index']) && isTurnIndex(response['length']) && Array.isArray(response['tools'])) {
    const tools = response['tools'].filter(
      (tool): tool is ResponseTool =>
        isRecord(tool) && isTurnIndex(tool['at']) && typeof tool['call'] === 'string' && Array.isArray(tool['files']) && tool['files'].every((file) => typeof file === 'string'),
    );
    own.response = { index: response['index'], length: response['length'], tools: tools.slice(-MAX_RESPONSE_TOOLS).map((tool) => ({ at: tool.at, call: tool.call, files: [...tool.files] })) };
  }
  const ranBy = state['ranBy'];
  if (Array.isArray(ranBy)) {
    own.ranBy = ranBy
      .filter((entry): entry is { index: number; at: number } => isRecord(entry) && isTurnIndex(entry['index']) && Number.isSafeInteger(entry['at']) && (entry['at'] as number) > 0)
      .slice(-MAX_RAN_BY)
      .map((entry) => ({ index: entry.index, at: entry.at }));
  }
  const todoWrites = state['todoWrites'];
  if (Array.isArray(todoWrites)) own.todoWrites = todoWrites.filter((id): id is string => typeof id === 'string').slice(-MAX_REMEMBERED_CALLS);
  return own;
}

/** The extension id of a request's participant (`agent.extensionId.value`), when the request names one. */
function participantOf(agent: unknown): string | undefined {
  if (!isRecord(agent)) return undefined;
  const extension = agent['extensionId'];
  const id = isRecord(extension) ? extension['value'] : undefined;
  return typeof id === 'string' && id !== '' && id.length <= MAX_PARTICIPANT_LENGTH ? id : undefined;
}

/** Parts of a request's message that name who or what was asked, not what: `@demo`, `/fix`. */
const ADDRESS_PARTS: ReadonlySet<unknown> = new Set(['agent', 'subcommand', 'slash']);

/**
 * What the user asked in a request: the `text` of its message without the participant and
 * command it was addressed to (`@demo add a dark mode toggle` is "add a dark mode toggle").
 */
function chatRequestText(message: unknown): string | undefined {
  if (!isRecord(message)) return undefined;
  const parts = message['parts'];
  if (Array.isArray(parts) && parts.length > 0) {
    const texts = parts.filter((part): part is JsonRecord => isRecord(part) && typeof part['text'] === 'string' && !ADDRESS_PARTS.has(part['kind']));
    return texts.map((part) => part['text'] as string).join('');
  }
  return typeof message['text'] === 'string' ? message['text'] : undefined;
}

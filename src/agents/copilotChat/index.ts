// Copilot: its manage_todo_list plans from VS Code's chat session files of this workspace,
// read-only. Its pure parser is parser.ts, the files its edits wrote fileWrites.ts; start.ts
// finds and follows the files.
import type { AgentDescriptor } from '../agent';
import { COPILOT_PARSER_VERSION, startCopilotChatFollower } from './start';

export * from './parser';

/** No folder setting: its files are in this workspace's storage. */
export const copilot: AgentDescriptor = {
  id: 'copilot',
  name: 'Copilot',
  icon: 'copilot',
  settingKey: 'copilot',
  parserVersion: COPILOT_PARSER_VERSION,
  vscodeChat: { participant: 'github.copilot-chat' },
  about: {
    docsName: 'Copilot (VS Code chat)',
    tested: 'VS Code 1.139.1, Copilot Chat 0.67.0',
    planTools: "`todo_write` (Agent Plan's) and `manage_todo_list` (Copilot's)",
    switchOn: 'Nothing in agent mode: both tools are offered by default. In other modes, write `#todos` in the prompt. To keep one tool, untick the other in the tools picker ([below](#copilot-in-vs-code)).',
    reads: {
      agent: "Copilot's `manage_todo_list`",
      files: "`workspaceStorage/<workspace id>/chatSessions/<chat uuid>.jsonl`, VS Code's own record of each chat (the folder beside Agent Plan's workspace storage)",
      sessions: "this workspace's chats",
      session: 'the chat, shared with its `todo_write` calls',
    },
    readme: { agent: 'Copilot in VS Code (Copilot Chat 0.67.0)', reads: "`manage_todo_list` calls and edits, from VS Code's chat files", switchOn: 'nothing (agent mode)' },
    rows: {
      naming: { label: '(a VS Code chat)', cells: ['`customTitle` of the chat file, once Copilot or the user gives it one', "the first request's `message`: its text parts without the `@participant` and `/command` parts"] },
      mapping: [
        { label: '`manage_todo_list`', cells: ['`title`', '`id`', '`not-started` → pending, `in-progress` → in progress, `completed` → completed. Copilot enforces no uniqueness: repeated titles stay repeated, an empty title stays empty (shown as "(item without text)").'] },
      ],
      waiting: { label: 'in VS Code', cells: ['a tool invocation of the newest request\'s response that asks before it runs (no `isConfirmed` yet while the request\'s `modelState` is 4, "needs input"), or a terminal command allowed and running (`run_in_terminal`, whose `terminalCommandState` has no `exitCode` yet); until it is allowed, denied or exits, a later part of the response comes, or the request ends (a new request cancels it: `modelState` 2)', '**yes**: VS Code sets the request\'s `modelState` to 4 while a tool waits for confirmation and back to 0 once allowed (recorded with the real Copilot agent, a terminal command with auto-approve off, left at its prompt, allowed, and passed over by a new request). A running terminal command reads "waiting on run_in_terminal"; other tools record nothing while they run, so they read as no wait. A window closed at the prompt wrote nothing more (the chat shows as waiting until its file moves on); going on to another chat in the same view ended the request as failed (`modelState` 3) with the call denied (`isConfirmed` `{type: 0}`), which clears it'] },
      ledger: [
        { label: '(VS Code chat)', cells: ['model call (`result.metadata.toolCallRounds[]`)', '`promptTokens`, last call of a request only', '`outputTokens`, last call only', 'not in the file (0 on that line)', 'not recorded', "the round's `toolCalls`"] },
      ],
    },
    settings: {
      enabled: {
        en: "Show the todo lists that GitHub Copilot's built-in todo tool (manage_todo_list) writes in this workspace's chats, followed into Agent Plan's log.",
        zhCn: '显示 GitHub Copilot 内置待办工具（manage_todo_list）在本工作区聊天中写下的待办列表，并跟踪记入 Agent Plan 的日志中。',
      },
      meaning: "Follow Copilot's `manage_todo_list` lists.",
    },
  },
  start: (options) =>
    options.workspaceStorageFolder === undefined
      ? undefined
      : startCopilotChatFollower({
          workspaceStorageFolder: options.workspaceStorageFolder,
          storageDir: options.storageDir,
          sink: options.sink,
          onUnknownShape: options.onUnknownShape,
          onError: options.onError,
          onPolling: options.onPolling,
        }),
};

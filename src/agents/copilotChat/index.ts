// Copilot: its manage_todo_list plans from VS Code's chat session files of this workspace,
// read-only. Its pure parser is parser.ts, the files its edits wrote fileWrites.ts; start.ts
// finds and follows the files.
import type { AgentDescriptor } from '../agent';
import { COPILOT_PARSER_VERSION, startCopilotChatSource } from './start';

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
      source: "Copilot's `manage_todo_list`",
      files: "`workspaceStorage/<workspace id>/chatSessions/<chat uuid>.jsonl`, VS Code's own record of each chat (the folder beside Agent Plan's workspace storage)",
      sessions: "this workspace's chats",
      session: 'the chat, shared with its `todo_write` calls',
    },
    readme: { agent: 'Copilot in VS Code (Copilot Chat 0.67.0)', reads: "`manage_todo_list` calls and edits, from VS Code's chat files", switchOn: 'nothing (agent mode)' },
    settings: {
      enabled: {
        en: "Show the todo lists that GitHub Copilot's built-in todo tool (manage_todo_list) writes in this workspace's chats, mirrored into Agent Plan's log.",
        zhCn: '显示 GitHub Copilot 内置待办工具（manage_todo_list）在本工作区聊天中写下的待办列表，并镜像到 Agent Plan 的日志中。',
      },
      meaning: "Mirror Copilot's `manage_todo_list` lists.",
    },
  },
  start: (options) =>
    options.workspaceStorageFolder === undefined
      ? undefined
      : startCopilotChatSource({
          workspaceStorageFolder: options.workspaceStorageFolder,
          storageDir: options.storageDir,
          sink: options.sink,
          onUnknownShape: options.onUnknownShape,
          onError: options.onError,
          onPolling: options.onPolling,
        }),
};

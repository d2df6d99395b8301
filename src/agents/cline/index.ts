// Cline: its plans from its own files, read-only, both generations. 2.x (and the VS Code
// extension, the same core): each task's focus chain from its `ui_messages.json`
// (focusChain.ts). 3.x: each session's team task board, edits and usage from its messages file
// (teamBoard.ts), subagents under their parent. Every one of these files is rewritten whole at
// each step: the shared follower reads each version as one snapshot (follow/snapshotFiles.ts).
import * as path from 'node:path';
import { followerReports, type AgentDescriptor } from '../agent';
import { Follower } from '../follow/follower';
import { snapshotFileReader } from '../follow/snapshotFiles';
import { createClineTaskParser } from './focusChain';
import { clineDataFolder, clineExtensionFolder } from './locations';
import { clineLocator } from './locator';
import { createClineSessionParser } from './teamBoard';
import { clineConnect } from './connect';

export * from './focusChain';
export * from './teamBoard';
export { clineLocator } from './locator';
export { clineDataFolder, clineExtensionFolder } from './locations';

export const cline: AgentDescriptor = {
  id: 'cline',
  name: 'Cline',
  icon: 'checklist',
  settingKey: 'cline',
  parserVersion: 'cline/1',
  defaultFolder: (env, home) => clineDataFolder(env, home),
  about: {
    tested: '3.0.65 and 2.18.0',
    planTools: '3.x: its team task board (`team_task`); 2.x and the VS Code extension: the focus chain (`task_progress`)',
    switchOn: '3.x: its default act mode (`team_task` is not offered with `--yolo`). 2.x: nothing (the focus chain is on by default).',
    reads: {
      agent: 'Cline (3.x team board; 2.x focus chain)',
      files:
        "3.x: `~/.cline/data/sessions/<sid>/<sid>.messages.json` and its subagents' `agent_<id>.messages.json` (`CLINE_DIR` moves `~/.cline`); 2.x: `~/.cline/data/tasks/<id>/ui_messages.json`; the VS Code extension's own task folders in its global storage (`<user data>/User/globalStorage/saoudrizwan.claude-dev/tasks/<id>/`, where the core code of 2.18.0 keeps them: `<globalStorageFsPath>/tasks/<id>/` and `state/taskHistory.json`). Each file is rewritten whole at each step: every new version is read whole, as one snapshot",
      sessions: '3.x: sessions whose manifest `<sid>.json` `cwd` is a workspace folder or inside one; 2.x: tasks whose `state/taskHistory.json` entry has such a `cwdOnTaskInitialization`',
      session: 'one session (3.x) or task (2.x); a subagent its own session under its parent',
    },
    readme: {
      agent: 'Cline (3.0.65, 2.18.0; the VS Code extension)',
      reads: "3.x: its team task board, edits and usage, from `~/.cline/data/sessions/<sid>/`; 2.x and the extension: the focus chain, from each task's `ui_messages.json`",
      switchOn: '3.x: its default act mode (not `--yolo`); 2.x: nothing',
    },
    rows: {
      naming: { cells: ['none read', '3.x: the first user text without its `<user_input>` wrapper; 2.x: the `say: "task"` message'] },
      mapping: [
        { label: '2.x focus chain (`say: "task_progress"` of `ui_messages.json`)', cells: ['a `- [ ]` / `- [x]` line', 'prose, headings, comments', '**two states**: `- [ ]` pending, `- [x]` completed; **no item is ever in progress** (the list has no such mark, and none is made up): edits made meanwhile are listed as made while no item was in progress. Any other mark is reported. Each message is one version, written after the tool call that carried it.'] },
        { label: '3.x team board (`team_task`)', cells: ['the `title` of its `create`', '`description`, `summary`, `assignee`, `dependsOn`', "pending, in_progress (claim), completed, blocked, as each call's result `{taskId, status}` says; the board after each create, claim, complete or block is one version, tasks in id order. The same changes are `team_task_updated` events in `db/teams.db` (not read yet: the messages file holds them live)."] },
      ],
      waiting: { cells: ['not read yet', '—'] },
      ledger: [
        { label: '3.x', cells: ["each assistant message's `metrics`", '`inputTokens`', '`outputTokens`', '`cacheReadTokens` + `cacheWriteTokens`', 'none (0 unpriced)', 'its `tool_use` blocks'] },
        { label: '2.x', cells: ['`say: "api_req_started"` (its text is JSON)', '`tokensIn`', '`tokensOut`', '`cacheReads` + `cacheWrites`', '`cost`', 'the tools and commands said after it'] },
      ],
    },
    settings: {
      enabled: {
        en: 'Show the plans of Cline tasks and sessions that ran in this workspace: the focus chain of its 2.x CLI and VS Code extension, the team task board of its 3.x CLI.',
        zhCn: '显示在本工作区运行的 Cline 任务和会话的计划：其 2.x CLI 和 VS Code 扩展的 focus chain，其 3.x CLI 的团队任务板。',
      },
      folder: {
        data: true,
        note: {
          en: "2.x tasks in `tasks`, 3.x sessions in `sessions`; the VS Code extension's own task folders are read from its global storage as well",
          zhCn: '2.x 任务在 `tasks` 中，3.x 会话在 `sessions` 中；VS Code 扩展自己的任务文件夹也会从其全局存储中读取',
        },
        empty: ['`$CLINE_DIR/data`', '`~/.cline/data`'],
      },
      meaning: "Cline's plans (both generations), and the folder to read (`tasks` and `sessions` in it); the VS Code extension's global storage is read as well.",
    },
  },
  connect: clineConnect,
  start(options) {
    const folders = options.workspaceFolders;
    if (folders.length === 0) return undefined;
    const roots = [options.folder, ...(options.workspaceStorageFolder !== undefined ? [clineExtensionFolder(options.workspaceStorageFolder)] : [])];
    const locator = clineLocator(roots, folders);
    const follower = new Follower({
      locator,
      // A version nested too deep to parse on the host's thread is reported once, as a shape not read.
      reader: snapshotFileReader({ onRefused: (file, detail) => options.onUnknownShape(file, { line: 1, detail }) }),
      createParser: (file, state) => {
        const found = locator.describe(file);
        if (found?.kind === 'task') return createClineTaskParser({ task: found.task, cwd: found.cwd }, state);
        return createClineSessionParser(found === undefined ? {} : { cwd: found.cwd }, state);
      },
      parserVersion: cline.parserVersion,
      sink: options.sink,
      cursorDir: path.join(options.storageDir, 'sources', 'cline', 'cursors'),
      ...followerReports(options),
    });
    follower.start();
    return follower;
  },
};

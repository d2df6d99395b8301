// Qwen Code (`@qwen-code/qwen-code`): its plans from its chat files, read-only.
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { readRegularFileText } from '../../node/regularFile';
import { Follower } from '../follow/follower';
import { jsonlFilesIn } from '../follow/jsonlFiles';
import { agentHomeFolder, normalizeFolder } from '../locations';
import { followerReports, withImportPlans, type AgentDescriptor } from '../agent';
import type { ForeignItem, PlanSink } from '../../core/foreign';
import { createQwenCodeParser, qwenProjectFolderName, qwenTodosFileItems } from './parser';
import { qwenCodeConnect } from './connect';

/** `<qwenDir>/projects/<workspace path, every non-alphanumeric "-">/chats`: one folder per workspace folder. */
export function qwenChatFolders(qwenDir: string, workspaceFolders: readonly string[]): string[] {
  return [...new Set(workspaceFolders.map((folder) => path.join(qwenDir, 'projects', qwenProjectFolderName(normalizeFolder(folder)), 'chats')))];
}

/** A session id Qwen Code names a file after (a UUID): anything else is never made into a path. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9-]{0,127}$/;

/**
 * The check against the todos file Qwen Code rewrites whole (`<qwenDir>/todos/<session>.json`):
 * after plans are saved, the file's list is compared with the session's lists seen so far; a
 * file in another shape, or a list the chat has not shown once the file is `settleMs` old
 * (the next call may have run before its record reached the chat), is reported once per
 * session. The file is only read, and only for ids of Qwen Code's own shape.
 */
export function checkedSink(sink: PlanSink, qwenDir: string, report: (file: string, detail: string) => void, settleMs = 10_000): PlanSink {
  const reported = new Set<string>();
  const seen = new Map<string, Set<string>>();
  return withImportPlans(sink, async (plans) => {
    await sink.importPlans(plans);
    for (const plan of plans) {
      const lists = seen.get(plan.source.session) ?? new Set<string>();
      if (lists.size < 1000) lists.add(listKey(plan.items));
      seen.set(plan.source.session, lists);
    }
    for (const session of new Set(plans.map((p) => p.source.session))) {
      if (!SESSION_ID.test(session) || reported.has(session)) continue;
      const file = path.join(qwenDir, 'todos', `${session}.json`);
      const [text, stat] = await Promise.all([readRegularFileText(file, 16 * 1024 * 1024).catch(() => undefined), fsp.stat(file).catch(() => undefined)]);
      if (text === undefined || stat === undefined) continue; // Not written (yet), or removed: nothing to compare.
      const stored = qwenTodosFileItems(text);
      if (stored !== undefined && seen.get(session)?.has(listKey(stored))) continue;
      if (stored !== undefined && Date.now() - stat.mtimeMs < settleMs) continue;
      reported.add(session);
      report(file, stored === undefined ? 'a todos file in a shape Agent Plan does not know' : 'the todos file holds a list no todo_write call in the chat has');
    }
  });
}

function listKey(items: readonly ForeignItem[]): string {
  return JSON.stringify(items.map((item) => [item.content, item.status]));
}

export const qwenCode: AgentDescriptor = {
  id: 'qwen-code',
  name: 'Qwen Code',
  icon: 'hubot',
  settingKey: 'qwenCode',
  parserVersion: 'qwen-code/3',
  defaultFolder: (env, home) => agentHomeFolder(env, 'QWEN_HOME', home, '.qwen'),
  about: {
    tested: '0.24.4',
    planTools: '`todo_write`',
    switchOn: '`"tools": {"todoWrite": {"enabled": true}}` in `~/.qwen/settings.json`: 0.24 offers the tool only then, and refuses the call otherwise.',
    reads: {
      agent: 'Qwen Code (`todo_write`)',
      files: '`~/.qwen/projects/<workspace path, every non-alphanumeric "-">/chats/<session id>.jsonl` (`QWEN_HOME` moves `~/.qwen`); its `todos/<session id>.json` holds the latest list',
      sessions: "chats whose records' `cwd` is a workspace folder (the folder name alone is ambiguous)",
      session: 'one session',
    },
    readme: { agent: 'Qwen Code (0.24.4)', reads: '`todo_write` and its edits, from `~/.qwen/projects/…/chats/<session>.jsonl`', switchOn: '`"tools": {"todoWrite": {"enabled": true}}` in `~/.qwen/settings.json`' },
    rows: {
      naming: { cells: ['none', 'the first `user` record\'s `message.parts[].text` (`provenance: "real_user"` where recorded)'] },
      mapping: [
        { label: '`todo_write`', cells: ['`content`', '`id`, `blockedBy`', 'pending, in_progress, completed; a call counts once its `tool_result` record says `success`'] },
      ],
      waiting: { cells: ["an assistant record's `functionCall` whose `tool_result` has not come (until the turn moves on)", '**no**: while it asks for leave the chat file writes nothing (recorded, interactive, `--approval-mode default`, left at its prompt: the record ends at the `functionCall`), so it reads "waiting on run_shell_command". Its `ui_telemetry` record of the call says `decision: "accept"` (a user\'s answer) or `"auto_accept"`, but only once the call completed'] },
      ledger: [
        { cells: ['assistant record, `usageMetadata`', '`promptTokenCount` − `cachedContentTokenCount`', '`candidatesTokenCount` + `thoughtsTokenCount`', '`cachedContentTokenCount`', 'not recorded', 'its function calls'] },
      ],
    },
    settings: {
      enabled: { planTools: ['todo_write'] },
      folder: { empty: ['`$QWEN_HOME`', '`~/.qwen`'] },
      meaning: "Qwen Code's plans, and the folder to read.",
    },
  },
  connect: qwenCodeConnect,
  start(options) {
    const folders = options.workspaceFolders;
    if (folders.length === 0) return undefined;
    const chats = qwenChatFolders(options.folder, folders);
    const follower = new Follower({
      locator: {
        list: async () => (await Promise.all(chats.map((folder) => jsonlFilesIn(folder)))).flat(),
        watchFolders: () => chats,
      },
      createParser: (_file, state) => createQwenCodeParser({ workspaceFolders: folders }, state),
      parserVersion: qwenCode.parserVersion,
      sink: checkedSink(options.sink, options.folder, (file, detail) => options.onUnknownShape(file, { line: 0, detail })),
      cursorDir: path.join(options.storageDir, 'sources', 'qwen-code', 'cursors'),
      ...followerReports(options),
    });
    follower.start();
    return follower;
  },
};

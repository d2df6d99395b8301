// Every command, declared once: its id, its title in English and Simplified Chinese, its icon,
// and where it appears. `npm run generate` (scripts/generate.mjs) writes the manifest's
// `contributes.commands`, `menus` and `keybindings` and the titles' strings in package.nls*.json
// from this table; each command's behaviour is in the handler table of its feature
// (commandTable.ts registers them). Plain data: no `vscode` import, so the generator reads it.
//
// A new command: an entry here, its handler in its feature's table, `npm run generate`.
// `when` clauses name the views (`view == agentPlan.plan`), the context keys and the rows'
// `contextValue` tokens of ids.ts; test/unit/project/manifest.unit.test.ts holds them to it.

/** Where a command appears in a view's title bar or a row's menu. */
export interface MenuPlace {
  readonly when: string;
  /** `navigation@<n>` puts it in the title bar (or, with `inline@<n>`, on the row); `<name>@<n>` in the `…` menu. */
  readonly group: string;
}

export interface CommandEntry {
  /** The command's id, `agentPlan.<name>`; its title's string key is `command.<name>`. */
  readonly id: `agentPlan.${string}`;
  readonly title: { readonly en: string; readonly zhCn: string };
  /** A codicon id (`refresh`, not `$(refresh)`). */
  readonly icon?: string;
  /** When the command can run at all (VS Code greys it out elsewhere). */
  readonly enablement?: string;
  /** When it is offered in the Command Palette: always if unset, never if false. */
  readonly palette?: string | false;
  /** Its places in the views' title bars (`view/title`). */
  readonly viewTitle?: readonly MenuPlace[];
  /** Its places on the rows of the views (`view/item/context`). */
  readonly rowMenu?: readonly MenuPlace[];
  readonly keybinding?: { readonly key: string; readonly mac?: string; readonly when?: string };
}

/** The category every command is listed under in the Command Palette. */
export const COMMAND_CATEGORY = { en: 'Agent Plan', zhCn: '智能体计划' } as const;

const PLAN = 'view == agentPlan.plan';
const PLAN_WITH_PLAN = 'view == agentPlan.plan && agentPlan.hasPlan';
const SESSIONS = 'view == agentPlan.sessions';
const SESSION_ROW = 'view == agentPlan.sessions && viewItem =~ /^agentPlan\\.session/';
const CHAT_SESSION_ROW = 'view == agentPlan.sessions && viewItem == agentPlan.session.chat';
const STOPPED_OR_STALLED_ROW = 'view == agentPlan.plan && viewItem =~ /^agentPlan\\.signal\\.(stopped-open|stalled)/';
const DROPPED_ITEM_ROW = 'view == agentPlan.plan && viewItem == agentPlan.signal.dropped.item';
const REQUEST_ROW = 'view == agentPlan.plan && viewItem == agentPlan.request.user';
const ASK_ROW = 'view == agentPlan.sessions && viewItem == agentPlan.session.ask';
const ASK_SIGNAL_ROW = 'view == agentPlan.plan && viewItem =~ /^agentPlan\\.signal\\.waiting\\.ask/';
const TODO_ROW = 'view == agentPlan.plan && viewItem =~ /^agentPlan\\.todo\\./';

/** The commands, by the name the code uses (`CommandId.Refresh`); their order is the manifest's. */
export const COMMANDS = {
  /** The Sessions view's last row: lists the next page of older sessions. */
  ShowMoreSessions: {
    id: 'agentPlan.showMoreSessions',
    title: { en: 'Show Older Sessions', zhCn: '显示更早的会话' },
    palette: false,
  },
  /** A changed file's row in the Plan view: opens it (the path as the log names it). */
  OpenChangedFile: {
    id: 'agentPlan.openChangedFile',
    title: { en: 'Open Changed File', zhCn: '打开更改的文件' },
    palette: false,
  },
  /** Agent Plan's logs, and the other agents' files they copy. */
  Refresh: {
    id: 'agentPlan.refresh',
    title: { en: 'Refresh', zhCn: '刷新' },
    icon: 'refresh',
    viewTitle: [
      { when: PLAN, group: '1_plan@3' },
      { when: SESSIONS, group: 'navigation@2' },
    ],
  },
  SelectSession: {
    id: 'agentPlan.selectSession',
    title: { en: 'Select Session…', zhCn: '选择会话…' },
    icon: 'list-selection',
    viewTitle: [{ when: PLAN, group: 'navigation@4' }],
  },
  FollowLatest: {
    id: 'agentPlan.followLatest',
    title: { en: 'Follow Latest Session', zhCn: '跟随最新会话' },
    icon: 'pin',
    enablement: '!agentPlan.followingLatest',
    viewTitle: [
      { when: 'view == agentPlan.plan && !agentPlan.followingLatest', group: 'navigation@1' },
      { when: 'view == agentPlan.sessions && !agentPlan.followingLatest', group: 'navigation@1' },
    ],
  },
  /** Second argument (tests, other extensions): how many versions back from the latest to show. */
  ShowHistory: {
    id: 'agentPlan.showHistory',
    title: { en: 'Show History…', zhCn: '显示历史…' },
    icon: 'history',
    viewTitle: [{ when: PLAN_WITH_PLAN, group: 'navigation@2' }],
    rowMenu: [
      { when: SESSION_ROW, group: 'inline@1' },
      { when: SESSION_ROW, group: '1_session@1' },
    ],
  },
  ShowLatestVersion: {
    id: 'agentPlan.showLatestVersion',
    title: { en: 'Show Latest Version', zhCn: '显示最新版本' },
    icon: 'arrow-up',
    palette: 'agentPlan.viewingHistory',
    viewTitle: [{ when: 'view == agentPlan.plan && agentPlan.viewingHistory', group: 'navigation@0' }],
  },
  CompareWithPrevious: {
    id: 'agentPlan.compareWithPrevious',
    title: { en: 'Compare with Previous Version', zhCn: '与上一版本比较' },
    icon: 'diff',
    viewTitle: [{ when: PLAN_WITH_PLAN, group: '1_plan@1' }],
    rowMenu: [{ when: SESSION_ROW, group: '1_session@3' }],
  },
  /** Opens the Plan Timeline of a session (its key, a Sessions row, or the shown session). */
  ShowTimeline: {
    id: 'agentPlan.showTimeline',
    title: { en: 'Show Timeline', zhCn: '显示时间线' },
    icon: 'graph-line',
    viewTitle: [{ when: PLAN_WITH_PLAN, group: 'navigation@2' }],
    rowMenu: [{ when: SESSION_ROW, group: '1_session@3' }],
  },
  /** The next session of the queue of those waiting on the user: its plan, then its chat or terminal. */
  GoToNextSessionNeedingYou: {
    id: 'agentPlan.goToNextSessionNeedingYou',
    title: { en: 'Go to Next Session That Needs You', zhCn: '转到下一个需要你处理的会话' },
    icon: 'bell',
    keybinding: { key: 'ctrl+alt+shift+n', mac: 'cmd+alt+shift+n' },
  },
  CopyPlanAsMarkdown: {
    id: 'agentPlan.copyPlanAsMarkdown',
    title: { en: 'Copy Plan as Markdown', zhCn: '将计划复制为 Markdown' },
    icon: 'copy',
    viewTitle: [{ when: PLAN_WITH_PLAN, group: 'navigation@3' }],
    rowMenu: [
      { when: SESSION_ROW, group: '1_session@2' },
      { when: 'view == agentPlan.plan && viewItem =~ /^agentPlan\\.todo/', group: '1_plan@1' },
    ],
  },
  /** Copies at once (a message offers a document instead); second argument (tests, other extensions): 'clipboard' or 'document'. */
  CopyAsPullRequestDescription: {
    id: 'agentPlan.copyAsPullRequestDescription',
    title: { en: 'Copy as Pull Request Description', zhCn: '复制为拉取请求描述' },
    icon: 'git-pull-request',
    viewTitle: [{ when: PLAN_WITH_PLAN, group: '3_act@3' }],
    rowMenu: [{ when: SESSION_ROW, group: '2_act@4' }],
  },
  OpenChat: {
    id: 'agentPlan.openChat',
    title: { en: 'Open Chat', zhCn: '打开聊天' },
    icon: 'comment-discussion',
    rowMenu: [{ when: CHAT_SESSION_ROW, group: '1_session@3' }],
  },
  OpenSessionLog: {
    id: 'agentPlan.openSessionLog',
    title: { en: 'Open Session Log', zhCn: '打开会话日志' },
    icon: 'go-to-file',
    viewTitle: [{ when: PLAN_WITH_PLAN, group: '1_plan@2' }],
    rowMenu: [{ when: SESSION_ROW, group: '1_session@4' }],
  },
  /** Callers that already asked (other extensions, scripts) may pass `{ confirm: false }` second. */
  DeleteSession: {
    id: 'agentPlan.deleteSession',
    title: { en: 'Delete Session…', zhCn: '删除会话…' },
    icon: 'trash',
    viewTitle: [{ when: PLAN_WITH_PLAN, group: '2_danger@1' }],
    rowMenu: [{ when: SESSION_ROW, group: '2_danger@1' }],
  },
  RevealPlan: {
    id: 'agentPlan.revealPlan',
    title: { en: 'Show Plan', zhCn: '显示计划' },
    icon: 'checklist',
    palette: false,
  },
  /** A health signal's row: opens the diff of the version that started it. */
  CompareSignalVersion: {
    id: 'agentPlan.compareSignalVersion',
    title: { en: 'Compare the Version That Started It', zhCn: '比较引发它的版本' },
    icon: 'diff',
    palette: false,
    rowMenu: [{ when: 'view == agentPlan.plan && viewItem =~ /^agentPlan\\.signal\\..*\\.compare$/', group: 'inline@1' }],
  },
  /** A dropped item's row: takes it off the list (the dropped signal's row: all of its items). */
  DismissDropped: {
    id: 'agentPlan.dismissDropped',
    title: { en: 'Dismiss', zhCn: '忽略' },
    icon: 'close',
    palette: false,
    rowMenu: [{ when: 'view == agentPlan.plan && viewItem =~ /^agentPlan\\.signal\\.dropped/', group: 'inline@2' }],
  },
  /** The Sessions view's toggle: only the sessions that need attention, or all. */
  ShowSessionsNeedingAttention: {
    id: 'agentPlan.showSessionsNeedingAttention',
    title: { en: 'Show Only Sessions Needing Attention', zhCn: '仅显示需要关注的会话' },
    icon: 'filter',
    viewTitle: [{ when: 'view == agentPlan.sessions && !agentPlan.attentionOnly', group: 'navigation@0' }],
  },
  ShowAllSessions: {
    id: 'agentPlan.showAllSessions',
    title: { en: 'Show All Sessions', zhCn: '显示所有会话' },
    icon: 'filter-filled',
    viewTitle: [{ when: 'view == agentPlan.sessions && agentPlan.attentionOnly', group: 'navigation@0' }],
  },
  // Acting on a plan (planActions.ts): each takes a session key first, or asks with a picker.
  ContinueInNewChat: {
    id: 'agentPlan.continueInNewChat',
    title: { en: 'Continue in New Chat', zhCn: '在新聊天中继续' },
    icon: 'comment-discussion',
    viewTitle: [{ when: PLAN_WITH_PLAN, group: 'navigation@5' }],
    rowMenu: [
      { when: SESSION_ROW, group: '2_act@1' },
      { when: STOPPED_OR_STALLED_ROW, group: 'inline@3' },
      { when: STOPPED_OR_STALLED_ROW, group: '1_act@1' },
    ],
  },
  AskToContinue: {
    id: 'agentPlan.askToContinue',
    title: { en: 'Ask to Continue', zhCn: '请求继续' },
    icon: 'debug-continue',
    rowMenu: [
      { when: CHAT_SESSION_ROW, group: '2_act@2' },
      { when: STOPPED_OR_STALLED_ROW, group: '1_act@2' },
    ],
  },
  /** Second argument: the dropped item's text. */
  AskToRestore: {
    id: 'agentPlan.askToRestore',
    title: { en: 'Ask to Restore', zhCn: '请求恢复' },
    icon: 'discard',
    rowMenu: [
      { when: DROPPED_ITEM_ROW, group: 'inline@1' },
      { when: DROPPED_ITEM_ROW, group: '1_act@1' },
    ],
  },
  CopyHandoff: {
    id: 'agentPlan.copyHandoff',
    title: { en: 'Copy Hand-off Prompt', zhCn: '复制交接提示' },
    icon: 'copy',
    viewTitle: [{ when: PLAN_WITH_PLAN, group: '3_act@1' }],
    rowMenu: [{ when: SESSION_ROW, group: '2_act@3' }],
  },
  /** Second argument (tests, other extensions): the file Uri to write, instead of the save dialog. */
  ExportPlan: {
    id: 'agentPlan.exportPlan',
    title: { en: 'Export Plan…', zhCn: '导出计划…' },
    icon: 'export',
    viewTitle: [{ when: PLAN_WITH_PLAN, group: '3_act@2' }],
    rowMenu: [{ when: SESSION_ROW, group: '2_act@4' }],
  },
  /** Second argument: the request's text, else an input box. */
  AddRequest: {
    id: 'agentPlan.addRequest',
    title: { en: 'Add a Request for the Agent…', zhCn: '为智能体添加请求…' },
    icon: 'person-add',
    viewTitle: [{ when: PLAN_WITH_PLAN, group: 'navigation@6' }],
    rowMenu: [{ when: SESSION_ROW, group: '2_act@5' }],
  },
  /** A request's row (or a session key and the request's id): takes it back. */
  WithdrawRequest: {
    id: 'agentPlan.withdrawRequest',
    title: { en: 'Withdraw Request', zhCn: '撤回请求' },
    icon: 'close',
    rowMenu: [
      { when: REQUEST_ROW, group: 'inline@1' },
      { when: REQUEST_ROW, group: '1_act@1' },
    ],
  },
  /** What an item changed, in the multi-file diff editor: a session key and the item's text, a Plan view row, or a pick. */
  ReviewItem: {
    id: 'agentPlan.reviewItem',
    title: { en: 'Review Item', zhCn: '审阅条目' },
    icon: 'diff-multiple',
    rowMenu: [
      { when: TODO_ROW, group: 'inline@1' },
      { when: TODO_ROW, group: '1_review@1' },
    ],
  },
  /** What the whole session changed, in the multi-file diff editor. */
  ReviewSession: {
    id: 'agentPlan.reviewSession',
    title: { en: 'Review Session', zhCn: '审阅会话' },
    icon: 'diff-multiple',
    viewTitle: [{ when: PLAN_WITH_PLAN, group: '3_act@9' }],
    rowMenu: [{ when: SESSION_ROW, group: '2_act@9' }],
  },
  /** What changed since a plan version the user picks (or one named by its byte offset), in the multi-file diff editor. */
  ReviewSince: {
    id: 'agentPlan.reviewSince',
    title: { en: 'Review Since…', zhCn: '审阅自某版本以来的更改…' },
    icon: 'diff-multiple',
    viewTitle: [{ when: PLAN_WITH_PLAN, group: '3_act@10' }],
    rowMenu: [{ when: SESSION_ROW, group: '2_act@10' }],
  },
  // Connect (src/vscode/connect/): Agent Plan's MCP server in an agent's user configuration, by the user's choice.
  /** Picks an agent found on this machine, shows the exact change, then writes it. */
  ConnectAgents: {
    id: 'agentPlan.connectAgents',
    title: { en: 'Connect Agents…', zhCn: '连接智能体…' },
    icon: 'plug',
  },
  /** Picks a connected agent, shows the change, then puts its files back. */
  DisconnectAgents: {
    id: 'agentPlan.disconnectAgents',
    title: { en: 'Disconnect Agents…', zhCn: '断开智能体…' },
    icon: 'debug-disconnect',
  },
  /** Scripts, tests, other extensions: (agentId, { confirm: false, mcp: true, planTools? }) → { files: [{ path, before, after }] }. */
  ConnectAgent: {
    id: 'agentPlan.connectAgent',
    title: { en: 'Connect Agent', zhCn: '连接智能体' },
    palette: false,
  },
  /** Scripts, tests, other extensions: (agentId) → { files: [{ path, before, after }] }, without asking. */
  DisconnectAgent: {
    id: 'agentPlan.disconnectAgent',
    title: { en: 'Disconnect Agent', zhCn: '断开智能体' },
    palette: false,
  },
  // Answers (src/vscode/answers/): a connected agent's waiting tool call, answered on the user's click.
  /** Allows a waiting request: its row, its id (API, notification), or the user's pick. */
  AllowRequest: {
    id: 'agentPlan.allowRequest',
    title: { en: 'Allow Request', zhCn: '允许请求' },
    icon: 'check',
    rowMenu: [
      { when: ASK_ROW, group: 'inline@1' },
      { when: ASK_SIGNAL_ROW, group: 'inline@1' },
    ],
  },
  /** Denies a waiting request, with an optional message for the model. */
  DenyRequest: {
    id: 'agentPlan.denyRequest',
    title: { en: 'Deny Request…', zhCn: '拒绝请求…' },
    icon: 'close',
    rowMenu: [
      { when: ASK_ROW, group: 'inline@2' },
      { when: ASK_SIGNAL_ROW, group: 'inline@2' },
    ],
  },
} as const satisfies Record<string, CommandEntry>;

export type CommandName = keyof typeof COMMANDS;

/** Each command's id by its name: `CommandId.Refresh` is `'agentPlan.refresh'`. */
export const CommandId = Object.fromEntries(Object.entries(COMMANDS).map(([name, entry]) => [name, entry.id])) as {
  readonly [name in CommandName]: (typeof COMMANDS)[name]['id'];
};
export type CommandId = (typeof CommandId)[CommandName];

/** The key of a command's title in package.nls*.json. */
export function titleKey(id: string): string {
  return `command.${id.slice('agentPlan.'.length)}`;
}

/**
 * What is wrong with a set of handler tables (each a list of the ids it handles): an id of
 * the manifest without a handler, one handled twice, or a handler for no command. Empty: one
 * handler per command.
 */
export function handlerProblems(tables: readonly (readonly string[])[], ids: readonly string[] = Object.values(CommandId)): string[] {
  const counts = new Map<string, number>();
  for (const id of tables.flat()) counts.set(id, (counts.get(id) ?? 0) + 1);
  const problems: string[] = [];
  for (const id of ids) {
    const count = counts.get(id) ?? 0;
    if (count !== 1) problems.push(count === 0 ? `${id} has no handler` : `${id} has ${count} handlers`);
  }
  for (const id of counts.keys()) if (!ids.includes(id)) problems.push(`${id} is handled but not declared in commandManifest.ts`);
  return problems;
}

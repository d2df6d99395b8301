// Connect Agents…: adds Agent Plan's MCP server (`node <extension>/dist/mcp.js`, with `--inbox
// <folder>` only when the MCP agent's folder setting names one) to the user MCP configuration
// of an agent the user picks (the registry's agents with a Connect spec), with that agent's own pre-approval
// of its one tool, and, where the agent has one and the user chooses it, the permission hook
// (`sh <extension>/dist/answer.sh <agent> <answers folder>`) through which Needs You answers
// the agent's prompts, after showing the exact change; Disconnect Agents… puts the files back. The
// files are read and written by the pure core (src/node/connect/); nothing is written but by
// these commands. `agentPlan.connectAgent` / `agentPlan.disconnectAgent` do the same without a
// pick or a question, for scripts, tests and other extensions, and return what they changed.
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { mcp } from '../../agents/mcp';
import { AGENT_LOOKS } from '../../core/generated/agentIds';
import { notificationText } from '../../core/text/escape';
import { apply, connectedAgents, detect, plan, unplan, type ConnectPlan, type ConnectResult } from '../../node/connect/connect';
import { answersFolder } from '../../node/answers/answerSpool';
import type { ConnectAgent, Place, ServerLine } from '../../node/connect/connectAgents';
import { ConnectError } from '../../node/connect/connectError';
import { nodeForServer } from '../../node/connect/onPath';
import { bindTable, type BoundTable, type CommandTable } from '../commands/commandTable';
import { CommandId, sourceSettingId } from '../ids';
import { logError, type Logger } from '../log';
import { CONNECT_AGENTS, connectAgentOf } from './connectAgentList';
import { CONNECT_SCHEME, ConnectPreviews, confirmPlan, showPlan } from './connectPreview';
import { agentDetail, errorText, noteText, shownPath } from './connectTexts';

const t = vscode.l10n.t;

export interface ConnectDeps {
  /** The extension's folder: the server is its `dist/mcp.js`. */
  readonly extensionPath: string;
  /** Agent Plan's global storage: its record of what was connected (connect.json) is kept there. */
  readonly globalStoragePath: string;
  readonly logger: Logger;
  /** Where the preview's document provider is disposed (the extension's subscriptions). */
  readonly subscriptions: { push(...items: vscode.Disposable[]): unknown };
}

interface ConnectContext extends ConnectDeps {
  readonly previews: ConnectPreviews;
  readonly statePath: string;
}

/** What `agentPlan.connectAgent` takes second. */
interface ConnectArgs {
  readonly confirm?: boolean;
  readonly mcp?: boolean;
  readonly planTools?: boolean;
  /** Add the agent's permission hook (agents with one: Claude Code, Codex). */
  readonly answers?: boolean;
}

/** The parts of a connection the user chose. */
interface Parts {
  readonly mcp: boolean;
  readonly planTools: boolean;
  readonly answers: boolean;
}

const place = (): Place => ({ home: os.homedir(), env: process.env });

/**
 * The inbox the server is told (`--inbox`): the folder setting of the follower of the
 * server's inbox (the registry's agent whose default folder is that inbox), when it names one.
 * Otherwise undefined: the server's default inbox (`$XDG_DATA_HOME/agent-plan/mcp-inbox`,
 * src/node/mcpInbox.ts) is the one Agent Plan follows, outside VS Code's folders so that a plan
 * written while no window is open is there when one opens.
 */
function inboxFolder(): string | undefined {
  const setting = vscode.workspace.getConfiguration().get<string>(sourceSettingId(mcp.settingKey, 'folder'), '').trim();
  return setting !== '' && path.isAbsolute(setting) ? setting : undefined;
}

/** The Node that runs the server; undefined (the user was told) when there is none. */
async function serverNode(): Promise<string | undefined> {
  const node = await nodeForServer(process, process.env);
  if (node === undefined) void vscode.window.showErrorMessage(t('Agent Plan: no "node" program was found on PATH; the agents need Node.js to run Agent Plan\'s server. Install Node.js, then connect again.'));
  return node;
}

/** The permission hook's program and the folder its requests go through. */
const hookOf = (context: ConnectContext): NonNullable<ServerLine['hook']> => ({ script: path.join(context.extensionPath, 'dist', 'answer.sh'), folder: answersFolder() });

async function planConnect(context: ConnectContext, agent: ConnectAgent, parts: Parts): Promise<ConnectPlan | undefined> {
  const node = await serverNode();
  if (node === undefined) return undefined;
  const inbox = inboxFolder();
  return plan(agent, {
    ...place(),
    node,
    serverScript: path.join(context.extensionPath, 'dist', 'mcp.js'),
    ...(inbox !== undefined ? { inbox } : {}),
    mcp: parts.mcp,
    planTools: parts.planTools,
    answers: parts.answers,
    hook: hookOf(context),
    statePath: context.statePath,
  });
}

/** Shows the plan, asks, writes: what was changed, or undefined when the user said no (or there was nothing to do). */
async function previewAndApply(context: ConnectContext, planned: ConnectPlan, name: string): Promise<ConnectResult | undefined> {
  const connecting = planned.action === 'connect';
  if (planned.files.length === 0) {
    void vscode.window.showInformationMessage(notificationText([connecting ? t('{0} is connected already.', name) : t('{0}: nothing to disconnect.', name), ...planned.notes.map(noteText)].join(' ')));
    return undefined;
  }
  const title = connecting ? t('Agent Plan: connect {0}', name) : t('Agent Plan: disconnect {0}', name);
  await showPlan(context.previews, planned, title);
  const action = connecting ? t('Connect') : t('Disconnect');
  const question = connecting ? t('Connect {0} to Agent Plan? These files change as the diff shows.', name) : t('Disconnect {0} from Agent Plan? These files change as the diff shows.', name);
  if (!(await confirmPlan(planned, question, action))) return undefined;
  const result = await apply(planned);
  context.logger.info(`${planned.action} ${planned.agent}: ${result.files.map((file) => file.path).join(', ')}`);
  const done = connecting ? t('{0} is connected: its new sessions can call Agent Plan\'s todo_write.', name) : t('{0} is disconnected.', name);
  void vscode.window.showInformationMessage(notificationText([done, ...planned.notes.map(noteText)].join(' ')));
  return result;
}

interface AgentItem extends vscode.QuickPickItem {
  readonly agent: ConnectAgent;
}

function agentItem(agent: ConnectAgent, connected: boolean): AgentItem {
  const files = agent.files.map((spec) => spec.path(place()));
  return {
    label: `$(${AGENT_LOOKS[agent.id].icon}) ${agent.name}`,
    description: agent.unsupported !== undefined ? t('not supported yet') : connected ? t('connected') : undefined,
    detail: agentDetail(agent, files),
    agent,
  };
}

interface PartsItem extends vscode.QuickPickItem {
  readonly parts: Parts;
}

/** The files (shown) that hold the agent's permission hook: those of its JSON files the answers part alone writes to. */
function answersFiles(agent: ConnectAgent): string[] {
  const line: ServerLine = { node: '', serverScript: '', mcp: false, answers: true, hook: { script: '', folder: '' } };
  return agent.files.flatMap((spec) => (spec.format === 'json' && spec.entries(line).length > 0 ? [shownPath(spec.path(place()))] : []));
}

/** For an agent with a permission hook: any of its parts, in one multi-select pick; undefined when the user picked none. */
async function pickManyParts(agent: ConnectAgent, answersHook: string): Promise<Parts | undefined> {
  const own = agent.ownPlanTool ?? t('its task list');
  // `server` is the MCP part.
  const items: Array<vscode.QuickPickItem & { readonly part: 'server' | 'planTools' | 'answers' }> = [
    { label: t('Add the MCP todo_write'), detail: t('{0} will have two plan tools: its own {1} and Agent Plan\'s todo_write; Agent Plan shows both.', agent.name, own), picked: true, part: 'server' },
  ];
  if (agent.planSwitch !== undefined) items.push({ label: t('Switch on {0}', own), description: agent.planSwitch, detail: t('Agent Plan reads {0} from {1}\'s own files.', own, agent.name), part: 'planTools' });
  items.push({
    label: t('Answer its permission prompts from Needs You'),
    description: answersHook,
    detail: t('Adds a permission hook to {0}: when {1} asks before a tool call, Needs You shows it with Allow and Deny.', answersFiles(agent).join(', '), agent.name),
    part: 'answers',
  });
  const picked = await vscode.window.showQuickPick(items, { placeHolder: t('What should Connect write for {0}? Pick one or more.', agent.name), canPickMany: true, ignoreFocusOut: true });
  if (picked === undefined || picked.length === 0) return undefined;
  const has = (part: (typeof items)[number]['part']) => picked.some((item) => item.part === part);
  return { mcp: has('server'), planTools: has('planTools'), answers: has('answers') };
}

/** For an agent with a plan tool of its own (or a switch for it, or a permission hook): which parts to write; undefined when the user picked none. */
async function pickParts(agent: ConnectAgent): Promise<Parts | undefined> {
  if (agent.answersHook !== undefined) return pickManyParts(agent, agent.answersHook);
  if (agent.ownPlanTool === undefined && agent.planSwitch === undefined) return { mcp: true, planTools: false, answers: false };
  const own = agent.ownPlanTool ?? t('its task list');
  const two = t('{0} will have two plan tools: its own {1} and Agent Plan\'s todo_write; Agent Plan shows both.', agent.name, own);
  const items: PartsItem[] = [{ label: t('Add the MCP todo_write'), detail: two, parts: { mcp: true, planTools: false, answers: false } }];
  if (agent.planSwitch !== undefined) {
    items.push({ label: t('Add the MCP todo_write and switch on {0}', own), description: agent.planSwitch, detail: two, parts: { mcp: true, planTools: true, answers: false } });
    items.push({ label: t('Only switch on {0}', own), description: agent.planSwitch, detail: t('No MCP server: Agent Plan reads {0} from {1}\'s own files.', own, agent.name), parts: { mcp: false, planTools: true, answers: false } });
  }
  const placeHolder =
    agent.ownPlanTool === undefined
      ? t('Claude Code offers no plan tool on its default model. Add Agent Plan\'s todo_write, and show Claude Code\'s task list too?')
      : t('{0} has its own plan tool ({1}), which Agent Plan already reads. What should Connect write?', agent.name, own);
  return (await vscode.window.showQuickPick(items, { placeHolder, ignoreFocusOut: true }))?.parts;
}

async function connectAgents(context: ConnectContext): Promise<ConnectResult | undefined> {
  const { home, env } = place();
  const [found, connected] = await Promise.all([detect(home, env, CONNECT_AGENTS), connectedAgents(context.statePath, CONNECT_AGENTS)]);
  if (found.length === 0) {
    void vscode.window.showInformationMessage(t('Agent Plan found none of the agents it can connect on this machine (their folders under the home folder, or their programs on PATH).'));
    return undefined;
  }
  const items = found.map(({ agent }) => agentItem(agent, connected.includes(agent)));
  const picked = await vscode.window.showQuickPick(items, { placeHolder: t('Connect which agent to Agent Plan\'s todo_write?'), matchOnDetail: true, ignoreFocusOut: true });
  if (picked === undefined) return undefined;
  const agent = picked.agent;
  if (agent.unsupported !== undefined) {
    void vscode.window.showInformationMessage(errorText(new ConnectError('unsupported', agent.name, agent.unsupported.en)));
    return undefined;
  }
  const parts = await pickParts(agent);
  if (parts === undefined) return undefined;
  const planned = await planConnect(context, agent, parts);
  return planned === undefined ? undefined : previewAndApply(context, planned, agent.name);
}

async function disconnectAgents(context: ConnectContext): Promise<ConnectResult | undefined> {
  const connected = await connectedAgents(context.statePath, CONNECT_AGENTS);
  if (connected.length === 0) {
    void vscode.window.showInformationMessage(t('No agent is connected to Agent Plan.'));
    return undefined;
  }
  const items = connected.map((agent) => agentItem(agent, true));
  const picked = await vscode.window.showQuickPick(items, { placeHolder: t('Disconnect which agent from Agent Plan?'), ignoreFocusOut: true });
  if (picked === undefined) return undefined;
  const planned = await unplan(picked.agent, { ...place(), statePath: context.statePath });
  return previewAndApply(context, planned, picked.agent.name);
}

function agentArg(value: unknown): ConnectAgent {
  if (typeof value !== 'string') throw new Error(t('Name the agent to connect: one of {0}.', CONNECT_AGENTS.map((agent) => agent.id).join(', ')));
  return connectAgentOf(value);
}

async function connectOne(context: ConnectContext, id: unknown, args: unknown): Promise<ConnectResult | undefined> {
  const agent = agentArg(id);
  const options = (typeof args === 'object' && args !== null ? args : {}) as ConnectArgs;
  const planned = await planConnect(context, agent, { mcp: options.mcp ?? true, planTools: options.planTools ?? false, answers: options.answers ?? false });
  if (planned === undefined) return undefined;
  if (options.confirm !== false) return previewAndApply(context, planned, agent.name);
  return apply(planned);
}

async function disconnectOne(context: ConnectContext, id: unknown): Promise<ConnectResult> {
  const agent = agentArg(id);
  return apply(await unplan(agent, { ...place(), statePath: context.statePath }));
}

export const CONNECT_COMMANDS = {
  [CommandId.ConnectAgents]: (context: ConnectContext) => connectAgents(context),
  [CommandId.DisconnectAgents]: (context: ConnectContext) => disconnectAgents(context),
  [CommandId.ConnectAgent]: (context: ConnectContext, id: unknown, args: unknown) => connectOne(context, id, args),
  [CommandId.DisconnectAgent]: (context: ConnectContext, id: unknown) => disconnectOne(context, id),
} satisfies CommandTable<ConnectContext>;

/**
 * Connect's commands, bound and ready for registerCommands; the preview's document provider goes
 * into `deps.subscriptions`. A failure is logged and told to the user in their language.
 */
export function createConnect(deps: ConnectDeps): BoundTable<keyof typeof CONNECT_COMMANDS> {
  const previews = new ConnectPreviews();
  deps.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(CONNECT_SCHEME, previews));
  const context: ConnectContext = { ...deps, previews, statePath: path.join(deps.globalStoragePath, 'connect.json') };
  return bindTable(CONNECT_COMMANDS, context, (id, error) => {
    logError(deps.logger, `command ${id} failed`, error);
    void vscode.window.showErrorMessage(t('Agent Plan: {0}', notificationText(errorText(error))));
    return undefined;
  });
}


// The real GitHub Copilot agent for the integration tests: Copilot Chat (built into
// the pinned host) switched on without sign-in, its bring-your-own `customendpoint`
// model served by the launcher's scripted model server (test/scripted-model/modelServer.mjs),
// and requests sent in agent mode. What the model received is read from the
// server's record file in the run folder.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { runDir } from './helpers';
import { waitFor } from '../lib/wait';

export const COPILOT_ID = 'GitHub.copilot-chat';
/** The Copilot Chat these tests were written against; its prompts and request shapes are its own. */
export const PINNED_COPILOT = '0.67.0';
export const SETUP_COMMAND = 'workbench.action.chat.triggerSetupAnonymousWithoutDialog';
export const MODEL = { vendor: 'customendpoint', id: 'scripted-agent' };

export interface ToolEntry {
  type: string;
  function: { name: string; description?: string; parameters?: unknown };
}
export interface Message {
  role: string;
  content?: unknown;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}
export interface ModelRecord {
  seq: number;
  kind: 'agent' | 'side' | 'models' | 'unknown' | 'bad-json';
  headers?: Record<string, string>;
  body?: { messages?: Message[]; tools?: ToolEntry[]; stream?: boolean };
  reply?: { turn: number; step: number; say: string; calls: Array<{ id: string; name: string; arguments: string }>; note?: string };
}
export interface ScriptTurn {
  match?: string;
  steps: Array<{ say?: string; tool?: string; arguments?: unknown; delayMs?: number; holdUntil?: string }>;
}

function modelDir(): string {
  return path.join(runDir(), 'model');
}

/** Lets the scripted model send an answer it holds (a step's `holdUntil: name`) now, instead of at its `delayMs`. */
export function releaseModel(name: string): void {
  fs.writeFileSync(path.join(modelDir(), `release-${name}`), '');
}

/** Every request the scripted model has received so far. */
export function records(): ModelRecord[] {
  const file = path.join(modelDir(), 'requests.jsonl');
  if (!fs.existsSync(file)) return [];
  // Whole lines only: the model server may be writing the last one as it is read.
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  return lines
    .slice(0, -1)
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as ModelRecord);
}

/** The script the model server plays, as the launcher copied it into the run. */
export function scriptTurns(): ScriptTurn[] {
  return (JSON.parse(fs.readFileSync(path.join(modelDir(), 'script.json'), 'utf8')) as { turns: ScriptTurn[] }).turns;
}

export function turnIndex(match: string): number {
  const index = scriptTurns().findIndex((turn) => turn.match === match);
  if (index < 0) throw new Error(`the model script has no turn "${match}"`);
  return index;
}

export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: { text?: unknown }) => (typeof part?.text === 'string' ? part.text : '')).join('');
}

let ready: Promise<void> | undefined;

/** The turn that warms the agent: a request that offers the tools and writes no plan. */
const WARM_UP = '[ap:offer]';

/**
 * Switches Copilot on and warms it, once per extension host, whichever file asks first: every
 * file that needs the real Copilot agent calls this in its `before` (askAgent calls it too).
 * VS Code's own anonymous setup, then the scripted model listed, then one agent request played
 * to its end in a chat of its own (the host's first agent request is the slow one: Copilot
 * loads its tools and prompts), then a new chat. Fails with a message naming what changed when
 * the host's Copilot or its setup command is not the one these tests are pinned to.
 */
export function copilotReady(): Promise<void> {
  ready ??= (async () => {
    if (!fs.existsSync(path.join(modelDir(), 'requests.jsonl')) && !fs.existsSync(path.join(modelDir(), 'script.json'))) {
      throw new Error('the launcher started no scripted model server (no model/ folder in the run folder)');
    }
    const commands = await vscode.commands.getCommands(true);
    if (!commands.includes(SETUP_COMMAND)) {
      throw new Error(`the host has no command ${SETUP_COMMAND}: VS Code's chat setup changed, so the real-agent tests cannot switch Copilot on`);
    }
    if (!vscode.extensions.getExtension(COPILOT_ID)) await vscode.commands.executeCommand(SETUP_COMMAND);
    const copilot = await waitFor(() => vscode.extensions.getExtension(COPILOT_ID), `${COPILOT_ID} to be enabled by ${SETUP_COMMAND}`, 30_000).catch(() => {
      throw new Error(`${SETUP_COMMAND} ran but ${COPILOT_ID} did not appear: the host's Copilot or its setup changed`);
    });
    const version = (copilot.packageJSON as { version?: string }).version;
    if (version !== PINNED_COPILOT) {
      throw new Error(`the host's Copilot Chat is ${version}, the real-agent tests are pinned to ${PINNED_COPILOT}: re-check the recorded request shapes and update PINNED_COPILOT`);
    }
    await copilot.activate();
    await waitFor(async () => (await vscode.lm.selectChatModels(MODEL)).length > 0, `Copilot to list the scripted model ${MODEL.vendor}/${MODEL.id}`, 30_000).catch(() => {
      throw new Error(`Copilot ${version} does not list the bring-your-own model ${MODEL.vendor}/${MODEL.id} from User/chatLanguageModels.json`);
    });
    // The demo's script (the screenshot phase) has no warm-up turn: its first request, the
    // demo itself, is the one that waits while Copilot loads.
    if (!scriptTurns().some((turn) => turn.match === WARM_UP)) return;
    const turn = turnIndex(WARM_UP);
    const steps = scriptTurns()[turn]!.steps.length;
    const since = Math.max(0, ...records().map((record) => record.seq));
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: `${WARM_UP} please`, mode: 'agent', modelSelector: MODEL, isPartialQuery: false, blockOnResponse: true });
    await waitFor(() => turnRecords(turn, since).length >= steps, `the Copilot agent's first request ("${WARM_UP}") to be played`, 90_000);
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
  })();
  return ready;
}

/** The agent requests of one script turn, in the order they arrived. */
export function turnRecords(turn: number, since = 0): ModelRecord[] {
  return records().filter((record) => record.seq > since && record.kind === 'agent' && record.reply?.turn === turn);
}

/**
 * Sends `query` to the Copilot agent in the chat view (in agent mode, with the
 * scripted model) and waits until the model has played the whole turn.
 */
export async function askAgent(match: string, query = `${match} please`, timeoutMs = 30_000): Promise<ModelRecord[]> {
  await copilotReady();
  const turn = turnIndex(match);
  const steps = scriptTurns()[turn]!.steps.length;
  const since = Math.max(0, ...records().map((record) => record.seq));
  await vscode.commands.executeCommand('workbench.action.chat.open', {
    query,
    mode: 'agent',
    modelSelector: MODEL,
    isPartialQuery: false,
    blockOnResponse: true,
  });
  return waitFor(
    () => {
      const played = turnRecords(turn, since);
      const noted = played.find((record) => record.reply?.note);
      if (noted) throw new Error(`the scripted model could not play "${match}": ${noted.reply?.note} (${noted.reply?.say})`);
      return played.length >= steps ? played : undefined;
    },
    `the agent to play all ${steps} steps of "${match}"`,
    timeoutMs,
  );
}

/** The `role: "tool"` messages of a request, by tool call id. */
export function toolResults(record: ModelRecord): Map<string, string> {
  const results = new Map<string, string>();
  for (const message of record.body?.messages ?? []) {
    if (message.role === 'tool' && message.tool_call_id) results.set(message.tool_call_id, textOf(message.content));
  }
  return results;
}

// What Connect says to people, in their language: what connecting does for each agent, its
// notes, and why a file was left alone (the core's stable error codes, worded here).
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ConnectNote } from '../../node/connect/connect';
import type { ConnectAgent } from '../../node/connect/connectAgents';
import { ConnectError } from '../../node/connect/connectError';
import { CONNECT_AGENTS } from './connectAgentList';

const t = vscode.l10n.t;

/** A path under HOME as `~/…`, the way the agents' own docs write it. */
export function shownPath(file: string, home: string = os.homedir()): string {
  const relative = path.relative(home, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? `~${path.sep}${relative}` : file;
}

/** How the agent pre-approves Agent Plan's tool once connected: its file's setting, a flag only, or no approval asked. */
function approvalText(agent: ConnectAgent): string {
  if (agent.preApproval !== undefined) return t('pre-approved by {0}', agent.preApproval);
  if (agent.approvalFlag !== undefined) return t('no file can pre-approve it: start {0} with {1}', agent.name, agent.approvalFlag);
  return t('runs without approval');
}

/** Why Connect does not write an agent's settings yet, in the agent's own words (English or Simplified Chinese). */
export function unsupportedText(agent: ConnectAgent): string {
  if (agent.unsupported === undefined) return '';
  return vscode.env.language.toLowerCase() === 'zh-cn' ? agent.unsupported.zhCn : agent.unsupported.en;
}

/** A row's detail: what connecting does, and the files it changes. */
export function agentDetail(agent: ConnectAgent, files: readonly string[]): string {
  if (agent.unsupported !== undefined) return t('Not supported yet: {0}', unsupportedText(agent));
  return t('Adds Agent Plan\'s todo_write server ({0}). Changes {1}', approvalText(agent), files.map((file) => shownPath(file)).join(', '));
}

/** The note of a plan, in words. */
export function noteText(note: ConnectNote): string {
  switch (note.code) {
    case 'kept-setting':
      return t('{0}: {1} is already set; left as it is.', shownPath(note.file ?? ''), note.detail ?? '');
    case 'approval-flag':
      return t('Copilot CLI asks before each call unless it is started with {0}: no settings file holds that.', note.detail ?? '');
    case 'not-connected':
      return t('Agent Plan has no record of connecting this agent.');
    case 'already-connected':
      return t('Everything is in place already.');
  }
}

/** Why a file was left alone, in words; other errors keep their message. */
export function errorText(error: unknown): string {
  if (!(error instanceof ConnectError)) return error instanceof Error ? error.message : String(error);
  const file = shownPath(error.file);
  switch (error.code) {
    case 'not-json':
      return t('{0} is not valid JSON; Agent Plan leaves it as it is.', file);
    case 'not-object':
      return t('{0} does not hold a JSON object at its top level; Agent Plan leaves it as it is.', file);
    case 'wrong-shape':
      return t('{0}: "{1}" is not what Agent Plan expects there; Agent Plan leaves the file as it is.', file, error.detail);
    case 'foreign-entry':
      return t('{0} already has an entry "{1}" that Agent Plan did not write; Agent Plan leaves it as it is.', file, error.detail);
    case 'not-toml':
      return t('{0} is not valid TOML ({1}); Agent Plan leaves it as it is.', file, error.detail);
    case 'not-text':
      return t('{0} is not UTF-8 text; Agent Plan leaves it as it is.', file);
    case 'outside-home':
      return t('{0} leads to {1}, outside the home folder; Agent Plan does not write there.', file, error.detail);
    case 'not-regular':
      return t('{0} is not a regular file; Agent Plan does not write there.', file);
    case 'too-large':
      return t('{0} is too large for Agent Plan to edit.', file);
    case 'changed-since-preview':
      return t('{0} changed since the preview; nothing was written. Connect again to see the new change.', file);
    case 'block-changed':
      return t('{0}: Agent Plan\'s block was edited; remove the lines between its two "Agent Plan" comments by hand.', file);
    case 'bad-record':
      return t('Agent Plan\'s record of what it connected ({0}) is unreadable: {1}', file, error.detail);
    case 'unsupported': {
      const agent = CONNECT_AGENTS.find((known) => known.name === error.file);
      return t('{0} is not supported yet: {1}', error.file, agent ? unsupportedText(agent) : error.detail);
    }
  }
}

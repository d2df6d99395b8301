// The `permission/ask` and `permission/answer` lines of the session log: an agent's tool call
// that asked the user's leave through its permission hook and was taken by an Agent Plan window
// (src/node/answers/), and how it ended:
//
//   {"v":1,"type":"permission/ask","ts","session","id","agent","tool","input","description"?,"until"}
//   {"v":1,"type":"permission/answer","ts","session","id","answer":"allow"|"deny"|"ended","message"?}
//
// `id` names the request across both lines; `until` is when its hook stops waiting (then the
// agent asks at its own prompt). `answer` is `allow` or `deny` when the user answered in Agent
// Plan (a Deny's `message` went to the model), `ended` when the request ended otherwise
// (answered at the agent's own prompt, timed out, the agent ended). `input` is the call's
// command line or input as text, bounded: data, escaped wherever it is shown. No I/O.
import { AGENT_IDS, type AgentId } from '../foreign';

export const PERMISSION_ASK_EVENT = 'permission/ask';
export const PERMISSION_ANSWER_EVENT = 'permission/answer';

/** A request id: `<agent>.<hook pid>.<seconds>` (src/node/answers/answerSpool.ts). */
export const PERMISSION_ID = /^[a-z][a-z-]{0,31}\.\d{1,10}\.\d{1,12}$/;
export const MAX_PERMISSION_INPUT = 4000;
export const MAX_PERMISSION_TEXT = 2000;
const MAX_TOOL = 200;

export type PermissionAnswer = 'allow' | 'deny' | 'ended';
const ANSWERS: readonly string[] = ['allow', 'deny', 'ended'] satisfies readonly PermissionAnswer[];

export interface PermissionAskRecord {
  v: 1;
  type: 'permission/ask';
  ts: string;
  session: string;
  id: string;
  agent: AgentId;
  tool: string;
  input: string;
  description?: string;
  /** When its hook stops waiting (ISO). */
  until: string;
}

export interface PermissionAnswerRecord {
  v: 1;
  type: 'permission/answer';
  ts: string;
  session: string;
  id: string;
  answer: PermissionAnswer;
  message?: string;
}

export interface PermissionAskFacts {
  id: string;
  agent: AgentId;
  tool: string;
  input: string;
  description?: string | undefined;
  until: string;
}

export interface PermissionAnswerFacts {
  id: string;
  answer: PermissionAnswer;
  message?: string | undefined;
}

export function isPermissionAsk(record: { type: string }): record is PermissionAskRecord {
  return record.type === PERMISSION_ASK_EVENT;
}

export function isPermissionAnswer(record: { type: string }): record is PermissionAnswerRecord {
  return record.type === PERMISSION_ANSWER_EVENT;
}

const boundedText = (value: unknown, max: number) => typeof value === 'string' && value.length <= max;

/** Why these facts cannot be recorded, or undefined when they can. */
export function permissionAskProblem(facts: PermissionAskFacts): string | undefined {
  if (typeof facts.id !== 'string' || !PERMISSION_ID.test(facts.id)) return '`id` of a permission/ask must be <agent>.<pid>.<seconds>';
  if (!(AGENT_IDS as readonly unknown[]).includes(facts.agent)) return '`agent` of a permission/ask must be a known agent';
  if (!boundedText(facts.tool, MAX_TOOL) || facts.tool === '') return `\`tool\` of a permission/ask must be a string of 1 to ${MAX_TOOL} characters`;
  if (!boundedText(facts.input, MAX_PERMISSION_INPUT)) return `\`input\` of a permission/ask must be a string of at most ${MAX_PERMISSION_INPUT} characters`;
  if (facts.description !== undefined && !boundedText(facts.description, MAX_PERMISSION_TEXT)) return `\`description\` of a permission/ask must be a string of at most ${MAX_PERMISSION_TEXT} characters`;
  if (typeof facts.until !== 'string' || Number.isNaN(Date.parse(facts.until))) return '`until` of a permission/ask is not a timestamp';
  return undefined;
}

export function permissionAnswerProblem(facts: PermissionAnswerFacts): string | undefined {
  if (typeof facts.id !== 'string' || !PERMISSION_ID.test(facts.id)) return '`id` of a permission/answer must be <agent>.<pid>.<seconds>';
  if (typeof facts.answer !== 'string' || !ANSWERS.includes(facts.answer)) return `\`answer\` of a permission/answer must be one of ${ANSWERS.join(', ')}`;
  if (facts.message !== undefined && !boundedText(facts.message, MAX_PERMISSION_TEXT)) return `\`message\` of a permission/answer must be a string of at most ${MAX_PERMISSION_TEXT} characters`;
  return undefined;
}

export function permissionAskRecord(session: string, ts: string, facts: PermissionAskFacts): PermissionAskRecord {
  const record: PermissionAskRecord = { v: 1, type: PERMISSION_ASK_EVENT, ts, session, id: facts.id, agent: facts.agent, tool: facts.tool, input: facts.input, until: facts.until };
  if (facts.description !== undefined && facts.description !== '') record.description = facts.description;
  return record;
}

export function permissionAnswerRecord(session: string, ts: string, facts: PermissionAnswerFacts): PermissionAnswerRecord {
  const record: PermissionAnswerRecord = { v: 1, type: PERMISSION_ANSWER_EVENT, ts, session, id: facts.id, answer: facts.answer };
  if (facts.message !== undefined && facts.message !== '') record.message = facts.message;
  return record;
}

/** A parsed permission line (v, type, ts and session already checked), or what is wrong with it. */
export function parsePermission(value: Record<string, unknown>, session: string, ts: string): PermissionAskRecord | PermissionAnswerRecord | string {
  if (value['type'] === PERMISSION_ASK_EVENT) {
    const facts = { id: value['id'], agent: value['agent'], tool: value['tool'], input: value['input'], description: value['description'], until: value['until'] } as PermissionAskFacts;
    return permissionAskProblem(facts) ?? permissionAskRecord(session, ts, facts);
  }
  const facts = { id: value['id'], answer: value['answer'], message: value['message'] } as PermissionAnswerFacts;
  return permissionAnswerProblem(facts) ?? permissionAnswerRecord(session, ts, facts);
}

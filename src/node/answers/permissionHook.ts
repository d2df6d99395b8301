// What an agent's permission hook hands over and takes back: the request read from the JSON an
// agent writes on the hook's stdin, and the answer it reads on the hook's stdout. Each agent
// that can be answered has one (src/agents/<agent>/answers.ts), measured with the real program
// (notes: agent-hooks.md, docs/answers.md). Pure: no I/O.
import type { AgentId } from '../../core/foreign';

/** A waiting tool call as the agent's hook states it. */
export interface HookRequest {
  /** The agent's own session id. */
  readonly session: string;
  /** The folder the agent runs in. */
  readonly cwd: string;
  /** The tool, as the agent names it (`Bash`). */
  readonly tool: string;
  /** What the call would do, as text: a command line, or the input's JSON (bounded; shown escaped). */
  readonly input: string;
  /** Why the model wants it, when the agent passes it on (bounded). */
  readonly description?: string;
}

export type Decision = 'allow' | 'deny';

export interface PermissionHook {
  readonly agent: AgentId;
  /** Whether this agent takes an Allow from the hook (Gemini CLI's dialog shows anyway: Deny only). */
  readonly canAllow: boolean;
  readonly canDeny: boolean;
  /**
   * Whether the agent shows its own prompt while the hook runs (Claude Code: whoever answers
   * first wins). One that hides it until the hook returns (Codex) is answered from a window only
   * while the user is at that window, so a user at the terminal never waits on Agent Plan.
   */
  readonly promptWhileAsking: boolean;
  /** The request in the hook's stdin, or what is wrong with it. */
  request(value: unknown): HookRequest | string;
  /** What the hook prints for the decision; a Deny's message reaches the model. */
  answer(decision: Decision, message?: string): string;
}

/** Longest input text kept of a request. */
export const MAX_INPUT_TEXT = 4000;
/** Longest description kept. */
export const MAX_DESCRIPTION = 500;
/** Longest Deny message handed to an agent. */
export const MAX_DENY_MESSAGE = 2000;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * The `PermissionRequest` event Claude Code and Codex share: `session_id`, `cwd`, `tool_name`,
 * `tool_input` (a shell call's `command` and `description`); answered with
 * `hookSpecificOutput.decision.behavior` allow or deny (with `message`).
 */
export function permissionRequestHook(agent: AgentId, promptWhileAsking: boolean): PermissionHook {
  return {
    agent,
    promptWhileAsking,
    canAllow: true,
    canDeny: true,
    request(value) {
      if (!isObject(value)) return 'not a JSON object';
      if (value['hook_event_name'] !== 'PermissionRequest') return `hook_event_name ${JSON.stringify(value['hook_event_name'])} is not PermissionRequest`;
      const { session_id: session, cwd, tool_name: tool, tool_input: input } = value;
      if (typeof session !== 'string' || session === '' || session.length > 200) return '`session_id` must be a string of 1 to 200 characters';
      if (typeof cwd !== 'string' || cwd === '' || cwd.length > 4096) return '`cwd` must be a path';
      if (typeof tool !== 'string' || tool === '' || tool.length > 200) return '`tool_name` must be a string of 1 to 200 characters';
      if (!isObject(input)) return '`tool_input` must be an object';
      const command = input['command'];
      const text = typeof command === 'string' ? command : JSON.stringify(input);
      const description = input['description'];
      return {
        session,
        cwd,
        tool,
        input: cut(text, MAX_INPUT_TEXT),
        ...(typeof description === 'string' && description !== '' ? { description: cut(description, MAX_DESCRIPTION) } : {}),
      };
    },
    answer(decision, message) {
      const behavior = decision === 'allow' ? { behavior: 'allow' } : { behavior: 'deny', message: cut(message?.trim() || 'Denied in Agent Plan.', MAX_DENY_MESSAGE) };
      return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: behavior } });
    },
  };
}

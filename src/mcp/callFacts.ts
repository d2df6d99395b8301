// What a call tells about who made it: the client's name and version, the agent's own
// session id and the call's own id, each bounded (they are data from another program).
// Where each one comes from was measured with the real CLIs (docs/mcp.md). Pure.
import { isRecord } from '../core/json';

export const MAX_CLIENT_NAME = 200;
export const MAX_CLIENT_VERSION = 100;
/** Longest session or call id kept; a longer one is not an id any agent sends, so it is not used. */
export const MAX_ID = 200;

/**
 * The environment variable an agent sets for its session, read only when that agent is the
 * client: a variable inherited from a parent agent (a CLI started from a Claude Code
 * terminal, say) must not name the child's session.
 */
const SESSION_ENV: ReadonlyArray<{ client: RegExp; variable: string }> = [
  { client: /^claude-code\b/, variable: 'CLAUDE_CODE_SESSION_ID' },
  { client: /^copilot-cli\b/, variable: 'COPILOT_AGENT_SESSION_ID' },
  { client: /^qwen-cli-mcp-client\b/, variable: 'QWEN_CODE_SESSION_ID' },
];

/** At most `max` code points of a string, or '' for anything else. */
export function boundedText(value: unknown, max: number): string {
  if (typeof value !== 'string') return '';
  if (value.length <= max) return value;
  return Array.from(value.slice(0, max * 2)).slice(0, max).join('');
}

function id(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' && value.length <= MAX_ID ? value : undefined;
}

/** The session id an agent's environment holds, when that agent is the client. */
export function envSession(clientName: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const entry = SESSION_ENV.find((e) => e.client.test(clientName));
  return entry === undefined ? undefined : id(env[entry.variable]);
}

/** The session id a request's `_meta` carries (Codex: `sessionId`, and `session_id` in its turn metadata). */
export function metaSession(meta: unknown): string | undefined {
  if (!isRecord(meta)) return undefined;
  const direct = id(meta['sessionId']);
  if (direct !== undefined) return direct;
  let turn = meta['x-codex-turn-metadata'];
  if (typeof turn === 'string' && turn.length <= 64 * 1024) {
    try {
      turn = JSON.parse(turn) as unknown;
    } catch {
      return undefined;
    }
  }
  return isRecord(turn) ? id(turn['session_id']) : undefined;
}

/** The call's own id (Claude Code: `claudecode/toolUseId`; Codex: `callId`), else undefined. */
export function metaCallId(meta: unknown): string | undefined {
  if (!isRecord(meta)) return undefined;
  return id(meta['claudecode/toolUseId']) ?? id(meta['callId']);
}

// Derives the owning session's log key from the opaque chat tool invocation token.
// What the token carries is not API: recent VS Code passes `{ sessionResource: Uri }`
// (a Uri, or its plain revived components), older builds `{ sessionId: string }`. We read
// it defensively and hash it, so the key is a safe file name whatever the token holds.
import { createHash } from 'node:crypto';

/** A session key: 32 lowercase hex characters. */
export const SESSION_KEY_PATTERN = /^[0-9a-f]{32}$/;

export function isSessionKey(value: unknown): value is string {
  return typeof value === 'string' && SESSION_KEY_PATTERN.test(value);
}

/** The session a command's argument names: a key, or a row of a view that carries one (`event.session`, `session`). */
export function sessionNamedBy(arg: unknown): string | undefined {
  if (isSessionKey(arg)) return arg;
  if (typeof arg !== 'object' || arg === null) return undefined;
  const event = (arg as { event?: { session?: unknown } }).event;
  if (isSessionKey(event?.session)) return event.session;
  const session = (arg as { session?: unknown }).session;
  return isSessionKey(session) ? session : undefined;
}

/** The session key for a tool invocation token, or undefined when it names no session. Never throws. */
export function sessionKeyFromToken(token: unknown): string | undefined {
  try {
    const identity = sessionIdentity(token);
    return identity === undefined ? undefined : hashIdentity(identity);
  } catch {
    return undefined;
  }
}

/** The hash behind every key; exported so other programs (and tests) can derive a key. */
export function hashIdentity(identity: string): string {
  return createHash('sha256').update(identity, 'utf8').digest('hex').slice(0, 32);
}

function sessionIdentity(token: unknown): string | undefined {
  if (typeof token !== 'object' || token === null) return undefined;
  const record = token as Record<string, unknown>;
  const resource = uriString(record['sessionResource']);
  if (resource !== undefined) return `resource:${resource}`;
  const id = record['sessionId'];
  if (typeof id === 'string' && id !== '') return `id:${id}`;
  return undefined;
}

function uriString(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value !== 'object' || value === null) return undefined;
  const uri = value as Record<string, unknown>;
  // A Uri instance and its revived plain components must give the same key, so the
  // fields win over toString(); toString() only serves objects without them.
  const scheme = uri['scheme'];
  if (typeof scheme === 'string' && scheme !== '') {
    const part = (name: string): string => {
      const v = uri[name];
      return typeof v === 'string' ? v : '';
    };
    return `${scheme}://${part('authority')}${part('path')}?${part('query')}#${part('fragment')}`;
  }
  // Called with its own object, defensively: a Uri-like may define toString anywhere.
  const toString: unknown = Reflect.get(uri, 'toString');
  if (typeof toString === 'function') {
    const text: unknown = (toString as (this: unknown) => unknown).call(value);
    if (typeof text === 'string' && text !== '' && !text.startsWith('[object ')) return text;
  }
  return undefined;
}

/** The scheme and authority of a local Copilot chat's session resource in VS Code. */
export const COPILOT_SESSION_SCHEME = 'vscode-chat-session';
const COPILOT_SESSION_AUTHORITY = 'local';

/**
 * The key of a Copilot chat from its uuid (the name of its chatSessions/<uuid>.jsonl file):
 * exactly the key todo_write derives from that chat's token, `{ sessionResource: Uri }` with
 * `vscode-chat-session://local/<base64 of the uuid>`, so one chat is one session whichever
 * tool the model used.
 */
export function copilotSessionKey(uuid: string): string {
  const { scheme, authority, path } = copilotChatResource(uuid);
  return hashIdentity(`resource:${scheme}://${authority}${path}?#`);
}

/** The session resource VS Code names a local Copilot chat by; opening it shows the chat. */
export function copilotChatResource(uuid: string): { scheme: string; authority: string; path: string } {
  return { scheme: COPILOT_SESSION_SCHEME, authority: COPILOT_SESSION_AUTHORITY, path: '/' + Buffer.from(uuid, 'utf8').toString('base64') };
}

/** The key of a terminal agent's session (Claude Code, Codex, Gemini CLI): one run, one session. */
export function foreignSessionKey(agent: string, sessionId: string): string {
  return hashIdentity(`${agent}:${sessionId}`);
}

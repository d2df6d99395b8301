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

// How Codex 0.171 recognizes a hook the user trusts: `[hooks.state."<key>"] trusted_hash` in its
// config.toml, the key `<file that holds the hook>:<snake_case event>:<group>:<hook>` and the hash
// `sha256:` + hex of the canonical JSON (keys sorted, compact) of the hook's identity: its event,
// its matcher and the one handler as Codex normalizes it (timeout defaulting to 600, `async`
// false). Measured against Codex's own app-server (`hooks/list`'s `currentHash`, 23 hooks) and
// `codex exec` running a hook trusted this way: docs/connect.md. Pure.
import { createHash } from 'node:crypto';

/** A value with its objects' keys sorted, recursively (Codex's canonical JSON). */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'object' && value !== null) {
    const object = value as Record<string, unknown>;
    return Object.fromEntries(Object.keys(object).sort().map((key) => [key, canonical(object[key])]));
  }
  return value;
}

/** The hash Codex keeps for a trusted `command` hook of `event` (snake_case, e.g. `permission_request`). */
export function codexHookHash(event: string, matcher: string | undefined, hook: { command: string; timeout?: number }): string {
  const handler = { type: 'command', command: hook.command, timeout: Math.max(1, hook.timeout ?? 600), async: false };
  const identity: Record<string, unknown> = { event_name: event, hooks: [handler] };
  if (matcher !== undefined && event !== 'user_prompt_submit' && event !== 'stop') identity['matcher'] = matcher;
  return `sha256:${createHash('sha256').update(JSON.stringify(canonical(identity)), 'utf8').digest('hex')}`;
}

/** The key of a hook's trust: the file that holds it, the event, the group's and the hook's places. */
export function codexHookKey(file: string, event: string, group: number, hook: number): string {
  return `${file}:${event}:${group}:${hook}`;
}

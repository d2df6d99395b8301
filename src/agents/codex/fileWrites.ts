// The files Codex wrote, read from its record of an apply_patch call. Pure; a value of any
// other shape names no file.
import { isObject, patchFiles, text, withCall, type FileWrite, type Json } from '../fileWrites';

/** The files one line of a Codex rollout says were written. */
export function codexFilesWritten(line: unknown): FileWrite[] {
  return isObject(line) ? codexWrites(line) : [];
}

/** A `function_call` or `custom_tool_call` of apply_patch: the patch's file headers. */
function codexWrites(line: Json): FileWrite[] {
  const payload = line['payload'];
  if (line['type'] !== 'response_item' || !isObject(payload) || payload['name'] !== 'apply_patch') return [];
  let patch: string | undefined;
  if (payload['type'] === 'custom_tool_call') patch = text(payload['input']);
  else if (payload['type'] === 'function_call') {
    try {
      const args = JSON.parse(String(payload['arguments'])) as unknown;
      patch = isObject(args) ? (text(args['input']) ?? text(args['patch'])) : undefined;
    } catch {
      patch = undefined;
    }
  }
  if (patch === undefined) return [];
  return patchFiles(patch).map((path) => withCall(path, payload['call_id'] ?? payload['id']));
}

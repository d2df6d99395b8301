// The files Codex wrote, read from its record of an apply_patch call. Pure; a value of any
// other shape names no file.
import { isRecord, type JsonRecord } from '../../core/json';
import { patchFiles, text, withCall, type FileWrite } from '../fileWrites';

/** The files one line of a Codex rollout says were written. */
export function codexFilesWritten(line: unknown): FileWrite[] {
  return isRecord(line) ? codexWrites(line) : [];
}

/** A `function_call` or `custom_tool_call` of apply_patch: the patch's file headers. */
function codexWrites(line: JsonRecord): FileWrite[] {
  const payload = line['payload'];
  if (line['type'] !== 'response_item' || !isRecord(payload) || payload['name'] !== 'apply_patch') return [];
  let patch: string | undefined;
  if (payload['type'] === 'custom_tool_call') patch = text(payload['input']);
  else if (payload['type'] === 'function_call') {
    try {
      const args = JSON.parse(String(payload['arguments'])) as unknown;
      patch = isRecord(args) ? (text(args['input']) ?? text(args['patch'])) : undefined;
    } catch {
      patch = undefined;
    }
  }
  if (patch === undefined) return [];
  return patchFiles(patch).map((path) => withCall(path, payload['call_id'] ?? payload['id']));
}

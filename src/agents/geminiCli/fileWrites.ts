// The files Gemini CLI wrote, read from its record of its write_file/replace calls. Pure; a
// value of any other shape names no file.
import { isRecord, type JsonRecord } from '../../core/json';
import { text, withCall, type FileWrite } from '../fileWrites';

/** The files one Gemini CLI message says were written. */
export function geminiFilesWritten(line: unknown): FileWrite[] {
  return isRecord(line) ? geminiWrites(line) : [];
}

/** A Gemini CLI message's successful write_file/replace calls. */
function geminiWrites(line: JsonRecord): FileWrite[] {
  const calls = line['toolCalls'];
  if (!Array.isArray(calls)) return [];
  const out: FileWrite[] = [];
  for (const call of calls as unknown[]) {
    if (!isRecord(call) || (call['name'] !== 'write_file' && call['name'] !== 'replace')) continue;
    if (call['status'] !== undefined && call['status'] !== 'success') continue;
    const args = call['args'];
    const path = isRecord(args) ? text(args['file_path']) : undefined;
    if (path !== undefined) out.push(withCall(path, call['id']));
  }
  return out;
}

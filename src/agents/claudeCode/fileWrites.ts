// The files Claude Code wrote, read from its record of a tool call (Edit, Write, MultiEdit,
// NotebookEdit). Pure; a value of any other shape names no file.
import { isRecord, type JsonRecord } from '../../core/json';
import { text, withCall, type FileWrite } from '../fileWrites';

/** The files one line of a Claude Code transcript says were written. */
export function claudeFilesWritten(line: unknown): FileWrite[] {
  return isRecord(line) ? claudeWrites(line) : [];
}

const CLAUDE_TOOLS: Record<string, string> = { Edit: 'file_path', Write: 'file_path', MultiEdit: 'file_path', NotebookEdit: 'notebook_path' };

/** An assistant message's `tool_use` blocks. */
function claudeWrites(line: JsonRecord): FileWrite[] {
  const message = line['message'];
  if (line['type'] !== 'assistant' || !isRecord(message) || !Array.isArray(message['content'])) return [];
  const out: FileWrite[] = [];
  for (const block of message['content'] as unknown[]) {
    if (!isRecord(block) || block['type'] !== 'tool_use' || typeof block['name'] !== 'string') continue;
    const field = CLAUDE_TOOLS[block['name']];
    const input = block['input'];
    const path = field !== undefined && isRecord(input) ? text(input[field]) : undefined;
    if (path !== undefined) out.push(withCall(path, block['id']));
  }
  return out;
}

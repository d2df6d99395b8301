// The files an agent wrote, read from its own record of a tool call: Claude Code's
// Edit/Write/MultiEdit/NotebookEdit, Codex's apply_patch, Gemini CLI's write_file/replace,
// and the edits VS Code records in a Copilot chat's response. Pure: one parsed JSON value
// in, the paths it names out (as the agent wrote them: absolute, or relative to its
// workspace). A value of any other shape names no file; nothing here throws.
import { pathProblem } from '../core/logRecord';
import type { AgentId } from '../core/foreign';

export interface FileWrite {
  /** The path as the agent's record names it. */
  path: string;
  /** The tool call's id in the agent's record, when it has one. */
  call?: string;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/** The files one line of an agent's record says were written. */
export function filesWritten(agent: AgentId, line: unknown): FileWrite[] {
  if (!isObject(line)) return [];
  switch (agent) {
    case 'claude-code':
      return claudeWrites(line);
    case 'codex':
      return codexWrites(line);
    case 'gemini-cli':
      return geminiWrites(line);
    case 'copilot':
      return copilotWrites(line);
    default:
      // An agent whose tool records are not read for files yet.
      return [];
  }
}

const CLAUDE_TOOLS: Record<string, string> = { Edit: 'file_path', Write: 'file_path', MultiEdit: 'file_path', NotebookEdit: 'notebook_path' };

/** An assistant message's `tool_use` blocks. */
function claudeWrites(line: Json): FileWrite[] {
  const message = line['message'];
  if (line['type'] !== 'assistant' || !isObject(message) || !Array.isArray(message['content'])) return [];
  const out: FileWrite[] = [];
  for (const block of message['content'] as unknown[]) {
    if (!isObject(block) || block['type'] !== 'tool_use' || typeof block['name'] !== 'string') continue;
    const field = CLAUDE_TOOLS[block['name']];
    const input = block['input'];
    const path = field !== undefined && isObject(input) ? text(input[field]) : undefined;
    if (path !== undefined) out.push(withCall(path, block['id']));
  }
  return out;
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

/** The files an apply_patch text adds, updates, deletes or moves to, in order, once each. */
export function patchFiles(patch: string): string[] {
  const files: string[] = [];
  for (const match of patch.matchAll(/^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/gm)) {
    const path = match[1]!.trim();
    if (path !== '' && !files.includes(path)) files.push(path);
  }
  return files;
}

/** A Gemini CLI message's successful write_file/replace calls. */
function geminiWrites(line: Json): FileWrite[] {
  const calls = line['toolCalls'];
  if (!Array.isArray(calls)) return [];
  const out: FileWrite[] = [];
  for (const call of calls as unknown[]) {
    if (!isObject(call) || (call['name'] !== 'write_file' && call['name'] !== 'replace')) continue;
    if (call['status'] !== undefined && call['status'] !== 'success') continue;
    const args = call['args'];
    const path = isObject(args) ? text(args['file_path']) : undefined;
    if (path !== undefined) out.push(withCall(path, call['id']));
  }
  return out;
}

/**
 * VS Code's `textEditGroup`/`notebookEditGroup` response parts: the edits a Copilot edit tool
 * made, with the file's URI. Measured in VS Code 1.139.1 with Copilot Chat 0.67.0: each edit
 * tool call (create_file, replace_string_in_file, …) is followed by one group per file it
 * edited, `{kind: "textEditGroup", uri: {$mid, fsPath, external, path, scheme, authority?}, edits,
 * done}` (scheme `file`, or `vscode-remote` in a remote window); a second call on the same file
 * gets a group of its own.
 */
function copilotWrites(line: Json): FileWrite[] {
  const out: FileWrite[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (depth > 8) return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    if (!isObject(value)) return;
    const path = copilotEditFile(value);
    if (path !== undefined) {
      if (!out.some((write) => write.path === path)) out.push({ path });
      return;
    }
    for (const child of Object.values(value)) if (typeof child === 'object') visit(child, depth + 1);
  };
  visit(line, 0);
  return out;
}

/** URI schemes of files on disk: `file`, and `vscode-remote` where the window is remote (code-server, SSH, WSL). */
const DISK_SCHEMES: ReadonlySet<string> = new Set(['file', 'vscode-remote']);

/**
 * The file a chat response part says was edited: a `textEditGroup` or `notebookEditGroup`
 * with the URI of a file on disk (its `fsPath`, else its `path`); undefined for any other
 * part, for an edit of an untitled or virtual document, and for a path the log cannot hold.
 */
export function copilotEditFile(part: unknown): string | undefined {
  if (!isObject(part) || (part['kind'] !== 'textEditGroup' && part['kind'] !== 'notebookEditGroup')) return undefined;
  const uri = part['uri'];
  if (!isObject(uri) || (uri['scheme'] !== undefined && !DISK_SCHEMES.has(uri['scheme'] as string))) return undefined;
  const path = text(uri['fsPath']) ?? text(uri['path']);
  return path !== undefined && pathProblem(path) === undefined ? path : undefined;
}

function withCall(path: string, call: unknown): FileWrite {
  return typeof call === 'string' && call !== '' ? { path, call } : { path };
}

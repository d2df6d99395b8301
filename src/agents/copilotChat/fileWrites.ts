// The files a Copilot chat's edits wrote, read from the edit groups VS Code records in the
// chat's response. Pure; a value of any other shape names no file.
import { pathProblem } from '../../core/log/logRecord';
import { isRecord, type JsonRecord } from '../../core/json';
import { text, type FileWrite } from '../fileWrites';

/** The files one line of a Copilot chat file says were written. */
export function copilotFilesWritten(line: unknown): FileWrite[] {
  return isRecord(line) ? copilotWrites(line) : [];
}

/**
 * VS Code's `textEditGroup`/`notebookEditGroup` response parts: the edits a Copilot edit tool
 * made, with the file's URI. Measured in VS Code 1.139.1 with Copilot Chat 0.67.0: each edit
 * tool call (create_file, replace_string_in_file, …) is followed by one group per file it
 * edited, `{kind: "textEditGroup", uri: {$mid, fsPath, external, path, scheme, authority?}, edits,
 * done}` (scheme `file`, or `vscode-remote` in a remote window); a second call on the same file
 * gets a group of its own.
 */
function copilotWrites(line: JsonRecord): FileWrite[] {
  const out: FileWrite[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (depth > 8) return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    if (!isRecord(value)) return;
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
  if (!isRecord(part) || (part['kind'] !== 'textEditGroup' && part['kind'] !== 'notebookEditGroup')) return undefined;
  const uri = part['uri'];
  if (!isRecord(uri) || (uri['scheme'] !== undefined && !DISK_SCHEMES.has(uri['scheme'] as string))) return undefined;
  const path = text(uri['fsPath']) ?? text(uri['path']);
  return path !== undefined && pathProblem(path) === undefined ? path : undefined;
}

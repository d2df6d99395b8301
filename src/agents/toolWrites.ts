// The files the edit and write tools of opencode, Kilo CLI, Qwen Code and Copilot CLI name,
// read from a tool call's name and arguments as the agent recorded them, and the calls kept
// until their outcome is known (a file counts once the call succeeded). Pure.
//
// Tools, as the real programs offer them (opencode 1.18.33, Kilo CLI 7.7.7, Qwen Code 0.24.4,
// Copilot CLI 1.0.102): opencode and Kilo `write` and `edit` (`filePath`), `multiedit`
// (`filePath`), `apply_patch`/`patch` (`patchText`, the apply_patch text); Qwen Code
// `write_file` and `edit` (`file_path`; `replace` in older releases); Copilot CLI `create` and
// `edit` (`path`), `apply_patch` (its text as the whole argument or `input`).
import { pathProblem } from '../core/log/logRecord';
import { isRecord, type JsonRecord } from '../core/json';
import { patchFiles, text } from './fileWrites';


/** An agent's write tools, as its folder declares them: the argument that names a tool's file, or where its apply_patch text is. */
export interface WriteTools {
  paths: Readonly<Record<string, string>>;
  patches: Readonly<Record<string, readonly string[]>>;
}

/**
 * The files a call of `tool` with `args` (an object, or a JSON string of one, or a patch
 * text) writes, in order, once each; [] for another tool, or arguments in another shape.
 * Paths the log cannot hold are left out.
 */
export function toolCallFiles(tools: WriteTools, tool: string, args: unknown): string[] {
  if (typeof args === 'string') {
    try {
      const parsed = JSON.parse(args) as unknown;
      if (isRecord(parsed)) args = parsed;
    } catch {
      // A patch text as the whole argument.
    }
  }
  const field = Object.hasOwn(tools.paths, tool) ? tools.paths[tool] : undefined;
  let files: string[] = [];
  if (field !== undefined) {
    const path = isRecord(args) ? text(args[field]) : undefined;
    if (path !== undefined) files = [path];
  } else {
    const fields = Object.hasOwn(tools.patches, tool) ? tools.patches[tool] : undefined;
    if (fields === undefined) return [];
    const patch = typeof args === 'string' ? args : isRecord(args) ? fields.map((name) => text(args[name])).find((found) => found !== undefined) : undefined;
    if (patch !== undefined) files = patchFiles(patch);
  }
  return files.filter((path) => pathProblem(path) === undefined);
}

/** A write call waiting for its outcome. */
export interface PendingWrite {
  files: string[];
  at?: string;
}

const MAX_PENDING = 1000;

/** Write calls waiting for their outcome, by call id; JSON-safe state for a parser to resume from. */
export class PendingWrites {
  private readonly calls = new Map<string, PendingWrite>();

  constructor(state: unknown) {
    if (!isRecord(state)) return;
    for (const [id, write] of Object.entries(state)) {
      if (!isRecord(write) || !Array.isArray(write['files'])) continue;
      const files = write['files'].filter((file): file is string => typeof file === 'string');
      if (files.length > 0) this.calls.set(id, typeof write['at'] === 'string' ? { files, at: write['at'] } : { files });
    }
  }

  /** Keeps a call's files until its outcome (the oldest is let go past a thousand waiting). */
  note(call: string, files: readonly string[], at: string | undefined): void {
    if (files.length === 0 || this.calls.has(call)) return;
    if (this.calls.size >= MAX_PENDING) this.calls.delete(this.calls.keys().next().value as string);
    this.calls.set(call, at !== undefined ? { files: [...files], at } : { files: [...files] });
  }

  /** The call's files, once; undefined for a call not waiting. */
  settle(call: string): PendingWrite | undefined {
    const write = this.calls.get(call);
    this.calls.delete(call);
    return write;
  }

  state(): JsonRecord {
    return Object.fromEntries(this.calls);
  }
}

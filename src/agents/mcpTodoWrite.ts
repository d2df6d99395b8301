// Agent Plan's own `todo_write`, served over MCP (`node dist/mcp.js`), as a terminal agent records
// a call of it in its own session file: the agent's parser reads it as a plan of that session, as
// it reads the agent's own plan tool. Each agent names an MCP server's tool its own way (measured
// with the real CLIs, docs/agents.md "Plans written over MCP"); any server name counts:
//
// - Claude Code: a `tool_use` named `mcp__<server>__todo_write`;
// - Qwen Code: the same name, inside its `tool_call` bridge (`args: {name, arguments}`);
// - Codex: a `function_call` with `namespace: "mcp__<server>"` and `name: "todo_write"`;
// - Gemini CLI: `mcp_<server>_todo_write`;
// - opencode, Kilo CLI: `<server>_todo_write`.
//
// A call is a plan only when its input holds to Agent Plan's contract (validate.ts: the three
// statuses, no other key): another server's `todo_write` of another shape is not one. Pure.
import { validateTodoInput } from '../core/plan/validate';
import type { MappedItems } from './lineParser';

/** The tool's name on the server. */
export const MCP_TODO_WRITE = 'todo_write';

/** The detail a call outside the contract is reported with (once per file: it does not vary). */
export const MCP_TODO_WRITE_UNKNOWN = 'an MCP todo_write call whose input is not a todo_write list';

/** Claude Code's and Qwen Code's name for an MCP server's todo_write: `mcp__<server>__todo_write`. */
export function isMcpDoubleUnderscoreTodoWrite(name: unknown): name is string {
  return typeof name === 'string' && /^mcp__.+__todo_write$/s.test(name);
}

/** Gemini CLI's name for an MCP server's todo_write: `mcp_<server>_todo_write`. */
export function isGeminiMcpTodoWrite(name: unknown): name is string {
  return typeof name === 'string' && /^mcp_.+_todo_write$/s.test(name);
}

/** opencode's and Kilo CLI's name for an MCP server's todo_write: `<server>_todo_write`. */
export function isOpencodeMcpTodoWrite(name: unknown): name is string {
  return typeof name === 'string' && /^.+_todo_write$/s.test(name);
}

/** Codex's MCP call: `namespace` `mcp__<server>`, `name` `todo_write`. */
export function isCodexMcpTodoWrite(namespace: unknown, name: unknown): boolean {
  return name === MCP_TODO_WRITE && typeof namespace === 'string' && /^mcp__.+$/s.test(namespace);
}

/** The items of a todo_write input in Agent Plan's contract (trimmed), or the one detail to report. */
export function mcpTodoItems(input: unknown): MappedItems {
  const result = validateTodoInput(input);
  if (!result.ok) return { ok: false, detail: MCP_TODO_WRITE_UNKNOWN };
  return { ok: true, items: result.todos.map((todo) => ({ content: todo.content, status: todo.status })) };
}

/** Whether `input` is a todo_write list in Agent Plan's contract. */
export function isMcpTodoInput(input: unknown): boolean {
  return validateTodoInput(input).ok;
}

// Claude Code's scenarios (gathered by scripts/agents/scenarios.mjs): its task tools
// (TaskCreate, TaskUpdate) and its TodoWrite, its Read, Write and Edit, its `Agent` tool, and a
// Bash call that waits for the user's leave. Plain ESM: no build.
import { answer, ANSWER_SETTLE_MS, askPrompt, editPlan, editPrompt, fixPrompt, healthScript, NEW_LINE, OLD_LINE, TOKENS, waitPrompt, WORKSPACE } from '../../../scripts/agents/steps.mjs';

/** What the approval scenarios wait to see on the screen before they answer or end: its permission prompt's question. */
const PROMPT = 'Do you want to proceed?';

const claudeRead = { calls: [{ name: 'Read', input: { file_path: `${WORKSPACE}/src/parser.ts` } }] };
const claudeReadOf = (i) => ({ name: 'Read', input: { file_path: `${WORKSPACE}/src/parser.ts`, offset: i + 1, limit: 5 } });
const claudeTodo = (items) => ({
  calls: [{ name: 'TodoWrite', input: { todos: items.map(([content, status]) => ({ content, status, activeForm: content })) } }],
});

const claudeTasks = [
  { calls: [{ name: 'ToolSearch', input: { query: 'select:TaskCreate,TaskUpdate' } }] },
  {
    calls: [
      { name: 'TaskCreate', input: { subject: 'Read the parser', description: 'Read src/parser.ts end to end', activeForm: 'Reading the parser' } },
      { name: 'TaskCreate', input: { subject: 'Fix the off-by-one', description: 'Fix the off-by-one in the tokenizer loop', activeForm: 'Fixing the off-by-one' } },
      { name: 'TaskCreate', input: { subject: 'Write a regression test', description: 'Add a test for the empty input', activeForm: 'Writing a regression test' } },
    ],
  },
  { calls: [{ name: 'TaskUpdate', input: { taskId: '1', status: 'in_progress' } }] },
  claudeRead,
  {
    calls: [
      { name: 'TaskUpdate', input: { taskId: '1', status: 'completed' } },
      { name: 'TaskUpdate', input: { taskId: '2', status: 'in_progress' } },
    ],
  },
  { calls: [{ name: 'TaskUpdate', input: { taskId: '3', status: 'deleted' } }] },
  { calls: [{ name: 'TaskUpdate', input: { taskId: '2', status: 'completed' } }] },
  { text: 'Fixed the off-by-one; the regression test was dropped as the existing suite covers it.' },
];

const claudeTodoWrite = [
  { calls: [{ name: 'ToolSearch', input: { query: 'select:TodoWrite' } }] },
  {
    calls: [
      {
        name: 'TodoWrite',
        input: {
          todos: [
            { content: 'Read the parser', status: 'in_progress', activeForm: 'Reading the parser' },
            { content: 'Fix the off-by-one', status: 'pending', activeForm: 'Fixing the off-by-one' },
            { content: 'Write a regression test', status: 'pending', activeForm: 'Writing a regression test' },
          ],
        },
      },
    ],
  },
  claudeRead,
  {
    calls: [
      {
        name: 'TodoWrite',
        input: {
          todos: [
            { content: 'Read the parser', status: 'completed', activeForm: 'Reading the parser' },
            { content: 'Fix the off-by-one', status: 'in_progress', activeForm: 'Fixing the off-by-one' },
            { content: 'Write a regression test', status: 'pending', activeForm: 'Writing a regression test' },
          ],
        },
      },
    ],
  },
  { text: 'Working on the off-by-one now.' },
];

// A subagent (its `Agent` tool): the main session keeps a plan of its own and hands the fix to
// a general-purpose subagent, which keeps its own TodoWrite plan. The scripted server tells the
// two conversations apart by the marker in the subagent's prompt.
const SUBAGENT_MARKER = 'SUBAGENT-TASK-7f3';
const claudeSubagent = {
  marker: SUBAGENT_MARKER,
  main: [
    { calls: [{ name: 'ToolSearch', input: { query: 'select:TodoWrite' } }] },
    claudeTodo([['Hand the fix to a subagent', 'in_progress'], ['Review the fix', 'pending']]),
    { calls: [{ name: 'Agent', input: { description: 'Fix the tokenizer', prompt: `${SUBAGENT_MARKER}: fix the off-by-one in src/parser.ts and keep a plan.`, subagent_type: 'general-purpose' } }] },
    { text: 'The subagent is fixing the tokenizer.' },
  ],
  subagent: [
    { calls: [{ name: 'ToolSearch', input: { query: 'select:TodoWrite' } }] },
    claudeTodo([['Read the tokenizer', 'in_progress'], ['Fix the loop bound', 'pending']]),
    claudeRead,
    claudeTodo([['Read the tokenizer', 'completed'], ['Fix the loop bound', 'in_progress']]),
    { text: 'Working on the loop bound.' },
  ],
};

// Edits: Write (a new file) then Edit (after a Read, which Edit needs), with one Edit that fails
// first (its text is not in the file): no file was written by it. (Claude adds
// `replace_all: false` to an Edit's input; the script says it too, so the recorded calls match.)
const claudeEdits = [
  { calls: [{ name: 'ToolSearch', input: { query: 'select:TodoWrite' } }] },
  claudeTodo(editPlan('in_progress', 'pending')),
  { calls: [{ name: 'Write', input: { file_path: `${WORKSPACE}/src/tokens.ts`, content: TOKENS } }] },
  claudeTodo(editPlan('completed', 'in_progress')),
  claudeRead,
  { calls: [{ name: 'Edit', input: { file_path: `${WORKSPACE}/src/parser.ts`, old_string: 'no such text', new_string: 'nothing', replace_all: false } }] },
  { calls: [{ name: 'Edit', input: { file_path: `${WORKSPACE}/src/parser.ts`, old_string: OLD_LINE, new_string: NEW_LINE, replace_all: false } }] },
  claudeTodo(editPlan('completed', 'completed')),
  { text: 'The parser uses the separator constant now.' },
];

// Waiting on a tool call: a Bash command that needs the user's leave (`--permission-mode default`).
const claudeBash = { calls: [{ name: 'Bash', input: { command: 'touch approved.txt', description: 'Create approved.txt' } }] };
const claudeWait = [claudeTodoWrite[0], claudeTodoWrite[1], claudeBash, { text: 'Created approved.txt.' }];

// Plans written through Agent Plan's MCP server (`agentplan`, scripts/agents/mcp.mjs), with its
// default model (no `--model`: no TodoWrite or Task tool is offered). The MCP tool is deferred:
// ToolSearch loads it first. `mcp` is pre-approved (`permissions.allow`) and writes a file between
// its two plans; `mcp-refused` has no rule, so Claude Code refuses the call.
const MCP_TOOL = 'mcp__agentplan__todo_write';
const claudeMcpPlan = (items) => ({ calls: [{ name: MCP_TOOL, input: { todos: items.map(([content, status]) => ({ content, status })) } }] });
const claudeMcpSearch = { calls: [{ name: 'ToolSearch', input: { query: `select:${MCP_TOOL}` } }] };
const claudeMcp = [
  claudeMcpSearch,
  claudeMcpPlan(editPlan('in_progress', 'pending')),
  { calls: [{ name: 'Write', input: { file_path: `${WORKSPACE}/src/tokens.ts`, content: TOKENS } }] },
  claudeMcpPlan(editPlan('completed', 'in_progress')),
  { text: 'The separator constant is in; using it in the parser next.' },
];
const claudeMcpRefused = [claudeMcpSearch, claudeMcpPlan(editPlan('in_progress', 'pending')), { text: 'The plan tool was refused.' }];

/** Its scenarios, in order; each runs as the agent `claude-code` under the id `claude-code/<name>`. */
export const scenarios = [
  { name: 'tasks', prompt: fixPrompt, env: {}, script: claudeTasks },
  { name: 'todowrite', prompt: fixPrompt, env: { CLAUDE_CODE_ENABLE_TASKS: 'false' }, script: claudeTodoWrite },
  { name: 'no-plan', prompt: askPrompt, env: {}, script: [claudeRead, answer] },
  ...['done', 'drop-reopen', 'stall'].map((name) => ({ name: `health-${name}`, prompt: fixPrompt, env: { CLAUDE_CODE_ENABLE_TASKS: 'false' }, script: [claudeTodoWrite[0], ...healthScript(name, claudeTodo, claudeRead, claudeReadOf)] })),
  { name: 'subagent', prompt: 'Hand the parser fix to a subagent.', env: { CLAUDE_CODE_ENABLE_TASKS: 'false' }, script: claudeSubagent },
  // Edits need its leave to write: it accepts edits.
  { name: 'edits', prompt: editPrompt, env: { CLAUDE_CODE_ENABLE_TASKS: 'false' }, args: ['--permission-mode', 'acceptEdits'], script: claudeEdits },
  { name: 'approval-left', prompt: waitPrompt, env: { CLAUDE_CODE_ENABLE_TASKS: 'false' }, args: ['--permission-mode', 'default'], script: claudeWait, tty: { keys: [{ afterRequests: 3, screen: PROMPT }], endMs: 0 } },
  { name: 'approval-given', prompt: waitPrompt, env: { CLAUDE_CODE_ENABLE_TASKS: 'false' }, args: ['--permission-mode', 'default'], script: claudeWait, tty: { keys: [{ afterRequests: 3, screen: PROMPT, text: '\r' }], untilAnswered: true, endMs: ANSWER_SETTLE_MS } },
  { name: 'mcp', prompt: editPrompt, env: {}, defaultModel: true, mcp: { approve: true }, args: ['--permission-mode', 'acceptEdits'], script: claudeMcp },
  { name: 'mcp-refused', prompt: editPrompt, env: {}, defaultModel: true, mcp: { approve: false }, script: claudeMcpRefused },
];

// The scenarios the runner plays: for each, which agent runs, the prompt, extra
// environment, and the script the scripted model server follows (tool calls, then text).
// Besides the plan tools, each script calls one ordinary read-only tool, as real
// sessions do.

import { recipeOf } from './recipes.mjs';

/** Stands in a script for the workspace's absolute path; see resolveScript. */
export const WORKSPACE = '{{workspace}}';

/** The script with every WORKSPACE in its strings replaced by `workspace`. */
export function resolveScript(script, workspace) {
  const walk = (value) =>
    typeof value === 'string' ? value.split(WORKSPACE).join(workspace)
      : Array.isArray(value) ? value.map(walk)
        : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]))
          : value;
  return walk(script);
}

const claudeRead = { calls: [{ name: 'Read', input: { file_path: `${WORKSPACE}/src/parser.ts` } }] };
const codexRead = { calls: [{ name: 'exec_command', input: { cmd: 'cat src/parser.ts' } }] };
const geminiRead = { calls: [{ name: 'read_file', input: { file_path: 'src/parser.ts' } }] };

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

const codexPlan = [
  {
    calls: [
      {
        name: 'update_plan',
        input: {
          plan: [
            { step: 'Read the parser', status: 'in_progress' },
            { step: 'Fix the off-by-one', status: 'pending' },
            { step: 'Write a regression test', status: 'pending' },
          ],
        },
      },
    ],
  },
  codexRead,
  {
    calls: [
      {
        name: 'update_plan',
        input: {
          explanation: 'The parser is read; fixing the loop next.',
          plan: [
            { step: 'Read the parser', status: 'completed' },
            { step: 'Fix the off-by-one', status: 'in_progress' },
            { step: 'Write a regression test', status: 'pending' },
          ],
        },
      },
    ],
  },
  { text: 'Working on the off-by-one now.' },
];

const geminiTodos = [
  {
    calls: [
      {
        name: 'write_todos',
        input: {
          todos: [
            { description: 'Read the parser', status: 'in_progress' },
            { description: 'Fix the off-by-one', status: 'pending' },
            { description: 'Write a regression test', status: 'pending' },
            { description: 'Update the changelog', status: 'pending' },
          ],
        },
      },
    ],
  },
  geminiRead,
  {
    calls: [
      {
        name: 'write_todos',
        input: {
          todos: [
            { description: 'Read the parser', status: 'completed' },
            { description: 'Fix the off-by-one', status: 'in_progress' },
            { description: 'Write a regression test', status: 'blocked' },
            { description: 'Update the changelog', status: 'cancelled' },
          ],
        },
      },
    ],
  },
  { text: 'Working on the off-by-one; the test waits on a fixture, the changelog is not needed.' },
];


// Plan health scenarios: a plan worked through to the end (no warning at any point), a
// plan that drops an item and reopens one, and work that goes on for 27 tool calls without
// a plan update. The same for Claude Code (TodoWrite) and Codex (update_plan); the first
// two for Gemini CLI (write_todos).
const claudeTodo = (items) => ({
  calls: [{ name: 'TodoWrite', input: { todos: items.map(([content, status]) => ({ content, status, activeForm: content })) } }],
});
const codexPlanOf = (items) => ({ calls: [{ name: 'update_plan', input: { plan: items.map(([step, status]) => ({ step, status })) } }] });
const geminiTodosOf = (items) => ({ calls: [{ name: 'write_todos', input: { todos: items.map(([description, status]) => ({ description, status })) } }] });
const nineReads = (call) => ({ calls: Array.from({ length: 9 }, (_, i) => call(i)) });
const claudeReadOf = (i) => ({ name: 'Read', input: { file_path: `${WORKSPACE}/src/parser.ts`, offset: i + 1, limit: 5 } });
const codexReadOf = (i) => ({ name: 'exec_command', input: { cmd: `sed -n ${i + 1}p src/parser.ts` } });

/** The plan's versions in each health scenario, as [text, status] pairs. */
const HEALTH_PLANS = {
  done: [
    [['Read the parser', 'in_progress'], ['Fix the off-by-one', 'pending'], ['Run the tests', 'pending']],
    'read',
    [['Read the parser', 'completed'], ['Fix the off-by-one', 'in_progress'], ['Run the tests', 'pending']],
    [['Read the parser', 'completed'], ['Fix the off-by-one', 'completed'], ['Run the tests', 'in_progress']],
    [['Read the parser', 'completed'], ['Fix the off-by-one', 'completed'], ['Run the tests', 'completed']],
  ],
  'drop-reopen': [
    [['Read the parser', 'in_progress'], ['Fix the off-by-one', 'pending'], ['Write a regression test', 'pending']],
    'read',
    // "Write a regression test" leaves the list while pending: dropped.
    [['Read the parser', 'completed'], ['Fix the off-by-one', 'in_progress']],
    // "Read the parser" was completed and is in progress again: reopened.
    [['Read the parser', 'in_progress'], ['Fix the off-by-one', 'completed']],
    [['Read the parser', 'completed'], ['Fix the off-by-one', 'completed']],
  ],
  stall: [
    [['Read the parser', 'in_progress'], ['Fix the off-by-one', 'pending']],
    'reads',
    'reads',
    'reads',
    [['Read the parser', 'completed'], ['Fix the off-by-one', 'completed']],
  ],
};

function healthScript(name, plan, read, readOf) {
  return HEALTH_PLANS[name].flatMap((step) => (step === 'read' ? [read] : step === 'reads' ? [nineReads(readOf)] : [plan(step)])).concat([{ text: 'Done: the off-by-one is fixed.' }]);
}
// opencode and Kilo CLI: `todowrite`, whole list each call, with a priority per item and a
// fourth status, cancelled. Their read tool is `read` (absolute path).
const opencodeRead = { calls: [{ name: 'read', input: { filePath: `${WORKSPACE}/src/parser.ts` } }] };
const opencodeTodos = [
  {
    calls: [
      {
        name: 'todowrite',
        input: {
          todos: [
            { content: 'Read the parser', status: 'in_progress', priority: 'high' },
            { content: 'Fix the off-by-one', status: 'pending', priority: 'high' },
            { content: 'Write a regression test', status: 'pending', priority: 'medium' },
            { content: 'Update the changelog', status: 'pending', priority: 'low' },
          ],
        },
      },
    ],
  },
  opencodeRead,
  {
    calls: [
      {
        name: 'todowrite',
        input: {
          todos: [
            { content: 'Read the parser', status: 'completed', priority: 'high' },
            { content: 'Fix the off-by-one', status: 'in_progress', priority: 'high' },
            { content: 'Write a regression test', status: 'pending', priority: 'medium' },
            { content: 'Update the changelog', status: 'cancelled', priority: 'low' },
          ],
        },
      },
    ],
  },
  { text: 'Working on the off-by-one; the changelog is not needed.' },
];

// Qwen Code: `todo_write` with an id per item; three statuses. Its read tool is `read_file`.
const qwenRead = { calls: [{ name: 'read_file', input: { file_path: `${WORKSPACE}/src/parser.ts` } }] };
const qwenTodos = [
  {
    calls: [
      {
        name: 'todo_write',
        input: {
          todos: [
            { id: '1', content: 'Read the parser', status: 'in_progress' },
            { id: '2', content: 'Fix the off-by-one', status: 'pending' },
            { id: '3', content: 'Write a regression test', status: 'pending' },
          ],
        },
      },
    ],
  },
  qwenRead,
  {
    calls: [
      {
        name: 'todo_write',
        input: {
          todos: [
            { id: '1', content: 'Read the parser', status: 'completed' },
            { id: '2', content: 'Fix the off-by-one', status: 'in_progress' },
            { id: '3', content: 'Write a regression test', status: 'pending' },
          ],
        },
      },
    ],
  },
  { text: 'Working on the off-by-one now.' },
];

// Copilot CLI (1.0.102): its plan is the `todos` table of the session's own database,
// written through its `sql` tool (the pinned release offers no `update_todo` tool). Its read
// tool is `view` (absolute path). Statuses there: pending, in_progress, done, blocked.
const copilotView = { calls: [{ name: 'view', input: { path: `${WORKSPACE}/src/parser.ts` } }] };
const copilotSql = (description, query) => ({ calls: [{ name: 'sql', input: { description, query } }] });
const copilotTodos = [
  copilotSql(
    'Insert plan todos',
    "INSERT INTO todos (id, title, description) VALUES ('read-parser', 'Read the parser', 'Read src/parser.ts end to end'), ('fix-off-by-one', 'Fix the off-by-one', 'Fix the tokenizer loop'), ('regression-test', 'Write a regression test', 'Add a test for the empty input');",
  ),
  copilotSql('Start reading', "UPDATE todos SET status = 'in_progress' WHERE id = 'read-parser';"),
  copilotView,
  copilotSql('Query ready todos', "SELECT id, title, status FROM todos WHERE status != 'done';"),
  copilotSql(
    'Update todo statuses',
    "UPDATE todos SET status = CASE id WHEN 'read-parser' THEN 'done' WHEN 'fix-off-by-one' THEN 'in_progress' ELSE 'blocked' END;",
  ),
  { text: 'Working on the off-by-one; the regression test waits on a fixture.' },
];

// Claude Code with a subagent (its `Agent` tool): the main session keeps a plan of its own and
// hands the fix to a general-purpose subagent, which keeps its own TodoWrite plan. The
// scripted server tells the two conversations apart by the marker in the subagent's prompt.
const SUBAGENT_MARKER = 'SUBAGENT-TASK-7f3';
export const claudeSubagent = {
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

// Edits: a plan with item A in progress, A's file written with the agent's own edit tool,
// the plan moved on (A completed, B in progress), B's file edited, the plan completed. Each
// agent's edit tools: Claude Code Write (a new file) then Edit (after a Read, which Edit
// needs); Codex apply_patch (a freeform tool: its input is the patch text), adding a file
// then updating one; Gemini CLI write_file then replace. Claude's script also makes one Edit
// that fails (its text is not in the file): no file was written by it. (Claude adds
// `replace_all: false` to an Edit's input; the script says it too, so the recorded calls match.)
const EDIT_A = 'Add the separator constant';
const EDIT_B = 'Use it in the parser';
const editPlan = (a, b) => [[EDIT_A, a], [EDIT_B, b]];
const TOKENS = 'export const SEPARATOR = /\\s+/;\n';
const OLD_LINE = '  return input.split(/\\s+/).filter(Boolean);';
const NEW_LINE = '  return input.split(SEPARATOR).filter(Boolean);';
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
const patch = (body) => `*** Begin Patch\n${body}*** End Patch\n`;
const codexEdits = [
  codexPlanOf(editPlan('in_progress', 'pending')),
  { calls: [{ name: 'apply_patch', input: patch(`*** Add File: src/tokens.ts\n+${TOKENS}`) }] },
  codexPlanOf(editPlan('completed', 'in_progress')),
  { calls: [{ name: 'apply_patch', input: patch(`*** Update File: src/parser.ts\n@@\n-${OLD_LINE}\n+${NEW_LINE}\n`) }] },
  codexPlanOf(editPlan('completed', 'completed')),
  { text: 'The parser uses the separator constant now.' },
];
const geminiEdits = [
  geminiTodosOf(editPlan('in_progress', 'pending')),
  { calls: [{ name: 'write_file', input: { file_path: `${WORKSPACE}/src/tokens.ts`, content: TOKENS } }] },
  geminiTodosOf(editPlan('completed', 'in_progress')),
  { calls: [{ name: 'replace', input: { file_path: `${WORKSPACE}/src/parser.ts`, instruction: 'Use the separator constant', old_string: OLD_LINE, new_string: NEW_LINE } }] },
  geminiTodosOf(editPlan('completed', 'completed')),
  { text: 'The parser uses the separator constant now.' },
];

// opencode and Kilo CLI: write then edit (`filePath`, `oldString`, `newString`), with an edit
// that fails first (its text is not in the file); Qwen Code: write_file then edit (`file_path`,
// `old_string`, `new_string`); Copilot CLI: create (`path`, `file_text`) then edit (`path`,
// `old_str`, `new_str`), its plan through sql.
const opencodeTodosOf = (items) => ({ calls: [{ name: 'todowrite', input: { todos: items.map(([content, status]) => ({ content, status, priority: 'high' })) } }] });
const opencodeEdits = [
  opencodeTodosOf(editPlan('in_progress', 'pending')),
  { calls: [{ name: 'write', input: { filePath: `${WORKSPACE}/src/tokens.ts`, content: TOKENS } }] },
  opencodeTodosOf(editPlan('completed', 'in_progress')),
  opencodeRead,
  { calls: [{ name: 'edit', input: { filePath: `${WORKSPACE}/src/parser.ts`, oldString: 'no such text', newString: 'nothing' } }] },
  { calls: [{ name: 'edit', input: { filePath: `${WORKSPACE}/src/parser.ts`, oldString: OLD_LINE, newString: NEW_LINE } }] },
  opencodeTodosOf(editPlan('completed', 'completed')),
  { text: 'The parser uses the separator constant now.' },
];
const qwenTodosOf = (items) => ({ calls: [{ name: 'todo_write', input: { todos: items.map(([content, status], i) => ({ id: String(i + 1), content, status })) } }] });
const qwenEdits = [
  qwenTodosOf(editPlan('in_progress', 'pending')),
  { calls: [{ name: 'write_file', input: { file_path: `${WORKSPACE}/src/tokens.ts`, content: TOKENS } }] },
  qwenTodosOf(editPlan('completed', 'in_progress')),
  qwenRead,
  { calls: [{ name: 'edit', input: { file_path: `${WORKSPACE}/src/parser.ts`, old_string: 'no such text', new_string: 'nothing' } }] },
  { calls: [{ name: 'edit', input: { file_path: `${WORKSPACE}/src/parser.ts`, old_string: OLD_LINE, new_string: NEW_LINE } }] },
  qwenTodosOf(editPlan('completed', 'completed')),
  { text: 'The parser uses the separator constant now.' },
];
const copilotEdits = [
  copilotSql('Insert plan todos', `INSERT INTO todos (id, title, description, status) VALUES ('a', '${EDIT_A}', '', 'in_progress'), ('b', '${EDIT_B}', '', 'pending');`),
  { calls: [{ name: 'create', input: { path: `${WORKSPACE}/src/tokens.ts`, file_text: TOKENS } }] },
  copilotSql('Move on', "UPDATE todos SET status = CASE id WHEN 'a' THEN 'done' ELSE 'in_progress' END;"),
  copilotView,
  { calls: [{ name: 'edit', input: { path: `${WORKSPACE}/src/parser.ts`, old_str: 'no such text', new_str: 'nothing' } }] },
  { calls: [{ name: 'edit', input: { path: `${WORKSPACE}/src/parser.ts`, old_str: OLD_LINE, new_str: NEW_LINE } }] },
  copilotSql('Finish', "UPDATE todos SET status = 'done';"),
  { text: 'The parser uses the separator constant now.' },
];

const answer = { text: 'The parser reads tokens in one pass; nothing needs to change.' };

const fixPrompt = 'Fix the off-by-one in the parser and keep a plan as you go.';
const editPrompt = 'Add a separator constant and use it in the parser; keep a plan as you go.';
const askPrompt = 'How does the parser read its input? Answer briefly.';

// Waiting on a tool call: an interactive run (no auto-approve) whose model asks for a Bash
// command that needs the user's leave. `approval-left` leaves the prompt unanswered until the run
// ends; `approval-given` answers it (Enter: the default "Yes") after a while, so the call runs and
// the turn ends.
const claudeBash = { calls: [{ name: 'Bash', input: { command: 'touch approved.txt', description: 'Create approved.txt' } }] };
const claudeWait = [claudeTodoWrite[0], claudeTodoWrite[1], claudeBash, { text: 'Created approved.txt.' }];
const waitPrompt = 'Create approved.txt in the workspace; keep a plan as you go.';
const codexTouch = { calls: [{ name: 'exec_command', input: { cmd: 'touch approved.txt', sandbox_permissions: 'require_escalated', justification: 'Create approved.txt' } }] };
const codexWait = [codexPlanOf([['Create approved.txt', 'in_progress']]), codexTouch, { text: 'Created approved.txt.' }];
// opencode and Kilo CLI: their full-screen interface (TUI) with the prompt given at start, bash
// set to ask (`permission`), a screen of 40 rows × 160 columns (WAIT_TTY below: smaller, it did
// not draw the prompt). The left run is ended with SIGKILL, so it writes nothing on its way out.
const opencodeBash = { calls: [{ name: 'bash', input: { command: 'touch approved.txt', description: 'Create approved.txt' } }] };
const opencodeWait = [opencodeTodosOf([['Create approved.txt', 'in_progress']]), opencodeBash, { text: 'Created approved.txt.' }];
const opencodeAsk = { '*': 'allow', bash: 'ask' };

// Qwen Code and Copilot CLI, interactive without auto-approve (Qwen `--approval-mode default`,
// Copilot without `--allow-all-tools`): a plan, then a shell command that asks for leave. Their
// TUIs draw no prompt in the 0×0 terminal `script` opens, so the terminal is sized first. A run
// left at its prompt is ended with SIGKILL (as a killed terminal: no closing record; Copilot
// writes `session.shutdown` on SIGTERM); an answered one (Enter: "Yes") runs on and ends.
const WAIT_TTY = { rows: 40, cols: 160 };
const qwenShell = { calls: [{ name: 'run_shell_command', input: { command: 'touch approved.txt', description: 'Create approved.txt' } }] };
const qwenWait = [qwenTodosOf([['Create approved.txt', 'in_progress']]), qwenShell, { text: 'Created approved.txt.' }];
const copilotBash = { calls: [{ name: 'bash', input: { command: 'touch approved.txt', description: 'Create approved.txt' } }] };
const copilotWait = [copilotSql('Insert plan todos', "INSERT INTO todos (id, title, description, status) VALUES ('create', 'Create approved.txt', '', 'in_progress');"), copilotBash, { text: 'Created approved.txt.' }];

// Cline, two generations. 3.x (its current CLI) has no focus chain: its list with statuses is the
// team task board (`team_task`: create, claim, complete), offered in the default act mode (not
// with --yolo); edits go through its `editor` tool, commands through `run_commands`. 2.x (built
// on the VS Code extension's core) answers with XML tool calls in the model's text, each with an
// optional `<task_progress>` checklist (the focus chain: `- [ ]` and `- [x]` only).
const clineTask = (action, fields) => ({ name: 'team_task', input: { action, ...fields } });
const clineBoard = [
  {
    calls: [
      clineTask('create', { title: 'Add the separator constant', description: 'Create src/tokens.ts with SEPARATOR' }),
      clineTask('create', { title: 'Use it in the parser', description: 'Split on SEPARATOR in src/parser.ts' }),
      clineTask('create', { title: 'Run the check', description: 'List the sources' }),
    ],
  },
  { calls: [clineTask('claim', { taskId: 'task_0001' })] },
  { calls: [{ name: 'editor', input: { path: `${WORKSPACE}/src/tokens.ts`, new_text: TOKENS } }] },
  { calls: [clineTask('complete', { taskId: 'task_0001', summary: 'src/tokens.ts exports SEPARATOR' }), clineTask('claim', { taskId: 'task_0002' })] },
  { calls: [{ name: 'editor', input: { path: `${WORKSPACE}/src/parser.ts`, old_text: OLD_LINE, new_text: NEW_LINE } }] },
  { calls: [clineTask('complete', { taskId: 'task_0002', summary: 'The parser splits on SEPARATOR' }), clineTask('claim', { taskId: 'task_0003' })] },
  { calls: [{ name: 'run_commands', input: { commands: ['ls src'] } }] },
  { calls: [clineTask('complete', { taskId: 'task_0003', summary: 'Both files are there' })] },
  { text: 'The parser uses the separator constant now.' },
];

const clineXml = (tool, fields, progress) =>
  `<${tool}>\n${Object.entries(fields).map(([k, v]) => `<${k}>\n${v}\n</${k}>`).join('\n')}\n` +
  (progress ? `<task_progress>\n${progress.map(([done, text]) => `- [${done ? 'x' : ' '}] ${text}`).join('\n')}\n</task_progress>\n` : '') +
  `</${tool}>`;
const CLINE_ITEMS = ['Add the separator constant', 'Use it in the parser', 'Run the check'];
const clineProgress = (done) => CLINE_ITEMS.map((text, i) => [i < done, text]);
const clineFocusChain = [
  { text: `I will add the constant first.\n\n${clineXml('write_to_file', { path: 'src/tokens.ts', content: TOKENS.trimEnd() }, clineProgress(0))}` },
  { text: clineXml('replace_in_file', { path: 'src/parser.ts', diff: `------- SEARCH\n${OLD_LINE}\n=======\n${NEW_LINE}\n+++++++ REPLACE` }, clineProgress(1)) },
  { text: clineXml('execute_command', { command: 'ls src', requires_approval: 'false' }, clineProgress(2)) },
  { text: clineXml('attempt_completion', { result: 'The parser uses the separator constant now.' }, clineProgress(3)) },
];

// Cline 3.x with a subagent (`spawn_agent`): the lead keeps the board, the subagent edits.
const CLINE_SUBAGENT_MARKER = 'SUBAGENT-TASK-c1e';
const clineSubagent = {
  marker: CLINE_SUBAGENT_MARKER,
  main: [
    { calls: [clineTask('create', { title: 'Hand the edit to a subagent', description: 'Spawn a subagent for the tokens file' })] },
    { calls: [clineTask('claim', { taskId: 'task_0001' })] },
    { calls: [{ name: 'spawn_agent', input: { systemPrompt: 'You are a careful editor.', task: `${CLINE_SUBAGENT_MARKER}: create src/tokens.ts with the separator constant.` } }] },
    { calls: [clineTask('complete', { taskId: 'task_0001', summary: 'The subagent wrote src/tokens.ts' })] },
    { text: 'The subagent added the constant.' },
  ],
  subagent: [
    { calls: [{ name: 'editor', input: { path: `${WORKSPACE}/src/tokens.ts`, new_text: TOKENS } }] },
    { text: 'Created src/tokens.ts.' },
  ],
};

/** Every scenario, by name `<agent>/<scenario>`. */
export const SCENARIOS = [
  { agent: 'claude-code', name: 'tasks', prompt: fixPrompt, env: {}, script: claudeTasks },
  { agent: 'claude-code', name: 'todowrite', prompt: fixPrompt, env: { CLAUDE_CODE_ENABLE_TASKS: 'false' }, script: claudeTodoWrite },
  { agent: 'claude-code', name: 'no-plan', prompt: askPrompt, env: {}, script: [claudeRead, answer] },
  { agent: 'codex', name: 'update-plan', prompt: fixPrompt, env: {}, script: codexPlan },
  { agent: 'codex', name: 'no-plan', prompt: askPrompt, env: {}, script: [codexRead, answer] },
  { agent: 'gemini-cli', name: 'write-todos', prompt: fixPrompt, env: {}, script: geminiTodos },
  { agent: 'gemini-cli', name: 'no-plan', prompt: askPrompt, env: {}, script: [geminiRead, answer] },
  ...['done', 'drop-reopen', 'stall'].flatMap((name) => [
    { agent: 'claude-code', name: `health-${name}`, prompt: fixPrompt, env: { CLAUDE_CODE_ENABLE_TASKS: 'false' }, script: [claudeTodoWrite[0], ...healthScript(name, claudeTodo, claudeRead, claudeReadOf)] },
    { agent: 'codex', name: `health-${name}`, prompt: fixPrompt, env: {}, script: healthScript(name, codexPlanOf, codexRead, codexReadOf) },
  ]),
  // Gemini CLI records no turn ends (see the README): what a comparison of versions says.
  ...['done', 'drop-reopen'].map((name) => ({ agent: 'gemini-cli', name: `health-${name}`, prompt: fixPrompt, env: {}, script: healthScript(name, geminiTodosOf, geminiRead) })),
  { agent: 'opencode', name: 'todowrite', prompt: fixPrompt, env: {}, script: opencodeTodos },
  { agent: 'opencode', name: 'no-plan', prompt: askPrompt, env: {}, script: [opencodeRead, answer] },
  { agent: 'kilo', name: 'todowrite', prompt: fixPrompt, env: {}, script: opencodeTodos },
  { agent: 'kilo', name: 'no-plan', prompt: askPrompt, env: {}, script: [opencodeRead, answer] },
  { agent: 'qwen-code', name: 'todo-write', prompt: fixPrompt, env: {}, script: qwenTodos },
  { agent: 'qwen-code', name: 'no-plan', prompt: askPrompt, env: {}, script: [qwenRead, answer] },
  { agent: 'claude-code', name: 'subagent', prompt: 'Hand the parser fix to a subagent.', env: { CLAUDE_CODE_ENABLE_TASKS: 'false' }, script: claudeSubagent },
  { agent: 'copilot-cli', name: 'sql-todos', prompt: fixPrompt, env: {}, script: copilotTodos },
  { agent: 'copilot-cli', name: 'no-plan', prompt: askPrompt, env: {}, script: [copilotView, answer] },
  // Edits need the agents' leave to write: Claude accepts edits; Codex, which cannot ask in exec
  // mode, runs with approvals and its sandbox off, as a model its catalog gives apply_patch;
  // Gemini's yolo mode already allows them.
  { agent: 'claude-code', name: 'edits', prompt: editPrompt, env: { CLAUDE_CODE_ENABLE_TASKS: 'false' }, args: ['--permission-mode', 'acceptEdits'], script: claudeEdits },
  { agent: 'codex', name: 'edits', prompt: editPrompt, env: {}, args: ['--dangerously-bypass-approvals-and-sandbox'], codexModel: 'gpt-5.5', script: codexEdits },
  { agent: 'gemini-cli', name: 'edits', prompt: editPrompt, env: {}, script: geminiEdits },
  { agent: 'opencode', name: 'edits', prompt: editPrompt, env: {}, script: opencodeEdits },
  { agent: 'kilo', name: 'edits', prompt: editPrompt, env: {}, script: opencodeEdits },
  { agent: 'qwen-code', name: 'edits', prompt: editPrompt, env: {}, script: qwenEdits },
  { agent: 'copilot-cli', name: 'edits', prompt: editPrompt, env: {}, script: copilotEdits },
  { agent: 'claude-code', name: 'approval-left', prompt: waitPrompt, env: { CLAUDE_CODE_ENABLE_TASKS: 'false' }, args: ['--permission-mode', 'default'], script: claudeWait, tty: { keys: [{ afterRequests: 3, waitMs: 8000 }], endMs: 0 } },
  { agent: 'codex', name: 'approval-left', prompt: waitPrompt, env: {}, args: ['--ask-for-approval', 'on-request', '--sandbox', 'read-only'], script: codexWait, tty: { keys: [{ afterRequests: 4, waitMs: 8000 }], endMs: 0 } },
  { agent: 'codex', name: 'approval-given', prompt: waitPrompt, env: {}, args: ['--ask-for-approval', 'on-request', '--sandbox', 'read-only'], script: codexWait, tty: { keys: [{ afterRequests: 4, waitMs: 8000, text: 'y' }], endMs: 8000 } },
  { agent: 'claude-code', name: 'approval-given', prompt: waitPrompt, env: { CLAUDE_CODE_ENABLE_TASKS: 'false' }, args: ['--permission-mode', 'default'], script: claudeWait, tty: { keys: [{ afterRequests: 3, waitMs: 8000, text: '\r' }], endMs: 8000 } },
  // The model's bash call is its 3rd request for opencode (after its title request), its 2nd for Kilo CLI (which asked for no title).
  ...[['opencode', 3], ['kilo', 2]].flatMap(([agent, asked]) => [
    { agent, name: 'approval-left', prompt: waitPrompt, env: {}, permission: opencodeAsk, script: opencodeWait, tty: { ...WAIT_TTY, keys: [{ afterRequests: asked, waitMs: 8000 }], endMs: 0, endSignal: 'SIGKILL' } },
    { agent, name: 'approval-given', prompt: waitPrompt, env: {}, permission: opencodeAsk, script: opencodeWait, tty: { ...WAIT_TTY, keys: [{ afterRequests: asked, waitMs: 8000, text: '\r' }], endMs: 8000 } },
  ]),
  { agent: 'qwen-code', name: 'approval-left', prompt: waitPrompt, env: {}, args: ['--approval-mode', 'default'], script: qwenWait, tty: { ...WAIT_TTY, keys: [{ afterRequests: 2, waitMs: 8000 }], endMs: 0, endSignal: 'SIGKILL' } },
  { agent: 'qwen-code', name: 'approval-given', prompt: waitPrompt, env: {}, args: ['--approval-mode', 'default'], script: qwenWait, tty: { ...WAIT_TTY, keys: [{ afterRequests: 2, waitMs: 8000, text: '\r' }], endMs: 8000 } },
  { agent: 'copilot-cli', name: 'approval-left', prompt: waitPrompt, env: {}, script: copilotWait, tty: { ...WAIT_TTY, keys: [{ afterRequests: 2, waitMs: 8000 }], endMs: 0, endSignal: 'SIGKILL' } },
  { agent: 'copilot-cli', name: 'approval-given', prompt: waitPrompt, env: {}, script: copilotWait, tty: { ...WAIT_TTY, keys: [{ afterRequests: 2, waitMs: 8000, text: '\r' }], endMs: 8000 } },
  { agent: 'cline', name: 'focus-chain', generation: 2, prompt: editPrompt, env: {}, server: { textTurns: true }, script: clineFocusChain },
  { agent: 'cline', name: 'team-board', prompt: editPrompt, env: {}, script: clineBoard },
  { agent: 'cline', name: 'subagent', prompt: 'Hand the separator constant to a subagent; keep a plan as you go.', env: {}, script: clineSubagent },
].map((s) => ({ ...s, id: `${recipeOf(s.agent).id}/${s.name}` }));

export function findScenario(id) {
  const found = SCENARIOS.find((s) => s.id === id);
  if (!found) throw new Error(`no scenario ${id}; known: ${SCENARIOS.map((s) => s.id).join(', ')}`);
  return found;
}

// Qwen Code's scenarios (gathered by scripts/agents/scenarios.mjs): its `todo_write` (an id per
// item, three statuses), its `read_file`, write_file then edit (`file_path`, `old_string`,
// `new_string`), and a shell command that waits for the user's leave. Plain ESM: no build.
import { answer, ANSWER_SETTLE_MS, askPrompt, editPlan, editPrompt, fixPrompt, NEW_LINE, OLD_LINE, TOKENS, WAIT_TTY, waitPrompt, WORKSPACE } from '../../../scripts/agents/steps.mjs';

/** What the approval scenarios wait to see on the screen before they answer or end: its permission prompt's question. */
const PROMPT = 'Allow execution of';

const qwenRead = { calls: [{ name: 'read_file', input: { file_path: `${WORKSPACE}/src/parser.ts` } }] };
const qwenTodosOf = (items) => ({ calls: [{ name: 'todo_write', input: { todos: items.map(([content, status], i) => ({ id: String(i + 1), content, status })) } }] });

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

// Waiting on a tool call: interactive without auto-approve (`--approval-mode default`). A run
// left at its prompt is ended with SIGKILL (as a killed terminal: no closing record); an
// answered one (Enter: "Yes") runs on and ends.
const qwenShell = { calls: [{ name: 'run_shell_command', input: { command: 'touch approved.txt', description: 'Create approved.txt' } }] };
const qwenWait = [qwenTodosOf([['Create approved.txt', 'in_progress']]), qwenShell, { text: 'Created approved.txt.' }];

/** Its scenarios, in order; each runs as the agent `qwen-code` under the id `qwen-code/<name>`. */
export const scenarios = [
  { name: 'todo-write', prompt: fixPrompt, env: {}, script: qwenTodos },
  { name: 'no-plan', prompt: askPrompt, env: {}, script: [qwenRead, answer] },
  { name: 'edits', prompt: editPrompt, env: {}, script: qwenEdits },
  { name: 'approval-left', prompt: waitPrompt, env: {}, args: ['--approval-mode', 'default'], script: qwenWait, tty: { ...WAIT_TTY, keys: [{ afterRequests: 2, screen: PROMPT }], endMs: 0, endSignal: 'SIGKILL' } },
  { name: 'approval-given', prompt: waitPrompt, env: {}, args: ['--approval-mode', 'default'], script: qwenWait, tty: { ...WAIT_TTY, keys: [{ afterRequests: 2, screen: PROMPT, text: '\r' }], untilAnswered: true, endMs: ANSWER_SETTLE_MS } },
];

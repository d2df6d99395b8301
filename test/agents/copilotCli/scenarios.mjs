// Copilot CLI's scenarios (gathered by scripts/agents/scenarios.mjs). Its plan (1.0.102) is the
// `todos` table of the session's own database, written through its `sql` tool (the pinned release
// offers no `update_todo` tool); statuses there: pending, in_progress, done, blocked. Its read tool
// is `view` (absolute path), its edits create (`path`, `file_text`) then edit (`path`, `old_str`,
// `new_str`). Plain ESM: no build.
import { answer, ANSWER_SETTLE_MS, askPrompt, EDIT_A, EDIT_B, editPrompt, fixPrompt, NEW_LINE, OLD_LINE, TOKENS, WAIT_TTY, waitPrompt, WORKSPACE } from '../../../scripts/agents/steps.mjs';

/** What the approval scenarios wait to see on the screen before they answer or end: its permission prompt's question. */
const PROMPT = 'Do you want to run this command?';

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

// Waiting on a tool call: interactive without `--allow-all-tools`. A run left at its prompt is
// ended with SIGKILL (as a killed terminal: no closing record; it writes `session.shutdown` on
// SIGTERM); an answered one (Enter: "Yes") runs on and ends.
const copilotBash = { calls: [{ name: 'bash', input: { command: 'touch approved.txt', description: 'Create approved.txt' } }] };
const copilotWait = [copilotSql('Insert plan todos', "INSERT INTO todos (id, title, description, status) VALUES ('create', 'Create approved.txt', '', 'in_progress');"), copilotBash, { text: 'Created approved.txt.' }];

/** Its scenarios, in order; each runs as the agent `copilot-cli` under the id `copilot-cli/<name>`. */
export const scenarios = [
  { name: 'sql-todos', prompt: fixPrompt, env: {}, script: copilotTodos },
  { name: 'no-plan', prompt: askPrompt, env: {}, script: [copilotView, answer] },
  { name: 'edits', prompt: editPrompt, env: {}, script: copilotEdits },
  { name: 'approval-left', prompt: waitPrompt, env: {}, script: copilotWait, tty: { ...WAIT_TTY, keys: [{ afterRequests: 2, screen: PROMPT }], endMs: 0, endSignal: 'SIGKILL' } },
  { name: 'approval-given', prompt: waitPrompt, env: {}, script: copilotWait, tty: { ...WAIT_TTY, keys: [{ afterRequests: 2, screen: PROMPT, text: '\r' }], untilAnswered: true, endMs: ANSWER_SETTLE_MS } },
];

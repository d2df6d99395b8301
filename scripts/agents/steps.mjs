// What every agent's scenarios share: the placeholder for the workspace, the prompts, the plan
// and the edits the scripted model walks through, and the shapes of the plan-health and
// approval scenarios. A script is a list of turns the scripted model server plays in order: a
// turn `{ calls: [{ name, input }] }` asks for tool calls, `{ text }` answers. Each agent's own
// scenarios, in its tools' names and inputs, are in its test twin (test/agents/<agent>/scenarios.mjs).
// Plain ESM, importing nothing: the agents' scenario files import it.

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

// The prompts. Besides the plan tools, each script calls one ordinary read-only tool, as real
// sessions do.
export const fixPrompt = 'Fix the off-by-one in the parser and keep a plan as you go.';
export const editPrompt = 'Add a separator constant and use it in the parser; keep a plan as you go.';
export const askPrompt = 'How does the parser read its input? Answer briefly.';
export const waitPrompt = 'Create approved.txt in the workspace; keep a plan as you go.';

/** The answer of a scenario without a plan (`no-plan`): a read, then this. */
export const answer = { text: 'The parser reads tokens in one pass; nothing needs to change.' };

// Plan health scenarios: a plan worked through to the end (no warning at any point), a
// plan that drops an item and reopens one, and work that goes on for 27 tool calls without
// a plan update.

/** Nine calls in one turn: `call(i)` for i = 0…8. */
const nineReads = (call) => ({ calls: Array.from({ length: 9 }, (_, i) => call(i)) });

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

/**
 * The script of the health scenario `name` (done, drop-reopen, stall) in an agent's tools:
 * `plan(items)` is its plan turn, `read` its read turn, `readOf(i)` one read call of nine.
 */
export function healthScript(name, plan, read, readOf) {
  return HEALTH_PLANS[name].flatMap((step) => (step === 'read' ? [read] : step === 'reads' ? [nineReads(readOf)] : [plan(step)])).concat([{ text: 'Done: the off-by-one is fixed.' }]);
}

// Edits: a plan with item A in progress, A's file written with the agent's own edit tool,
// the plan moved on (A completed, B in progress), B's file edited, the plan completed.
export const EDIT_A = 'Add the separator constant';
export const EDIT_B = 'Use it in the parser';
/** The edit scenario's plan with A and B in these statuses, as [text, status] pairs. */
export const editPlan = (a, b) => [[EDIT_A, a], [EDIT_B, b]];
/** The new file's text (src/tokens.ts). */
export const TOKENS = 'export const SEPARATOR = /\\s+/;\n';
/** The line of src/parser.ts the edit replaces, and its replacement. */
export const OLD_LINE = '  return input.split(/\\s+/).filter(Boolean);';
export const NEW_LINE = '  return input.split(SEPARATOR).filter(Boolean);';

// Waiting on a tool call: an interactive run (no auto-approve) whose model asks for a shell
// command that needs the user's leave. `approval-left` leaves the prompt unanswered until the run
// ends; `approval-given` answers it (Enter: the default "Yes") after a while, so the call runs and
// the turn ends. A full-screen interface draws no prompt in the 0×0 terminal `script` opens: it
// is sized first, to WAIT_TTY (smaller, opencode did not draw the prompt).
export const WAIT_TTY = { rows: 40, cols: 160 };
// Each waits for the agent's own prompt on its screen (its words in the agent's scenarios), not a
// fixed time. `approval-given` then runs until the model has answered the approved call's result,
// and ANSWER_SETTLE_MS more: the agent draws the answer and closes its turn in its files, where no
// event of theirs can be seen from the run.
export const ANSWER_SETTLE_MS = 2000;

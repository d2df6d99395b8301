// Cline's scenarios (gathered by scripts/agents/scenarios.mjs), two generations. 3.x (its current
// CLI) has no focus chain: its list with statuses is the team task board (`team_task`: create,
// claim, complete), offered in the default act mode (not with --yolo); edits go through its
// `editor` tool, commands through `run_commands`. 2.x (built on the VS Code extension's core)
// answers with XML tool calls in the model's text, each with an optional `<task_progress>`
// checklist (the focus chain: `- [ ]` and `- [x]` only). Plain ESM: no build.
import { editPrompt, NEW_LINE, OLD_LINE, TOKENS, WORKSPACE } from '../../../scripts/agents/steps.mjs';

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

// 3.x with a subagent (`spawn_agent`): the lead keeps the board, the subagent edits.
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

/** Its scenarios, in order; each runs as the agent `cline` under the id `cline/<name>`. */
export const scenarios = [
  { name: 'focus-chain', generation: 2, prompt: editPrompt, env: {}, server: { textTurns: true }, script: clineFocusChain },
  { name: 'team-board', prompt: editPrompt, env: {}, script: clineBoard },
  { name: 'subagent', prompt: 'Hand the separator constant to a subagent; keep a plan as you go.', env: {}, script: clineSubagent },
];

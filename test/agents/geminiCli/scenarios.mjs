// Gemini CLI's scenarios (gathered by scripts/agents/scenarios.mjs): its `write_todos`, its
// `read_file`, and its write_file then replace. Its yolo mode allows the edits. Plain ESM: no build.
import { answer, askPrompt, editPlan, editPrompt, fixPrompt, healthScript, NEW_LINE, OLD_LINE, TOKENS, WORKSPACE } from '../../../scripts/agents/steps.mjs';

const geminiRead = { calls: [{ name: 'read_file', input: { file_path: 'src/parser.ts' } }] };
const geminiTodosOf = (items) => ({ calls: [{ name: 'write_todos', input: { todos: items.map(([description, status]) => ({ description, status })) } }] });

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

const geminiEdits = [
  geminiTodosOf(editPlan('in_progress', 'pending')),
  { calls: [{ name: 'write_file', input: { file_path: `${WORKSPACE}/src/tokens.ts`, content: TOKENS } }] },
  geminiTodosOf(editPlan('completed', 'in_progress')),
  { calls: [{ name: 'replace', input: { file_path: `${WORKSPACE}/src/parser.ts`, instruction: 'Use the separator constant', old_string: OLD_LINE, new_string: NEW_LINE } }] },
  geminiTodosOf(editPlan('completed', 'completed')),
  { text: 'The parser uses the separator constant now.' },
];

// Plans written through Agent Plan's MCP server (`agentplan`, scripts/agents/mcp.mjs), its tool
// named `mcp_agentplan_todo_write`: `mcp` trusts the server and writes a file between its two
// plans (yolo mode, as every scenario here). `mcp-refused` configures it without `trust` and runs
// in the default approval mode: the tool is not offered, and the call the model makes anyway
// fails. (Untrusted in yolo mode, the tool was offered and ran.)
const geminiMcpPlan = (items) => ({ calls: [{ name: 'mcp_agentplan_todo_write', input: { todos: items.map(([content, status]) => ({ content, status })) } }] });
const geminiMcp = [
  geminiMcpPlan(editPlan('in_progress', 'pending')),
  { calls: [{ name: 'write_file', input: { file_path: `${WORKSPACE}/src/tokens.ts`, content: TOKENS } }] },
  geminiMcpPlan(editPlan('completed', 'in_progress')),
  { text: 'The separator constant is in; using it in the parser next.' },
];
const geminiMcpRefused = [geminiMcpPlan(editPlan('in_progress', 'pending')), { text: 'The plan tool was refused.' }];

/** Its scenarios, in order; each runs as the agent `gemini-cli` under the id `gemini-cli/<name>`. */
export const scenarios = [
  { name: 'write-todos', prompt: fixPrompt, env: {}, script: geminiTodos },
  { name: 'no-plan', prompt: askPrompt, env: {}, script: [geminiRead, answer] },
  // It records no turn ends (see the README): no stall, only what a comparison of versions says.
  ...['done', 'drop-reopen'].map((name) => ({ name: `health-${name}`, prompt: fixPrompt, env: {}, script: healthScript(name, geminiTodosOf, geminiRead) })),
  { name: 'edits', prompt: editPrompt, env: {}, script: geminiEdits },
  { name: 'mcp', prompt: editPrompt, env: {}, mcp: { approve: true }, script: geminiMcp },
  { name: 'mcp-refused', prompt: editPrompt, env: {}, mcp: { approve: false }, approvalMode: 'default', script: geminiMcpRefused },
];

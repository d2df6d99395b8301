// Codex's scenarios (gathered by scripts/agents/scenarios.mjs): its `update_plan`, its
// `exec_command` reads, its freeform `apply_patch`, and a command that waits for the user's
// leave. Plain ESM: no build.
import { answer, ANSWER_SETTLE_MS, askPrompt, editPlan, editPrompt, fixPrompt, healthScript, NEW_LINE, OLD_LINE, TOKENS, waitPrompt } from '../../../scripts/agents/steps.mjs';

/** What the approval scenarios wait to see on the screen before they answer or end: the terminal title it sets while it waits for approval (the 0×0 terminal shows no more). */
const PROMPT = 'Action Required';

const codexRead = { calls: [{ name: 'exec_command', input: { cmd: 'cat src/parser.ts' } }] };
const codexReadOf = (i) => ({ name: 'exec_command', input: { cmd: `sed -n ${i + 1}p src/parser.ts` } });
const codexPlanOf = (items) => ({ calls: [{ name: 'update_plan', input: { plan: items.map(([step, status]) => ({ step, status })) } }] });

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

// Edits: apply_patch (a freeform tool: its input is the patch text), adding a file then updating one.
const patch = (body) => `*** Begin Patch\n${body}*** End Patch\n`;
const codexEdits = [
  codexPlanOf(editPlan('in_progress', 'pending')),
  { calls: [{ name: 'apply_patch', input: patch(`*** Add File: src/tokens.ts\n+${TOKENS}`) }] },
  codexPlanOf(editPlan('completed', 'in_progress')),
  { calls: [{ name: 'apply_patch', input: patch(`*** Update File: src/parser.ts\n@@\n-${OLD_LINE}\n+${NEW_LINE}\n`) }] },
  codexPlanOf(editPlan('completed', 'completed')),
  { text: 'The parser uses the separator constant now.' },
];

// Waiting on a tool call: a command that asks for escalation, in a read-only sandbox.
const codexTouch = { calls: [{ name: 'exec_command', input: { cmd: 'touch approved.txt', sandbox_permissions: 'require_escalated', justification: 'Create approved.txt' } }] };
const codexWait = [codexPlanOf([['Create approved.txt', 'in_progress']]), codexTouch, { text: 'Created approved.txt.' }];

// Plans written through Agent Plan's MCP server (`agentplan`, scripts/agents/mcp.mjs): Codex
// offers its tools in the namespace `mcp__agentplan`. `mcp` pre-approves the tool (its
// `approval_mode`) and adds a file with apply_patch between its two plans (so, as `edits`, with a
// model given apply_patch and no sandbox); in `mcp-refused` the tool asks first (`approval_mode =
// "prompt"`), which `codex exec` cannot, so it refuses the call. (With no approval_mode at all,
// Codex ran Agent Plan's tool unasked: the server says it is neither destructive nor open-world.)
const codexMcpPlan = (items) => ({ calls: [{ namespace: 'mcp__agentplan', name: 'todo_write', input: { todos: items.map(([content, status]) => ({ content, status })) } }] });
const codexMcp = [
  codexMcpPlan(editPlan('in_progress', 'pending')),
  { calls: [{ name: 'apply_patch', input: patch(`*** Add File: src/tokens.ts\n+${TOKENS}`) }] },
  codexMcpPlan(editPlan('completed', 'in_progress')),
  { text: 'The separator constant is in; using it in the parser next.' },
];
const codexMcpRefused = [codexMcpPlan(editPlan('in_progress', 'pending')), { text: 'The plan tool was refused.' }];

/** Its scenarios, in order; each runs as the agent `codex` under the id `codex/<name>`. */
export const scenarios = [
  { name: 'update-plan', prompt: fixPrompt, env: {}, script: codexPlan },
  { name: 'no-plan', prompt: askPrompt, env: {}, script: [codexRead, answer] },
  ...['done', 'drop-reopen', 'stall'].map((name) => ({ name: `health-${name}`, prompt: fixPrompt, env: {}, script: healthScript(name, codexPlanOf, codexRead, codexReadOf) })),
  // Edits need its leave to write: it cannot ask in exec mode, so it runs with approvals and its
  // sandbox off, as a model its catalog gives apply_patch.
  { name: 'edits', prompt: editPrompt, env: {}, args: ['--dangerously-bypass-approvals-and-sandbox'], codexModel: 'gpt-5.5', script: codexEdits },
  { name: 'approval-left', prompt: waitPrompt, env: {}, args: ['--ask-for-approval', 'on-request', '--sandbox', 'read-only'], script: codexWait, tty: { keys: [{ afterRequests: 4, screen: PROMPT }], endMs: 0 } },
  { name: 'approval-given', prompt: waitPrompt, env: {}, args: ['--ask-for-approval', 'on-request', '--sandbox', 'read-only'], script: codexWait, tty: { keys: [{ afterRequests: 4, screen: PROMPT, text: 'y' }], untilAnswered: true, endMs: ANSWER_SETTLE_MS } },
  { name: 'mcp', prompt: editPrompt, env: {}, mcp: { approve: true }, args: ['--dangerously-bypass-approvals-and-sandbox'], codexModel: 'gpt-5.5', script: codexMcp },
  { name: 'mcp-refused', prompt: editPrompt, env: {}, mcp: { approve: false }, script: codexMcpRefused },
];

// The demo's scripts (demo/extension/scripts.js) as a script for the scripted model
// server (test/scripted-model/modelServer.mjs), which the real Copilot agent talks to in
// `npm start`: the dark mode plan for a dark mode request, a generic plan otherwise.
// A step's edits become a step of their own after its todo_write call, made with
// Copilot's own edit tools, so each file changes while its item is in progress.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { scriptFor } = require('./extension/scripts.js');

/** One model-server turn from a demo script; `stepDelayMs` is how long the model "thinks" per step. */
function turn(demoScript, stepDelayMs, match) {
  const steps = [];
  demoScript.steps.forEach((step, index) => {
    steps.push({
      say: step.say,
      ...(step.todos ? { tool: 'todo_write', arguments: { todos: step.todos } } : {}),
      // The first answer comes at once; every later one after the step's pause.
      ...(index > 0 ? { delayMs: Math.round(stepDelayMs * (step.weight ?? 1)) } : {}),
    });
    if (step.edits) steps.push({ say: step.edits.say, calls: step.edits.calls, delayMs: Math.round(stepDelayMs / 2) });
  });
  return { ...(match === undefined ? {} : { match }), ...(demoScript.steps.some((step) => step.edits) ? { stopOnToolError: true } : {}), steps };
}

/** The dark mode turn alone, answering requests that contain `match` (the integration tests play it). */
export function demoDarkModeTurn({ stepDelayMs = 1600, match = 'dark mode' } = {}) {
  return turn(scriptFor('add a dark mode toggle'), stepDelayMs, match);
}

export function demoAgentScript({ stepDelayMs = 1600 } = {}) {
  return {
    sideText: 'Dark mode for Brewlog',
    turns: [demoDarkModeTurn({ stepDelayMs }), turn(scriptFor('your request'), stepDelayMs)],
  };
}

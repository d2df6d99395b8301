// The demo's scripts (demo/extension/scripts.js) as a script for the scripted model
// server (test/agent/modelServer.mjs), which the real Copilot agent talks to in
// `npm start`: the dark mode plan for a dark mode request, a generic plan otherwise.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { scriptFor } = require('./extension/scripts.js');

/** One model-server turn from a demo script; `stepDelayMs` is how long the model "thinks" per step. */
function turn(demoScript, stepDelayMs, match) {
  const steps = demoScript.steps.map((step, index) => ({
    say: step.say,
    ...(step.todos ? { tool: 'todo_write', arguments: { todos: step.todos } } : {}),
    // The first answer comes at once; every later one after the step's pause.
    ...(index > 0 ? { delayMs: Math.round(stepDelayMs * (step.weight ?? 1)) } : {}),
  }));
  return match === undefined ? { steps } : { match, steps };
}

export function demoAgentScript({ stepDelayMs = 1600 } = {}) {
  return {
    sideText: 'Dark mode for Brewlog',
    turns: [
      turn(scriptFor('add a dark mode toggle'), stepDelayMs, 'dark mode'),
      turn(scriptFor('your request'), stepDelayMs),
    ],
  };
}

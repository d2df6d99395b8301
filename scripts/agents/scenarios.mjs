// The scenarios the runner plays: for each, which agent runs, the prompt, extra environment, and
// the script the scripted model server follows (tool calls, then text). Each agent's scenarios
// are in its recipe (test/agents/<agent>/scenarios.mjs, or scripts/agents/opencodeStyle.mjs for
// the opencode-style agents), in the vocabulary of scripts/agents/steps.mjs; here they are
// gathered, agent by agent in the recipes' order.

import { RECIPES } from './recipes.mjs';

export { resolveScript, WORKSPACE } from './steps.mjs';

/** Every scenario, by id `<agent>/<scenario>`. */
export const SCENARIOS = Object.values(RECIPES).flatMap((recipe) => recipe.scenarios.map((s) => ({ agent: recipe.id, ...s, id: `${recipe.id}/${s.name}` })));

export function findScenario(id) {
  const found = SCENARIOS.find((s) => s.id === id);
  if (!found) throw new Error(`no scenario ${id}; known: ${SCENARIOS.map((s) => s.id).join(', ')}`);
  return found;
}

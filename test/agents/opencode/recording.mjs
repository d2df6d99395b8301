// How opencode is recorded (scripts/agents/, gathered by scripts/agents/recipes.mjs): as every
// opencode-style agent (scripts/agents/opencodeStyle.mjs: its command line, its configuration in
// the environment, its database, its scenarios), with its own package, command and variables.
// Its bash call is its 3rd model request (after its title request). Plain ESM: no build.
import { opencodeStyleRecipe } from '../../../scripts/agents/opencodeStyle.mjs';

export const recipe = opencodeStyleRecipe({ id: 'opencode', npmPackage: 'opencode-ai', name: 'opencode', prefix: 'OPENCODE', pin: '1.18.33', asked: 3 });

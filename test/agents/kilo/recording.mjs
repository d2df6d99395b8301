// How Kilo CLI is recorded: as every opencode-style agent (scripts/agents/opencodeStyle.mjs), with
// its own package, command, folder and variables. Its bash call is its 2nd model request (it asks
// for no title). Plain ESM: no build.
import { opencodeStyleRecipe } from '../../../scripts/agents/opencodeStyle.mjs';

export const recipe = opencodeStyleRecipe({
  id: 'kilo',
  npmPackage: '@kilocode/cli',
  pin: '7.7.7',
  name: 'kilo',
  prefix: 'KILO',
  env: { KILO_TELEMETRY_LEVEL: 'off', KILO_DISABLE_SESSION_INGEST: '1', KILO_DISABLE_CODEBASE_INDEXING: '1', KILO_DISABLE_PRESENCE: '1' },
  asked: 2,
});

// How Kilo CLI is recorded: as opencode (../opencode/recording.mjs), with its own package,
// command, folder and variables. Plain ESM: no build.
import { opencodeStyleRecipe } from '../opencode/recording.mjs';

export const recipe = opencodeStyleRecipe({
  id: 'kilo',
  npmPackage: '@kilocode/cli',
  name: 'kilo',
  prefix: 'KILO',
  env: { KILO_TELEMETRY_LEVEL: 'off', KILO_DISABLE_SESSION_INGEST: '1', KILO_DISABLE_CODEBASE_INDEXING: '1', KILO_DISABLE_PRESENCE: '1' },
});

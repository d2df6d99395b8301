// One build: compile the tool's input schema to standalone validation code, then
// bundle the extension and compile the integration tests.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot, runNode } from './lib/setup.mjs';

// Stale outputs would run tests that no longer exist.
for (const dir of ['dist', 'out']) fs.rmSync(path.join(repoRoot, dir), { recursive: true, force: true });

for (const args of [['scripts/gen-validator.mjs'], ['esbuild.mjs', ...process.argv.slice(2)]]) {
  if (!runNode(args)) process.exit(1);
}

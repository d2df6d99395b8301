// One build: compile the tool's input schema to standalone validation code, then
// bundle the extension and compile the integration tests.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';

// Stale outputs would run tests that no longer exist.
for (const dir of ['dist', 'out']) fs.rmSync(dir, { recursive: true, force: true });

const steps = [
  ['node', ['scripts/gen-validator.mjs']],
  ['node', ['esbuild.mjs', ...process.argv.slice(2)]],
];
for (const [command, args] of steps) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// Set-up shared by `npm test` and `npm start`: install the npm dependencies when
// they are missing or older than the lock file. Node built-ins only.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export function ensureDependencies() {
  const lock = path.join(repoRoot, 'package-lock.json');
  const installed = path.join(repoRoot, 'node_modules', '.package-lock.json');
  const fresh = fs.existsSync(installed) && fs.statSync(installed).mtimeMs >= fs.statSync(lock).mtimeMs;
  if (fresh) return;
  process.stderr.write('[agent-plan] installing npm dependencies (npm ci)\n');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write('[agent-plan] npm ci failed\n');
    process.exit(result.status ?? 1);
  }
}

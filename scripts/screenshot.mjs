// `npm run screenshot`: regenerates the README's pictures (docs/screenshot-en.png
// and docs/screenshot-zh-cn.png) by running the `screenshot` phase of the
// integration launcher in a real workbench, once per display language.
import { spawnSync } from 'node:child_process';
import { repoRoot } from './lib/setup.mjs';

for (const locale of ['en', 'zh-cn']) {
  const result = spawnSync('node', ['scripts/integration.mjs'], {
    cwd: repoRoot,
    stdio: 'inherit',
    env: { ...process.env, AGENT_PLAN_PHASES: 'screenshot', AGENT_PLAN_LOCALE: locale },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// `npm run screenshot`: regenerates the README's pictures (docs/screenshot-en.png
// and docs/screenshot-zh-cn.png) by running the `screenshot` phase of the
// integration launcher in a real workbench, once per display language.
import { runNode } from './lib/setup.mjs';

for (const locale of ['en', 'zh-cn']) {
  if (!runNode(['scripts/integration.mjs'], { env: { AGENT_PLAN_PHASES: 'screenshot', AGENT_PLAN_LOCALE: locale } })) process.exit(1);
}

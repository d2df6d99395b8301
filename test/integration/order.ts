// The order the main phase runs its files in: shuffled by the run's seed (scripts/lib/testOrder.cjs,
// AGENT_PLAN_TEST_SEED), so that a file that leans on another's leftovers shows up, and a failing
// order can be replayed. Each file makes its own sessions in its `before` and restores what it
// changes, so any order passes, and so does any file alone (AGENT_PLAN_TEST_FILE=<name>).
// Two places are held, because an extension host cannot undo them:
// - the files that need Copilot Chat not yet switched on run first: once a test has switched it
//   on (copilotAgent.ts, copilotReady), VS Code cannot switch an extension off again in that host;
// - the file that seeds the restart phase runs last: it records every session and pins one for
//   test/integration/restart/, and a later file's Follow Latest would unpin it.
// Plain Node (no vscode): the unit tests check it too (test/unit/project/testLayout.unit.test.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Seeds the restart phase: always the last file of the main phase. */
export const RESTART_SEED_FILE = 'before-restart.test.ts';
/** Need a host where Copilot Chat is not switched on yet: always before the others. */
export const BEFORE_COPILOT_FILES: readonly string[] = ['handoff-without-copilot.test.ts'];

interface TestOrder {
  testSeed(): number;
  shuffled<T>(items: readonly T[], seed: number): T[];
}

/** scripts/lib/testOrder.cjs, found from here whether this runs compiled (out/test/integration) or from its source. */
function testOrder(): TestOrder {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'scripts', 'lib', 'testOrder.cjs');
    if (fs.existsSync(file)) return require(file) as TestOrder;
    if (path.dirname(dir) === dir) throw new Error(`scripts/lib/testOrder.cjs not found above ${__dirname}`);
  }
}

/** The seed a run gave (a decimal number), else the environment's, else a new one (kept in the environment). */
export function orderSeed(given?: string): number {
  if (given !== undefined && /^\d+$/.test(given.trim())) process.env.AGENT_PLAN_TEST_SEED = given.trim();
  return testOrder().testSeed();
}

/** A file's name without its folder and its `.test.ts`/`.test.js`: what AGENT_PLAN_TEST_FILE names. */
export function testName(file: string): string {
  return path.basename(file).replace(/\.test\.(ts|js)$/, '');
}

/**
 * The main phase's files (names, .ts or .js) in the order they run: those that need Copilot off
 * first, then the rest, each group in the seed's order, and the restart-seeding file last.
 */
export function mainPhaseOrder(files: readonly string[], seed: number): string[] {
  const { shuffled } = testOrder();
  const is = (names: readonly string[]) => (file: string) => names.some((name) => testName(name) === testName(file));
  const first = files.filter(is(BEFORE_COPILOT_FILES));
  const last = files.filter(is([RESTART_SEED_FILE]));
  const rest = files.filter((file) => !first.includes(file) && !last.includes(file));
  return [...shuffled(first, seed), ...shuffled(rest, seed), ...last];
}

/** The files AGENT_PLAN_TEST_FILE names (comma-separated names, with or without `.test.ts`); all when it names none. */
export function selectFiles(files: readonly string[], wanted: string | undefined): string[] {
  const names = (wanted ?? '')
    .split(',')
    .map((name) => testName(name.trim()))
    .filter((name) => name !== '');
  if (names.length === 0) return [...files];
  const unknown = names.filter((name) => !files.some((file) => testName(file) === name));
  if (unknown.length > 0) throw new Error(`AGENT_PLAN_TEST_FILE names no test file: ${unknown.join(', ')} (the files: ${files.map(testName).join(', ')})`);
  return files.filter((file) => names.includes(testName(file)));
}

// Runs inside the VS Code extension host: the launcher's payload points
// `extensionTestsPath` here. Writes live progress and a results file into the run
// folder (the parent of the test workspace), because the host's console is not
// the launcher's.
//
// The main phase's files run in the order of the run's seed (./order.ts): the launcher writes
// the seed to seed.txt in the run folder (AGENT_PLAN_TEST_SEED replays an order), and the mocha
// log says it first. One file alone: AGENT_PLAN_TEST_FILE=<name> (e.g. `worktrees`, or several,
// comma-separated), which the launcher writes to file.txt; AGENT_PLAN_TEST_GREP (grep.txt) picks
// tests by title.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import Mocha from 'mocha';
import { mainPhaseOrder, orderSeed, selectFiles } from './order';

interface TestOutcome {
  title: string;
  /** The test's file, relative to the repository (test/integration/…). */
  file: string | undefined;
  state: 'passed' | 'failed';
  durationMs: number;
  error?: string;
}

export async function run(): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!folder) throw new Error('the integration tests need the fixture workspace open');
  const runDir = path.dirname(folder);
  const phase = fs.readFileSync(path.join(runDir, 'phase.txt'), 'utf8').trim();
  const logFile = path.join(runDir, 'logs', `mocha-${phase}.log`);
  const write = (line: string): void => fs.appendFileSync(logFile, line + '\n');

  // A test left `.only` or skipped fails the run rather than quietly shrinking it.
  const mocha = new Mocha({ ui: 'bdd', timeout: 30_000, forbidOnly: true, forbidPending: true, reporter: function () {} as unknown as string });
  const grepFile = path.join(runDir, 'grep.txt');
  if (fs.existsSync(grepFile)) mocha.grep(fs.readFileSync(grepFile, 'utf8').trim());
  const testsDir = path.join(__dirname, phase === 'main' ? '.' : phase);
  const files = fs.readdirSync(testsDir).filter((name) => name.endsWith('.test.js')).sort();
  if (phase === 'main') {
    const readIf = (name: string) => (fs.existsSync(path.join(runDir, name)) ? fs.readFileSync(path.join(runDir, name), 'utf8').trim() : undefined);
    const seed = orderSeed(readIf('seed.txt'));
    const order = mainPhaseOrder(selectFiles(files, readIf('file.txt')), seed);
    write(`integration order seed: ${seed} (replay with AGENT_PLAN_TEST_SEED=${seed})`);
    write(`integration order: ${order.join(', ')}`);
    for (const name of order) mocha.addFile(path.join(testsDir, name));
  } else {
    for (const name of files) mocha.addFile(path.join(testsDir, name));
  }

  const outcomes: TestOutcome[] = [];
  await new Promise<void>((resolve) => {
    const runner = mocha.run(() => resolve());
    let depth = 0;
    runner.on('suite', (suite: Mocha.Suite) => {
      if (suite.title) write(`${'  '.repeat(depth)}${suite.title}`);
      depth += suite.title ? 1 : 0;
    });
    runner.on('suite end', (suite: Mocha.Suite) => {
      depth -= suite.title ? 1 : 0;
    });
    runner.on('pass', (test: Mocha.Test) => {
      outcomes.push({ title: test.fullTitle(), file: sourceFile(test), state: 'passed', durationMs: test.duration ?? 0 });
      write(`${'  '.repeat(depth)}✔ ${test.title} (${test.duration ?? 0} ms)`);
    });
    runner.on('fail', (test: Mocha.Test, error: Error) => {
      const detail = error?.stack ?? String(error);
      outcomes.push({ title: test.fullTitle(), file: sourceFile(test), state: 'failed', durationMs: test.duration ?? 0, error: detail });
      write(`${'  '.repeat(depth)}✘ ${test.title}\n${detail.replace(/^/gm, '      ')}`);
    });
  });

  const passed = outcomes.filter((o) => o.state === 'passed').length;
  const failed = outcomes.length - passed;
  fs.writeFileSync(path.join(runDir, `results-${phase}.json`), JSON.stringify({ phase, passed, failed, tests: outcomes }, null, 2));
  if (failed > 0) throw new Error(`${failed} integration test(s) failed`);
}

/** The TypeScript file a compiled test came from (out/test/integration/x.test.js → test/integration/x.test.ts). */
function sourceFile(test: Mocha.Test): string | undefined {
  const file = test.file;
  if (file === undefined) return undefined;
  const at = file.split(path.sep).lastIndexOf('test');
  return at < 0 ? undefined : file.split(path.sep).slice(at).join('/').replace(/\.js$/, '.ts');
}

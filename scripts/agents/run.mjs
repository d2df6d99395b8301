// Runs the real agents, once per scenario, offline: each in a scratch HOME (and
// CODEX_HOME) and a scratch workspace, inside `unshare -n` — a network namespace
// whose only interface is loopback — with the scripted model server started inside
// the same namespace, so nothing can reach another host. Needs root.
// Usage: node scripts/agents/run.mjs [<agent>/<scenario> ...]   (default: all)
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureAgents, versionOf } from './install.mjs';
import { recipeOf } from './recipes.mjs';
import { findScenario, SCENARIOS } from './scenarios.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Why the agents cannot run on this machine, or null when they can. */
export function cannotRunReason() {
  if (process.platform !== 'linux') return `the agents run only on Linux (this is ${process.platform})`;
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return 'needs root, for a network namespace (unshare -n) with only loopback';
  for (const tool of ['unshare', 'ip']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `needs ${tool} (util-linux / iproute2)`;
  }
  const probe = spawnSync('unshare', ['-n', 'sh', '-c', 'ip link set lo up'], { encoding: 'utf8' });
  if (probe.status !== 0) return `unshare -n failed: ${(probe.stderr || '').trim() || probe.status}`;
  return null;
}

/**
 * True when the run ended as its scenario plans: it exited 0, or (an interactive run with
 * `tty.endSignal`) it was ended with that signal at its planned time and died of it.
 */
export function endedAsPlanned(scenario, result) {
  if (result.timedOut) return false;
  const signal = scenario.tty?.endSignal;
  if (signal !== undefined) return result.ended === signal && result.signal === signal;
  return result.code === 0;
}

/** The scratch folders of one run under `root`; the workspace is `<root>/<agent>-<name>/work/demo`. */
export function runDirs(root, scenario) {
  const base = path.join(root, `${scenario.agent}-${scenario.name}`);
  return {
    base,
    home: path.join(base, 'home'),
    // opencode's and Kilo CLI's databases are in <XDG_DATA_HOME>/<agent>.
    xdgData: path.join(base, 'home', '.local', 'share'),
    codexHome: path.join(base, 'codex-home'),
    workspace: path.join(base, 'work', 'demo'),
    tmp: path.join(base, 'tmp'),
    run: path.join(base, 'run'),
  };
}

function listFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name))
    .sort();
}

/** The agent's own files this project reads: { role: [absolute paths] } (its recipe says which). */
export function agentFiles(agent, dirs) {
  return recipeOf(agent).files(dirs, listFiles);
}

/**
 * Runs one scenario (its id, or a scenario object shaped like those in scenarios.mjs)
 * under `root`, a folder of scratch runs: this run's own folder in it is made afresh.
 * `home`, `codexHome`, `xdgDataHome` and `workspace` may name folders of the caller's
 * instead (they are used as they are, never emptied); `delayMs` slows each model answer.
 * Returns { scenario, dirs, result, files, version }.
 */
export async function runScenario(idOrScenario, { root, timeoutMs = 120_000, delayMs = 0, home, codexHome, xdgDataHome, workspace } = {}) {
  const scenario = typeof idOrScenario === 'string' ? findScenario(idOrScenario) : { id: `${idOrScenario.agent}/${idOrScenario.name}`, env: {}, ...idOrScenario };
  await ensureAgents();
  const dirs = runDirs(root ?? fs.mkdtempSync(path.join(os.tmpdir(), 'agent-plan-agents-')), scenario);
  fs.rmSync(dirs.base, { recursive: true, force: true });
  if (home) {
    dirs.home = home;
    dirs.xdgData = path.join(home, '.local', 'share');
  }
  if (xdgDataHome) dirs.xdgData = xdgDataHome;
  if (codexHome) dirs.codexHome = codexHome;
  if (workspace) {
    dirs.workspace = workspace;
  } else {
    // A small project for the agent to sit in; the scripted model never reads it.
    fs.mkdirSync(path.join(dirs.workspace, 'src'), { recursive: true });
    fs.writeFileSync(path.join(dirs.workspace, 'src', 'parser.ts'), 'export function parse(input: string): string[] {\n  return input.split(/\\s+/).filter(Boolean);\n}\n');
  }
  for (const dir of [dirs.home, dirs.workspace, dirs.tmp, dirs.run]) fs.mkdirSync(dir, { recursive: true });
  const specPath = path.join(dirs.run, 'spec.json');
  fs.writeFileSync(specPath, JSON.stringify({ scenario, dirs, timeoutMs, delayMs }, null, 2) + '\n');
  const started = Date.now();
  // Asynchronous, so a caller can watch (a workbench, say) while the agent works.
  const ns = spawn(
    'unshare',
    ['-n', 'sh', '-c', 'ip link set lo up && exec "$0" "$@"', process.execPath, path.join(here, 'child.mjs'), specPath],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  ns.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const killer = setTimeout(() => ns.kill('SIGKILL'), timeoutMs + 30_000);
  const [status, signal] = await new Promise((resolve) => ns.on('close', (c, s) => resolve([c, s])));
  clearTimeout(killer);
  if (status !== 0) throw new Error(`${scenario.id}: the namespaced run failed (${status ?? signal}): ${stderr}`);
  const result = JSON.parse(fs.readFileSync(path.join(dirs.run, 'result.json'), 'utf8'));
  result.wallMs = Date.now() - started;
  return { scenario, dirs, result, files: agentFiles(scenario.agent, dirs), version: versionOf(scenario) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const reason = cannotRunReason();
  if (reason) {
    process.stdout.write(`[agents] SKIPPED: the real agents were not run: ${reason}.\n`);
    process.exit(0);
  }
  const ids = process.argv.slice(2).length ? process.argv.slice(2) : SCENARIOS.map((s) => s.id);
  let failed = 0;
  for (const id of ids) {
    const run = await runScenario(id);
    const { code, timedOut, requests, wallMs } = run.result;
    if (code !== 0 || timedOut) failed += 1;
    process.stdout.write(`[agents] ${id}: exit ${code}${timedOut ? ' (timed out)' : ''}, ${requests} model requests, ${wallMs} ms, in ${run.dirs.base}\n`);
    for (const [role, files] of Object.entries(run.files)) for (const f of files) process.stdout.write(`  ${role}: ${f}\n`);
  }
  process.exit(failed ? 1 : 0);
}

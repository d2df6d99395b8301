// Re-records the agents' recordings: runs every scenario (or those named) with the real
// agents offline (see run.mjs) and copies the files each agent wrote into its test twin,
// test/agents/<agent folder>/recordings/<scenario>/, under the same relative paths as in its
// scratch HOME / CODEX_HOME, plus a meta.json of how the run was made.
// Runs live at fixed scratch paths (/tmp/agent-plan-recording/<agent>-<scenario>),
// so the paths inside the files stay the same from one recording to the next and
// need no rewriting. Usage: npm run record:agents [-- <agent>/<scenario> ...]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { modelOf } from './environment.mjs';
import { recipeOf, recordingsOf } from './recipes.mjs';
import { cannotRunReason, endedAsPlanned, runScenario } from './run.mjs';
import { SCENARIOS } from './scenarios.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const RECORDING_ROOT = '/tmp/agent-plan-recording';

/** Where a file of the run goes in the recording: `home/…` or `codex-home/…`. */
function fixturePath(dirs, file) {
  for (const [prefix, dir] of [['codex-home', dirs.codexHome], ['home', dirs.home]]) {
    const rel = path.relative(dir, file);
    if (!rel.startsWith('..') && !path.isAbsolute(rel)) return path.join(prefix, rel);
  }
  throw new Error(`${file} is outside the run's homes`);
}

function toolsOffered(request) {
  const body = request.body ?? {};
  if (Array.isArray(body.tools)) {
    return body.tools.flatMap((t) => (t.name ? [t.name] : t.functionDeclarations ? t.functionDeclarations.map((f) => f.name) : t.type === 'function' ? [t.function?.name ?? t.name] : [t.type]));
  }
  return [];
}

async function record(scenario) {
  const run = await runScenario(scenario.id, { root: RECORDING_ROOT });
  const { result, dirs } = run;
  if (!endedAsPlanned(scenario, result)) {
    throw new Error(`${scenario.id}: ${result.command} exited ${result.code ?? result.signal}${result.timedOut ? ' (timed out)' : ''}; see ${dirs.run}`);
  }
  const extra = recipeOf(scenario.agent).extraFiles?.(dirs) ?? [];
  const files = [...Object.values(run.files).flat(), ...extra];
  if (files.length === 0) throw new Error(`${scenario.id}: the agent wrote no session file; see ${dirs.run}`);
  const target = path.join(recordingsOf(scenario.agent), scenario.name);
  fs.rmSync(target, { recursive: true, force: true });
  const copied = [];
  for (const file of files) {
    const rel = fixturePath(dirs, file);
    fs.mkdirSync(path.dirname(path.join(target, rel)), { recursive: true });
    fs.copyFileSync(file, path.join(target, rel));
    fs.chmodSync(path.join(target, rel), 0o644); // as git checks it out (Claude writes 0600)
    copied.push({ path: rel, bytes: fs.statSync(file).size });
  }
  const snapshots = path.join(dirs.run, 'task-snapshots');
  if (fs.existsSync(snapshots)) {
    fs.cpSync(snapshots, path.join(target, 'task-snapshots'), { recursive: true });
    for (const entry of fs.readdirSync(path.join(target, 'task-snapshots'), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = path.join(entry.parentPath ?? entry.path, entry.name);
      fs.chmodSync(file, 0o644);
      copied.push({ path: path.relative(target, file), bytes: fs.statSync(file).size });
    }
  }
  const requests = JSON.parse(fs.readFileSync(path.join(dirs.run, 'requests.json'), 'utf8'));
  const meta = {
    agent: scenario.agent,
    scenario: scenario.name,
    version: run.version,
    model: modelOf(scenario),
    command: [result.command, ...result.args],
    env: scenario.env,
    // An interactive run: in a pseudo-terminal, with the keys typed and when.
    ...(scenario.tty ? { tty: scenario.tty } : {}),
    workspace: dirs.workspace,
    home: dirs.home,
    ...(scenario.agent === 'codex' ? { codexHome: dirs.codexHome } : {}),
    recordedAt: new Date().toISOString(),
    runMs: result.ms,
    files: copied,
    script: scenario.script,
    requests: requests.map((r) => ({ method: r.method, url: r.url, toolsOffered: toolsOffered(r), played: r.played ?? null })),
  };
  fs.writeFileSync(path.join(target, 'meta.json'), JSON.stringify(meta, null, 2) + '\n');
  return { target, copied, ms: result.ms };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const reason = cannotRunReason();
  if (reason) {
    process.stderr.write(`[agents] cannot re-record the agents here: ${reason}.\n`);
    process.exit(1);
  }
  const wanted = process.argv.slice(2);
  const scenarios = wanted.length ? SCENARIOS.filter((s) => wanted.includes(s.id)) : SCENARIOS;
  if (wanted.length && scenarios.length !== wanted.length) throw new Error(`unknown scenario in ${wanted.join(', ')}`);
  for (const scenario of scenarios) {
    const { target, copied, ms } = await record(scenario);
    const total = copied.reduce((n, f) => n + f.bytes, 0);
    process.stdout.write(`[agents] ${scenario.id}: ${copied.length} files, ${total} bytes, run ${ms} ms → ${path.relative(repoRoot, target)}\n`);
  }
}

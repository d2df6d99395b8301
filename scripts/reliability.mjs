// `npm run test:reliability`: the reliability suite (test/reliability, plain Node through
// tsx) — fuzzing, crashes, concurrent writers, disk faults, hostile keys, corrupted logs.
// Each scenario writes its figures as JSON lines to AGENT_PLAN_RELIABILITY_FIGURES (a temp
// file unless the caller names one); this script ends with a table of all of them.
// AGENT_PLAN_COUNTS passes through to the counting reporter, as in scripts/test.mjs.
// Extra arguments go to mocha (e.g. `--grep crash`).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cleanEnv, repoRoot } from './lib/setup.mjs';

const started = Date.now();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-plan-reliability-'));
const figuresFile = process.env.AGENT_PLAN_RELIABILITY_FIGURES || path.join(tmp, 'figures.jsonl');
fs.writeFileSync(figuresFile, '');
// One seed for every scenario's random choices, printed so a failure can be replayed.
const seed = process.env.AGENT_PLAN_RELIABILITY_SEED || String(Math.floor(Math.random() * 2 ** 32));
console.log(`reliability seed: ${seed} (replay with AGENT_PLAN_RELIABILITY_SEED=${seed})`);

const result = spawnSync(
  process.execPath,
  [
    path.join(repoRoot, 'node_modules', 'mocha', 'bin', 'mocha.js'),
    '--config',
    '.mocharc.reliability.cjs',
    '--reporter',
    'scripts/lib/counting-reporter.cjs',
    ...process.argv.slice(2),
  ],
  { cwd: repoRoot, stdio: 'inherit', env: cleanEnv({ AGENT_PLAN_RELIABILITY_FIGURES: figuresFile, AGENT_PLAN_RELIABILITY_SEED: seed }) },
);

const rows = [];
for (const line of fs.readFileSync(figuresFile, 'utf8').split('\n')) {
  if (line.trim() === '') continue;
  try {
    const { scenario, figures } = JSON.parse(line);
    const entries = Object.entries(figures ?? {});
    if (entries.length === 0) rows.push([scenario, '', '']);
    entries.forEach(([name, value], i) => rows.push([i === 0 ? scenario : '', name, String(value)]));
  } catch {
    rows.push(['(unreadable figures line)', '', line.slice(0, 60)]);
  }
}
fs.rmSync(tmp, { recursive: true, force: true });

const header = ['scenario', 'figure', 'value'];
const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
const format = (cells) => cells.map((cell, c) => cell.padEnd(widths[c])).join('  ').trimEnd();
console.log('\nReliability figures');
console.log(format(header));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const row of rows) console.log(format(row));
if (rows.length === 0) console.log('(no scenario reported figures)');
console.log(`\nreliability suite: ${((Date.now() - started) / 1000).toFixed(1)} s, seed ${seed}`);

if (result.error) console.error(result.error);
process.exit(result.status ?? 1);

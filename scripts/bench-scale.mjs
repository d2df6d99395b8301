// npm run bench:scale — the scale rows of the log engine, side by side with the approach
// they replace, as ratios: activation over 10,000 sessions, first and on a reload (first
// paint against the whole load), and the newest 100 versions and one version by its address
// in a 100,000-write history (against a full replay).
// Bundles test/bench/core.ts as scripts/bench.mjs does, runs once, prints JSON and a table.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadBenchCore } from './bench/core.mjs';

const SESSIONS = Number(process.env.AGENT_PLAN_BENCH_SESSIONS ?? 10_000);
const WRITES = Number(process.env.AGENT_PLAN_BENCH_WRITES ?? 100_000);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-plan-bench-scale-'));
try {
  const core = await loadBenchCore(tmp);
  const say = (text) => process.stderr.write(`${text}\n`);
  const load = await core.benchScaleLoad(tmp, SESSIONS, 20, say);
  const history = await core.benchHistoryPage(tmp, WRITES, say);
  const ms = (n) => `${n.toFixed(1)} ms`;
  const ratio = (a, b) => `${(b / a).toFixed(0)}×`;
  console.log(JSON.stringify({ load, history }));
  console.log(`| operation | now | before (same run) | ratio |`);
  console.log(`|---|---|---|---|`);
  const sessions = `${SESSIONS.toLocaleString('en')} sessions of 20 writes`;
  console.log(`| first activation, ${sessions}: Plan view painted | ${ms(load.firstPaintMs)} | ${ms(load.fullLoadMs)} (whole load) | ${ratio(load.firstPaintMs, load.fullLoadMs)} |`);
  console.log(`| reload (shown session remembered), ${sessions}: Plan view painted | ${ms(load.reloadFirstPaintMs)} | ${ms(load.reloadFullLoadMs)} (whole load) | ${ratio(load.reloadFirstPaintMs, load.reloadFullLoadMs)} |`);
  const writes = `${WRITES.toLocaleString('en')} writes (${(history.fileBytes / 1e6).toFixed(0)} MB)`;
  console.log(`| newest 100 versions (Show History), ${writes} | ${ms(history.newestMs)}, +${history.newestHeapMB.toFixed(1)} MB heap | ${ms(history.fullMs)}, +${history.fullHeapMB.toFixed(0)} MB heap (whole history) | ${ratio(history.newestMs, history.fullMs)} |`);
  console.log(`| one version halfway back (Compare, snapshot documents), ${writes} | ${ms(history.versionAtMs)} | ${ms(history.fullMs)} (whole history) | ${ratio(history.versionAtMs, history.fullMs)} |`);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

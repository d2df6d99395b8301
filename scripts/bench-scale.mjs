// npm run bench:scale — only the scale rows of `npm run bench` (scripts/bench/scale.mjs),
// for trying the log engine at scale quickly; prints the figures as JSON and the table.
// AGENT_PLAN_BENCH_SESSIONS and AGENT_PLAN_BENCH_WRITES change the sizes.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadBenchCore } from './bench/core.mjs';
import { renderText } from './bench/report.mjs';
import { benchScale } from './bench/scale.mjs';

const sessions = Number(process.env.AGENT_PLAN_BENCH_SESSIONS ?? 10_000);
const writes = Number(process.env.AGENT_PLAN_BENCH_WRITES ?? 100_000);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-plan-bench-scale-'));
try {
  const core = await loadBenchCore(tmp);
  const { figures, table } = await benchScale(core, tmp, { sessions, writes, onProgress: (text) => process.stderr.write(`${text}\n`) });
  console.log(JSON.stringify(figures));
  console.log(renderText(table));
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

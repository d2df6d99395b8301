// npm run bench:memory — only the memory rows of `npm run bench` (scripts/bench/memory.mjs):
// the heap the extension's state holds at 1,000 / 10,000 / 100,000 sessions, now and before,
// each in a Node process of its own. Prints the figures as JSON and the table.
//   AGENT_PLAN_BENCH_SIZES=10000      the sizes, comma-separated (default 1000,10000,100000)
//   AGENT_PLAN_BENCH_BEFORE=<commit>  the tree compared with (default: scripts/bench/memory.mjs)
//   AGENT_PLAN_BENCH_DATA=<folder>    keeps the written sessions there for the next run
//   --write                           puts the table into docs/benchmarks.md (its memory section and summary)
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { renderMarkdown, renderText } from './bench/report.mjs';
import { benchMemoryRows } from './bench/memory.mjs';
import { repoRoot } from './lib/host.mjs';

const sizes = (process.env.AGENT_PLAN_BENCH_SIZES ?? '1000,10000,100000')
  .split(',')
  .map((size) => Number(size.trim().replace(/_/g, '')))
  .filter((size) => Number.isInteger(size) && size > 0);
const dataDir = process.env.AGENT_PLAN_BENCH_DATA || undefined;

const loadAverage = os.loadavg().map((load) => load.toFixed(2));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-plan-bench-memory-'));
try {
  const { figures, table } = await benchMemoryRows(tmp, { sizes, dataDir, onProgress: (text) => process.stderr.write(`${text}\n`) });
  console.log(JSON.stringify(figures));
  console.log(renderText(table));
  if (process.argv.includes('--write')) writeDocs(figures, table);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

/** Replaces the memory table of docs/benchmarks.md and the heap figure of its summary line. */
function writeDocs(figures, table) {
  const file = path.join(repoRoot, 'docs', 'benchmarks.md');
  const text = fs.readFileSync(file, 'utf8');
  const heading = '### Memory follows the screen, not the history';
  const from = text.indexOf(heading);
  const to = from === -1 ? -1 : text.indexOf('\n### ', from + heading.length);
  if (from === -1 || to === -1) throw new Error('docs/benchmarks.md has no memory section');
  const measured = `- Measured on its own by \`npm run bench:memory\` on ${new Date().toISOString().slice(0, 10)} (${os.cpus().length} cores, Node ${process.version}, load average ${loadAverage.join(' / ')} at the start), not in the run the rest of this page comes from: the heap is what to read; on a busy machine the load times are noise.`;
  let next = `${text.slice(0, from)}${heading}\n\n${renderMarkdown(table).replace(/^#### .*\n\n/, '')}\n${measured}\n${text.slice(to)}`;
  const heap = figures.find((row) => row.sessions === 10_000);
  if (heap) {
    const figure = `heap at 10,000 sessions +${heap.now.heapMB.toFixed(1)} MiB${heap.before ? ` (before +${heap.before.heapMB.toFixed(1)} MiB)` : ''}`;
    next = next.replace(/heap at 10,000 sessions \+[0-9.]+ MiB( \(before \+[0-9.]+ MiB\))?/, figure);
  }
  fs.writeFileSync(file, next);
}

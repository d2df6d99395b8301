// The README's seven-line performance summary, written by `npm run bench` between the
// README's performance markers from the same report as docs/benchmarks.md. A unit test
// holds the README's lines to what this writes from docs/benchmarks.json.
import { bytes, count, ms, ratio } from './report.mjs';

export const README_START = '<!-- performance:start -->';
export const README_END = '<!-- performance:end -->';

/** Seven Markdown list lines, then a link to the full tables. */
export function readmeSummary(report) {
  const writes = report.writePath.rows;
  const first = writes[0];
  const last = writes[writes.length - 1];
  const read = report.readPath.rows[report.readPath.rows.length - 1];
  const def = report.tokens.rows.find((row) => row.name.startsWith('tool: name'));
  const host = report.host && !report.host.error ? report.host : undefined;
  const lines = [
    `- **Writing a plan stays flat:** one \`todo_write\` call takes ${ms(first.ours.median)} ms with ${count(first.prior)} prior write and ${ms(last.ours.median)} ms with ${count(last.prior)} (a JSON file rewritten whole: ${ratio(last.jsonFile.median / last.ours.median)} slower there).`,
    `- **Opening a plan reads no history:** the current plan of a session of ${count(read.prior)} writes loads in ${ms(read.current.median)} ms (a full replay: ${ratio(read.history.median / read.current.median)}).`,
    host
      ? `- **Activation:** ${ms(host.activation.empty.totalMs)} ms in the real host, off the start-up path (code loading ${ms(host.activation.empty.codeLoadingMs)} ms, \`activate()\` ${ms(host.activation.empty.activateMs)} ms); idle with ${count(host.idle.sessions.sessions)} sessions costs ${pointsOver(host.idle)} points of one core over VS Code alone.`
      : '- **Activation and idle in the real host:** not measured in this run.',
    host ? sidebarLine(host.latency) : '- **A tool call reaches the sidebar:** not measured in this run.',
    memoryLine(report.memory),
    snapshotLine(report.snapshot),
    `- **Size and model cost:** the bundle is ${bytes(report.bundle.production.bytes)} (${bytes(report.bundle.production.gzipBytes)} gzip); the tool's definition costs the model ${def?.o200k_base ?? '–'} tokens (o200k_base) per request that offers it.`,
    '',
    `Measured on ${report.generatedAt.slice(0, 10)} on ${report.machine.cores} shared cores; every table, the machine and the method: [docs/benchmarks.md](docs/benchmarks.md).`,
  ];
  return lines.join('\n');
}

function sidebarLine(latency) {
  const plan = latency.savedToDom;
  const bare = latency.bareWithSave;
  const status = latency.statusWithSave;
  if (!bare) return `- **A tool call reaches the sidebar** in ${ms(latency.dom.median)} ms from the chat request (median; ${ms(plan.median)} ms from the saved line to the row).`;
  return `- **A tool call reaches the sidebar** in ${ms(latency.dom.median)} ms from the chat request; from the saved line to the row ${ms(plan.median)} ms median, ${ms(plan.p95)} ms p95 (a bare tree view: ${ms(bare.median)} / ${ms(bare.p95)}, ${ratio(plan.median / bare.median)} / ${ratio(plan.p95 / bare.p95)}; the status bar: ${ms(status.median)} / ${ms(status.p95)}, ${ratio(plan.median / status.median)} / ${ratio(plan.p95 / status.p95)}).`;
}

function snapshotLine(snapshot) {
  if (!snapshot) return '- **Snapshots for review:** not measured in this run.';
  const { runner, here } = snapshot;
  return `- **Snapshots for review stay off the event loop:** a working tree of ${count(snapshot.files)} files snapshots in ${ms(runner.medianMs)} ms (median); the event loop's longest wait in one was ${ms(runner.medianGapMs)} ms (median), ${ms(runner.maxGapMs)} ms at most (git started from the host's thread: ${ms(here.medianGapMs)} / ${ms(here.maxGapMs)}); ${count(snapshot.versions)} plan versions with one in-progress set took ${count(snapshot.snapshotsTaken)} snapshot${snapshot.snapshotsTaken === 1 ? '' : 's'}.`;
}

function memoryLine(rows) {
  if (!rows || rows.length === 0) return '- **Memory follows the screen:** not measured in this run.';
  const heap = (row) => `+${row.now.heapMB.toFixed(1)} MiB at ${count(row.sessions)}${row.before ? ` (before: +${row.before.heapMB.toFixed(1)})` : ''}`;
  return `- **Memory follows the screen:** the heap held with every book built is ${rows.map(heap).join(', ')} sessions.`;
}

function pointsOver(idle) {
  const over = idle.sessions.cpuPercent - idle.without.cpuPercent;
  return `${over >= 0 ? '+' : ''}${over.toFixed(2)}`;
}

/** The README's text with the summary between its markers, or undefined when it has none. */
export function withReadmeSummary(readme, report) {
  const from = readme.indexOf(README_START);
  const to = readme.indexOf(README_END);
  if (from === -1 || to < from) return undefined;
  return `${readme.slice(0, from)}${README_START}\n${readmeSummary(report)}\n${readme.slice(to)}`;
}

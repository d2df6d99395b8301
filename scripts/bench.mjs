// `npm run bench`: a benchmark, not a test (nothing is asserted). Measures
//   1. the write path (one todo_write call) as the history grows, next to the usual
//      ways of storing a plan (one JSON file rewritten whole; a workspaceState-like map),
//   2. reading the current plan (tail read) next to a full replay, the heap held over many
//      sessions now and before (scripts/bench/memory.mjs), and the scale rows
//      (many sessions, a long history; scripts/bench/scale.mjs) next to what they replaced,
//   3. the production bundle's size,
//   2c. idle: what runs on a timer while nothing happens (the log's file-system calls counted),
//   4. in the real VS Code host: activation, write → row in the Plan view's DOM, and the
//      extension host's CPU while idle, with and without Agent Plan,
//   4b. in the real VS Code host: the extension host's heap with Agent Plan over empty storage and
//      1,000 / 10,000 / 100,000 sessions beside VS Code alone, heap snapshots by feature at 0 and
//      10,000 (scripts/bench/hostHeap.mjs); past the budget the bench fails,
//   5. the model's token cost of the tool definition, its arguments and its results,
//   2f. the working tree's snapshots for review: their cost at 50,000 files and the event
//      loop's longest wait, git started by the runner process next to from the host's thread,
//      and the snapshots a session of 500 versions with one in-progress set takes; the store's
//      bounds (a 1 GB untracked file, space back after deleting the session) next to the code before,
// prints the tables, and writes docs/benchmarks.md, docs/benchmarks.json and the README's
// seven-line summary (scripts/bench/readme.mjs).
//
// Flags: --no-host skips parts 4 and 4b; --quick uses small budgets (for trying the script out);
// --snapshots-only runs part 2f alone and puts its table into the files the last run wrote;
// --heap-only does the same for part 4b (and fails past the heap's budget).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CODE_SERVER_VERSION, HOST_NODE_VERSION, cleanupStack, codeServerEntry, log, repoRoot } from './lib/host.mjs';
import { bundleSizes } from './bench/bundle.mjs';
import { loadBenchCore } from './bench/core.mjs';
import { runHostBench } from './bench/host.mjs';
import { bytes, count, ms, ratio, renderMarkdown, renderText } from './bench/report.mjs';
import { withReadmeSummary } from './bench/readme.mjs';
import { benchScale } from './bench/scale.mjs';
import { benchMemoryRows } from './bench/memory.mjs';
import { HEAP_BUDGET_MIB, benchHostHeap } from './bench/hostHeap.mjs';
import { benchSnapshotStore } from './bench/snapshotStore.mjs';
import { tokenCounts } from './bench/tokens.mjs';

const args = new Set(process.argv.slice(2));
const QUICK = args.has('--quick');
const HOST = !args.has('--no-host');
/** Only the host's latency phase, its tables printed and nothing written: for working on the views. */
const LATENCY_ONLY = args.has('--latency-only');
/** Only the snapshots' rows (2f), merged into the report the last full run wrote. */
const SNAPSHOTS_ONLY = args.has('--snapshots-only');
/** Only the heap in the real host (4b), merged into the report the last full run wrote. */
const HEAP_ONLY = args.has('--heap-only');
const HEAP_SIZES = QUICK ? [0, 1_000] : [0, 1_000, 10_000, 100_000];
const SNAPSHOT_FILES = QUICK ? 5_000 : 50_000;
const SNAPSHOT_RUNS = QUICK ? 3 : 9;
/** Held while snapshots are measured, as a host holds its heap (a process start copies the starting process's page tables). */
const SNAPSHOT_HEAP_MB = 300;
const SNAPSHOT_VERSIONS = 500;
/** The big untracked file beside the 50,000 files (a core dump, a data set), in MB. */
const SNAPSHOT_BIG_MB = QUICK ? 100 : 1024;
const WRITE_SIZES = [1, 100, 10_000];
const READ_SIZES = [1, 1_000, 100_000];
const ACTIVATION_RUNS = Number(process.env.AGENT_PLAN_BENCH_ACTIVATIONS ?? (QUICK ? 1 : 3));
const LATENCY_WRITES = Number(process.env.AGENT_PLAN_BENCH_WRITES ?? (QUICK ? 5 : 22));
const SEED_WRITES = 100_000;
/** workspaceState-like peer: sessions besides the measured one, and their history length. */
const OTHER_SESSIONS = 9;
const OTHER_HISTORY = 20;
const IDLE_SESSIONS = QUICK ? 1_000 : 10_000;
const IDLE_SECONDS = Number(process.env.AGENT_PLAN_BENCH_IDLE_SECONDS ?? (QUICK ? 10 : 60));
const FOREIGN = { claude: 300, codex: 3_000, days: 300 };

const SECTIONS = {
  write: '### Writing a plan stays flat as the history grows',
  read: '### Loading the current plan does not replay the history',
  activation: '### Activation',
  scale: '### Scale: many sessions, long histories',
  memory: '### Memory follows the screen, not the history',
  hostHeap: '### Memory in the real host, beside VS Code alone',
  hostHeapSnapshot: '### What the extension host keeps alive, by feature',
  health: '### Plan health costs little per line',
  timeline: '### The Plan Timeline opens on its newest page',
  snapshot: '### Snapshots for review stay off the event loop',
  snapshotStore: '### The snapshot store stays bounded',
  idle: '### Idle costs nothing',
  idleHost: '### Idle in the real host, beside VS Code alone',
  latency: '### From a tool call to the sidebar',
  latencyControls: '### The Plan view beside a bare tree view and the status bar',
  bundle: '### Size',
  tokens: '### What the tool costs the model',
};

/** The tables' order in docs/benchmarks.md. */
const TABLE_ORDER = ['write', 'read', 'activation', 'scale', 'memory', 'hostHeap', 'hostHeapSnapshot', 'health', 'timeline', 'snapshot', 'snapshotStore', 'idle', 'idleHost', 'latency', 'latencyControls', 'bundle', 'tokens'];

const startedAt = new Date();
const started = performance.now();
const loadAtStart = os.loadavg();

const cleanups = cleanupStack();
const cleanup = cleanups.run;

const progress = (text) => log(text);

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-plan-bench-'));
  cleanups.push(() => fs.rmSync(tmp, { recursive: true, force: true }));

  // The core as the extension ships it: bundled by esbuild for Node 20.
  const core = await loadBenchCore(tmp);
  if (LATENCY_ONLY) return latencyOnly(tmp);
  if (SNAPSHOTS_ONLY) return snapshotsOnly(core, tmp);
  if (HEAP_ONLY) return heapOnly(tmp);

  const report = {
    generatedAt: startedAt.toISOString(),
    machine: {
      cpu: os.cpus()[0]?.model ?? 'unknown',
      cores: os.cpus().length,
      memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
      node: process.version,
      os: `${os.type()} ${os.release()} ${os.arch()}`,
      loadAverageAtStart: loadAtStart.map((l) => Math.round(l * 100) / 100),
    },
    commands: ['npm run bench', 'node scripts/bench.mjs --no-host   # after `npm run build`: parts 1–3 and 5 only'],
  };
  const tables = [];

  // 1. Write path.
  const budget = QUICK
    ? () => ({ warmup: 2, minSamples: 10, maxSamples: 50, budgetMs: 200 })
    : () => ({ warmup: 5, minSamples: 30, maxSamples: 1000, budgetMs: 2000 });
  const write = await core.benchWritePath({
    dir: tmp,
    sizes: WRITE_SIZES,
    budget,
    otherSessions: OTHER_SESSIONS,
    otherHistory: OTHER_HISTORY,
    onProgress: progress,
  });
  report.writePath = { listItems: 20, otherSessions: OTHER_SESSIONS, otherHistory: OTHER_HISTORY, rows: write };
  const oneLine = core.lineBytes();
  tables.push({
    key: 'write',
    title: 'Write path: one todo_write call (validate + append + result text), 20-item list, ms',
    headers: ['prior writes', 'ours median', 'ours p95', 'JSON file median', 'p95', 'written/call', 'JSON file ÷ ours', 'workspaceState-like median', 'p95', 'written/call', 'wS ÷ ours'],
    align: 'rrrrrrrrrrr',
    rows: write.map((r) => [
      count(r.prior),
      ms(r.ours.median),
      ms(r.ours.p95),
      ms(r.jsonFile.median),
      ms(r.jsonFile.p95),
      bytes(r.jsonFileBytes),
      ratio(r.jsonFile.median / r.ours.median),
      ms(r.workspaceState.median),
      ms(r.workspaceState.p95),
      bytes(r.workspaceStateBytes),
      ratio(r.workspaceState.median / r.ours.median),
    ]),
    notes: [
      `ours: runTodoWrite() from src/core/store/todoWrite.ts over a real SessionLog (JSON Lines, one O_APPEND write of ~${bytes(oneLine)} per call) in a temp folder; the file starts with the given number of writes and grows by one line per sample.`,
      'JSON file: the session\'s whole history in one JSON file, serialized and rewritten whole on every call (temp file + rename).',
      `workspaceState-like: one map of every session's plan + history (this one + ${OTHER_SESSIONS} others of ${OTHER_HISTORY} writes) serialized whole on every update and written in place.`,
      'Both peers validate with the same code and keep the history in memory (never read back), so only the storage differs; each of their samples sees exactly the given history size.',
    ],
  });

  // 2. Read path.
  const readBudget = QUICK
    ? (prior, kind) => (kind === 'current' ? { warmup: 2, minSamples: 10, maxSamples: 50, budgetMs: 200 } : { warmup: 0, minSamples: 1, maxSamples: 3, budgetMs: 200 })
    : (prior, kind) =>
        kind === 'current'
          ? { warmup: 5, minSamples: 30, maxSamples: 1000, budgetMs: 1000 }
          : prior >= 100_000
            ? { warmup: 0, minSamples: 3, maxSamples: 10, budgetMs: 3000 }
            : { warmup: 3, minSamples: 10, maxSamples: 300, budgetMs: 1000 };
  const read = await core.benchReadPath({ dir: tmp, sizes: READ_SIZES, budget: readBudget, onProgress: progress });
  report.readPath = { rows: read };
  tables.push({
    key: 'read',
    title: 'Reading the current plan of a session, ms',
    headers: ['prior writes', 'log size', 'current() median', 'p95', 'history() median', 'history ÷ current', 'parse every line median', 'parse ÷ current'],
    align: 'rrrrrrrr',
    rows: read.map((r) => [
      count(r.prior),
      bytes(r.fileBytes),
      ms(r.current.median),
      ms(r.current.p95),
      ms(r.history.median),
      ratio(r.history.median / r.current.median),
      ms(r.naive.median),
      ratio(r.naive.median / r.current.median),
    ]),
    notes: [
      'current(): SessionLog.current, which reads the file backwards in 64 KiB chunks until the last valid event (what activation and the view use).',
      'history(): SessionLog.history, a full replay that validates every line (what the history commands use).',
      'parse every line: readFile + JSON.parse of each line, no validation (the simplest full replay).',
      'Files are in the OS page cache (written just before); a cold disk makes the replays slower still.',
    ],
  });

  // 2b. Scale: many sessions, a long history.
  const scale = await benchScale(core, tmp, { sessions: QUICK ? 1_000 : 10_000, writes: QUICK ? 10_000 : 100_000, onProgress: progress });
  report.scale = scale.figures;
  tables.push(scale.table);

  // 2b'. Memory: the heap held over many sessions, now and before (same run).
  const memory = await benchMemoryRows(tmp, { sizes: QUICK ? [1_000] : [1_000, 10_000, 100_000], onProgress: progress });
  report.memory = memory.figures;
  tables.push(memory.table);

  // 2c. Plan health: its cost per appended line at 100 items, and activation with it, beside the scale row above.
  const healthSessions = QUICK ? 1_000 : 10_000;
  const healthLine = core.benchHealthLine(100, QUICK ? 1_000 : 4_000);
  // Without and with, alternately (twice each unless --quick), the best of each: one run each
  // on a shared machine differs by more than what health adds.
  const withoutRuns = [];
  const withRuns = [];
  for (let i = 0; i < (QUICK ? 1 : 2); i++) {
    withoutRuns.push(await core.benchScaleLoad(tmp, healthSessions, 20, progress));
    withRuns.push(await core.benchScaleLoad(tmp, healthSessions, 20, progress, { health: true }));
  }
  const best = (runs) => ({ firstPaintMs: Math.min(...runs.map((r) => r.firstPaintMs)), fullLoadMs: Math.min(...runs.map((r) => r.fullLoadMs)) });
  const withHealth = best(withRuns);
  const withoutHealth = best(withoutRuns);
  report.health = { line: healthLine, scaleWithHealth: withRuns, scaleWithoutHealth: withoutRuns };
  const µs = (value) => `${(value * 1000).toFixed(1)} µs`;
  tables.push({
    key: 'health',
    title: 'Plan health: what it adds (same run)',
    headers: ['measure', 'median', 'p95'],
    align: 'lrr',
    rows: [
      [`a plan line of ${healthLine.items} items (one item changed)`, µs(healthLine.planLine.median), µs(healthLine.planLine.p95)],
      ['a session/info line (turn, tool calls)', µs(healthLine.infoLine.median), µs(healthLine.infoLine.p95)],
      [`first activation, ${count(healthSessions)} sessions: Plan view painted, with health / without (ms)`, `${ms(withHealth.firstPaintMs)} / ${ms(withoutHealth.firstPaintMs)}`, ''],
      [`first activation, ${count(healthSessions)} sessions: whole load, with health / without (ms)`, `${ms(withHealth.fullLoadMs)} / ${ms(withoutHealth.fullLoadMs)}`, ''],
    ],
    notes: [
      `Per line: HealthBook (src/core/derived/healthBook.ts) handed ${count(healthLine.lines)} plan lines and as many session/info lines, one read each, as the log's reader hands them; each plan version moves one of its ${healthLine.items} items. The first ${Math.min(200, healthLine.lines >> 2)} are warm-up.`,
      `Activation: store.load() over ${count(healthSessions)} real session files with a HealthBook on the same reader (as the extension runs) and without, run alternately ${QUICK ? 'once' : 'twice'} each; the best of each. A session found at activation is compared only when first asked (a view, a line, or the clock for a running turn).`,
    ],
  });

  // 2e. The Plan Timeline: its first picture at 100,000 versions, next to the whole history.
  const timelineVersions = QUICK ? 10_000 : 100_000;
  const timeline = await core.benchTimeline(tmp, timelineVersions, 1000, { warmup: 2, minSamples: QUICK ? 5 : 15, maxSamples: 60, budgetMs: 5_000 }, progress);
  report.timeline = timeline;
  tables.push({
    key: 'timeline',
    title: `Plan Timeline: first picture at ${count(timelineVersions)} versions (plain Node)`,
    headers: ['what', 'median', 'p95'],
    align: 'lrr',
    rows: [
      [`first paint: the newest ${count(timeline.pageVersions)} versions read back, timeline and page model built`, ms(timeline.firstPaint.median), ms(timeline.firstPaint.p95)],
      [`whole history: all ${count(timeline.versions)} versions (${bytes(timeline.fileBytes)}) read and built`, ms(timeline.whole.median), ms(timeline.whole.p95)],
    ],
    notes: [
      'readTimelinePage (src/core/timeline/timelineRead.ts) walks the log back from its end; buildTimeline and timelineViewModel make what the webview is sent. The webview\'s own drawing is not in these figures.',
      `Each version is a 20-item plan whose statuses move, as in the rows above. The budget for the first paint is 200 ms.`,
    ],
  });

  // 2f. Snapshots for review.
  const snapshot = await snapshotRows(core, tmp);
  report.snapshot = snapshot.figures;
  tables.push(snapshot.table, snapshot.storeTable);

  // 2d. Idle.
  const idle = await core.benchIdle(tmp, IDLE_SESSIONS, progress);
  report.idle = idle;
  tables.push({
    key: 'idle',
    title: `Idle: what runs while nothing happens, ${count(idle.sessions)} sessions (plain Node; calls through the log's file system counted)`,
    headers: ['what', 'calls that touch a file', 'ms'],
    align: 'lrr',
    rows: [
      [`live watch (events arrive), ${idle.liveWindowMs / 1000} s of idle`, `${count(idle.liveCalls)} (${idle.livePolls} polls)`, '—'],
      ['one poll where events do not arrive (it backs off to one a minute)', `${count(idle.pollStats)} stats, ${count(idle.pollReads)} reads`, ms(idle.pollMs)],
      ['a full listing: Refresh (and, before, every 5 s)', `${count(idle.listingStats)} stats`, ms(idle.listingMs)],
    ],
    notes: [
      'Live watch: SessionLog + PlanStore + watchLogFolder over real files, after the start-up probe; nothing runs on a timer but one stat of the folder itself, outside the log\'s file system. Before, a full listing ran every 5 s whatever happened (and stat-ed each file twice).',
      'A poll runs only where events are known not to arrive (a network or shared file system, or a probe write whose event did not come): the folder\'s time, then one stat of each file; a file is read only when its size or time changed.',
    ],
  });

  // 3. Bundle size.
  const bundle = await bundleSizes(path.join(tmp, 'bundle'));
  report.bundle = { production: bundle.production, development: bundle.development, inputs: bundle.inputs, esbuild: bundle.esbuild };
  tables.push({
    key: 'bundle',
    title: 'Bundle: dist/extension.js',
    headers: ['build', 'bytes', 'gzip -9'],
    align: 'lrr',
    rows: [
      ['production (minified, as packaged)', `${count(bundle.production.bytes)} (${bytes(bundle.production.bytes)})`, `${count(bundle.production.gzipBytes)} (${bytes(bundle.production.gzipBytes)})`],
      ...(bundle.development
        ? [['development (npm run build, source map separate)', `${count(bundle.development.bytes)} (${bytes(bundle.development.bytes)})`, `${count(bundle.development.gzipBytes)} (${bytes(bundle.development.gzipBytes)})`]]
        : []),
    ],
    notes: [
      `esbuild ${bundle.esbuild} JS API, the options of \`node esbuild.mjs --production\`, into a temp folder. Largest inputs (minified bytes): ${bundle.inputs
        .slice(0, 4)
        .map((i) => `${i.name} ${bytes(i.bytes)}`)
        .join(', ')}.`,
    ],
  });

  // 5. Model cost (before the host part, which is the long one).
  const tokens = tokenCounts(core.modelTexts());
  report.tokens = tokens;
  tables.push({
    key: 'tokens',
    title: 'Model cost, tokens',
    headers: ['what', 'chars', 'o200k_base', 'cl100k_base', 'Claude (legacy)', 'paid'],
    align: 'lrrrrl',
    rows: tokens.rows.map((r) => [r.name, count(r.chars), count(r.o200k_base), count(r.cl100k_base), count(r.claude), r.when]),
    notes: [
      `o200k_base (GPT-4o family) and cl100k_base (GPT-4/3.5) with js-tiktoken ${tokens.versions['js-tiktoken'] ?? ''}; Claude with @anthropic-ai/tokenizer ${tokens.versions['@anthropic-ai/tokenizer'] ?? ''}, which is exact for Anthropic's pre-Claude-3 models only: read it as an estimate.`,
      'The tool definition is the manifest\'s modelDescription and JSON.stringify(inputSchema); hosts wrap it in their own framing, which adds a few tokens.',
      `Success result: "${tokens.rows.find((r) => r.name === 'result: success')?.text}". Error example: "${tokens.rows.find((r) => r.name === 'result: error (bad status)')?.text}".`,
    ],
  });

  // 4. The real VS Code host.
  let hostError;
  if (HOST) {
    try {
      const phases = [
        ...Array.from({ length: ACTIVATION_RUNS }, (_, i) => ({ name: `activation-empty-${i + 1}`, kind: 'activation' })),
        ...Array.from({ length: ACTIVATION_RUNS }, (_, i) => ({ name: `activation-seeded-${i + 1}`, kind: 'activation' })),
        { name: 'latency', kind: 'latency', writes: LATENCY_WRITES, warmup: 2 },
        // Idle, side by side: VS Code alone (three times, between the others), Agent Plan over many sessions, then with other agents' files too.
        ...['without-1', 'sessions', 'without-2', 'foreign', 'without-3'].map((what) => ({
          name: `idle-${what}`,
          kind: 'idle',
          withoutAgentPlan: what.startsWith('without'),
          settleSeconds: QUICK ? 5 : 20,
          idleSeconds: IDLE_SECONDS,
          timeoutMs: (IDLE_SECONDS + 600) * 1000,
        })),
      ];
      let logFolder;
      let seeded;
      cleanups.push(() => seeded && fs.rmSync(seeded.file, { force: true }));
      const host = await runHostBench({
        bundleFile: bundle.file,
        phases,
        cleanups,
        between: (phase, result, runDir) => {
          logFolder ??= result.logFolder;
          if (phase.name === 'latency' && logFolder) {
            // Idle over many sessions of 20 writes each (and nothing else).
            // Every log, and the import locks folder (.locks) when a follower wrote one.
            for (const name of fs.readdirSync(logFolder)) fs.rmSync(path.join(logFolder, name), { recursive: true, force: true });
            for (let i = 0; i < IDLE_SESSIONS; i++) {
              const key = core.benchKey(`idle ${i}`);
              core.writeHistory(path.join(logFolder, `${key}.jsonl`), key, 20);
            }
            progress(`seeded ${logFolder} with ${count(IDLE_SESSIONS)} sessions of 20 writes`);
          }
          if (phase.name === 'idle-sessions') {
            core.seedForeignFiles(path.join(repoRoot, 'test', 'agents'), path.join(runDir, 'home'), path.join(runDir, 'workspace'), FOREIGN);
            progress(`seeded ${count(FOREIGN.codex)} Codex rollouts in ${FOREIGN.days} day folders and ${FOREIGN.claude} Claude Code transcripts of the workspace`);
          }
          // After the last run on empty storage, give the workspace a long history.
          if (phase.name !== `activation-empty-${ACTIVATION_RUNS}`) return;
          const key = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
          fs.mkdirSync(result.logFolder, { recursive: true });
          const file = path.join(result.logFolder, `${key}.jsonl`);
          seeded = { file, writes: SEED_WRITES, bytes: core.writeHistory(file, key, SEED_WRITES) };
          progress(`seeded ${result.logFolder} with a session of ${count(SEED_WRITES)} writes (${bytes(seeded.bytes)})`);
        },
      });
      report.host = summarizeHost(host.results, seeded);
      if (report.host.latency.stopped) hostError = new Error(`the latency phase ${report.host.latency.stopped}`);
      report.host.versions = { vscode: vscodeVersion(), codeServer: CODE_SERVER_VERSION, extensionHostNode: HOST_NODE_VERSION, chromium: host.browserVersion };
      fs.rmSync(path.join(host.runDir, 'user-data'), { recursive: true, force: true });
      tables.push(...hostTables(report.host));
    } catch (error) {
      hostError = error;
      report.host = { error: String(error?.message ?? error) };
      log(`the host part failed: ${error?.stack ?? error}`);
    }
    // 4b. The heap in the real host, beside VS Code alone; past the budget, the bench fails.
    try {
      const heap = await benchHostHeap({ tmp, bundleFile: bundle.file, cleanups, sizes: HEAP_SIZES, snapshots: !QUICK, progress });
      report.hostHeap = heap.figures;
      tables.push(...heap.tables);
      if (heap.overBudget.length > 0) hostError ??= new Error(overBudgetText(heap.overBudget));
    } catch (error) {
      hostError ??= error;
      report.hostHeap = { error: String(error?.message ?? error) };
      log(`the host heap part failed: ${error?.stack ?? error}`);
    }
  }

  report.durationSeconds = Math.round((performance.now() - started) / 100) / 10;
  report.machine.loadAverageAtEnd = os.loadavg().map((l) => Math.round(l * 100) / 100);
  report.summary = summaryLine(report);

  tables.sort((a, b) => TABLE_ORDER.indexOf(a.key) - TABLE_ORDER.indexOf(b.key));
  for (const table of tables) process.stdout.write(`\n${renderText(table)}\n`);
  fs.mkdirSync(path.join(repoRoot, 'docs'), { recursive: true });
  fs.writeFileSync(path.join(repoRoot, 'docs', 'benchmarks.json'), JSON.stringify({ ...report, tables: tables.map(({ key, title, headers, rows, notes }) => ({ key, title, headers, rows, notes })) }, null, 2) + '\n');
  const body = markdown(report, tables);
  fs.writeFileSync(path.join(repoRoot, 'docs', 'benchmarks.md'), body);
  updateReadme(report);
  process.stdout.write(`\nwrote docs/benchmarks.md, docs/benchmarks.json and the README's performance summary (${report.durationSeconds} s)\n`);
  process.stdout.write(`${report.summary}\n`);
  if (hostError) log(String(hostError?.message ?? hostError));
  return hostError ? 1 : 0;
}

function overBudgetText(rows) {
  return `the extension host's heap is over its budget: ${rows
    .map((r) => `${r.sessions === 0 ? 'empty storage' : `${count(r.sessions)} sessions`} +${(r.overBytes / 1024 / 1024).toFixed(1)} MiB over VS Code alone (budget +${r.budgetMiB} MiB)`)
    .join('; ')}`;
}

/** Part 4b alone (`--heap-only`): its tables put into docs/benchmarks.json, docs/benchmarks.md and the README as the last full run left them. */
async function heapOnly(tmp) {
  const bundle = await bundleSizes(path.join(tmp, 'bundle'));
  const heap = await benchHostHeap({ tmp, bundleFile: bundle.file, cleanups, sizes: HEAP_SIZES, snapshots: !QUICK, progress });
  const measured = `Measured on ${new Date().toISOString().slice(0, 10)} by \`node scripts/bench.mjs --heap-only\` (load average ${loadAtStart.map((l) => l.toFixed(2)).join(' / ')} at its start), after the other tables.`;
  heap.tables[0].notes.push(measured);
  for (const table of heap.tables) process.stdout.write(`\n${renderText(table)}\n`);
  const file = path.join(repoRoot, 'docs', 'benchmarks.json');
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  report.hostHeap = { ...heap.figures, measuredAt: new Date().toISOString(), loadAverageAtStart: loadAtStart.map((l) => Math.round(l * 100) / 100) };
  const keys = heap.tables.map((t) => t.key);
  const tables = [...report.tables.filter((t) => !keys.includes(t.key)), ...heap.tables.map(({ key, title, headers, rows, notes }) => ({ key, title, headers, rows, notes }))];
  tables.sort((a, b) => TABLE_ORDER.indexOf(a.key) - TABLE_ORDER.indexOf(b.key));
  report.tables = tables;
  fs.writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
  // docs/benchmarks.md keeps the last full run's text; only the heap's sections are put in (after the plain-Node memory rows).
  const mdFile = path.join(repoRoot, 'docs', 'benchmarks.md');
  let md = fs.readFileSync(mdFile, 'utf8');
  for (const table of heap.tables) {
    const heading = SECTIONS[table.key];
    const section = `${heading}\n\n${renderMarkdown(table)}\n\n`;
    const from = md.indexOf(heading);
    if (from !== -1) {
      const next = md.indexOf('\n### ', from + heading.length);
      md = `${md.slice(0, from)}${section}${next === -1 ? '' : md.slice(next + 1)}`;
    } else {
      const after = md.indexOf(SECTIONS.health);
      md = after !== -1 ? `${md.slice(0, after)}${section}${md.slice(after)}` : `${md}\n${section}`;
    }
  }
  fs.writeFileSync(mdFile, md);
  process.stdout.write(`\nput the heap's rows into docs/benchmarks.json and docs/benchmarks.md\n`);
  if (heap.overBudget.length > 0) {
    log(overBudgetText(heap.overBudget));
    return 1;
  }
  process.stdout.write(`within the budget (+${HEAP_BUDGET_MIB[0]} MiB with empty storage, +${HEAP_BUDGET_MIB[10_000]} MiB at 10,000 sessions)\n`);
  return 0;
}

/** Part 2f: the snapshots' figures and their table. */
async function snapshotRows(core, tmp) {
  const figures = await core.benchSnapshots(tmp, { files: SNAPSHOT_FILES, runs: SNAPSHOT_RUNS, heapMB: SNAPSHOT_HEAP_MB, versions: SNAPSHOT_VERSIONS, withRepo: (repo) => benchSnapshotStore(tmp, repo, SNAPSHOT_BIG_MB, progress) }, progress);
  const { runner, here } = figures;
  const bounds = figures.more;
  const column = (side) => {
    if (side.missing) return [side.missing, '', '', '', ''];
    const what = side.ok ? `${side.changedSeen} of ${bounds.changed}${side.bigStored ? ', the big file copied' : side.skipped.length > 0 ? ', the big file left out and named' : ''}` : `none: ${side.reason}`;
    return [what, ms(side.ms), bytes(side.bytesAfterSnapshot), bytes(side.bytesAfterForget)];
  };
  const [todayRow, beforeRow] = [column(bounds.today), column(bounds.before)];
  const storeTable = {
    key: 'snapshotStore',
    title: `The snapshot store's bounds: ${count(figures.files)} files, a ${count(bounds.bigMB)} MB untracked file and ${bounds.changed} changed files (plain Node)`,
    headers: ['what', 'today', `the code before (${bounds.baseline})`],
    align: 'lrr',
    rows: [
      ['changed files the snapshot recorded', todayRow[0], beforeRow[0]],
      ['one snapshot (ms)', todayRow[1], beforeRow[1]],
      ['the store on disk after it', todayRow[2], beforeRow[2]],
      ['the store on disk after deleting the session', todayRow[3], beforeRow[3]],
    ],
    notes: [
      'GitSnapshots (src/node/gitSnapshots.ts) today and as of the commit before the store\'s bounds, read from the history and bundled beside it; one snapshot each into an empty store, then the session deleted (forget). Sizes are every file under the store folder.',
      'Today: untracked files above agentPlan.review.maxUntrackedFileMegabytes (50) are left out and named; a git run stopped by its 30 s bound is no snapshot; deleting a session repacks and prunes at once. Before: the big file was copied whole (or its git add stopped by the bound and the index taken for the snapshot: 0 changed files), and objects younger than 15 minutes stayed after the deletion.',
    ],
  };
  const table = {
    key: 'snapshot',
    title: `Snapshots for review: a working tree of ${count(figures.files)} files, ${figures.changedPerRun} changed per snapshot (plain Node, ${figures.heapMB} MB held)`,
    headers: ['what', 'git started by the runner', 'from the host\'s thread', 'thread ÷ runner'],
    align: 'lrrr',
    rows: [
      ['one snapshot, median (ms)', ms(runner.medianMs), ms(here.medianMs), ratio(here.medianMs / runner.medianMs)],
      ['one snapshot, slowest (ms)', ms(runner.maxMs), ms(here.maxMs), ratio(here.maxMs / runner.maxMs)],
      [`the event loop's longest wait in a snapshot, median of the ${figures.runs} (ms; ${ms(figures.idleMedianGapMs)} with none running)`, ms(runner.medianGapMs), ms(here.medianGapMs), ratio(here.medianGapMs / runner.medianGapMs)],
      [`the event loop's longest wait in any snapshot (ms; ${ms(figures.idleMaxGapMs)} with none running)`, ms(runner.maxGapMs), ms(here.maxGapMs), ratio(here.maxGapMs / runner.maxGapMs)],
      [`snapshots taken over ${count(figures.versions)} plan versions with one in-progress set (one per version: ${count(figures.versions)})`, count(figures.snapshotsTaken), '', ratio(figures.versions / Math.max(1, figures.snapshotsTaken))],
    ],
    notes: [
      `GitSnapshots.snapshot (src/node/gitSnapshots.ts): a temporary index copied from the repository's, \`git add -A\` and \`git write-tree\` into Agent Plan's own object store; ${figures.runs} snapshots each way, alternately. The runner (src/node/gitRunner.ts) is a small process that starts git; from the host's thread, each start forks the whole process, which is why ${figures.heapMB} MB are held as a host holds its heap.`,
      'The longest wait: the lateness of a 1 ms timer while a snapshot runs. The goals: a snapshot in at most 300 ms, the event loop never held more than 20 ms.',
      'Versions: PlanStore.write through the real log, sink and SnapshotRecorder; one item in progress throughout while another item\'s text changes in every version. The one snapshot is the first version\'s.',
    ],
  };
  return { figures, table, storeTable };
}

/** Part 2f alone (`--snapshots-only`): its table put into docs/benchmarks.json, docs/benchmarks.md and the README as the last full run left them. */
async function snapshotsOnly(core, tmp) {
  const file = path.join(repoRoot, 'docs', 'benchmarks.json');
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  const { figures, table, storeTable } = await snapshotRows(core, tmp);
  table.notes.push(`Measured on ${new Date().toISOString().slice(0, 10)} by \`node scripts/bench.mjs --snapshots-only\` (load average ${loadAtStart.map((l) => l.toFixed(2)).join(' / ')} at its start), after the other tables.`);
  process.stdout.write(`\n${renderText(table)}\n\n${renderText(storeTable)}\n`);
  report.snapshot = { ...figures, measuredAt: new Date().toISOString(), loadAverageAtStart: loadAtStart.map((l) => Math.round(l * 100) / 100) };
  const fresh = [table, storeTable].map(({ key, title, headers, rows, notes }) => ({ key, title, headers, rows, notes }));
  const tables = [...report.tables.filter((t) => t.key !== 'snapshot' && t.key !== 'snapshotStore'), ...fresh];
  tables.sort((a, b) => TABLE_ORDER.indexOf(a.key) - TABLE_ORDER.indexOf(b.key));
  report.tables = tables;
  fs.writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
  // docs/benchmarks.md keeps the last full run's text; only the snapshots' section is put in (before idle's).
  const mdFile = path.join(repoRoot, 'docs', 'benchmarks.md');
  const md = fs.readFileSync(mdFile, 'utf8');
  const heading = '### Snapshots for review stay off the event loop';
  const storeHeading = '### The snapshot store stays bounded';
  const section = `${heading}\n\n${renderMarkdown(table)}\n\n${storeHeading}\n\n${renderMarkdown(storeTable)}\n\n`;
  const from = md.indexOf(heading);
  const storeAt = md.indexOf(storeHeading);
  const next = from === -1 ? -1 : md.indexOf('\n### ', storeAt === -1 ? from + heading.length : storeAt + storeHeading.length);
  const idleAt = md.indexOf('### Idle costs nothing');
  const text = from !== -1 ? `${md.slice(0, from)}${section}${next === -1 ? '' : md.slice(next + 1)}` : idleAt !== -1 ? `${md.slice(0, idleAt)}${section}${md.slice(idleAt)}` : `${md}\n${section}`;
  fs.writeFileSync(mdFile, text.replace('a six-line summary', 'a seven-line summary'));
  updateReadme(report);
  process.stdout.write('\nput the snapshots\' rows into docs/benchmarks.json, docs/benchmarks.md and the README\n');
  return 0;
}

/** The latency phase alone (`--latency-only`): its tables on stdout, nothing written. */
async function latencyOnly(tmp) {
  const bundle = await bundleSizes(path.join(tmp, 'bundle'));
  const host = await runHostBench({ bundleFile: bundle.file, phases: [{ name: 'latency', kind: 'latency', writes: LATENCY_WRITES, warmup: 2 }], cleanups });
  const { latency } = summarizeHost(host.results, undefined);
  for (const table of latencyTables(latency)) process.stdout.write(`\n${renderText(table)}\n`);
  process.stdout.write(`load average at the start ${loadAtStart.map((l) => l.toFixed(2)).join(' / ')}, at the end ${os.loadavg().map((l) => l.toFixed(2)).join(' / ')}\n`);
  return latency.stopped ? 1 : 0;
}

/** The VS Code version inside the pinned code-server. */
function vscodeVersion() {
  try {
    const file = path.join(path.dirname(codeServerEntry), '..', '..', 'lib', 'vscode', 'package.json');
    return JSON.parse(fs.readFileSync(file, 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

function median(values) {
  const sorted = values.filter((v) => typeof v === 'number' && v >= 0).sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function percentile(values, q) {
  const sorted = values.filter((v) => typeof v === 'number' && v >= 0).sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

function summarizeHost(results, seeded) {
  const activation = {};
  for (const storage of ['empty', 'seeded']) {
    const runs = Object.entries(results)
      .filter(([name]) => name.startsWith(`activation-${storage}-`))
      .map(([name, r]) => ({ name, wasActive: r.wasActive, awaitActivateMs: r.awaitActivateMs, ...(r.ours ?? {}), others: r.others }));
    activation[storage] = {
      runs,
      codeLoadingMs: median(runs.map((r) => r.codeLoadingMs)),
      activateMs: median(runs.map((r) => r.activateMs)),
      totalMs: median(runs.map((r) => r.totalMs)),
    };
  }
  // For scale, the built-in extensions the same host activated (median total over the empty runs).
  const others = {};
  for (const run of activation.empty.runs) {
    for (const [id, t] of Object.entries(run.others ?? {})) {
      if (t) (others[id] ??= []).push(t.totalMs);
    }
  }
  activation.others = Object.fromEntries(
    Object.entries(others)
      .map(([id, v]) => [id, median(v)])
      .sort((a, b) => b[1] - a[1]),
  );
  activation.seeded.seed = seeded ? { writes: seeded.writes, bytes: seeded.bytes } : undefined;

  const samples = (results.latency?.samples ?? []).filter((s) => !s.warmup);
  const stat = (key) => {
    const values = samples.map((s) => s[key]).filter((v) => v >= 0);
    return { median: median(values), p95: percentile(values, 0.95), min: Math.min(...values), max: Math.max(...values), n: values.length };
  };
  const latency = {
    stopped: results.latency?.stopped,
    writes: samples.length,
    missed: samples.filter((s) => s.error || s.domMs < 0).length,
    saved: stat('savedMs'),
    savedToDom: (() => {
      const values = samples.filter((s) => s.savedMs >= 0 && s.domMs >= 0).map((s) => s.domMs - s.savedMs);
      return { median: median(values), p95: percentile(values, 0.95), min: Math.min(...values), max: Math.max(...values), n: values.length };
    })(),
    chatReturned: stat('chatReturnedMs'),
    statusWithSave: stat('statusWithSaveMs'),
    statusIdle: stat('statusIdleMs'),
    bareWithSave: stat('bareWithSaveMs'),
    bareIdle: stat('bareIdleMs'),
    dom: stat('domMs'),
    frame: stat('frameMs'),
    samples: results.latency?.samples,
  };
  const idle = Object.fromEntries(['sessions', 'foreign'].map((what) => [what, results[`idle-${what}`]]).filter(([, r]) => r));
  const alone = Object.entries(results).filter(([name]) => name.startsWith('idle-without-')).map(([, r]) => r);
  if (alone.length > 0) {
    const values = alone.map((r) => r.cpuPercent);
    idle.without = { loaded: false, runs: values, cpuPercent: median(values), elapsedMs: alone[0].elapsedMs };
  }
  return { activation, latency, idle };
}

function hostTables(host) {
  const { activation, latency, idle } = host;
  const row = (label, a) => [
    label,
    String(a.runs.length),
    ms(a.codeLoadingMs),
    ms(a.activateMs),
    ms(a.totalMs),
    a.runs.map((r) => ms(r.totalMs)).join(', '),
    a.runs.every((r) => r.wasActive) ? 'yes' : a.runs.some((r) => r.wasActive) ? 'some' : 'no',
  ];
  const seed = activation.seeded.seed;
  const others = Object.entries(activation.others);
  const pct = (v) => (Number.isFinite(v) ? v.toFixed(2) : '—');
  const base = idle.without?.cpuPercent;
  const idleRow = (label, r) => [label, r?.loaded ? count(r.sessions) : '—', r ? `${pct(r.cpuPercent)}${r.runs ? ` (${r.runs.map(pct).join(', ')})` : ''}` : '—', r && r !== idle.without ? `${r.cpuPercent - base >= 0 ? '+' : ''}${pct(r.cpuPercent - base)}` : ''];
  const idleTable = idle.without
    ? [
        {
          key: 'idleHost',
          title: `Idle in the real host: the extension host's CPU over ${Math.round((idle.without.elapsedMs ?? 0) / 1000)} s in which nothing happens, % of one core (same run)`,
          headers: ['scenario', 'Agent Plan sessions', 'extension host', 'over VS Code alone, points'],
          align: 'lrrr',
          rows: [
            idleRow(`VS Code without Agent Plan, median of ${idle.without.runs.length} runs`, idle.without),
            idleRow(`Agent Plan, ${count(IDLE_SESSIONS)} sessions of 20 writes`, idle.sessions),
            idleRow(`the same plus ${count(FOREIGN.codex)} Codex rollouts in ${FOREIGN.days} day folders and ${FOREIGN.claude} Claude Code transcripts of the workspace`, idle.foreign),
          ],
          notes: [
            'process.cpuUsage() (user + system, every thread) of the extension host, read by the bench module inside it, after Agent Plan\'s storage stopped changing for 10 s (the followers\' first import done) and 20 s more. Each row is a fresh page load, hence a fresh extension host, on the same server; VS Code alone is the same workbench whose page loads the development extensions but Agent Plan.',
            'Before this change the same 10,000 sessions cost about +6 points, and the foreign files about +1.2 more: a full rescan of every file every 5 s.',
          ],
        },
      ]
    : [];
  return [
    ...idleTable,
    {
      key: 'activation',
      title: `Activation in the real host (VS Code ${host.versions?.vscode ?? ''}, extension host on Node ${HOST_NODE_VERSION}), ms, median of runs`,
      headers: ['storage', 'runs', 'code loading', 'activate()', 'total', 'each run (total)', 'active before the bench module ran'],
      align: 'lrrrrll',
      rows: [
        row('empty', activation.empty),
        row(seed ? `one session of ${count(seed.writes)} writes (${bytes(seed.bytes)})` : 'seeded', activation.seeded),
      ],
      notes: [
        'Read from the extension host\'s own performance marks (code/extHost/willLoadExtensionCode → didLoadExtensionCode → willActivateExtension → didActivateExtension), the figures behind "Developer: Show Running Extensions". code loading = require() of the production bundle; activate() = the call and the promise it returns (store.load() included); total = from the start of code loading to the resolved activate().',
        'total also covers the host\'s own set-up of the extension context (storage, secrets), which runs alongside code loading. Activation is onStartupFinished, so it happens off the startup path; each run is a fresh page load, hence a fresh extension host, on the same server.',
        ...(others.length ? [`For scale, in the same hosts: ${others.map(([id, t]) => `${id} ${ms(t)} ms`).join(', ')}.`] : []),
      ],
    },
    ...latencyTables(latency),
  ];
}

/** The latency phase's table and its controls side by side. */
function latencyTables(latency) {
  const five = (s) => [ms(s.median), ms(s.p95), ms(s.min), ms(s.max)];
  return [
    {
      key: 'latency',
      title: `Write → row in the Plan view, real chat requests, ms (${latency.writes} writes${latency.missed ? `, ${latency.missed} missed` : ''})`,
      headers: ['interval', 'median', 'p95', 'min', 'max'],
      align: 'lrrrr',
      rows: [
        ['chat request → snapshot saved (onDidWritePlan, in the host)', ...five(latency.saved)],
        ['chat request → row in the Plan view\'s DOM', ...five(latency.dom)],
        ['chat request → the next animation frame after that', ...five(latency.frame)],
        ['chat request → chat command returned (response complete)', ...five(latency.chatReturned)],
        ['saved → row in the Plan view\'s DOM', ...five(latency.savedToDom)],
        ['control: saved → status-bar text set in the same tick, in the DOM', ...five(latency.statusWithSave)],
        ['control: status-bar text set when the chat is idle → DOM', ...five(latency.statusIdle)],
        ['control: saved → row of a bare tree view refreshed in the same tick, in the DOM', ...five(latency.bareWithSave)],
        ['control: bare tree view refreshed when the chat is idle → row in the DOM', ...five(latency.bareIdle)],
      ],
      notes: [
        ...(latency.stopped ? [`INCOMPLETE: ${latency.stopped}.`] : []),
        'Each write sends `@planner {"input": …}` with workbench.action.chat.open (ask mode, the fixture\'s fake model); the fixture participant calls todo_write with the request\'s real toolInvocationToken. The list has 20 items, one of them unique to the write.',
        'The clock starts in the extension host (Date.now() just before the command); the browser side records Date.now() when a MutationObserver sees a .monaco-list-row with the unique text inside the Plan pane (the first pane of the side bar, which shows Agent Plan). Same machine clock, 1 ms resolution. 2 warm-up writes are not counted.',
        'Controls: a status-bar item of the bench module itself (nothing of Agent Plan) — one extension-host → renderer message and a render — whose text is set in the same tick as the save (so it races the same chat rendering as the Plan view) and again once the chat is idle.',
        'Bare tree view: a minimal extension in the same host (test/bench/bare-tree) with a tree view of 20 plain rows in the same side bar, below the Sessions view; the bench module replaces its rows (the new one second, as in the plan) and it fires one refresh of its root — in the same tick as the save, and again once the chat is idle (at least 250 ms after, past the tree\'s 200 ms debounce). The floor of the tree API: the same refresh → getChildren → getTreeItem round trips and list render as the Plan view, with nothing of Agent Plan.',
        'Up to "saved" the time is the chat round trip (workbench → participant → tool → append); from saved to the row it is the extension\'s event → tree view refresh → extension-host-to-renderer round trips → list render.',
      ],
    },
    controlsTable(latency),
  ];
}

/** Saved → on screen for the Plan view and both controls side by side, and the Plan view's ratios to each. */
function controlsTable(latency) {
  const plan = latency.savedToDom;
  const rows = [
    ['Plan view: saved → the plan\'s new row', ms(plan.median), ms(plan.p95), ''],
    ['bare tree view of 20 rows, refreshed in the same tick: → its new row', ms(latency.bareWithSave.median), ms(latency.bareWithSave.p95), ''],
    ['status-bar item, set in the same tick: → its text', ms(latency.statusWithSave.median), ms(latency.statusWithSave.p95), ''],
    ['Plan view ÷ bare tree view', ratio(plan.median / latency.bareWithSave.median), ratio(plan.p95 / latency.bareWithSave.p95), '≤ ×1.25'],
    ['Plan view ÷ status bar', ratio(plan.median / latency.statusWithSave.median), ratio(plan.p95 / latency.statusWithSave.p95), '≤ ×2'],
  ];
  return {
    key: 'latencyControls',
    title: 'Saved → on screen: the Plan view beside the controls of the same writes, ms',
    headers: ['what', 'median', 'p95', 'goal'],
    align: 'lrrl',
    rows,
    notes: [
      'The same samples as the table above: each write saves a plan, and in the same tick the bench module refreshes the bare tree view and sets the status-bar text; each is timed from the save to its text in the DOM.',
      'The bare tree view is the floor of the tree API (one refresh of 20 rows through the extension host); the status bar is one message and a render.',
      'The Plan view redraws a write\'s changed rows in place (their new look goes with the refresh, no round trip), so most writes beat the bare tree view; a write whose plan gains or loses a row (a signal or a dropped item that comes or goes) lists the rows again as the bare tree view does, which sets the p95.',
    ],
  };
}

function summaryLine(report) {
  const w = report.writePath.rows;
  const first = w[0];
  const last = w[w.length - 1];
  const r = report.readPath.rows[report.readPath.rows.length - 1];
  const def = report.tokens.rows.find((x) => x.name.startsWith('tool: name'));
  const parts = [
    `write ${ms(first.ours.median)}→${ms(last.ours.median)} ms from ${count(first.prior)} to ${count(last.prior)} prior writes (JSON file ${ratio(last.jsonFile.median / last.ours.median)}, workspaceState-like ${ratio(last.workspaceState.median / last.ours.median)} slower at ${count(last.prior)})`,
    `current plan ${ms(r.current.median)} ms at ${count(r.prior)} writes (replay ${ratio(r.history.median / r.current.median)})`,
    `bundle ${bytes(report.bundle.production.bytes)} (${bytes(report.bundle.production.gzipBytes)} gzip)`,
  ];
  const heap = report.memory?.find((row) => row.sessions === 10_000) ?? report.memory?.[report.memory.length - 1];
  if (heap) parts.push(`heap at ${count(heap.sessions)} sessions +${heap.now.heapMB.toFixed(1)} MiB${heap.before ? ` (before +${heap.before.heapMB.toFixed(1)} MiB)` : ''}`);
  if (report.host && !report.host.error) {
    const act = report.host.activation.empty;
    parts.push(`activation ${ms(act.totalMs)} ms (code loading ${ms(act.codeLoadingMs)} + activate() ${ms(act.activateMs)})`);
    const lat = report.host.latency;
    parts.push(`chat request→row ${ms(lat.dom.median)} ms median (saved→row ${ms(lat.savedToDom.median)}; bare tree ${ms(lat.bareWithSave?.median)}, status bar ${ms(lat.statusWithSave.median)})`);
  } else if (report.host?.error) {
    parts.push('host part FAILED');
  }
  parts.push(`tool definition ${def?.o200k_base} tokens (o200k)`);
  return `bench: ${parts.join('; ')}; ${report.durationSeconds} s`;
}

function markdown(report, tables) {
  const m = report.machine;
  const lines = [
    '<!-- Generated by `npm run bench` (scripts/bench.mjs): do not edit by hand. -->',
    '<!-- The README carries a seven-line summary of it (scripts/bench/readme.mjs). -->',
    '',
    `Measured on ${report.generatedAt.slice(0, 10)}: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node} (${m.os}); load average ${m.loadAverageAtStart.join(' / ')} at the start. The whole run took ${report.durationSeconds} s.`,
    ...(report.host?.versions
      ? [
          `The in-host figures come from VS Code ${report.host.versions.vscode} (code-server ${report.host.versions.codeServer}) with its extension host on Node ${report.host.versions.extensionHostNode}, driven by headless Chromium ${report.host.versions.chromium}.`,
        ]
      : []),
    '',
    'Reproduce with:',
    '',
    '```sh',
    ...report.commands,
    '```',
    '',
    `Medians unless stated; p95 = 95th percentile. Timings on a shared ${m.cores}-core machine are noisy: read the ratios and the shape of the curves rather than the last digit.`,
    '',
  ];
  const sections = SECTIONS;

  for (const table of tables) {
    lines.push(sections[table.key] ?? `### ${table.title}`, '', renderMarkdown(table), '');
  }
  if (report.host?.error) lines.push(`> The in-host part failed in this run: ${report.host.error}`, '');
  lines.push(`Summary: ${report.summary.replace(/^bench: /, '')}`, '');
  return lines.join('\n');
}

main().then(
  async (code) => {
    await cleanup();
    process.exit(code);
  },
  async (error) => {
    log(error?.stack ?? String(error));
    await cleanup();
    process.exit(1);
  },
);

/** Puts the seven-line summary into the README between its performance markers. */
function updateReadme(report) {
  const file = path.join(repoRoot, 'README.md');
  const text = withReadmeSummary(fs.readFileSync(file, 'utf8'), report);
  if (text === undefined) {
    log('README.md has no performance markers; left as it is');
    return;
  }
  fs.writeFileSync(file, text);
}

// Host-free benchmarks of the core, bundled by scripts/bench.mjs with esbuild (as the
// extension is) and run in plain Node: the cost of one todo_write call as the history
// grows, next to the two usual ways of storing a plan, and the cost of reading the
// current plan (tail read) next to a full replay. Measures and returns figures; the
// launcher prints and records them. Nothing here asserts.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Emitter } from '../../src/core/emitter';
import { HealthBook } from '../../src/core/derived/healthBook';
import { askToContinuePrompt, askToRestorePrompt, continuePrompt } from '../../src/core/handoff/handoff';
import type { SessionInfoRecord } from '../../src/core/log/logRecord';
import { countItems, countTodos, successText, type Counts, type PlanItem, type Todo, type TodoStatus } from '../../src/core/plan/plan';
import { hashIdentity, sessionKeyFromToken } from '../../src/core/log/sessionKey';
import { LOG_FORMAT_VERSION, SessionLog, TODO_WRITE_EVENT, type PlanRecord, type LogRead } from '../../src/core/log/sessionLog';
import { PlanStore } from '../../src/core/store/store';
import { runTodoWrite } from '../../src/core/store/todoWrite';
import { ERRORS, validateTodoInput } from '../../src/core/plan/validate';
import { buildTimeline } from '../../src/core/timeline/timeline';
import { readTimelinePage } from '../../src/core/timeline/timelineRead';
import { timelineViewModel } from '../../src/core/timeline/timelineView';
import { formatOnly } from '../../src/core/plan/present';
import { watchLogFolder } from '../../src/node/logWatcher';
import { NodeFileSystem } from '../../src/node/nodeFileSystem';
import { GitSnapshots } from '../../src/node/gitSnapshots';
import { SnapshotRecorder } from '../../src/node/snapshotRecorder';
import { LogPlanSink } from '../../src/core/log/planSink';
import { sleep } from '../lib/wait';

export { ERRORS, successText };

/** What a coding agent's plan typically looks like: short imperative lines. */
const TASKS = [
  'Read the failing test and reproduce the bug locally',
  'Find where the parser handles escaped quotes',
  'Write a minimal failing unit test for the escape case',
  'Fix the tokenizer so a backslash before a quote is kept',
  'Run the parser unit tests',
  'Check the CSV importer, which calls the same tokenizer',
  'Add a regression test for quoted newlines',
  'Update the changelog under Unreleased',
  'Search the codebase for other callers of splitFields',
  'Refactor splitFields to return field offsets',
  'Update the two callers to use the offsets',
  'Run the full test suite',
  'Fix the lint warnings in src/parser/tokenize.ts',
  'Measure import time on the 50 MB sample file',
  'Compare the result with the previous release',
  'Document the escape rules in docs/csv.md',
  'Review the diff for leftover debug output',
  'Ask for review on the pull request',
  'Address the review comments',
  'Squash the fixup commits and push',
];

/** A 20-item list whose statuses move with `step`, as a plan does while the agent works. */
export function planAt(step: number, size = 20): Todo[] {
  const done = step % (size + 1);
  return TASKS.slice(0, size).map((content, index): Todo => {
    const status: TodoStatus = index < done ? 'completed' : index === done ? 'in_progress' : 'pending';
    return { content, status };
  });
}

export const BENCH_TOKEN = { sessionId: 'bench' } as const;
const BENCH_SESSION = sessionKeyFromToken(BENCH_TOKEN) as string;

function eventAt(session: string, step: number, start: number): PlanRecord {
  const todos = planAt(step);
  return {
    v: LOG_FORMAT_VERSION,
    type: TODO_WRITE_EVENT,
    ts: new Date(start + step * 1000).toISOString(),
    session,
    todos,
    counts: countTodos(todos),
  };
}

/** Bytes of one log line holding a 20-item plan. */
export function lineBytes(): number {
  return Buffer.byteLength(JSON.stringify(eventAt(BENCH_SESSION, 7, Date.UTC(2025, 0, 1))) + '\n');
}

/**
 * Writes `count` events as a session log in the documented format, in one buffered
 * write (appending them one by one would take minutes at 100,000).
 */
export function writeHistory(file: string, session: string, count: number): number {
  const start = Date.UTC(2025, 0, 1);
  const parts: string[] = new Array<string>(count);
  for (let i = 0; i < count; i++) parts[i] = JSON.stringify(eventAt(session, i, start)) + '\n';
  const text = parts.join('');
  fs.writeFileSync(file, text);
  return Buffer.byteLength(text);
}

export interface Sample {
  median: number;
  p95: number;
  mean: number;
  min: number;
  n: number;
}

export function summarize(times: number[]): Sample {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
  return {
    median,
    p95: at(0.95),
    mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
    min: sorted[0] ?? NaN,
    n: sorted.length,
  };
}

export interface Budget {
  warmup: number;
  minSamples: number;
  maxSamples: number;
  /** Stop after this much measured time once minSamples are in. */
  budgetMs: number;
}

/** Times `fn` (ms) until the budget runs out; `after` runs untimed after each call. */
async function measure(fn: (i: number) => Promise<unknown>, budget: Budget, after?: () => void | Promise<void>): Promise<Sample> {
  let i = 0;
  for (let w = 0; w < budget.warmup; w++, i++) {
    await fn(i);
    await after?.();
  }
  const times: number[] = [];
  let spent = 0;
  while (times.length < budget.maxSamples && (times.length < budget.minSamples || spent < budget.budgetMs)) {
    const t0 = performance.now();
    await fn(i++);
    const dt = performance.now() - t0;
    times.push(dt);
    spent += dt;
    await after?.();
  }
  return summarize(times);
}

// ---------------------------------------------------------------------------------------
// The peers: the usual ways an extension keeps a plan. Both get the same validation and
// the same result text as ours, so only the storage differs, and both are given the
// benefit of the doubt: the history lives in memory and is never read back from disk.

interface Snapshot {
  ts: string;
  todos: Todo[];
  counts: Counts;
}

function snapshotAt(step: number, start: number): Snapshot {
  const todos = planAt(step);
  return { ts: new Date(start + step * 1000).toISOString(), todos, counts: countTodos(todos) };
}

interface Peer {
  call(input: unknown): Promise<string>;
  /** Drops the snapshot the last call added (untimed), so every sample sees the same history size. */
  undo(): void;
  bytes(): number;
}

/** ONE JSON file holding the session's whole history, rewritten whole (temp file + rename) on every call. */
class JsonFilePeer implements Peer {
  private readonly doc: { version: 1; sessions: Record<string, { history: Snapshot[] }> };
  private lastBytes = 0;

  constructor(
    private readonly file: string,
    history: Snapshot[],
  ) {
    this.doc = { version: 1, sessions: { [BENCH_SESSION]: { history } } };
  }

  async call(input: unknown): Promise<string> {
    const checked = validateTodoInput(input);
    if (!checked.ok) return checked.error;
    const counts = countTodos(checked.todos);
    this.doc.sessions[BENCH_SESSION]!.history.push({ ts: new Date().toISOString(), todos: checked.todos, counts });
    const text = JSON.stringify(this.doc);
    const tmp = `${this.file}.tmp`;
    await fsp.writeFile(tmp, text);
    await fsp.rename(tmp, this.file);
    this.lastBytes = text.length;
    return successText(counts);
  }

  undo(): void {
    this.doc.sessions[BENCH_SESSION]!.history.pop();
  }

  bytes(): number {
    return this.lastBytes;
  }
}

/**
 * What `context.workspaceState.update(key, map)` amounts to: a map of every session's plan
 * and history, serialized whole on each update and stored (VS Code coalesces the SQLite
 * flush; here every update is written once, in place).
 */
class WorkspaceStatePeer implements Peer {
  private readonly state: Record<string, { plan: Snapshot; history: Snapshot[] }> = {};
  private lastBytes = 0;

  constructor(
    private readonly file: string,
    history: Snapshot[],
    otherSessions: number,
    otherHistory: number,
  ) {
    const start = Date.UTC(2024, 11, 1);
    for (let s = 0; s < otherSessions; s++) {
      const past = Array.from({ length: otherHistory }, (_, i) => snapshotAt(i, start + s * 86_400_000));
      this.state[hashIdentity(`other-${s}`)] = { plan: past[past.length - 1]!, history: past };
    }
    this.state[BENCH_SESSION] = { plan: history[history.length - 1] ?? snapshotAt(0, start), history };
  }

  async call(input: unknown): Promise<string> {
    const checked = validateTodoInput(input);
    if (!checked.ok) return checked.error;
    const counts = countTodos(checked.todos);
    const entry = this.state[BENCH_SESSION]!;
    const snapshot = { ts: new Date().toISOString(), todos: checked.todos, counts };
    entry.history.push(snapshot);
    entry.plan = snapshot;
    const text = JSON.stringify(this.state);
    await fsp.writeFile(this.file, text);
    this.lastBytes = text.length;
    return successText(counts);
  }

  undo(): void {
    const entry = this.state[BENCH_SESSION]!;
    entry.history.pop();
    entry.plan = entry.history[entry.history.length - 1]!;
  }

  bytes(): number {
    return this.lastBytes;
  }
}

// ---------------------------------------------------------------------------------------

export interface WriteRow {
  prior: number;
  ours: Sample;
  oursFileBytes: number;
  jsonFile: Sample;
  jsonFileBytes: number;
  workspaceState: Sample;
  workspaceStateBytes: number;
}

export interface WriteOptions {
  dir: string;
  sizes: number[];
  budget: (prior: number) => Budget;
  otherSessions: number;
  otherHistory: number;
  onProgress?: (text: string) => void;
}

/** One todo_write call (validate + append + result text) at each history size, ours and the peers'. */
export async function benchWritePath(options: WriteOptions): Promise<WriteRow[]> {
  const rows: WriteRow[] = [];
  for (const prior of options.sizes) {
    const dir = path.join(options.dir, `write-${prior}`);
    fs.mkdirSync(dir, { recursive: true });
    const budget = options.budget(prior);

    // Ours: the real SessionLog over the real file system, through the real store and tool core.
    const log = new SessionLog(path.join(dir, 'sessions'), new NodeFileSystem());
    fs.mkdirSync(log.dir, { recursive: true });
    const file = log.fileFor(BENCH_SESSION);
    writeHistory(file, BENCH_SESSION, prior);
    const store = new PlanStore(log);
    await store.load();
    const ours = await measure(async (i) => {
      const outcome = await runTodoWrite(store, BENCH_TOKEN, { todos: planAt(i + 1) });
      if (outcome.kind !== 'saved') throw new Error(`bench write failed: ${outcome.text}`);
    }, budget);
    const oursFileBytes = fs.statSync(file).size;
    store.dispose();
    options.onProgress?.(`write path, ${prior} prior: ours ${ours.median.toFixed(3)} ms`);

    const start = Date.UTC(2025, 0, 1);
    const history = (): Snapshot[] => Array.from({ length: prior }, (_, i) => snapshotAt(i, start));
    const peers: Array<[string, Peer]> = [
      ['jsonFile', new JsonFilePeer(path.join(dir, 'plans.json'), history())],
      ['workspaceState', new WorkspaceStatePeer(path.join(dir, 'state.json'), history(), options.otherSessions, options.otherHistory)],
    ];
    const results: Record<string, { sample: Sample; bytes: number }> = {};
    for (const [name, peer] of peers) {
      const sample = await measure(
        async (i) => {
          const text = await peer.call({ todos: planAt(i + 1) });
          if (!text.startsWith('Updated')) throw new Error(`peer write failed: ${text}`);
        },
        budget,
        () => peer.undo(),
      );
      results[name] = { sample, bytes: peer.bytes() };
      options.onProgress?.(`write path, ${prior} prior: ${name} ${sample.median.toFixed(3)} ms`);
    }
    rows.push({
      prior,
      ours,
      oursFileBytes,
      jsonFile: results['jsonFile']!.sample,
      jsonFileBytes: results['jsonFile']!.bytes,
      workspaceState: results['workspaceState']!.sample,
      workspaceStateBytes: results['workspaceState']!.bytes,
    });
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

export interface ReadRow {
  prior: number;
  fileBytes: number;
  current: Sample;
  history: Sample;
  naive: Sample;
}

export interface ReadOptions {
  dir: string;
  sizes: number[];
  budget: (prior: number, kind: 'current' | 'replay') => Budget;
  onProgress?: (text: string) => void;
}

/** The current plan by tail read (SessionLog.current) against two full replays of the same file. */
export async function benchReadPath(options: ReadOptions): Promise<ReadRow[]> {
  const rows: ReadRow[] = [];
  for (const prior of options.sizes) {
    const dir = path.join(options.dir, `read-${prior}`);
    const log = new SessionLog(dir, new NodeFileSystem());
    fs.mkdirSync(dir, { recursive: true });
    const file = log.fileFor(BENCH_SESSION);
    const fileBytes = writeHistory(file, BENCH_SESSION, prior);
    const expected = JSON.stringify(planAt(prior - 1));
    const check = (event: PlanRecord | undefined): void => {
      if (!event || JSON.stringify(event.todos) !== expected) throw new Error('bench read returned the wrong plan');
    };

    const current = await measure(async () => check(await log.current(BENCH_SESSION)), options.budget(prior, 'current'));
    options.onProgress?.(`read path, ${prior} prior: current ${current.median.toFixed(3)} ms`);
    const history = await measure(async () => {
      const events = await log.history(BENCH_SESSION);
      check(events[events.length - 1]);
    }, options.budget(prior, 'replay'));
    options.onProgress?.(`read path, ${prior} prior: history ${history.median.toFixed(3)} ms`);
    // The plain way: read the file, parse every line, keep the last (no validation at all).
    const naive = await measure(async () => {
      const text = await fsp.readFile(file, 'utf8');
      let last: PlanRecord | undefined;
      for (const line of text.split('\n')) if (line !== '') last = JSON.parse(line) as PlanRecord;
      check(last);
    }, options.budget(prior, 'replay'));
    options.onProgress?.(`read path, ${prior} prior: parse every line ${naive.median.toFixed(3)} ms`);
    rows.push({ prior, fileBytes, current, history, naive });
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

/** The texts whose token cost the benchmark reports, from the code that produces them. */
export function modelTexts(): Record<string, string> {
  const plan = planAt(7);
  const counts = countTodos(plan);
  return {
    successText: successText(counts),
    invalidStatusText: ERRORS.invalidStatus(3),
    duplicateText: ERRORS.duplicateContent(TASKS[4]!),
    emptyContentText: ERRORS.emptyContent,
    arguments20: JSON.stringify({ todos: plan }),
    canonicalResult20: JSON.stringify({ todos: plan, counts }),
    ...handoffTexts(),
  };
}

/** The prompts Agent Plan types into a chat, for a plan of 5 items with 3 open (the README's example). */
export function handoffTexts(): Record<string, string> {
  const plan: PlanItem[] = [
    { content: 'Read the issue', status: 'completed' },
    { content: 'Reproduce the failure', status: 'completed' },
    { content: 'Write the fix', status: 'in_progress' },
    { content: 'Add a regression test', status: 'pending' },
    { content: 'Update the changelog', status: 'pending' },
  ];
  return {
    continuePrompt5: continuePrompt(plan, { title: 'Fix the build', agent: 'Claude Code' }),
    continuePromptWords: continuePrompt([], { title: undefined, agent: undefined }),
    askToContinue3: askToContinuePrompt(plan),
    askToRestore: askToRestorePrompt('Add a regression test'),
  };
}

export interface ScaleRow {
  sessions: number;
  writesEach: number;
  /** store.load() start → the first change event (the Plan view can paint the newest session). */
  firstPaintMs: number;
  /** store.load() start → every session in (what the Plan view waited for before). */
  fullLoadMs: number;
  /** A reload: store.load({ first }) with the session shown last remembered → the first change event. */
  reloadFirstPaintMs: number;
  reloadFullLoadMs: number;
}

export interface HistoryRow {
  writes: number;
  fileBytes: number;
  /** The newest 100 versions, paged backwards (SessionLog.page). */
  newestMs: number;
  newestHeapMB: number;
  /** One version by its address, halfway back (SessionLog.versionAt: Compare and the snapshot documents). */
  versionAtMs: number;
  /** The whole history replayed (SessionLog.history, what history views read before). */
  fullMs: number;
  fullHeapMB: number;
}

function heapMB(): number {
  return process.memoryUsage().heapUsed / (1024 * 1024);
}

/** Activation over many sessions: the first paint against the whole load, one run each. */
export async function benchScaleLoad(
  dir: string,
  sessions: number,
  writesEach: number,
  onProgress?: (text: string) => void,
  options: { health?: boolean } = {},
): Promise<ScaleRow> {
  const folder = path.join(dir, `scale-${sessions}`);
  fs.mkdirSync(folder, { recursive: true });
  for (let i = 0; i < sessions; i++) {
    const key = hashIdentity(`scale ${i}`);
    writeHistory(path.join(folder, `${key}.jsonl`), key, writesEach);
  }
  onProgress?.(`scale: ${sessions} sessions written`);
  const activate = async (first?: string): Promise<{ firstPaintMs: number; fullLoadMs: number }> => {
    const log = new SessionLog(folder, new NodeFileSystem());
    const store = new PlanStore(log);
    // As the extension runs it: plan health follows the same reader.
    const health = options.health ? new HealthBook(log) : undefined;
    const started = performance.now();
    let firstPaintMs = NaN;
    const subscription = store.onDidChange(() => {
      if (Number.isNaN(firstPaintMs) && store.latest() !== undefined) firstPaintMs = performance.now() - started;
    });
    await store.load({ first });
    const fullLoadMs = performance.now() - started;
    subscription.dispose();
    if (store.list().length !== sessions) throw new Error(`scale bench loaded ${store.list().length} of ${sessions} sessions`);
    health?.dispose();
    store.dispose();
    return { firstPaintMs, fullLoadMs };
  };
  // A first activation knows nothing; a reload remembers the session the view showed (the newest here).
  const first = await activate();
  const reload = await activate(hashIdentity(`scale ${sessions - 1}`));
  fs.rmSync(folder, { recursive: true, force: true });
  return { sessions, writesEach, ...first, reloadFirstPaintMs: reload.firstPaintMs, reloadFullLoadMs: reload.fullLoadMs };
}

/** The newest 100 versions of a long history against replaying all of it. */
export async function benchHistoryPage(dir: string, writes: number, onProgress?: (text: string) => void): Promise<HistoryRow> {
  const folder = path.join(dir, `history-${writes}`);
  fs.mkdirSync(folder, { recursive: true });
  const log = new SessionLog(folder, new NodeFileSystem());
  const fileBytes = writeHistory(log.fileFor(BENCH_SESSION), BENCH_SESSION, writes);
  onProgress?.(`history: ${writes} writes written (${(fileBytes / 1e6).toFixed(0)} MB)`);
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  let heap = heapMB();
  let started = performance.now();
  const page = await log.page(BENCH_SESSION, 100);
  const newestMs = performance.now() - started;
  const newestHeapMB = heapMB() - heap;
  if (page.versions.length !== 100) throw new Error('history bench: the page is not 100 versions');
  const middle = (await log.page(BENCH_SESSION, 1, Math.floor(fileBytes / 2))).versions[0];
  if (!middle) throw new Error('history bench: no version halfway back');
  started = performance.now();
  const one = await log.versionAt(BENCH_SESSION, middle.at);
  const versionAtMs = performance.now() - started;
  if (one?.ts !== middle.event.ts) throw new Error('history bench: versionAt read another version');
  gc?.();
  heap = heapMB();
  started = performance.now();
  const all = await log.history(BENCH_SESSION);
  const fullMs = performance.now() - started;
  const fullHeapMB = heapMB() - heap;
  if (all.length !== writes) throw new Error('history bench: the replay lost versions');
  fs.rmSync(folder, { recursive: true, force: true });
  return { writes, fileBytes, newestMs, newestHeapMB, versionAtMs, fullMs, fullHeapMB };
}

export interface HealthRow {
  items: number;
  lines: number;
  /** What plan health adds to each appended plan line (HealthBook: compare versions, recompute signals). */
  planLine: Sample;
  /** The same for a session/info line (turn facts, tool calls). */
  infoLine: Sample;
}

/**
 * The cost plan health adds per appended line: lines handed to a HealthBook as the log's
 * reader hands them (one LogRead per line), a plan of `items` items whose statuses move one
 * item per version, with a session/info line (a running turn, growing tool calls) between.
 */
export function benchHealthLine(items = 100, lines = 4000): HealthRow {
  const reads = new Emitter<LogRead>();
  const book = new HealthBook({ onDidRead: reads.event }, { now: () => Date.UTC(2025, 0, 1, 1) });
  const session = hashIdentity('health bench');
  const start = Date.UTC(2025, 0, 1);
  const names = Array.from({ length: items }, (_, i) => `${TASKS[i % TASKS.length]} (${i})`);
  const plan: PlanItem[] = names.map((content) => ({ content, status: 'pending' }));
  const planTimes: number[] = [];
  const infoTimes: number[] = [];
  let offset = 0;
  for (let i = 0; i < lines; i++) {
    const ts = new Date(start + i * 1000).toISOString();
    // One item moves per version: pending → in progress → completed, then back to pending (a new round).
    const item = plan[i % items] as PlanItem;
    item.status = item.status === 'pending' ? 'in_progress' : item.status === 'in_progress' ? 'completed' : 'pending';
    const todos = plan.map((todo) => ({ content: todo.content, status: todo.status }));
    const event: PlanRecord = { v: LOG_FORMAT_VERSION, type: TODO_WRITE_EVENT, ts, session, todos, counts: countItems(todos) };
    const info: SessionInfoRecord = {
      v: LOG_FORMAT_VERSION,
      type: 'session/info',
      ts,
      session,
      source: { agent: 'codex', session: 'bench' },
      turn: { index: 0, state: 'running', since: new Date(start).toISOString() },
      activity: { calls: i % 20, at: ts },
    };
    let began = performance.now();
    reads.fire({ session, records: [event], offsets: [offset] });
    planTimes.push(performance.now() - began);
    offset += 4000;
    began = performance.now();
    reads.fire({ session, records: [info], offsets: [offset] });
    infoTimes.push(performance.now() - began);
    offset += 300;
  }
  book.dispose();
  // The first lines create the session and warm the JIT: not counted.
  const warm = Math.min(200, lines >> 2);
  return { items, lines, planLine: summarize(planTimes.slice(warm)), infoLine: summarize(infoTimes.slice(warm)) };
}

export interface IdleRow {
  sessions: number;
  /** Calls through the log's file system (stats, reads) over `liveWindowMs` of idle with a live watch. */
  liveCalls: number;
  liveWindowMs: number;
  /** Looks the watcher asked for in that window (0: no poll runs while events arrive). */
  livePolls: number;
  /** Where events do not arrive: one SessionLog.poll() while nothing changes. */
  pollStats: number;
  pollReads: number;
  pollMs: number;
  /** A full listing (store.load(): Refresh, and what ran every 5 s before), for comparison. */
  listingStats: number;
  listingMs: number;
}

/** A NodeFileSystem that counts every call that touches a file. */
class CountingNodeFileSystem extends NodeFileSystem {
  calls = 0;
  stats = 0;
  override size(p: string) {
    this.calls++;
    this.stats++;
    return super.size(p);
  }
  override modifiedMs(p: string) {
    this.calls++;
    this.stats++;
    return super.modifiedMs(p);
  }
  override statMany(paths: readonly string[]) {
    this.calls += paths.length;
    this.stats += paths.length;
    return super.statMany(paths);
  }
  override readRange(p: string, start: number, length: number) {
    this.calls++;
    return super.readRange(p, start, length);
  }
  override readdir(dir: string) {
    this.calls++;
    return super.readdir(dir);
  }
}

/** Idle over many sessions: what runs on a timer with a live watch, and what one poll costs where events do not arrive. */
export async function benchIdle(dir: string, sessions: number, onProgress?: (text: string) => void): Promise<IdleRow> {
  const folder = path.join(dir, `idle-${sessions}`);
  fs.mkdirSync(folder, { recursive: true });
  for (let i = 0; i < sessions; i++) {
    const key = hashIdentity(`idle ${i}`);
    writeHistory(path.join(folder, `${key}.jsonl`), key, 20);
  }
  // A folder last changed a while ago, as after a day of work.
  const past = new Date(Date.now() - 3600_000);
  fs.utimesSync(folder, past, past);
  onProgress?.(`idle: ${sessions} sessions written`);
  const fsCount = new CountingNodeFileSystem();
  const log = new SessionLog(folder, fsCount);
  const store = new PlanStore(log);
  await store.load();
  // Listing again what is already read: Refresh now, and what the old slow poll did every 5 s.
  let started = performance.now();
  fsCount.stats = 0;
  await store.load();
  const listingMs = performance.now() - started;
  const listingStats = fsCount.stats;
  // A live watch: after its probe, nothing on a timer touches the sessions (the old poll ran every 100 ms here).
  let livePolls = 0;
  const watcher = watchLogFolder(folder, {
    pollMs: 100,
    onChange: (session) => void store.ingest(session),
    onRescan: () => void store.load(),
    onPoll: () => (livePolls++, log.poll()),
    onError: () => {},
  });
  await sleep(1000);
  const liveWindowMs = 3000;
  fsCount.calls = 0;
  livePolls = 0;
  await sleep(liveWindowMs);
  const liveCalls = fsCount.calls;
  watcher.dispose();
  // Where events do not arrive: one look while nothing changed (the median of 5).
  await log.poll();
  const times: number[] = [];
  let pollStats = 0;
  let pollReads = 0;
  for (let i = 0; i < 5; i++) {
    fsCount.stats = 0;
    fsCount.calls = 0;
    started = performance.now();
    if (await log.poll()) throw new Error('idle bench: a poll saw a change in an unchanged folder');
    times.push(performance.now() - started);
    pollStats = fsCount.stats;
    pollReads = fsCount.calls - fsCount.stats;
  }
  store.dispose();
  fs.rmSync(folder, { recursive: true, force: true });
  return { sessions, liveCalls, liveWindowMs, livePolls, pollStats, pollReads, pollMs: summarize(times).median, listingStats, listingMs };
}

/**
 * Other agents' files for the idle bench, made from the recordings of the real CLIs (in their
 * test twins under `agents`: test/agents/<agent>/recordings/) with the workspace and session ids
 * replaced: `claude-code` Claude Code transcripts of `workspace`, and `codex` Codex rollouts of
 * it spread over `days` day folders.
 */
export function seedForeignFiles(agents: string, home: string, workspace: string, counts: { claude: number; codex: number; days: number }): void {
  const uuid = (i: number, salt: string): string => {
    const hex = hashIdentity(`${salt} ${i}`);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
  };
  const template = (dir: string): { text: string; workspace: string; id: string } => {
    const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')) as { workspace: string };
    const files: string[] = [];
    const walk = (d: string): void => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(path.join(d, e.name));
        else if (e.name.endsWith('.jsonl')) files.push(path.join(d, e.name));
      }
    };
    walk(dir);
    const file = files[0];
    if (!file) throw new Error(`no recording in ${dir}`);
    const id = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/.exec(file)?.[1];
    if (!id) throw new Error(`no session id in ${file}`);
    return { text: fs.readFileSync(file, 'utf8'), workspace: meta.workspace, id };
  };
  const claude = template(path.join(agents, 'claudeCode', 'recordings', 'todowrite'));
  const project = path.join(home, '.claude', 'projects', path.resolve(workspace).replace(/[^a-zA-Z0-9]/g, '-'));
  fs.mkdirSync(project, { recursive: true });
  for (let i = 0; i < counts.claude; i++) {
    const id = uuid(i, 'claude');
    fs.writeFileSync(path.join(project, `${id}.jsonl`), claude.text.split(claude.workspace).join(workspace).split(claude.id).join(id));
  }
  const codex = template(path.join(agents, 'codex', 'recordings', 'update-plan'));
  const perDay = Math.ceil(counts.codex / counts.days);
  for (let i = 0; i < counts.codex; i++) {
    const day = new Date(Date.UTC(2026, 10, 30) - Math.floor(i / perDay) * 86_400_000);
    const [y, m, d] = [day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate()].map((n) => String(n).padStart(2, '0'));
    const folder = path.join(home, '.codex', 'sessions', y as string, m as string, d as string);
    fs.mkdirSync(folder, { recursive: true });
    const id = uuid(i, 'codex');
    fs.writeFileSync(path.join(folder, `rollout-${y}-${m}-${d}T10-00-00-${id}.jsonl`), codex.text.split(codex.workspace).join(workspace).split(codex.id).join(id));
  }
}
export const benchKey = (text: string): string => hashIdentity(text);

export interface TimelineRow {
  versions: number;
  fileBytes: number;
  /** The newest page read, the timeline built and the page's model made: what the webview is first sent. */
  firstPaint: Sample;
  pageVersions: number;
  /** The same picture from every version: the whole file read and built. */
  whole: Sample;
}

/**
 * The Plan Timeline at `versions` versions: its first picture (the newest `page` versions,
 * as src/vscode/timeline/timelinePanel.ts reads them) next to a timeline of the whole history.
 */
export async function benchTimeline(dir: string, versions: number, page: number, budget: Budget, onProgress?: (text: string) => void): Promise<TimelineRow> {
  const folder = path.join(dir, `timeline-${versions}`);
  fs.mkdirSync(folder, { recursive: true });
  const log = new SessionLog(folder, new NodeFileSystem());
  const fileBytes = writeHistory(log.fileFor(BENCH_SESSION), BENCH_SESSION, versions);
  const model = (lines: Parameters<typeof buildTimeline>[0], more: boolean) =>
    timelineViewModel(BENCH_SESSION, buildTimeline(lines), 'bench', more, formatOnly, (ms) => new Date(ms).toISOString(), (signal) => signal.kind);
  const firstPaint = await measure(async () => {
    const read = await readTimelinePage(log, BENCH_SESSION, page);
    const view = model(read.lines, read.more);
    if (view.marks.length !== page || !view.more) throw new Error('bench timeline read the wrong page');
  }, budget);
  onProgress?.(`timeline, ${versions} versions: first paint ${firstPaint.median.toFixed(1)} ms`);
  const whole = await measure(async () => {
    const read = await readTimelinePage(log, BENCH_SESSION, Number.MAX_SAFE_INTEGER);
    const view = model(read.lines, read.more);
    if (view.marks.length !== versions) throw new Error('bench timeline missed versions');
  }, { ...budget, minSamples: 3, maxSamples: 5 });
  onProgress?.(`timeline, ${versions} versions: whole history ${whole.median.toFixed(1)} ms`);
  fs.rmSync(folder, { recursive: true, force: true });
  return { versions, fileBytes, firstPaint, pageVersions: page, whole };
}

export interface SnapshotCost {
  /** Per snapshot, ms. */
  times: number[];
  medianMs: number;
  maxMs: number;
  /** The event loop's longest wait while snapshots ran, ms. */
  maxGapMs: number;
  /** Each snapshot's longest wait, the median of them, ms. */
  medianGapMs: number;
}

export interface SnapshotRows {
  files: number;
  changedPerRun: number;
  runs: number;
  heapMB: number;
  /** git started by the runner process (src/node/gitRunner.ts), as the extension does. */
  runner: SnapshotCost;
  /** git started from the calling thread (as before the runner). */
  here: SnapshotCost;
  /** The event loop's longest wait with no snapshot running, over as long: the longest, and the median of each window's. */
  idleMaxGapMs: number;
  idleMedianGapMs: number;
  /** 500 plan versions, one in-progress set: snapshots the recorder took. */
  versions: number;
  snapshotsTaken: number;
  /** What `withRepo` measured. */
  more: unknown;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? -1;
}

/** The event loop's longest wait while `run` runs (a 1 ms timer's lateness). */
async function longestGap(run: () => Promise<void>): Promise<number> {
  let max = 0;
  let last = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const tick = (): void => {
    const now = performance.now();
    max = Math.max(max, now - last - 1);
    last = now;
    timer = setTimeout(tick, 1);
  };
  timer = setTimeout(tick, 1);
  try {
    await run();
  } finally {
    clearTimeout(timer);
  }
  return Math.max(0, max);
}

/**
 * Snapshots of a working tree of `files` files with 5 changed per run (src/node/gitSnapshots.ts),
 * git started by the runner and, alternately, from this thread, with `heapMB` held as a host
 * holds its heap (a process start copies the starting process's page tables); then a session
 * of `versions` plan versions whose in-progress set does not change, through the real log and
 * recorder, and the snapshots it took.
 */
/** `withRepo`: more figures taken on the same repository before it is removed (the snapshot store's bounds: scripts/bench/snapshotStore.mjs). */
export async function benchSnapshots(
  dir: string,
  options: { files: number; runs: number; heapMB: number; versions: number; withRepo?: (repo: string) => Promise<unknown> },
  onProgress?: (text: string) => void,
): Promise<SnapshotRows> {
  const root = path.join(dir, 'snapshots');
  const repo = path.join(root, 'repo');
  fs.mkdirSync(repo, { recursive: true });
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  Object.assign(env, { GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' });
  const git = (...args: string[]): void => void execFileSync('git', ['-c', 'gc.auto=0', ...args], { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
  git('init', '-q');
  for (let i = 0; i < options.files; i++) {
    const folder = path.join(repo, `d${i % 100}`, `e${Math.floor(i / 100) % 50}`);
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, `f${i}.ts`), `export const v${i} = ${i};\n`.repeat(20));
  }
  git('add', '-A');
  git('commit', '-q', '-m', 'bench');
  onProgress?.(`snapshots: a repository of ${options.files} files`);
  const held = Array.from({ length: options.heapMB }, () => Buffer.alloc(1 << 20, 1));
  const runner = new GitSnapshots(path.join(root, 'store-runner'));
  const here = new GitSnapshots(path.join(root, 'store-here'));
  here.dispose();
  for (const store of [runner, here]) await store.snapshot(repo);
  const costs = { runner: { times: [] as number[], gaps: [] as number[] }, here: { times: [] as number[], gaps: [] as number[] } };
  const idle: number[] = [];
  for (let run = 0; run < options.runs; run++) {
    for (const [name, store] of [['runner', runner], ['here', here]] as const) {
      for (let k = 0; k < 5; k++) fs.appendFileSync(path.join(repo, `d${k}`, 'e0', `f${k}.ts`), `// ${name} ${run}\n`);
      let ms = 0;
      costs[name].gaps.push(
        await longestGap(async () => {
          const result = await store.snapshot(repo);
          if (!result.ok) throw new Error(result.detail);
          ms = result.ms;
        }),
      );
      costs[name].times.push(ms);
    }
    idle.push(await longestGap(() => sleep(Math.max(50, costs.runner.times.at(-1) ?? 0))));
  }
  runner.dispose();
  const cost = ({ times, gaps }: { times: number[]; gaps: number[] }): SnapshotCost => {
    const sorted = [...times].sort((a, b) => a - b);
    return { times, medianMs: sorted[Math.floor(sorted.length / 2)] ?? -1, maxMs: sorted.at(-1) ?? -1, maxGapMs: Math.max(...gaps), medianGapMs: median(gaps) };
  };
  onProgress?.(`snapshots: ${options.runs} runs each, held ${held.length} MB`);

  // A session of many versions whose in-progress set stays the same: the real log, sink and recorder.
  const fileSystem = new NodeFileSystem();
  const log = new SessionLog(path.join(root, 'sessions'), fileSystem);
  const store = new PlanStore(log);
  const snapshots = new GitSnapshots(path.join(root, 'store-versions'));
  let taken = 0;
  const recorder = new SnapshotRecorder(log, new LogPlanSink(log), snapshots, {
    folderOf: () => repo,
    maxBytes: () => 0,
    enabled: () => true,
    info: () => undefined,
    error: (message) => {
      throw new Error(message);
    },
    onSnapshot: () => void taken++,
  });
  await store.load();
  for (let version = 0; version < options.versions; version++) {
    const todos = planAt(0).map((todo, i) => ({ ...todo, status: i === 0 ? ('in_progress' as const) : ('pending' as const) }));
    if (todos[1]) todos[1] = { ...todos[1], content: `${todos[1].content} (note ${version})` };
    await store.write(BENCH_SESSION, todos);
    if (version % 50 === 0) await recorder.idle();
  }
  await recorder.idle();
  recorder.dispose();
  snapshots.dispose();
  const more = options.withRepo ? await options.withRepo(repo) : undefined;
  fs.rmSync(root, { recursive: true, force: true });
  return {
    more,
    files: options.files,
    changedPerRun: 5,
    runs: options.runs,
    heapMB: held.length,
    runner: cost(costs.runner),
    here: cost(costs.here),
    idleMaxGapMs: Math.max(...idle),
    idleMedianGapMs: median(idle),
    versions: options.versions,
    snapshotsTaken: taken,
  };
}

// Runs inside the real VS Code extension host as `extensionTestsPath` (compiled by
// scripts/bench.mjs). What it does is read from `bench-phase.json` in the run folder (the
// parent of the workspace folder); it writes `bench-result-<phase>.json` there and
// returns, and the workbench then calls codeAutomationExit.
//
// - activation: reads the extension host's own performance marks for our extension
//   (the figures behind "Developer: Show Running Extensions").
// - idle: the extension host's own CPU time (process.cpuUsage: user + system, every thread)
//   over `idleSeconds` in which nothing happens, after the log folder has stopped changing
//   and `settleSeconds` more; run with and without Agent Plan loaded.
// - latency: sends real chat requests through the fixture participant `@planner`, each
//   writing a 20-item plan with one unique item, and asks the launcher (which drives the
//   browser) to report when that item's row is in the Plan view's DOM. The two sides
//   meet through files in `<run>/latency/` and compare Date.now() of the same machine.
//   Two controls are timed the same way: a status-bar item of this module, and a bare tree
//   view of 20 rows (test/bench/bare-tree, a minimal extension in the same host).
// - heap: activates Agent Plan (when loaded), waits until its storage stops changing, shows
//   its views, then writes `heap-ready-<phase>.json` and waits for `heap-done-<phase>.json`:
//   meanwhile the launcher forces garbage collections and reads the heap through this
//   host's inspector port (scripts/bench/hostHeap.mjs). Run with and without Agent Plan.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { sleep, waitFor } from '../lib/wait';

const EXTENSION_ID = 'agent-plan.agent-plan';

interface Phase {
  name: string;
  kind: 'activation' | 'latency' | 'idle' | 'heap';
  writes?: number;
  warmup?: number;
  settleSeconds?: number;
  idleSeconds?: number;
  /** The page loads the development extensions but Agent Plan. */
  withoutAgentPlan?: boolean;
}

interface Mark {
  name: string;
  startTime: number;
}

interface Api {
  readonly logFolder: string;
  onDidWritePlan(listener: (snapshot: { session: string; todos: Array<{ content: string }> }) => void): vscode.Disposable;
}

export async function run(): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!folder) throw new Error('the benchmark needs a workspace folder');
  const runDir = path.dirname(folder);
  const phase = JSON.parse(fs.readFileSync(path.join(runDir, 'bench-phase.json'), 'utf8')) as Phase;
  const resultFile = path.join(runDir, `bench-result-${phase.name}.json`);
  let result: Record<string, unknown>;
  try {
    result =
      phase.kind === 'activation'
        ? await activation()
        : phase.kind === 'idle'
          ? await idle(phase)
          : phase.kind === 'heap'
            ? await heap(runDir, phase)
            : await latency(runDir, phase);
  } catch (error) {
    result = { error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  fs.writeFileSync(`${resultFile}.tmp`, JSON.stringify(result, null, 2));
  fs.renameSync(`${resultFile}.tmp`, resultFile);
}

/** Files and bytes under `dir` (the log folder and the followers' cursors), to tell when imports are done. */
function footprint(dir: string): string {
  let files = 0;
  let size = 0;
  const walk = (d: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else {
        files++;
        size += fs.statSync(full, { throwIfNoEntry: false })?.size ?? 0;
      }
    }
  };
  walk(dir);
  return `${files}/${size}`;
}

async function idle(phase: Phase): Promise<Record<string, unknown>> {
  const { extension, sessions } = await settled(phase);
  await sleep((phase.settleSeconds ?? 20) * 1000);
  const before = process.cpuUsage();
  const started = performance.now();
  await sleep((phase.idleSeconds ?? 60) * 1000);
  const used = process.cpuUsage(before);
  const elapsedMs = performance.now() - started;
  return { loaded: extension !== undefined, sessions, elapsedMs, cpuMs: (used.user + used.system) / 1000, cpuPercent: ((used.user + used.system) / 1000 / elapsedMs) * 100 };
}

/** Agent Plan activated (when loaded) and its first import done: the sessions in its log folder. */
async function settled(phase: Phase): Promise<{ extension: vscode.Extension<Api> | undefined; sessions: number; logFolder?: string }> {
  const extension = vscode.extensions.getExtension<Api>(EXTENSION_ID);
  if (phase.withoutAgentPlan && extension) throw new Error('Agent Plan is loaded in the phase meant to run without it');
  if (!phase.withoutAgentPlan && !extension) throw new Error(`${EXTENSION_ID} is not loaded`);
  if (!extension) return { extension, sessions: 0 };
  const api = await extension.activate();
  // What the followers import at the first start is work, not a steady state: wait until Agent Plan's storage stops changing.
  const storage = path.dirname(api.logFolder);
  let last = '';
  let steadySince = Date.now();
  const deadline = Date.now() + 10 * 60_000;
  while (Date.now() - steadySince < 10_000 && Date.now() < deadline) {
    await sleep(1000);
    const now = footprint(storage);
    if (now !== last) steadySince = Date.now();
    last = now;
  }
  let sessions = 0;
  try {
    sessions = fs.readdirSync(api.logFolder).filter((name) => name.endsWith('.jsonl')).length;
  } catch {
    // no log folder yet: empty storage
  }
  return { extension, sessions, logFolder: api.logFolder };
}

async function heap(runDir: string, phase: Phase): Promise<Record<string, unknown>> {
  const started = Date.now();
  const { extension, sessions, logFolder } = await settled(phase);
  // Agent Plan's views on screen, as a user who has it sees them: their first rows asked for.
  if (extension) await vscode.commands.executeCommand('workbench.view.extension.agentPlan');
  // Every row waits alike: until no extension has activated for 10 s, at least 30 s after the start
  // (other extensions activate late, on their own events: one more changes the heap by megabytes).
  const active = (): string[] =>
    vscode.extensions.all
      .filter((e) => e.isActive)
      .map((e) => e.id)
      .sort();
  let last = active().join();
  let steadySince = Date.now();
  const minimum = started + Math.max(30, phase.settleSeconds ?? 10) * 1000;
  while (Date.now() - steadySince < 10_000 || Date.now() < minimum) {
    await sleep(1000);
    const now = active().join();
    if (now !== last) steadySince = Date.now();
    last = now;
  }
  const dir = path.join(runDir, 'heap');
  fs.mkdirSync(dir, { recursive: true });
  writeFileAtomic(path.join(dir, `heap-ready-${phase.name}.json`), JSON.stringify({ loaded: extension !== undefined, sessions, pid: process.pid }));
  const measured = JSON.parse(await waitForFile(path.join(dir, `heap-done-${phase.name}.json`), 15 * 60_000)) as Record<string, unknown>;
  return { loaded: extension !== undefined, sessions, activeExtensions: active(), ...(logFolder ? { logFolder } : {}), ...measured };
}

function marks(): Mark[] {
  const perf = (globalThis as { MonacoPerformanceMarks?: { getMarks(): Mark[] } }).MonacoPerformanceMarks;
  return perf ? perf.getMarks() : [];
}

async function activation(): Promise<Record<string, unknown>> {
  const extension = vscode.extensions.getExtension<Api>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded`);
  const wasActive = extension.isActive;
  const t0 = performance.now();
  const api = await extension.activate();
  const awaitMs = performance.now() - t0;
  const all = marks();
  const at = (name: string): number | undefined => all.find((m) => m.name === name)?.startTime;
  const of = (id: string) => {
    const willLoad = at(`code/extHost/willLoadExtensionCode/${id}`);
    const didLoad = at(`code/extHost/didLoadExtensionCode/${id}`);
    const willActivate = at(`code/extHost/willActivateExtension/${id}`);
    const didActivate = at(`code/extHost/didActivateExtension/${id}`);
    if (willLoad === undefined || didLoad === undefined || willActivate === undefined || didActivate === undefined) return undefined;
    return {
      codeLoadingMs: didLoad - willLoad,
      activateMs: didActivate - willActivate,
      totalMs: didActivate - willLoad,
    };
  };
  // For scale: every other extension this host activated, with the same marks.
  const others: Record<string, unknown> = {};
  for (const m of all) {
    const match = /^code\/extHost\/didActivateExtension\/(.+)$/.exec(m.name);
    if (match && match[1] !== EXTENSION_ID) others[match[1]!] = of(match[1]!);
  }
  return {
    wasActive,
    awaitActivateMs: awaitMs,
    ours: of(EXTENSION_ID),
    others,
    logFolder: api.logFolder,
    marksAvailable: all.length > 0,
  };
}

function waitForFile(file: string, timeoutMs: number): Promise<string> {
  const read = (): string | undefined => {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch {
      return undefined; // not there yet
    }
  };
  return waitFor(read, path.basename(file), timeoutMs, 5);
}

function writeFileAtomic(file: string, text: string): void {
  fs.writeFileSync(`${file}.tmp`, text);
  fs.renameSync(`${file}.tmp`, file);
}

const BARE_TREE_ID = 'agent-plan-test.agent-plan-bench-tree';

interface BareTree {
  show(labels: string[]): void;
}

/** The bare tree view's 19 fixed rows. */
const BARE_FIXED = Array.from({ length: 19 }, (_, i) => `Bare row ${String(i + 1).padStart(2, '0')}`);

/** The 19 fixed items of the plan; the unique item goes second, so it is always in view. */
const FIXED = Array.from({ length: 19 }, (_, i) => `Bench step ${String(i + 1).padStart(2, '0')}: keep the plan at twenty items`);

async function latency(runDir: string, phase: Phase): Promise<Record<string, unknown>> {
  const extension = vscode.extensions.getExtension<Api>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded`);
  const api = await extension.activate();
  const fixture = vscode.extensions.getExtension('agent-plan-test.agent-plan-fixture');
  await fixture?.activate();
  const bareExtension = vscode.extensions.getExtension<BareTree>(BARE_TREE_ID);
  if (!bareExtension) throw new Error(`${BARE_TREE_ID} is not loaded`);
  const bare = await bareExtension.activate();
  await vscode.commands.executeCommand('workbench.view.extension.agentPlan');
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
  const dir = path.join(runDir, 'latency');
  fs.mkdirSync(dir, { recursive: true });

  // Arms the launcher's DOM observer for `text` in `where`, before the clock starts.
  const arm = async (id: string, text: string, where: 'plan' | 'statusbar' | 'bare'): Promise<void> => {
    writeFileAtomic(path.join(dir, `arm-${id}.json`), JSON.stringify({ text, where }));
    await waitForFile(path.join(dir, `armed-${id}.json`), 20_000);
  };
  /** When the launcher saw it, in ms after `t0` (-1 when it did not). */
  const seenAfter = async (id: string, t0: number | undefined): Promise<{ domMs: number; frameMs: number; error?: string }> => {
    const seen = JSON.parse(await waitForFile(path.join(dir, `seen-${id}.json`), 20_000)) as { dom?: number; frame?: number; error?: string };
    const ok = seen.dom !== undefined && t0 !== undefined;
    return {
      domMs: ok ? seen.dom! - t0! : -1,
      frameMs: ok && seen.frame !== undefined ? seen.frame - t0! : -1,
      ...(seen.error ? { error: seen.error } : {}),
    };
  };

  // Controls, for the same machine and moment: a status-bar item of this module (nothing of
  // Agent Plan) whose text is set (a) in the same tick as the save, so it races the same chat
  // rendering as the Plan view does, and (b) later, when the chat is idle.
  const status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 10_000);
  status.text = 'bench';
  status.show();
  let watching = '';
  let statusOnSave = '';
  let bareOnSave: string[] = [];
  let savedAt: number | undefined;
  const subscription = api.onDidWritePlan((snapshot) => {
    if (savedAt !== undefined || !snapshot.todos.some((todo) => todo.content === watching)) return;
    savedAt = Date.now();
    status.text = statusOnSave;
    bare.show(bareOnSave);
  });
  /** 20 rows for the bare tree view, the unique one second (as in the plan). */
  const bareRows = (text: string): string[] => [BARE_FIXED[0]!, text, ...BARE_FIXED.slice(1)];
  const total = (phase.warmup ?? 2) + (phase.writes ?? 20);
  const samples: Array<Record<string, number | string | boolean>> = [];
  const unique = (): string => Math.random().toString(36).slice(2, 10);
  let misses = 0;
  let stopped: string | undefined;
  try {
    for (let i = 0; i < total; i++) {
      if (misses >= 3) {
        stopped = `stopped after ${misses} writes in a row whose row never showed in the Plan view`;
        break;
      }
      const text = `Bench write ${i} ${unique()}`;
      const input = { todos: [FIXED[0], text, ...FIXED.slice(1)].map((content, index) => ({ content, status: index < i % 20 ? 'completed' : 'pending' })) };
      statusOnSave = `Bench saved ${i} ${unique()}`;
      const bareText = `Bare saved ${i} ${unique()}`;
      bareOnSave = bareRows(bareText);
      await arm(String(i), text, 'plan');
      await arm(`saved${i}`, statusOnSave, 'statusbar');
      await arm(`bare${i}`, bareText, 'bare');
      watching = text;
      savedAt = undefined;
      const t0 = Date.now();
      await vscode.commands.executeCommand('workbench.action.chat.open', {
        query: `@planner ${JSON.stringify({ input })}`,
        mode: 'ask',
        modelSelector: { vendor: 'agent-plan-test' },
        isPartialQuery: false,
        blockOnResponse: true,
      });
      const tReturned = Date.now();
      const row = await seenAfter(String(i), t0);
      misses = row.domMs < 0 ? misses + 1 : 0;
      const saved = savedAt as number | undefined;
      const statusWithSave = await seenAfter(`saved${i}`, saved);
      const bareWithSave = await seenAfter(`bare${i}`, saved);

      const idleText = `Bench idle ${i} ${unique()}`;
      await arm(`idle${i}`, idleText, 'statusbar');
      const t1 = Date.now();
      status.text = idleText;
      const statusIdle = await seenAfter(`idle${i}`, t1);

      // The bare tree again, once the chat is idle, past the tree's 200 ms debounce of the refresh above.
      const bareIdleText = `Bare idle ${i} ${unique()}`;
      await arm(`bareIdle${i}`, bareIdleText, 'bare');
      if (saved !== undefined) await sleep(Math.max(0, saved + 250 - Date.now()));
      const t2 = Date.now();
      bare.show(bareRows(bareIdleText));
      const bareIdle = await seenAfter(`bareIdle${i}`, t2);
      samples.push({
        index: i,
        warmup: i < (phase.warmup ?? 2),
        t0,
        savedMs: saved !== undefined ? saved - t0 : -1,
        chatReturnedMs: tReturned - t0,
        ...row,
        statusWithSaveMs: statusWithSave.domMs,
        statusIdleMs: statusIdle.domMs,
        bareWithSaveMs: bareWithSave.domMs,
        bareIdleMs: bareIdle.domMs,
        ...(statusWithSave.error || statusIdle.error ? { statusError: statusWithSave.error ?? statusIdle.error ?? '' } : {}),
        ...(bareWithSave.error || bareIdle.error ? { bareError: bareWithSave.error ?? bareIdle.error ?? '' } : {}),
      });
    }
  } finally {
    subscription.dispose();
    status.dispose();
  }
  return { samples, logFolder: api.logFolder, ...(stopped ? { stopped } : {}) };
}

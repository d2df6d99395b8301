// The heap the extension's in-memory state takes over many sessions, built as
// src/extension.ts builds it (the session log's reader, the plan store, the display state,
// the import sink and its locks, the health, request, file, ledger and needs-you books),
// measured in plain Node with --expose-gc. Bundled on its own by
// scripts/bench/memory.mjs, from this tree and from main's (the figure before, same run).
// Uses only the constructors and calls both trees have. Nothing here asserts but the count.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { HealthBook } from '../../src/core/derived/healthBook';
import { FileBook } from '../../src/core/derived/itemFiles';
import { LedgerBook } from '../../src/core/derived/ledgerBook';
import { NeedsYouBook } from '../../src/core/derived/needsYouBook';
import { DisplayState } from '../../src/core/store/display';
import { LogPlanSink } from '../../src/core/log/planSink';
import { SessionLocks } from '../../src/core/log/sessionLock';
import { nodeLockOwner } from '../../src/node/lockOwner';
import { countTodos, type Todo, type TodoStatus } from '../../src/core/plan/plan';
import { RequestBook } from '../../src/core/derived/requests';
import { hashIdentity } from '../../src/core/log/sessionKey';
import { SessionLog } from '../../src/core/log/sessionLog';
import { PlanStore } from '../../src/core/store/store';
import { NodeFileSystem } from '../../src/node/nodeFileSystem';

const TASK = 'Step of the plan that a coding agent wrote, number';

export interface MemoryRow {
  sessions: number;
  /** Heap used after load, less before (MiB), after two forced GCs each. */
  heapMB: number;
  loadMs: number;
}

function heapUsed(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

/** Writes `sessions` logs of `writes` 20-item plans each, once per folder. */
export function writeSessions(folder: string, sessions: number, writes: number): void {
  if (fs.existsSync(path.join(folder, 'done'))) return;
  fs.mkdirSync(folder, { recursive: true });
  const start = Date.UTC(2025, 0, 1);
  for (let i = 0; i < sessions; i++) {
    const session = hashIdentity(`memory ${i}`);
    const lines: string[] = [];
    for (let step = 0; step < writes; step++) {
      const done = step % 21;
      const todos = Array.from({ length: 20 }, (_, index): Todo => {
        const status: TodoStatus = index < done ? 'completed' : index === done ? 'in_progress' : 'pending';
        return { content: `${TASK} ${index + 1} of session ${i}`, status };
      });
      lines.push(JSON.stringify({ v: 1, type: 'todo/write', ts: new Date(start + i * 60_000 + step * 1000).toISOString(), session, todos, counts: countTodos(todos) }));
    }
    fs.writeFileSync(path.join(folder, `${session}.jsonl`), lines.join('\n') + '\n');
  }
  fs.writeFileSync(path.join(folder, 'done'), '');
}

/** Builds everything, loads, shows a screenful (its rows' signals), and measures the heap it holds. */
export async function benchMemory(folder: string, sessions: number, inspect?: () => void): Promise<MemoryRow> {
  const before = heapUsed();
  const started = performance.now();
  const fileSystem = new NodeFileSystem();
  const log = new SessionLog(folder, fileSystem);
  const store = new PlanStore(log);
  const health = new HealthBook(log);
  const sink = new LogPlanSink(log, { locks: new SessionLocks(fileSystem, path.join(folder, '.locks'), nodeLockOwner()) });
  const display = new DisplayState(store, true);
  const requests = new RequestBook(log);
  const files = new FileBook(log);
  const ledgers = new LedgerBook(log);
  const needsYou = new NeedsYouBook(log, health);
  const included = health.include(requests);
  await store.load();
  const list = store.list();
  if (list.length !== sessions) throw new Error(`memory bench loaded ${list.length} of ${sessions} sessions`);
  // What the Sessions view's first screenful (its rows, the needs-you queue) and the Plan view ask for.
  needsYou.queue();
  for (const row of list.slice(0, 50)) {
    store.details(row.session);
    health.signals(row.session);
  }
  const shown = display.session ?? list[0]?.session;
  if (shown !== undefined) {
    await requests.list(shown);
    await files.get(shown);
    await ledgers.get(shown);
    store.get(shown);
  }
  const loadMs = performance.now() - started;
  const heapMB = (heapUsed() - before) / (1024 * 1024);
  inspect?.();
  // Kept alive until measured.
  included.dispose();
  needsYou.dispose();
  ledgers.dispose();
  display.dispose();
  sink.dispose();
  files.dispose();
  requests.dispose();
  health.dispose();
  store.dispose();
  return { sessions, heapMB, loadMs };
}

// Two (and four) extension hosts on one workspace: each a process with its own log reader,
// sink and the real Claude Code follower over the same transcript and the same storage
// folder, reacting to the same new call at the same moment. Each call must land in the
// log once, and each session/info update once; and a log that holds repeats anyway (an
// older version, or a sink without the locks) must replay with each call once.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { foreignSessionKey } from '../../src/core/sessionKey';
import { SessionLog, type LogRecord } from '../../src/core/sessionLog';
import { PlanStore } from '../../src/core/store';
import { nodeFileSystem } from '../../src/node/nodeFileSystem';
import { claudeProjectFolders } from '../../src/sources/locations';
import { childScript, collect, sleep, startNode, tempDir, waitForOutput } from './lib/env';
import { recordFigures } from './lib/figures';

const CALLS = Number(process.env.AGENT_PLAN_TWO_HOSTS_CALLS ?? 1000);
const INTERVAL_MS = Number(process.env.AGENT_PLAN_TWO_HOSTS_INTERVAL_MS ?? 10);
const CLAUDE_SESSION = '0b7c2d1e-5f3a-4c69-9e21-7d4b8a6f1c30';
const SESSION = foreignSessionKey('claude-code', CLAUDE_SESSION);

const callId = (step: number): string => `toolu_${String(step).padStart(5, '0')}`;
const titleOf = (step: number): string => `Run ${step}`;

const editId = (step: number): string => `toolu_edit_${String(step).padStart(5, '0')}`;

/** One call of Claude Code's TodoWrite, an Edit, their results, and a new title: what one step appends to the transcript. */
function stepLines(step: number, workspace: string): string {
  const base = { sessionId: CLAUDE_SESSION, cwd: workspace, timestamp: new Date(Date.UTC(2026, 11, 3, 12, 0, 0, step)).toISOString() };
  const todos = [
    { content: `step ${step}`, status: 'in_progress', activeForm: `Doing step ${step}` },
    { content: 'the rest', status: 'pending', activeForm: 'Doing the rest' },
  ];
  const use = { ...base, type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: callId(step), name: 'TodoWrite', input: { todos } }] } };
  const result = { ...base, type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: callId(step), content: 'Todos have been modified successfully.' }] } };
  const file = path.join(workspace, 'src', `step-${step}.ts`);
  const edit = { ...base, type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: editId(step), name: 'Write', input: { file_path: file, content: `export const step = ${step};\n` } }] } };
  const edited = { ...base, type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: editId(step), content: `File created successfully at: ${file}` }] } };
  const title = { type: 'custom-title', customTitle: titleOf(step), sessionId: CLAUDE_SESSION };
  return [use, result, edit, edited, title].map((line) => JSON.stringify(line)).join('\n') + '\n';
}

interface HostsRun {
  records: LogRecord[];
  logDir: string;
  lockStats: Array<{ taken: number; waits: number; takeovers: number; unlocked: number } | undefined>;
  /** Per host: imports its check wanted to write that, under the lock, another host had written. */
  settledUnderLock: number[];
  ms: number;
}

/** Starts `hosts` importer processes over one storage folder, appends `calls` steps to one transcript, and reads the log. */
async function runHosts(label: string, hosts: number, calls: number, mode: 'lock' | 'nolock'): Promise<HostsRun> {
  const root = tempDir(label);
  const workspace = path.join(root, 'work');
  const claudeDir = path.join(root, 'claude');
  const storageDir = path.join(root, 'storage');
  const logDir = path.join(storageDir, 'sessions');
  const projects = claudeProjectFolders(claudeDir, workspace)[0];
  assert.ok(projects, 'a Claude Code project folder for the workspace');
  fs.mkdirSync(workspace, { recursive: true });
  fs.mkdirSync(projects, { recursive: true });
  const transcript = path.join(projects, `${CLAUDE_SESSION}.jsonl`);
  fs.writeFileSync(transcript, '');

  const script = await childScript('importer');
  const children = Array.from({ length: hosts }, () => startNode(script, [logDir, storageDir, claudeDir, workspace, mode]));
  const exits = children.map((child) => collect(child));
  await Promise.all(children.map((child) => waitForOutput(child, 'ready')));
  const started = Date.now();
  let next = started;
  for (let step = 0; step < calls; step++) {
    fs.appendFileSync(transcript, stepLines(step, workspace));
    next += INTERVAL_MS;
    await sleep(Math.max(0, next - Date.now()));
  }
  for (const child of children) child.stdin?.end('done\n');
  const lockStats: HostsRun['lockStats'] = [];
  const settledUnderLock: number[] = [];
  for (const exit of await Promise.all(exits)) {
    assert.equal(exit.code, 0, `a host failed: ${exit.stderr}`);
    const report = JSON.parse(exit.stdout.trim().split('\n').pop() ?? '{}') as { locks?: HostsRun['lockStats'][number]; sink?: { settledUnderLock: number }; errors?: string[] };
    assert.deepEqual(report.errors, [], 'no host reported an error');
    lockStats.push(report.locks);
    settledUnderLock.push(report.sink?.settledUnderLock ?? 0);
  }
  const ms = Date.now() - started;
  const file = path.join(logDir, `${SESSION}.jsonl`);
  const records = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LogRecord);
  return { records, logDir, lockStats, settledUnderLock, ms };
}

const planCalls = (records: readonly LogRecord[]): string[] => records.flatMap((record) => (record.type === 'todo/write' ? [record.source?.call ?? 'todo_write'] : []));
const writes = (records: readonly LogRecord[]): Array<[string, string[]]> => records.flatMap((record) => (record.type === 'file/write' ? [[record.source.call, record.items] as [string, string[]]] : []));
const infoTitles = (records: readonly LogRecord[]): string[] => records.flatMap((record) => (record.type === 'session/info' ? [record.title ?? ''] : []));

describe('reliability: several windows on one workspace import each call once', () => {
  for (const hosts of [2, 4]) {
    it(`${hosts} hosts following one Claude Code transcript, ${CALLS} calls: one plan line per call, in order, and one session/info line per update`, async () => {
      const { records, logDir, lockStats, settledUnderLock, ms } = await runHosts(`hosts-${hosts}`, hosts, CALLS, 'lock');
      const calls = planCalls(records);
      const titles = infoTitles(records);
      const sum = (key: 'taken' | 'waits' | 'takeovers' | 'unlocked'): number => lockStats.reduce((total, stats) => total + (stats?.[key] ?? 0), 0);
      recordFigures(`${hosts} hosts, one transcript`, {
        calls: CALLS,
        'interval ms': INTERVAL_MS,
        'plan lines': calls.length,
        'plan lines per call': (calls.length / CALLS).toFixed(2),
        'file/write lines': writes(records).length,
        'session/info lines': titles.length,
        'locks taken': sum('taken'),
        'lock waits': sum('waits'),
        'lock takeovers': sum('takeovers'),
        'repeats kept out by the lock': settledUnderLock.reduce((a, b) => a + b, 0),
        'steps without the lock': sum('unlocked'),
        ms,
      });
      const expected = Array.from({ length: CALLS }, (_, step) => callId(step));
      assert.equal(calls.length, CALLS, `one plan line per call (${calls.length} lines for ${CALLS} calls)`);
      assert.deepEqual(calls, expected, 'every call, once, in order');

      // A follower that reads several steps at once hands on only the newest title of them:
      // each title that reached the log is there once, in order, and the last one is there.
      assert.equal(new Set(titles).size, titles.length, `no session/info update twice: ${titles.length} lines, ${new Set(titles).size} titles`);
      const steps = titles.map((title) => Number(title.slice('Run '.length)));
      assert.ok(
        steps.every((step, i) => i === 0 || step > (steps[i - 1] ?? -1)),
        'session/info titles in order',
      );
      assert.equal(titles[titles.length - 1], titleOf(CALLS - 1), 'the newest title is in the log');

      // The log reads the same: each version once, the last call current.
      const log = new SessionLog(logDir, nodeFileSystem);
      assert.equal((await log.history(SESSION)).length, CALLS);
      assert.equal((await log.current(SESSION))?.source?.call, callId(CALLS - 1));

      // The hosts really raced: each one went to write through the lock, and the lock settled
      // some race (a host found the lock held, or found under it the line it meant to write).
      assert.ok(lockStats.every((stats) => (stats?.taken ?? 0) > 0), 'every host imported through the lock');
      assert.equal(sum('unlocked'), 0, 'no step ran without the lock');
      assert.ok(sum('waits') + settledUnderLock.reduce((a, b) => a + b, 0) > 0, 'the hosts raced for the same calls');
      // Each Edit once, given to the item its plan call had in progress.
      assert.deepEqual(
        writes(records),
        Array.from({ length: CALLS }, (_, step) => [editId(step), [`step ${step}`]]),
        'one file/write line per Edit, in order, with its item',
      );
    });
  }

  it('without the locks (as an older version imported) the race may repeat calls in the log; replay reads each call once', async () => {
    const calls = Math.min(CALLS, 200);
    const { records, logDir } = await runHosts('hosts-nolock', 2, calls, 'nolock');
    const lines = planCalls(records);
    const expected = Array.from({ length: calls }, (_, step) => callId(step));
    assert.deepEqual([...new Set(lines)], expected, 'every call is there, first seen in order');

    const log = new SessionLog(logDir, nodeFileSystem);
    const history = await log.history(SESSION);
    assert.deepEqual(history.map((event) => event.source?.call), expected, 'history: each call once');
    const page = await log.page(SESSION, calls + 10);
    assert.deepEqual(page.versions.map((version) => version.event.source?.call).reverse(), expected, 'pages: each call once');
    assert.equal((await log.current(SESSION))?.source?.call, callId(calls - 1), 'the current plan is the last call');
    const store = new PlanStore(log);
    await store.load();
    assert.equal(store.get(SESSION)?.source?.call, callId(calls - 1));

    recordFigures('2 hosts without the locks', {
      calls,
      'plan lines': lines.length,
      'plan lines per call': (lines.length / calls).toFixed(2),
      'repeated lines': lines.length - calls,
      'versions read back': history.length,
    });
  });
});

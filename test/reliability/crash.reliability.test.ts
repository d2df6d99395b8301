// Crash mid-write: a child process appends snapshots through SessionLog and is killed
// with SIGKILL at a random moment; some trials also cut a few bytes off the end of the
// file afterwards, as a torn write would. Replay must then give the last complete
// snapshot, and the next append must work and be current.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hashIdentity } from '../../src/core/log/sessionKey';
import { SessionLog } from '../../src/core/log/sessionLog';
import { nodeFileSystem } from '../../src/node/nodeFileSystem';
import { childScript, collect, pool, startNode, waitForOutput } from './lib/env';
import { Random, recordFigures, runSeed } from './lib/figures';
import { classifyLine, countsOf, eventsOf, parseLog, type OracleEvent } from './lib/oracle';
import { stepOf, stepSnapshot } from './lib/steps';
import { sleep } from '../lib/wait';
import { useTempDir } from '../lib/temp';

const TRIALS = Number(process.env.AGENT_PLAN_CRASH_TRIALS ?? 200);
const PARALLEL = 4;
/** In crash trials every 5th snapshot is ~100 KB, so some kills land inside a long write. */
const HUGE_EVERY = 5;
const SESSION = hashIdentity('id:crash');

interface TrialResult {
  truncated: boolean;
  complete: number;
  tornByKill: boolean;
  tornAtEnd: boolean;
  tornBecameEvent: boolean;
  bytes: number;
}

async function trial(script: string, root: string, index: number, random: Random): Promise<TrialResult> {
  const dir = path.join(root, `t${index}`);
  const child = startNode(script, [dir, SESSION, '0', '-1', String(HUGE_EVERY)]);
  const exited = collect(child);
  await waitForOutput(child, 'ready');
  await sleep(random.int(0, 40));
  child.kill('SIGKILL');
  const exit = await exited;
  assert.equal(exit.signal, 'SIGKILL', `the writer was still running when killed (exit ${exit.code}): ${exit.stderr}`);

  const file = path.join(dir, `${SESSION}.jsonl`);
  let bytes: Uint8Array = fs.readFileSync(file);
  const tornByKill = bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a;
  const truncated = index % 2 === 1;
  if (truncated) {
    // Cut 1 byte to a whole huge line off the end: often mid-line, sometimes just the '\n'.
    const cut = Math.min(bytes.length, random.pick([1, 2, random.int(1, 64), random.int(1, 4096), random.int(1, 120_000)]));
    fs.truncateSync(file, bytes.length - cut);
    bytes = fs.readFileSync(file);
  }

  // The expected state, read independently: the complete lines must be steps 0..K-1 in
  // order, intact; what follows the last '\n' must be the beginning of step K.
  const parsed = parseLog(bytes, SESSION);
  const events = eventsOf(parsed);
  assert.equal(events.length, parsed.lines.length, 'every complete line is a valid event');
  events.forEach((event, step) => assert.deepStrictEqual(event.todos, stepSnapshot(0, step, HUGE_EVERY), `line ${step} is step ${step}`));
  const complete = events.length;
  if (parsed.torn.length > 0) {
    const prefix = Buffer.from(parsed.torn).toString('latin1');
    const todos = stepSnapshot(0, complete, HUGE_EVERY);
    const expected = JSON.stringify({ v: 1, type: 'todo/write', ts: '#'.repeat(24), session: SESSION, todos, counts: countsOf(todos) });
    const masked = prefix.replace(/("ts":")([^"]{0,24})/, (_m, head: string, ts: string) => head + '#'.repeat(ts.length));
    assert.equal(masked, Buffer.from(expected, 'utf8').toString('latin1').slice(0, masked.length), 'the torn tail is the start of the next step');
  }
  const last: OracleEvent | undefined = events[complete - 1];

  // Replay.
  const corrupt: string[] = [];
  const log = new SessionLog(dir, nodeFileSystem, { onCorrupt: (_file, detail) => corrupt.push(detail) });
  const current = await log.current(SESSION);
  if (last) {
    assert.ok(current, 'a snapshot survives');
    assert.deepStrictEqual(current.todos, last.todos, `replay gives the last complete snapshot (step ${complete - 1})`);
    assert.equal(current.ts, last.ts);
    assert.deepStrictEqual(stepOf(current.todos), { writer: 0, step: complete - 1 });
  } else {
    assert.equal(current, undefined, 'no complete line, no plan');
  }
  assert.deepEqual(corrupt, [], 'a torn last line is not reported');

  // The next append works, does not glue onto a torn line, and is current.
  const after = [{ content: `after crash ${index}`, status: 'in_progress' as const }];
  const appended = await log.append(SESSION, after);
  assert.deepStrictEqual((await log.current(SESSION))?.todos, after);
  const rereadCorrupt: number[] = [];
  const reread = new SessionLog(dir, nodeFileSystem, { onCorrupt: (_file, _detail, offset) => rereadCorrupt.push(offset) });
  assert.deepStrictEqual((await reread.current(SESSION))?.todos, after, 'a fresh reader sees the new append');
  // The bytes before the append are untouched; after them come at most a '\n' that ends the
  // torn line, then exactly the new record.
  const finalBytes = fs.readFileSync(file);
  assert.equal(Buffer.compare(finalBytes.subarray(0, bytes.length), bytes), 0, 'the append rewrote nothing');
  const suffix = finalBytes.subarray(bytes.length);
  const expectedLine = JSON.stringify({ v: 1, type: 'todo/write', ts: appended.ts, session: SESSION, todos: after, counts: countsOf(after) });
  assert.equal(suffix.toString('utf8'), `${parsed.torn.length > 0 ? '\n' : ''}${expectedLine}\n`, 'the new record is a line of its own');
  // The torn bytes now end a line of their own: an invalid line (reported once when the
  // history is read) or, when only the '\n' was missing, a whole snapshot.
  const tornLine = parsed.torn.length > 0 ? classifyLine(parsed.torn, SESSION) : undefined;
  const tornBecameEvent = typeof tornLine === 'object';
  const finalEvents = [...events, ...(tornBecameEvent ? [tornLine] : []), { ts: appended.ts, session: SESSION, todos: after }];
  const history = await reread.history(SESSION);
  assert.deepStrictEqual(
    history.map((e) => [e.ts, e.todos]),
    finalEvents.map((e) => [e.ts, e.todos]),
    'history: the complete steps, the torn one if it was whole, the new append',
  );
  assert.deepEqual(rereadCorrupt, tornLine === 'invalid' ? [bytes.length - parsed.torn.length] : [], 'the old torn line is reported once');

  fs.rmSync(dir, { recursive: true, force: true });
  return { truncated, complete, tornByKill, tornAtEnd: parsed.torn.length > 0, tornBecameEvent, bytes: bytes.length };
}

describe('reliability: crash mid-write (SIGKILL)', () => {
  const tmp = useTempDir('rel-crash');
  it(`replays the last complete snapshot and appends cleanly after ${TRIALS} kills`, async () => {
    const script = await childScript('appender');
    const root = tmp.path;
    const seed = runSeed();
    const random = new Random(seed);
    const started = Date.now();
    const results = await pool(
      Array.from({ length: TRIALS }, (_, i) => i),
      PARALLEL,
      (i) => trial(script, root, i, new Random(random.int(0, 2 ** 32 - 1) ^ i)),
    );
    const tornByKill = results.filter((r) => r.tornByKill).length;
    const tornAtEnd = results.filter((r) => r.tornAtEnd).length;
    const steps = results.map((r) => r.complete);
    recordFigures('crash mid-write', {
      seed,
      trials: results.length,
      'kill only': results.filter((r) => !r.truncated).length,
      'kill + truncate': results.filter((r) => r.truncated).length,
      'torn by the kill': tornByKill,
      'torn at replay': tornAtEnd,
      'torn line whole but for its \\n': results.filter((r) => r.tornBecameEvent).length,
      'no complete line': steps.filter((n) => n === 0).length,
      'steps min/median/max': `${Math.min(...steps)}/${[...steps].sort((a, b) => a - b)[steps.length >> 1]}/${Math.max(...steps)}`,
      ms: Date.now() - started,
    });
    assert.equal(results.length, TRIALS);
    assert.ok(tornAtEnd > 0, 'some trials replayed over a torn last line');
  });
});

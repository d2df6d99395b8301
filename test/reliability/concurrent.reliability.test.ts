// Concurrent writers: several processes append to the SAME session log at once, each
// through its own SessionLog. No record may be lost, torn or interleaved with another.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hashIdentity } from '../../src/core/log/sessionKey';
import { SessionLog } from '../../src/core/log/sessionLog';
import { nodeFileSystem } from '../../src/node/nodeFileSystem';
import { childScript, collect, startNode, waitForOutput } from './lib/env';
import { recordFigures } from './lib/figures';
import { parseLog } from './lib/oracle';
import { stepOf, stepSnapshot } from './lib/steps';
import { useTempDir } from '../lib/temp';

const WRITERS = 4;
const EVENTS_PER_WRITER = Number(process.env.AGENT_PLAN_CONCURRENT_EVENTS ?? 1000);
const SESSION = hashIdentity('id:concurrent');

describe('reliability: concurrent writers on one session log', () => {
  const tmp = useTempDir('rel-concurrent');
  it(`keeps every record of ${WRITERS} processes × ${EVENTS_PER_WRITER} appends whole and in each writer's order`, async () => {
    const script = await childScript('appender');
    const dir = tmp.path;
    const started = Date.now();
    const children = Array.from({ length: WRITERS }, (_, writer) =>
      startNode(script, [dir, SESSION, String(writer), String(EVENTS_PER_WRITER), '50']),
    );
    const exits = children.map((child) => collect(child));
    await Promise.all(children.map((child) => waitForOutput(child, 'ready')));
    for (const child of children) child.stdin?.end('go\n');
    for (const exit of await Promise.all(exits)) {
      assert.equal(exit.code, 0, `a writer failed: ${exit.stderr}`);
    }
    const writeMs = Date.now() - started;

    const file = path.join(dir, `${SESSION}.jsonl`);
    const bytes = fs.readFileSync(file);
    const parsed = parseLog(bytes, SESSION);
    assert.equal(parsed.torn.length, 0, 'the file ends with a complete line');
    // A writer that sees another's append half copied in must not take it for a torn
    // line: that would leave an empty line, and the file would no longer hold one event per line.
    const blank = parsed.lines.filter((line) => line.kind === 'blank');
    assert.equal(blank.length, 0, 'no empty lines between records');
    const records = parsed.lines.filter((line) => line.kind !== 'blank');
    assert.equal(records.length, WRITERS * EVENTS_PER_WRITER, 'exactly one record per append')

    const nextStep = new Array<number>(WRITERS).fill(0);
    let switches = 0;
    let previousWriter = -1;
    for (const [index, line] of records.entries()) {
      assert.equal(typeof line.kind, 'object', `record ${index + 1} (byte ${line.offset}) is a valid event, not ${String(line.kind)}`);
      const event = line.kind as Exclude<typeof line.kind, string>;
      const origin = stepOf(event.todos);
      assert.ok(origin, `record ${index + 1} names its writer`);
      const { writer, step } = origin;
      assert.equal(step, nextStep[writer], `writer ${writer}'s appends stay in order (record ${index + 1})`);
      assert.deepStrictEqual(event.todos, stepSnapshot(writer, step, 50), `record ${index + 1} is writer ${writer}'s step ${step}, whole`);
      nextStep[writer] = step + 1;
      if (writer !== previousWriter) switches++;
      previousWriter = writer;
    }
    assert.deepEqual(nextStep, new Array<number>(WRITERS).fill(EVENTS_PER_WRITER), 'no append is missing');

    // The core reads the same: every event in its history, nothing reported as damaged.
    const corrupt: string[] = [];
    const log = new SessionLog(dir, nodeFileSystem, { onCorrupt: (_file, detail) => corrupt.push(detail) });
    const history = await log.history(SESSION);
    assert.equal(history.length, WRITERS * EVENTS_PER_WRITER);
    const last = records[records.length - 1]?.kind as { todos: unknown };
    assert.deepStrictEqual((await log.current(SESSION))?.todos, last.todos);
    assert.deepEqual(corrupt, []);

    recordFigures('concurrent writers', {
      writers: WRITERS,
      'appends each': EVENTS_PER_WRITER,
      lines: parsed.lines.length,
      records: records.length,
      'empty lines': blank.length,
      'writer switches': switches,
      'file bytes': bytes.length,
      'write ms': writeMs,
      ms: Date.now() - started,
    });
    // The writers really overlapped: one that ran alone would give WRITERS runs.
    assert.ok(switches > WRITERS, `the writers did not overlap (${switches} switches)`);
  });
});

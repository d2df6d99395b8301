// A plan read from another agent's files is bounded like a todo_write call (100 items of
// 1,000 characters): cut with one report per session, appended once, read back whole; the
// log's writer refuses a line its reader would skip; the timeline's model is bounded too.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { MAX_FOREIGN_CONTENT_LENGTH, MAX_FOREIGN_ID_LENGTH, MAX_FOREIGN_ITEMS, boundForeignPlan, cutText } from '../../../../src/core/log/foreignBounds';
import { MAX_LOG_LINE_BYTES } from '../../../../src/core/log/lineScan';
import { LogPlanSink, sessionKeyForForeign } from '../../../../src/core/log/planSink';
import { SessionLog } from '../../../../src/core/log/sessionLog';
import { LIMITS } from '../../../../src/core/plan/validate';
import { buildTimeline } from '../../../../src/core/timeline/timeline';
import { MAX_VIEW_LANES, timelineViewModel } from '../../../../src/core/timeline/timelineView';
import type { ForeignPlan } from '../../../../src/core/foreign';
import { NodeFileSystem } from '../../../../src/node/nodeFileSystem';
import { useTempDir } from '../../../lib/temp';

const source = (call: string, session = 's-1'): ForeignPlan['source'] => ({ agent: 'codex', tool: 'update_plan', session, call });
const items = (count: number, content = (i: number) => `item ${i}`) =>
  Array.from({ length: count }, (_, i) => ({ content: content(i), status: 'pending' as const }));

describe('foreign plans are bounded like todo_write', () => {
  const tmp = useTempDir();

  it("the bounds are todo_write's own", () => {
    assert.equal(MAX_FOREIGN_ITEMS, LIMITS.maxTodos);
    assert.equal(MAX_FOREIGN_CONTENT_LENGTH, LIMITS.maxContentLength);
  });

  it('cutText keeps a text that fits and cuts a long one to the bound with an ellipsis, never inside a surrogate pair', () => {
    assert.equal(cutText('short', 10), 'short');
    assert.equal(cutText('abcdefghijk', 5), 'abcd…');
    const emoji = '😀'.repeat(10);
    const cut = cutText(emoji, 5);
    assert.equal(cut, '😀😀😀😀…');
    assert.equal([...cut].length, 5);
    assert.equal([...cutText('x'.repeat(5_000_000), 1000)].length, 1000);
  });

  it('a plan within the bounds is handed on as it is; an over-size one is cut and says what was cut', () => {
    const fits = boundForeignPlan(items(100), source('c'));
    assert.ok(!('refused' in fits));
    assert.equal(fits.cut, undefined);
    assert.equal(fits.items.length, 100);
    const over = boundForeignPlan(items(60_000, (i) => (i === 1 ? 'y'.repeat(5_000_000) : `item ${i}`)), { ...source('c'), priorities: Array(60_000).fill('high') });
    assert.ok(!('refused' in over));
    assert.equal(over.items.length, 100);
    assert.equal([...(over.items[1]?.content ?? '')].length, 1000);
    assert.ok(over.items[1]?.content.endsWith('…'));
    assert.equal(over.source.priorities?.length, 100);
    assert.equal(over.cut, '60000 items, kept the first 100; an item longer than 1000 characters, cut');
  });

  it('an id too long to be one is refused, not cut (two calls must not become one)', () => {
    const refused = boundForeignPlan(items(1), source('c'.repeat(MAX_FOREIGN_ID_LENGTH + 1)));
    assert.deepEqual(refused, { refused: `a plan whose \`source.call\` is longer than ${MAX_FOREIGN_ID_LENGTH} characters; not imported` });
  });

  it('the sink appends an over-size plan once, cut, reported once per session; it reads back, and a second window appends nothing', async () => {
    const reports: string[] = [];
    const open = () => {
      const log = new SessionLog(tmp.path, new NodeFileSystem());
      return { log, sink: new LogPlanSink(log, { onBounded: (agent, session, detail) => reports.push(`${agent} ${session}: ${detail}`) }) };
    };
    const huge: ForeignPlan = { source: source('c1'), items: items(60_000, (i) => (i === 0 ? 'z'.repeat(5_000_000) : `item ${i}`)) };
    const { log, sink } = open();
    await sink.importPlans([huge]);
    await sink.importPlans([huge, { source: source('c2'), items: items(200) }]);
    const key = sessionKeyForForeign('codex', 's-1');
    const file = log.fileFor(key);
    const saved = fs.readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { todos: unknown[]; source: { call: string } });
    assert.deepEqual(saved.map((line) => [line.source.call, line.todos.length]), [['c1', 100], ['c2', 100]]);
    assert.deepEqual(reports, ['codex s-1: 60000 items, kept the first 100; an item longer than 1000 characters, cut']);
    // Read back by the log's own reader: the current plan is the cut one.
    const reader = new SessionLog(tmp.path, new NodeFileSystem());
    assert.equal((await reader.current(key))?.todos.length, 100);
    // A second window over the same log, reading the same file: nothing more.
    const second = open();
    await second.sink.importPlans([huge]);
    assert.equal(fs.readFileSync(file, 'utf8').trim().split('\n').length, 2);
  });

  it("the log's writer refuses a line longer than its reader reads, with a stable text, and writes nothing", async () => {
    const log = new SessionLog(tmp.path, new NodeFileSystem());
    const key = sessionKeyForForeign('codex', 's-2');
    // Past the sink's bounds on purpose (the log's own entry point): 100 items of 50,000 characters.
    await assert.rejects(log.appendForeign(key, items(100, () => 'é'.repeat(50_000)), source('c1', 's-2')), (error: Error) => {
      assert.match(error.message, new RegExp(`^a todo/write line of \\d+ bytes is longer than the log reads \\(${MAX_LOG_LINE_BYTES} bytes\\); not written$`));
      return true;
    });
    assert.equal(fs.existsSync(log.fileFor(key)) ? fs.readFileSync(log.fileFor(key), 'utf8') : '', '');
  });

  it("the timeline's model carries at most MAX_VIEW_LANES lanes and says how many it left out", () => {
    const plan = { v: 1, type: 'todo/write', session: 'k', ts: '2025-01-01T00:00:00.000Z', todos: items(MAX_VIEW_LANES + 5, (i) => (i === 0 ? 'w'.repeat(20_000) : `item ${i}`)) };
    const timeline = buildTimeline([{ record: plan as never }], { now: Date.parse('2025-01-01T00:01:00.000Z') });
    const model = timelineViewModel('k', timeline, 'title', false, (text) => text, String, () => '');
    assert.equal(model.lanes.length, MAX_VIEW_LANES);
    assert.equal(model.lanesLeftOut, 5);
    assert.ok(model.lanes[0]!.name.length <= 1000);
  });
});

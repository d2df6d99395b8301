// The timeline model: lanes, segments, versions, turns and durations, first over a log
// written here with known times, then over the sessions recorded from the real programs,
// replayed through their real parsers into a real log and read back a page at a time.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { infoRecord, planEvent, type LogRecord } from '../../../../src/core/log/logRecord';
import { permissionAnswerRecord, permissionAskRecord } from '../../../../src/core/log/permissionRecord';
import { timelineViewModel } from '../../../../src/core/timeline/timelineView';
import type { PlanItem } from '../../../../src/core/plan/plan';
import { formatOnly, spanText } from '../../../../src/core/plan/present';
import { LogPlanSink, sessionKeyForForeign } from '../../../../src/core/log/planSink';
import { SessionLog } from '../../../../src/core/log/sessionLog';
import { buildTimeline, laneDurationText, type Timeline, type TimelineLine } from '../../../../src/core/timeline/timeline';
import { readTimelinePage } from '../../../../src/core/timeline/timelineRead';
import { nodeFileSystem } from '../../../../src/node/nodeFileSystem';
import { createClaudeCodeParser } from '../../../../src/agents/claudeCode';
import { createCodexParser } from '../../../../src/agents/codex';
import { createCopilotChatParser } from '../../../../src/agents/copilotChat';
import { createGeminiCliParser } from '../../../../src/agents/geminiCli';
import type { AgentId, SessionParser } from '../../../../src/core/foreign';
import { recordedLines, recording } from '../../agentRecordings';
import { useTempDir } from '../../../lib/temp';

const T0 = Date.UTC(2026, 11, 3, 9, 0, 0);
const iso = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();
const SOURCE = { agent: 'claude-code' as const, tool: 'TodoWrite', session: 's', call: 'c' };

function plan(seconds: number, todos: PlanItem[], at?: number): TimelineLine {
  return { record: planEvent('k', iso(seconds), todos, SOURCE), at };
}
function turn(seconds: number, index: number, state: 'running' | 'ended' | 'cancelled' | 'failed'): TimelineLine {
  return { record: infoRecord('k', iso(seconds), { agent: 'claude-code', session: 's' }, { turn: { index, state, since: iso(seconds) } }) };
}
const p = (content: string): PlanItem => ({ content, status: 'pending' });
const w = (content: string): PlanItem => ({ content, status: 'in_progress' });
const d = (content: string): PlanItem => ({ content, status: 'completed' });
const rel = (timeline: Timeline, ms: number) => (ms - (timeline.start ?? 0)) / 1000;

describe('timeline model', () => {
  it('gives each item a lane of its states, in the newest plan’s order, with time in progress and to done', () => {
    const timeline = buildTimeline([
      turn(0, 0, 'running'),
      plan(10, [p('Read'), p('Fix'), p('Test')], 100),
      plan(20, [w('Read'), p('Fix'), p('Test')], 200),
      plan(50, [d('Read'), w('Fix'), p('Test')], 300),
      plan(110, [d('Read'), d('Fix'), w('Test')], 400),
      turn(130, 0, 'ended'),
    ]);
    assert.deepEqual(timeline.lanes.map((lane) => lane.content), ['Read', 'Fix', 'Test']);
    const [read, fix, test] = timeline.lanes;
    assert.deepEqual(read?.segments.map((s) => [s.status, rel(timeline, s.from), rel(timeline, s.to)]), [
      ['pending', 10, 20],
      ['in_progress', 20, 50],
      ['completed', 50, 130],
    ]);
    assert.equal(read?.inProgressMs, 30_000);
    assert.equal(read?.toDoneMs, 40_000);
    assert.equal(fix?.inProgressMs, 60_000);
    assert.equal(fix?.toDoneMs, 100_000);
    // Still in progress when the log ends: counted up to the end, not done.
    assert.equal(test?.inProgressMs, 20_000);
    assert.equal(test?.toDoneMs, undefined);
    assert.equal(timeline.longest?.content, 'Fix');
    assert.equal(timeline.elapsedMs, 130_000);
    assert.deepEqual(timeline.versions.map((v) => [rel(timeline, v.time), v.at]), [[10, 100], [20, 200], [50, 300], [110, 400]]);
    assert.equal(timeline.versions[0]?.change, undefined);
    assert.deepEqual(timeline.versions[2]?.change?.flipped, [
      { content: 'Read', from: 'in_progress', to: 'completed' },
      { content: 'Fix', from: 'pending', to: 'in_progress' },
    ]);
    assert.deepEqual(timeline.turns, [{ index: 0, start: T0, end: T0 + 130_000, how: 'ended' }]);
    assert.deepEqual(timeline.signals.map((s) => [s.kind, s.how]), [['stopped-open', 'ended']]);
    assert.equal(laneDurationText(fix!, formatOnly), 'in progress 1 min · done after 1 min 40 s');
  });

  it("marks each request of a connected agent where it was asked, with how it ended; the page says it as text", () => {
    const ask = (seconds: number, id: string, input: string): TimelineLine => ({ record: permissionAskRecord('k', iso(seconds), { id, agent: 'claude-code', tool: 'Bash', input, until: iso(seconds + 60) }) });
    const answer = (seconds: number, id: string, how: 'allow' | 'deny' | 'ended', message?: string): TimelineLine => ({ record: permissionAnswerRecord('k', iso(seconds), { id, answer: how, message }) });
    const timeline = buildTimeline([
      plan(0, [w('Fix')]),
      ask(10, 'claude-code.1.10', 'touch a'),
      answer(12, 'claude-code.1.10', 'allow'),
      ask(20, 'claude-code.2.20', 'rm -rf build\n[x](http://e)'),
      answer(25, 'claude-code.2.20', 'deny', 'use pnpm'),
      answer(26, 'claude-code.2.20', 'ended'),
      ask(30, 'claude-code.3.30', 'npm test'),
      answer(90, 'claude-code.3.30', 'ended'),
      ask(100, 'claude-code.4.100', 'ls'),
    ]);
    assert.deepEqual(
      timeline.asks.map((a) => [rel(timeline, a.time), a.input, a.answer, a.message, a.answeredAt === undefined ? undefined : rel(timeline, a.answeredAt)]),
      [
        [10, 'touch a', 'allow', undefined, 12],
        [20, 'rm -rf build\n[x](http://e)', 'deny', 'use pnpm', 25],
        [30, 'npm test', 'ended', undefined, 90],
        [100, 'ls', undefined, undefined, undefined],
      ],
      'the first answer line of each stands',
    );
    // The one still open is a waiting signal of the timeline's health; the page draws it as its request.
    assert.deepEqual(timeline.signals.map((s) => s.ask?.id), ['claude-code.4.100']);
    const clock = (ms: number) => `t+${(ms - T0) / 1000}`;
    const model = timelineViewModel('k', timeline, 'title', false, formatOnly, clock, () => 'a health signal');
    assert.deepEqual(
      model.signals.map((s) => [s.label, s.warning]),
      [
        ['t+10 asked to run Bash: touch a; allowed here', false],
        ['t+20 asked to run Bash: rm -rf build [x](http://e); denied here: use pnpm', true],
        ['t+30 asked to run Bash: npm test; answered at the agent, or ended', true],
        ['t+100 asked to run Bash: ls; waiting', true],
      ],
    );
  });

  it('runs the newest states up to `now` for a live session', () => {
    const timeline = buildTimeline([plan(0, [w('Work')])], { now: T0 + 90_000 });
    assert.equal(timeline.lanes[0]?.inProgressMs, 90_000);
    assert.equal(timeline.elapsedMs, 90_000);
  });

  it('stops a finished plan at its last version: elapsed is first to last version, the axis ends there', () => {
    const lines = [turn(0, 0, 'running'), plan(10, [w('Read'), p('Fix')]), plan(40, [d('Read'), w('Fix')]), plan(100, [d('Read'), d('Fix')]), turn(130, 0, 'ended')];
    const timeline = buildTimeline(lines, { now: T0 + 3_600_000 });
    assert.equal(timeline.finished, true);
    assert.equal(timeline.elapsedMs, 90_000, 'from the first version (10 s) to the last (100 s), not to now');
    assert.equal(timeline.end, T0 + 100_000);
    assert.deepEqual(timeline.lanes[1]?.segments.map((s) => [s.status, rel(timeline, s.from), rel(timeline, s.to)]), [
      ['pending', 10, 40],
      ['in_progress', 40, 100],
    ]);
    // The same plan with an item still open runs on to now.
    const running = buildTimeline(lines.slice(0, 3), { now: T0 + 3_600_000 });
    assert.equal(running.finished, false);
    assert.equal(running.end, T0 + 3_600_000);
    assert.equal(running.elapsedMs, 3_600_000);
    // Cancelled items count as finished; an empty plan does not.
    assert.equal(buildTimeline([plan(0, [w('A')]), plan(5, [{ content: 'A', status: 'cancelled' }])], { now: T0 + 60_000 }).elapsedMs, 5_000);
    assert.equal(buildTimeline([plan(0, [])], { now: T0 + 60_000 }).finished, false);
  });

  it('keeps dropped and reworded items as lanes after the newest plan’s, marked; reopened time adds up', () => {
    const timeline = buildTimeline([
      plan(0, [w('Read the code'), p('Write a test'), p('Fix it')]),
      plan(10, [d('Read the code'), p('Fix the bug')]),
      plan(20, [w('Read the code'), w('Fix the bug')]),
      plan(30, [d('Read the code'), d('Fix the bug')]),
    ]);
    assert.deepEqual(
      timeline.lanes.map((lane) => [lane.content, lane.position, lane.dropped, lane.rewordedTo, lane.rewordedFrom]),
      [
        ['Read the code', 0, false, undefined, undefined],
        ['Fix the bug', 1, false, undefined, 'Write a test'],
        ['Write a test', undefined, false, 'Fix the bug', undefined],
        ['Fix it', undefined, true, undefined, undefined],
      ],
    );
    const read = timeline.lanes[0]!;
    assert.equal(read.inProgressMs, 20_000, 'ten seconds, then ten more after it was reopened');
    assert.equal(read.toDoneMs, 30_000, 'to the version that last completed it');
    // A lane has no segment while its item is out of the plan.
    assert.deepEqual(timeline.lanes[3]?.segments.map((s) => [s.status, rel(timeline, s.from), rel(timeline, s.to)]), [['pending', 0, 10]]);
  });

  it('leaves superseded foreign snapshots out, and is empty for no lines', () => {
    const superseded: LogRecord = planEvent('k', iso(5), [w('Ghost')], { ...SOURCE, superseded: true });
    const timeline = buildTimeline([plan(0, [p('A')]), { record: superseded }, plan(10, [d('A')])]);
    assert.deepEqual(timeline.lanes.map((lane) => lane.content), ['A']);
    assert.equal(timeline.versions.length, 2);
    const empty = buildTimeline([]);
    assert.deepEqual([empty.lanes, empty.versions, empty.start, empty.elapsedMs, empty.longest], [[], [], undefined, 0, undefined]);
  });

  it('says spans to their two largest units', () => {
    assert.deepEqual(
      [0, 300, 42_400, 60_000, 252_000, 3_600_000, 3_900_000, 86_400_000 * 2, 86_400_000 * 2 + 3 * 3_600_000].map((ms) => spanText(ms, formatOnly)),
      ['0 s', 'under 1 s', '42 s', '1 min', '4 min 12 s', '1 h', '1 h 5 min', '2 d', '2 d 3 h'],
    );
  });
});

const COPILOT_CHATS = path.join(__dirname, '..', '..', '..', 'agents', 'copilotChat', 'recordings');
const copilotLines = (name: string): string[] => {
  const text = fs.readFileSync(path.join(COPILOT_CHATS, `${name}.jsonl`), 'utf8');
  return text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
};

/** A recording replayed into a real log, a second per line, and its key. */
async function replay(dir: string, parser: SessionParser, lines: readonly string[]): Promise<{ log: SessionLog; key: string }> {
  const clock = { now: T0 };
  const date = () => new Date(clock.now);
  const log = new SessionLog(path.join(dir, 'sessions'), nodeFileSystem, { now: date });
  const sink = new LogPlanSink(log, { now: date });
  let key: string | undefined;
  for (const line of lines) {
    clock.now += 1000;
    const out = parser.push([line]);
    if (out.plans.length > 0) await sink.importPlans(out.plans);
    if (out.info) await sink.updateSession(out.info);
    const source = out.plans[0]?.source ?? out.info;
    if (source && key === undefined) key = sessionKeyForForeign(('agent' in source ? source.agent : undefined) ?? ('copilot' as AgentId), source.session);
  }
  if (key === undefined) throw new Error('the recording named no session');
  return { log, key };
}

/** What holds for any timeline: lanes' segments are ordered, apart, inside the session, and add up. */
function assertWellFormed(timeline: Timeline, history: readonly { todos: readonly PlanItem[] }[]): void {
  const newest = history[history.length - 1]!;
  assert.equal(timeline.versions.length, history.length, 'a mark per version');
  const inNewest = [...new Set(newest.todos.map((todo) => todo.content))];
  assert.deepEqual(timeline.lanes.slice(0, inNewest.length).map((lane) => lane.content), inNewest, 'the newest plan’s order first');
  const everSeen = new Set(history.flatMap((v) => v.todos.map((todo) => todo.content)));
  assert.equal(timeline.lanes.length, everSeen.size, 'a lane per item ever seen');
  for (const lane of timeline.lanes) {
    let last = lane.firstSeen;
    for (const segment of lane.segments) {
      assert.ok(segment.from >= last && segment.to > segment.from, `${lane.content}: segments in order`);
      last = segment.to;
    }
    assert.ok(last <= (timeline.end ?? 0));
    if (lane.position !== undefined) {
      const covered = lane.segments.reduce((sum, s) => sum + s.to - s.from, 0);
      assert.ok(covered <= (timeline.end ?? 0) - lane.firstSeen);
    }
    if (lane.status === 'completed') assert.ok(lane.toDoneMs !== undefined && lane.toDoneMs >= lane.inProgressMs, `${lane.content}: done after its time in progress`);
  }
}

describe('timeline over recordings of the real programs', () => {
  const tmp = useTempDir();

  const cases: Array<[string, () => { parser: SessionParser; lines: string[] }]> = [
    ['Claude Code TodoWrite', () => { const rec = recording('claude-code', 'todowrite'); return { parser: createClaudeCodeParser({ workspaceFolders: [rec.workspace] }), lines: recordedLines(rec) }; }],
    ['Claude Code Task tools', () => { const rec = recording('claude-code', 'tasks'); return { parser: createClaudeCodeParser({ workspaceFolders: [rec.workspace] }), lines: recordedLines(rec) }; }],
    ['Claude Code health-drop-reopen', () => { const rec = recording('claude-code', 'health-drop-reopen'); return { parser: createClaudeCodeParser({ workspaceFolders: [rec.workspace] }), lines: recordedLines(rec) }; }],
    ['Codex update_plan', () => ({ parser: createCodexParser(), lines: recordedLines(recording('codex', 'update-plan')) })],
    ['Codex health-done', () => ({ parser: createCodexParser(), lines: recordedLines(recording('codex', 'health-done')) })],
    ['Gemini CLI write_todos', () => { const rec = recording('gemini-cli', 'write-todos'); return { parser: createGeminiCliParser({ workspaceFolders: [rec.workspace] }), lines: recordedLines(rec) }; }],
    ['Gemini CLI health-done', () => { const rec = recording('gemini-cli', 'health-done'); return { parser: createGeminiCliParser({ workspaceFolders: [rec.workspace] }), lines: recordedLines(rec) }; }],
    ['Copilot manage_todo_list', () => ({ parser: createCopilotChatParser(), lines: copilotLines('manage-todo-list') })],
    ['Copilot health-done', () => ({ parser: createCopilotChatParser(), lines: copilotLines('health-done') })],
    ['Copilot health-drop-reopen', () => ({ parser: createCopilotChatParser(), lines: copilotLines('health-drop-reopen') })],
  ];

  for (const [name, load] of cases) {
    it(`${name}: a lane per item, a mark per version, segments that add up`, async () => {
      const { parser, lines } = load();
      const { log, key } = await replay(tmp.path, parser, lines);
      const history = await log.history(key);
      assert.ok(history.length > 0);
      const page = await readTimelinePage(log, key, 1_000_000);
      assert.equal(page.more, false);
      const timeline = buildTimeline(page.lines);
      assertWellFormed(timeline, history);
      // Each mark carries the address of its version, which the log reads back as that version.
      for (const [index, mark] of timeline.versions.entries()) {
        assert.deepEqual((await log.versionAt(key, mark.at!))?.todos, history[index]?.todos);
      }
    });
  }

  it('health-done runs end with every item done, each with a time to done, and a longest item', async () => {
    for (const [agent, parserFor] of [
      ['claude-code', (ws: string) => createClaudeCodeParser({ workspaceFolders: [ws] })],
      ['codex', () => createCodexParser()],
      ['gemini-cli', (ws: string) => createGeminiCliParser({ workspaceFolders: [ws] })],
    ] as const) {
      const rec = recording(agent, 'health-done');
      const { log, key } = await replay(path.join(tmp.path, agent), parserFor(rec.workspace), recordedLines(rec));
      const timeline = buildTimeline((await readTimelinePage(log, key, 1000)).lines);
      assert.ok(timeline.lanes.length >= 2, agent);
      for (const lane of timeline.lanes) {
        assert.equal(lane.status, 'completed', `${agent}: ${lane.content}`);
        assert.ok(lane.toDoneMs !== undefined && lane.toDoneMs > 0, `${agent}: ${lane.content} took time`);
      }
      assert.ok(timeline.longest !== undefined && timeline.longest.inProgressMs > 0, agent);
      assert.deepEqual(timeline.signals.map((s) => s.kind), ['done'], agent);
    }
  });

  it('Copilot health-drop-reopen: the dropped item is a lane after the plan’s; versions saved at one instant leave no stretch', async () => {
    const { log, key } = await replay(tmp.path, createCopilotChatParser(), copilotLines('health-drop-reopen'));
    const timeline = buildTimeline((await readTimelinePage(log, key, 1000)).lines);
    assert.deepEqual(timeline.lanes.map((lane) => [lane.content, lane.position]), [
      ['Read the code', 0],
      ['Make the change', 1],
      ['Write a regression test', undefined],
    ]);
    // VS Code saved the completing and the reopening version in one write: as this machine saw
    // it, "Read the code" never stopped being in progress until the last version.
    assert.equal(timeline.versions.length, 4);
    assert.equal(timeline.versions[1]?.time, timeline.versions[2]?.time);
    const [read, change] = timeline.lanes;
    assert.deepEqual(read?.segments.map((s) => s.status), ['in_progress']);
    assert.equal(read?.inProgressMs, read?.toDoneMs);
    assert.equal(change?.inProgressMs, 0, 'in progress for no time this machine saw');
    assert.ok(change?.toDoneMs !== undefined && change.toDoneMs > 0);
  });

  it('reads the newest page first and older pages back, to the same timeline as the whole file', async () => {
    const rec = recording('claude-code', 'tasks');
    const { log, key } = await replay(tmp.path, createClaudeCodeParser({ workspaceFolders: [rec.workspace] }), recordedLines(rec));
    const whole = await readTimelinePage(log, key, 1_000_000);
    const lines: TimelineLine[] = [];
    let page = await readTimelinePage(log, key, 2);
    let pages = 1;
    lines.unshift(...page.lines);
    assert.equal(page.lines.filter((l) => l.record.type === 'todo/write').length, 2);
    while (page.more) {
      page = await readTimelinePage(log, key, 2, page.before);
      lines.unshift(...page.lines);
      pages++;
    }
    assert.ok(pages > 2, `${pages} pages`);
    assert.deepEqual(lines, whole.lines);
    assert.deepEqual(buildTimeline(lines), buildTimeline(whole.lines));
  });
});

// The ledger per item, over the recordings of the real programs editing under a plan
// (test/agents/<agent>/recordings/edits): the fake model servers answer every request with 10
// input and 20 output tokens, so the sums are known. Each parser hands on one model/usage fact
// per response; through a real log and sink each line names the items in progress; the ledger
// read back from the log splits it per item, shared and the session's; a restart and a second
// import count nothing twice.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildLedger, LedgerBuilder, shortCount, type LedgerFigures } from '../../../../src/core/derived/ledger';
import { ledgerText } from '../../../../src/core/derived/ledgerText';
import { permissionAskRecord } from '../../../../src/core/log/permissionRecord';
import { formatOnly } from '../../../../src/core/plan/present';
import { parseLogRecord, planEvent, type LogRecord } from '../../../../src/core/log/logRecord';
import { LogPlanSink } from '../../../../src/core/log/planSink';
import { foreignSessionKey } from '../../../../src/core/log/sessionKey';
import { SessionLog } from '../../../../src/core/log/sessionLog';
import { usageRecord } from '../../../../src/core/log/usageRecord';
import { LedgerBook } from '../../../../src/core/derived/ledgerBook';
import { NodeFileSystem } from '../../../../src/node/nodeFileSystem';
import { createClaudeCodeParser } from '../../../../src/agents/claudeCode';
import { createCodexParser } from '../../../../src/agents/codex';
import { createGeminiCliParser } from '../../../../src/agents/geminiCli';
import { createCopilotCliParser } from '../../../../src/agents/copilotCli/parser';
import { createQwenCodeParser } from '../../../../src/agents/qwenCode/parser';
import type { AgentId, ForeignItem, ParseOutput, SessionParser } from '../../../../src/core/foreign';
import { recordedLines, recording, type Recording } from '../../agentRecordings';
import { startTerminalFollower } from '../../agentStart';
import { SessionLocks } from '../../../../src/core/log/sessionLock';
import { useTempDir } from '../../../lib/temp';

const A = 'Add the separator constant';
const B = 'Use it in the parser';

interface Case {
  folder: 'claude-code' | 'codex' | 'gemini-cli' | 'qwen-code' | 'copilot-cli';
  agent: AgentId;
  parser: (rec: Recording, state?: unknown) => SessionParser;
  /** Responses (and tool calls) while A, B, and no item was in progress, from the scenario's script. */
  expected: { a: [number, number]; b: [number, number]; session: [number, number] };
}

// Claude: ToolSearch and the first TodoWrite before any plan; Write and the second TodoWrite under
// A; Read, two Edits and the last TodoWrite under B; the answer after. Codex: its responses count
// after the plans before their first item; Gemini's as Codex's (each message written twice, its
// calls added in the second copy). Qwen and Copilot CLI: as Claude without ToolSearch.
const CASES: Case[] = [
  { folder: 'claude-code', agent: 'claude-code', parser: (rec, state) => createClaudeCodeParser({ workspaceFolders: [rec.workspace] }, state), expected: { a: [2, 2], b: [4, 4], session: [3, 2] } },
  { folder: 'codex', agent: 'codex', parser: (_rec, state) => createCodexParser(state), expected: { a: [2, 2], b: [2, 2], session: [2, 1] } },
  { folder: 'gemini-cli', agent: 'gemini-cli', parser: (rec, state) => createGeminiCliParser({ workspaceFolders: [rec.workspace] }, state), expected: { a: [2, 2], b: [2, 2], session: [2, 1] } },
  { folder: 'qwen-code', agent: 'qwen-code', parser: (rec, state) => createQwenCodeParser({ workspaceFolders: [rec.workspace] }, state), expected: { a: [2, 2], b: [4, 4], session: [2, 1] } },
  { folder: 'copilot-cli', agent: 'copilot-cli', parser: (_rec, state) => createCopilotCliParser(state), expected: { a: [2, 2], b: [4, 4], session: [2, 1] } },
];

const json = (line: string) => JSON.parse(line) as Record<string, unknown>;
const figures = (responses: number, calls: number): LedgerFigures => ({ responses, calls, tokens: { input: 10 * responses, output: 20 * responses, cached: 0 }, cost: undefined });
const withoutCost = (f: LedgerFigures | undefined): LedgerFigures | undefined => (f ? { ...f, cost: undefined } : f);

/** Copilot CLI's plan calls carry no items (its follower reads its database): the scenario's versions stand in. */
function withItems(c: Case, out: ParseOutput): ParseOutput {
  if (c.agent !== 'copilot-cli') return out;
  const s = (content: string, status: ForeignItem['status']): ForeignItem => ({ content, status });
  const versions = [[s(A, 'in_progress'), s(B, 'pending')], [s(A, 'completed'), s(B, 'in_progress')], [s(A, 'completed'), s(B, 'completed')]];
  assert.equal(out.plans.length, versions.length);
  return { ...out, plans: out.plans.map((plan, i) => ({ ...plan, items: versions[i]! })) };
}

async function importAll(dir: string, out: ParseOutput): Promise<void> {
  const sink = new LogPlanSink(new SessionLog(dir, new NodeFileSystem()));
  await sink.importPlans(out.plans);
  await sink.importWrites(out.writes ?? []);
  await sink.importUsage(out.usage ?? []);
  sink.dispose();
}

function logRecords(dir: string, key: string): LogRecord[] {
  const file = new SessionLog(dir, new NodeFileSystem()).fileFor(key);
  return fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => parseLogRecord(json(line), key))
    .filter((r): r is LogRecord => typeof r !== 'string');
}

for (const c of CASES) {
  describe(`${c.folder}: the ledger of the real program's edits`, () => {
    const tmp = useTempDir('ledger');
    const rec = recording(c.folder, 'edits');
    const lines = recordedLines(rec);
    const responses = c.expected.a[0] + c.expected.b[0] + c.expected.session[0];

    it('the parser hands on one usage fact per model response, 10 in and 20 out each', () => {
      const out = c.parser(rec).push(lines);
      const usage = out.usage ?? [];
      assert.equal(usage.length, responses);
      for (const u of usage) assert.deepEqual(u.tokens, { input: 10, output: 20, cached: 0 });
      assert.equal(new Set(usage.map((u) => u.source.call)).size, usage.length, 'each response once');
      assert.equal(
        usage.reduce((sum, u) => sum + u.calls, 0),
        c.expected.a[1] + c.expected.b[1] + c.expected.session[1],
      );
    });

    it('a parser resumed from its saved state after any line hands on the same usage, none twice', () => {
      const whole = c.parser(rec).push(lines).usage;
      for (let cut = 0; cut <= lines.length; cut += 2) {
        const head = c.parser(rec);
        const before = head.push(lines.slice(0, cut));
        const resumed = c.parser(rec, JSON.parse(JSON.stringify(head.state())));
        assert.deepEqual([...(before.usage ?? []), ...(resumed.push(lines.slice(cut)).usage ?? [])], whole, `cut at line ${cut}`);
        assert.equal(resumed.push(lines).usage, undefined, 'lines read again add nothing');
      }
    });

    it('through a real log: per item, the session’s part, the total; a restart and a second import count nothing twice', async () => {
      const dir = tmp.path;
      const out = withItems(c, c.parser(rec).push(lines));
      await importAll(dir, out);
      const key = foreignSessionKey(c.agent, out.plans[0]!.source.session);
      const ledger = buildLedger(logRecords(dir, key));
      const item = (content: string) => ledger.items.find((i) => i.content === content);
      assert.deepEqual(withoutCost(item(A)?.all), figures(...c.expected.a));
      assert.deepEqual(withoutCost(item(B)?.all), figures(...c.expected.b));
      assert.equal(item(A)?.shared.responses, 0, 'one item at a time: nothing shared');
      assert.deepEqual(withoutCost(ledger.session), figures(...c.expected.session));
      assert.deepEqual(withoutCost(ledger.total), figures(responses, c.expected.a[1] + c.expected.b[1] + c.expected.session[1]));
      const size = fs.statSync(new SessionLog(dir, new NodeFileSystem()).fileFor(key)).size;
      // A restart: a fresh parser and a fresh sink import it all again.
      await importAll(dir, withItems(c, c.parser(rec).push(lines)));
      assert.equal(fs.statSync(new SessionLog(dir, new NodeFileSystem()).fileFor(key)).size, size);
      assert.deepEqual(buildLedger(logRecords(dir, key)), ledger);
      // The book the API reads: the same ledger from the log's one reader.
      const book = new LedgerBook(new SessionLog(dir, new NodeFileSystem()));
      assert.deepEqual((await book.get(key)).ledger(), ledger);
      book.dispose();
    });
  });
}

describe('ledger rules', () => {
  const T0 = Date.UTC(2026, 11, 4, 9, 0, 0);
  const iso = (s: number) => new Date(T0 + s * 1000).toISOString();
  const src = { agent: 'opencode' as const, tool: 'todowrite', session: 's', call: 'c' };
  const plan = (s: number, items: Array<[string, 'pending' | 'in_progress' | 'completed']>) =>
    planEvent('k', iso(s), items.map(([content, status]) => ({ content, status })), { ...src, call: `p${s}` });
  const used = (s: number, items: string[], calls: number, tokens?: { input: number; output: number; cached: number }, cost?: number) =>
    usageRecord('k', iso(s), { agent: 'opencode', session: 's', call: `u${s}` }, { calls, ...(tokens ? { tokens } : {}), ...(cost !== undefined ? { cost } : {}) }, items);

  it('several items in progress: each counts it, marked shared; the total counts it once; none: the session’s', () => {
    const t = { input: 100, output: 50, cached: 1000 };
    const ledger = buildLedger([plan(0, [['X', 'in_progress'], ['Y', 'in_progress']]), used(5, ['X', 'Y'], 3, t, 0.5), plan(10, [['X', 'completed'], ['Y', 'in_progress']]), used(15, ['Y'], 1, t), used(20, [], 2, t)], T0 + 60_000);
    const [x, y] = ledger.items;
    assert.deepEqual([x?.all.responses, x?.shared.responses, x?.all.calls, x?.all.cost], [1, 1, 3, 0.5]);
    assert.deepEqual([y?.all.responses, y?.shared.responses, y?.all.calls], [2, 1, 4]);
    assert.deepEqual(ledger.total, { responses: 3, calls: 6, tokens: { input: 300, output: 150, cached: 3000 }, cost: 0.5 });
    assert.deepEqual(ledger.session.responses, 1);
    assert.equal(x?.inProgressMs, 10_000);
    assert.equal(y?.inProgressMs, 60_000, 'still in progress: up to now');
  });

  it('an agent that records no tokens: not recorded (undefined), never 0; incremental equals whole', () => {
    const records = [plan(0, [['X', 'in_progress']]), used(1, ['X'], 2), used(2, ['X'], 1)];
    const ledger = buildLedger(records);
    assert.equal(ledger.items[0]?.all.tokens, undefined);
    assert.equal(ledger.items[0]?.all.calls, 3);
    const builder = new LedgerBuilder();
    for (const r of records) builder.push(r);
    assert.deepEqual(builder.ledger(), ledger);
  });

  it("a connected agent's requests for leave count for the items in progress then, and say so in the item's words", () => {
    const ask = (s: number, id: string) => permissionAskRecord('k', iso(s), { id, agent: 'claude-code', tool: 'Bash', input: 'ls', until: iso(s + 60) });
    const ledger = buildLedger([ask(0, 'claude-code.1.0'), plan(1, [['X', 'in_progress'], ['Y', 'pending']]), ask(2, 'claude-code.2.2'), plan(3, [['X', 'completed'], ['Y', 'in_progress']]), ask(4, 'claude-code.3.4'), ask(5, 'claude-code.4.5'), ask(6, 'claude-code.4.5')]);
    assert.deepEqual(ledger.items.map((item) => [item.content, item.asks]), [['X', 1], ['Y', 2]], 'none before a plan; each where it was in progress; one taken again (a reload) once');
    const [x, y] = ledger.items;
    assert.equal(ledgerText({ ms: x?.inProgressMs, all: x!.all, asks: x?.asks }, formatOnly), '2 s · 1 permission request');
    assert.equal(ledgerText({ all: y!.all, asks: y?.asks }, formatOnly, { detail: true }), 'usage not recorded · 2 permission requests');
  });

  it('says token counts short', () => {
    assert.deepEqual([0, 830, 1000, 1234, 52_400, 1_250_000].map(shortCount), ['0', '830', '1k', '1.2k', '52k', '1.3M']);
  });
});

describe('the ledger through the real followers: two windows at once, then a restart and a catch-up', () => {
  const tmp = useTempDir('ledger-windows');
  for (const c of CASES.filter((k) => k.agent !== 'copilot-cli')) {
    it(`${c.folder}: each response once in the log, the same ledger whoever read first`, async () => {
      const rec = recording(c.folder, 'edits');
      const dir = tmp.path;
      const fileSystem = new NodeFileSystem();
      const window = (pid: number, storage: string) => {
        const log = new SessionLog(path.join(dir, 'sessions'), fileSystem);
        const locks = new SessionLocks(fileSystem, path.join(dir, 'sessions', '.locks'), { pid, host: 'here', isAlive: () => true });
        const errors: unknown[] = [];
        const follower = startTerminalFollower({ agent: c.agent, folder: rec.agentDir, workspaceFolders: [rec.workspace], storageDir: path.join(dir, storage), sink: new LogPlanSink(log, { locks }), pollMs: 0, onError: (error) => errors.push(error) });
        return { follower, errors };
      };
      const run = async (...windows: Array<ReturnType<typeof window>>) => {
        await Promise.all(windows.map((w) => w.follower.refresh()));
        for (const w of windows) {
          w.follower.dispose();
          assert.deepEqual(w.errors, []);
        }
      };
      await run(window(1, 'one'), window(2, 'two'));
      const key = foreignSessionKey(c.agent, c.parser(rec).push(recordedLines(rec)).plans[0]!.source.session);
      const records = logRecords(path.join(dir, 'sessions'), key);
      const responses = c.expected.a[0] + c.expected.b[0] + c.expected.session[0];
      assert.equal(records.filter((r) => r.type === 'model/usage').length, responses, 'each response once');
      const ledger = buildLedger(records);
      const item = (content: string) => ledger.items.find((i) => i.content === content);
      assert.deepEqual(withoutCost(item(A)?.all), figures(...c.expected.a));
      assert.deepEqual(withoutCost(item(B)?.all), figures(...c.expected.b));
      assert.deepEqual(withoutCost(ledger.session), figures(...c.expected.session));
      // A restart (its cursors kept) and a catch-up (a window that never read the files).
      await run(window(3, 'one'), window(4, 'three'));
      assert.deepEqual(logRecords(path.join(dir, 'sessions'), key), records);
    });
  }
});

describe('gemini: each response once, as the chat file writes it (variants of the recorded lines)', () => {
  const rec = recording('gemini-cli', 'edits');
  const lines = recordedLines(rec);
  const parse = (input: string[]) => createGeminiCliParser({ workspaceFolders: [rec.workspace] }).push(input).usage ?? [];
  const edit = (change: (value: Record<string, unknown>, index: number) => Record<string, unknown> | undefined) =>
    lines.map((line, index) => {
      const changed = change(json(line), index);
      return changed === undefined ? line : JSON.stringify(changed);
    });
  const isGemini = (value: Record<string, unknown>) => value['type'] === 'gemini';

  it('cached tokens are apart from input, thoughts count as output, the tool-use prompt as input: the sum is its total', () => {
    const tokens = { input: 100, output: 20, cached: 60, thoughts: 5, tool: 7, total: 132 };
    const usage = parse(edit((value) => (isGemini(value) ? { ...value, tokens } : undefined)));
    assert.equal(usage.length, 6);
    for (const u of usage) assert.deepEqual(u.tokens, { input: 47, output: 25, cached: 60 });
    for (const u of usage) assert.equal(u.tokens!.input + u.tokens!.output + u.tokens!.cached, tokens.total);
  });

  it('a response with text counts at once; a call its later copy adds counts as a call of its own, with no tokens', () => {
    const first = lines.findIndex((line) => isGemini(json(line)) && !('toolCalls' in json(line)) && lines.some((other) => other.includes('write_file__') && json(other)['id'] === json(line)['id']));
    assert.ok(first > 0, 'the write_file response’s first copy');
    const id = json(lines[first]!)['id'];
    const usage = parse(edit((value, index) => (value['id'] === id && index === first ? { ...value, content: 'Writing the file.' } : undefined)));
    const own = usage.filter((u) => u.source.call === id);
    assert.deepEqual(own.map((u) => [u.calls, u.tokens]), [[0, { input: 10, output: 20, cached: 0 }]]);
    const extra = usage.filter((u) => u.source.call.startsWith('write_file__'));
    assert.deepEqual(extra.map((u) => [u.calls, u.tokens]), [[1, undefined]]);
    assert.equal(usage.reduce((sum, u) => sum + u.calls, 0), 5, 'every call once');
  });

  it('a response with neither text nor calls is held until the next record: then it made none', () => {
    const last = lines.map((line) => isGemini(json(line))).lastIndexOf(true);
    const quiet = edit((value, index) => (index === last ? { ...value, content: '' } : undefined));
    const parser = createGeminiCliParser({ workspaceFolders: [rec.workspace] });
    assert.equal(parser.push(quiet).usage?.length, 5, 'the last response is held');
    const next = parser.push([JSON.stringify({ id: 'next-user-record', timestamp: '2026-12-03T16:16:00.000Z', type: 'user', content: [{ text: 'Thanks.' }] })]);
    assert.deepEqual(next.usage?.map((u) => [u.source.call, u.calls, u.plansBefore]), [[json(lines[last]!)['id'], 0, 3]]);
  });
});

// The files each terminal agent's tool calls wrote, over the recordings of the real programs
// making real edits under a plan (test/agents/<agent>/recordings/edits): each parser emits the
// writes in record order with the number of plans before them, and through a real log and
// sink each file/write line names the item that was in progress.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { LogPlanSink } from '../../../src/core/log/planSink';
import { foreignSessionKey } from '../../../src/core/log/sessionKey';
import { SessionLog } from '../../../src/core/log/sessionLog';
import { createClaudeCodeParser, claudeSubagentSession } from '../../../src/agents/claudeCode';
import { createCodexParser } from '../../../src/agents/codex';
import { createGeminiCliParser } from '../../../src/agents/geminiCli';
import { createCopilotCliParser } from '../../../src/agents/copilotCli/parser';
import { createQwenCodeParser } from '../../../src/agents/qwenCode/parser';
import type { AgentId, ForeignItem, ForeignWrite, ParseOutput, SessionParser } from '../../../src/core/foreign';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { recordedLines, recording, type Recording } from '../agentRecordings';
import { useTempDir } from '../../lib/temp';

const ITEM_A = 'Add the separator constant';
const ITEM_B = 'Use it in the parser';

interface Case {
  folder: 'claude-code' | 'codex' | 'gemini-cli' | 'qwen-code' | 'copilot-cli';
  agent: AgentId;
  parser: (rec: Recording, state?: unknown) => SessionParser;
  /** The two files as the agent's record names them. */
  files: (rec: Recording) => [string, string];
}

const CASES: Case[] = [
  {
    folder: 'claude-code',
    agent: 'claude-code',
    parser: (rec, state) => createClaudeCodeParser({ workspaceFolders: [rec.workspace] }, state),
    files: (rec) => [`${rec.workspace}/src/tokens.ts`, `${rec.workspace}/src/parser.ts`],
  },
  {
    folder: 'codex',
    agent: 'codex',
    parser: (_rec, state) => createCodexParser(state),
    // apply_patch names paths relative to the workspace.
    files: () => ['src/tokens.ts', 'src/parser.ts'],
  },
  {
    folder: 'gemini-cli',
    agent: 'gemini-cli',
    parser: (rec, state) => createGeminiCliParser({ workspaceFolders: [rec.workspace] }, state),
    files: (rec) => [`${rec.workspace}/src/tokens.ts`, `${rec.workspace}/src/parser.ts`],
  },
  {
    folder: 'qwen-code',
    agent: 'qwen-code',
    parser: (rec, state) => createQwenCodeParser({ workspaceFolders: [rec.workspace] }, state),
    files: (rec) => [`${rec.workspace}/src/tokens.ts`, `${rec.workspace}/src/parser.ts`],
  },
  {
    folder: 'copilot-cli',
    agent: 'copilot-cli',
    parser: (_rec, state) => createCopilotCliParser(state),
    files: (rec) => [`${rec.workspace}/src/tokens.ts`, `${rec.workspace}/src/parser.ts`],
  },
];

/** The agents whose scenario makes a failing edit between the two that write: three edit calls. */
const FAILED_EDIT: ReadonlySet<AgentId> = new Set(['claude-code', 'qwen-code', 'copilot-cli']);

const json = (line: string) => JSON.parse(line) as Record<string, unknown>;

/** Every edit tool call's id in the record, in order, failed ones too. */
function editCalls(agent: AgentId, lines: readonly string[]): string[] {
  const ids: string[] = [];
  for (const line of lines.map(json)) {
    if (agent === 'claude-code' && line['type'] === 'assistant') {
      for (const block of ((line['message'] as { content?: unknown[] }).content ?? []) as Array<Record<string, unknown>>) {
        if (block['type'] === 'tool_use' && (block['name'] === 'Write' || block['name'] === 'Edit')) ids.push(block['id'] as string);
      }
    }
    const payload = line['payload'] as Record<string, unknown> | undefined;
    if (agent === 'codex' && line['type'] === 'response_item' && payload?.['name'] === 'apply_patch') ids.push(payload['call_id'] as string);
    const message = line['message'] as { parts?: unknown[] } | undefined;
    if (agent === 'qwen-code' && line['type'] === 'assistant' && Array.isArray(message?.parts)) {
      for (const part of message.parts as Array<Record<string, unknown>>) {
        const call = part['functionCall'] as Record<string, unknown> | undefined;
        if (call !== undefined && (call['name'] === 'write_file' || call['name'] === 'edit')) ids.push(call['id'] as string);
      }
    }
    const data = line['data'] as Record<string, unknown> | undefined;
    if (agent === 'copilot-cli' && line['type'] === 'tool.execution_start' && (data?.['toolName'] === 'create' || data?.['toolName'] === 'edit')) ids.push(data['toolCallId'] as string);
    if (agent === 'gemini-cli' && Array.isArray(line['toolCalls'])) {
      for (const call of line['toolCalls'] as Array<Record<string, unknown>>) {
        if ((call['name'] === 'write_file' || call['name'] === 'replace') && !ids.includes(call['id'] as string)) ids.push(call['id'] as string);
      }
    }
  }
  return ids;
}

/** All the writes of a run of pushes. */
const writesOf = (outputs: readonly ParseOutput[]): ForeignWrite[] => outputs.flatMap((out) => out.writes ?? []);

for (const c of CASES) {
  describe(`${c.folder} parser: the files its edit calls wrote, over the real program's edits`, () => {
    const tmp = useTempDir('writes');
    const rec = recording(c.folder, 'edits');
    const lines = recordedLines(rec);

    it('emits each successful write once, in record order, with its call id and the number of plans before it', () => {
      const out = c.parser(rec).push(lines);
      assert.deepEqual(out.unknown, []);
      assert.equal(out.plans.length, 3);
      const session = out.plans[0]!.source.session;
      const calls = editCalls(c.agent, lines);
      const [first, second] = c.files(rec);
      // The second edit call of Claude, Qwen and Copilot CLI (an edit whose text was not in the file) came back an error: no write.
      const wrote = FAILED_EDIT.has(c.agent) ? [calls[0], calls[2]] : calls;
      assert.equal(calls.length, FAILED_EDIT.has(c.agent) ? 3 : 2);
      assert.deepEqual(
        (out.writes ?? []).map((w) => ({ ...w, at: undefined })),
        [
          { source: { agent: c.agent, session, call: wrote[0] }, files: [first], plansBefore: 1, at: undefined },
          { source: { agent: c.agent, session, call: wrote[1] }, files: [second], plansBefore: 2, at: undefined },
        ],
      );
      for (const w of out.writes ?? []) assert.ok(w.at !== undefined && !Number.isNaN(Date.parse(w.at)), 'the record’s own time');
    });

    it('a parser resumed from its saved state after any line emits the same writes, none twice', () => {
      const whole = c.parser(rec).push(lines).writes;
      for (let cut = 0; cut <= lines.length; cut += 3) {
        const head = c.parser(rec);
        const before = head.push(lines.slice(0, cut));
        const resumed = c.parser(rec, JSON.parse(JSON.stringify(head.state())));
        assert.deepEqual(writesOf([before, resumed.push(lines.slice(cut))]), whole, `cut at line ${cut}`);
        assert.equal(resumed.push(lines).writes, undefined, 'lines read again write nothing new');
      }
    });

    it('through a real log: file 1 goes to item A, file 2 to item B; importing again writes nothing', async () => {
      const dir = tmp.path;
      const log = new SessionLog(dir, new NodeFileSystem());
      const sink = new LogPlanSink(log);
      const out = c.parser(rec).push(lines);
      if (c.agent === 'copilot-cli') {
        // Copilot CLI's plan calls carry no items: its follower reads them from the session's
        // database, which the recording holds only as it was at the end. The scenario's three
        // versions, as its sql calls set the table, stand in.
        const s = (content: string, status: ForeignItem['status']): ForeignItem => ({ content, status });
        const versions = [[s(ITEM_A, 'in_progress'), s(ITEM_B, 'pending')], [s(ITEM_A, 'completed'), s(ITEM_B, 'in_progress')], [s(ITEM_A, 'completed'), s(ITEM_B, 'completed')]];
        assert.equal(out.plans.length, versions.length);
        out.plans = out.plans.map((plan, i) => ({ ...plan, items: versions[i]! }));
      }
      await sink.importPlans(out.plans);
      await sink.importWrites(out.writes ?? []);
      const key = foreignSessionKey(c.agent, out.plans[0]!.source.session);
      const file = log.fileFor(key);
      const records = fs.readFileSync(file, 'utf8').trim().split('\n').map(json);
      const writes = records.filter((r) => r['type'] === 'file/write');
      assert.deepEqual(
        writes.map((r) => [r['files'], r['items'], (r['source'] as { call: string }).call]),
        (out.writes ?? []).map((w, i) => [w.files, [[ITEM_A], [ITEM_B]][i], w.source.call]),
      );
      assert.deepEqual(writes.map((r) => r['files']), c.files(rec).map((f) => [f]));
      const size = fs.statSync(file).size;
      // Again, from the same sink and from a new one (a restart): the log holds them already.
      await sink.importPlans(out.plans);
      await sink.importWrites(out.writes ?? []);
      const again = c.parser(rec).push(lines);
      const restarted = new LogPlanSink(new SessionLog(dir, new NodeFileSystem()));
      await restarted.importPlans(again.plans);
      await restarted.importWrites(again.writes ?? []);
      assert.equal(fs.statSync(file).size, size);
      sink.dispose();
      restarted.dispose();
    });
  });
}

describe('a write that did not happen is none (variants of the recorded lines)', () => {
  it('codex: an apply_patch whose output is an error (as 0.171.0 answers a model it offers no apply_patch) wrote nothing', () => {
    const rec = recording('codex', 'edits');
    const lines = recordedLines(rec);
    const failed = lines.map((line) => {
      const value = json(line);
      const payload = value['payload'] as Record<string, unknown> | undefined;
      if (payload?.['type'] !== 'custom_tool_call_output' || payload['call_id'] !== editCalls('codex', lines)[1]) return line;
      return JSON.stringify({ ...value, payload: { ...payload, output: 'unsupported custom tool call: apply_patch' } });
    });
    assert.deepEqual((createCodexParser().push(failed).writes ?? []).map((w) => w.files), [['src/tokens.ts']]);
    // An output that never came (a run cut short): nothing either, and the call waits in the state.
    const cut = createCodexParser();
    cut.push(lines.filter((line) => (json(line)['payload'] as Record<string, unknown> | undefined)?.['type'] !== 'custom_tool_call_output'));
    assert.equal(Object.keys((cut.state() as { writes: object }).writes).length, 2);
  });

  it('gemini: a write_file or replace whose record says error wrote nothing', () => {
    const rec = recording('gemini-cli', 'edits');
    const lines = recordedLines(rec);
    const failed = lines.map((line) => {
      const value = json(line);
      if (!Array.isArray(value['toolCalls'])) return line;
      const calls = (value['toolCalls'] as Array<Record<string, unknown>>).map((call) => (call['name'] === 'replace' ? { ...call, status: 'error' } : call));
      return JSON.stringify({ ...value, toolCalls: calls });
    });
    const out = createGeminiCliParser({ workspaceFolders: [rec.workspace] }).push(failed);
    assert.deepEqual((out.writes ?? []).map((w) => w.files), [[`${rec.workspace}/src/tokens.ts`]]);
    assert.equal(out.plans.length, 3);
  });
});

describe('claude parser: a subagent’s writes are its own session’s', () => {
  const rec = recording('claude-code', 'edits');
  const lines = recordedLines(rec);
  const session = (json(lines.find((l) => json(l)['sessionId'] !== undefined)!)['sessionId']) as string;
  /** The recorded lines as a subagent's own transcript holds them: sidechain lines with its agent id. */
  const asSubagent = lines.map((line) => {
    const value = json(line);
    return value['type'] === 'user' || value['type'] === 'assistant' ? JSON.stringify({ ...value, isSidechain: true, agentId: 'a1' }) : line;
  });

  it('in its own transcript, they carry the subagent’s session', () => {
    const out = createClaudeCodeParser({ workspaceFolders: [rec.workspace], subagent: true }).push(asSubagent);
    assert.deepEqual(new Set((out.writes ?? []).map((w) => w.source.session)), new Set([claudeSubagentSession(session, 'a1')]));
    assert.deepEqual((out.writes ?? []).map((w) => w.plansBefore), [1, 2]);
  });

  it('sidechain lines in the main transcript write nothing for the main session', () => {
    const out = createClaudeCodeParser({ workspaceFolders: [rec.workspace] }).push(asSubagent);
    assert.equal(out.writes, undefined);
  });
});

describe('plan sink: importWrites at the edges', () => {
  const tmp = useTempDir();
  const open = () => {
    const log = new SessionLog(tmp.path, new NodeFileSystem());
    return { log, sink: new LogPlanSink(log) };
  };
  const source = (call: string) => ({ agent: 'codex' as const, session: 'thread-1', call });
  const key = foreignSessionKey('codex', 'thread-1');
  const read = (log: SessionLog) => (fs.existsSync(log.fileFor(key)) ? fs.readFileSync(log.fileFor(key), 'utf8').trim().split('\n').map(json) : []);
  const writeLines = (log: SessionLog) => read(log).filter((r) => r['type'] === 'file/write');
  const plan = (call: string, items: Array<[string, 'pending' | 'in_progress' | 'completed']>) => ({
    source: { agent: 'codex' as const, tool: 'update_plan', session: 'thread-1', call },
    items: items.map(([content, status]) => ({ content, status })),
  });

  it('plansBefore 0 (no plan yet): the write belongs to the session, no item', async () => {
    const { log, sink } = open();
    await sink.importPlans([plan('p1', [['A', 'in_progress']])]);
    await sink.importWrites([{ source: source('w0'), files: ['a.ts'], plansBefore: 0 }]);
    assert.deepEqual(writeLines(log).map((r) => [r['files'], r['items']]), [[['a.ts'], []]]);
  });

  it('plansBefore beyond the versions the log holds: the current plan’s items in progress', async () => {
    const { log, sink } = open();
    await sink.importPlans([plan('p1', [['A', 'in_progress'], ['B', 'pending']]), plan('p2', [['A', 'completed'], ['B', 'in_progress']])]);
    await sink.importWrites([
      { source: source('w1'), files: ['a.ts'], plansBefore: 1 },
      { source: source('w9'), files: ['b.ts'], plansBefore: 9 },
    ]);
    assert.deepEqual(writeLines(log).map((r) => [r['files'], r['items']]), [
      [['a.ts'], ['A']],
      [['b.ts'], ['B']],
    ]);
  });

  it('a catch-up that hands more plans than the index keeps before its writes: each write names its own version’s item', async () => {
    const { log, sink } = open();
    const count = 520; // past the 512 versions the index keeps
    await sink.importPlans(Array.from({ length: count }, (_, i) => plan(`p${i}`, [[`step ${i}`, 'in_progress']])));
    // Restarted, as after a reload: the index is built from the log by its backward read.
    const restarted = new LogPlanSink(new SessionLog(tmp.path, new NodeFileSystem()));
    for (const target of [sink, restarted]) {
      await target.importWrites(Array.from({ length: count }, (_, i) => ({ source: source(`w${i}`), files: [`f${i}.ts`], plansBefore: i + 1 })));
    }
    const lines = writeLines(log);
    assert.equal(lines.length, count, 'each write once');
    const wrong = lines.flatMap((r, i) => ((r['items'] as string[]).join() === `step ${i}` ? [] : [`f${i}.ts: ${String(r['items'])}`]));
    assert.deepEqual(wrong, []);
  });

  for (const [what, bad] of [
    ['no files', { source: source('w2'), files: [], plansBefore: 1 }],
    ['a path with a line break', { source: source('w2'), files: ['ok.ts', 'src/a\nb.ts'], plansBefore: 1 }],
  ] as const) {
    it(`a bad write (${what}) is a TypeError and nothing of the call is written`, async () => {
      const { log, sink } = open();
      await sink.importPlans([plan('p1', [['A', 'in_progress']])]);
      const before = read(log).length;
      const good: ForeignWrite = { source: source('w1'), files: ['a.ts'], plansBefore: 1 };
      await assert.rejects(sink.importWrites([good, bad as unknown as ForeignWrite]), TypeError);
      assert.equal(read(log).length, before);
      assert.deepEqual(writeLines(log), []);
    });
  }
});

// Claude Code subagents, recorded from the real CLI (2.1.332): the main session hands the work
// to a subagent through its Agent tool; the subagent writes its own transcript in
// `<session id>/subagents/agent-<agent id>.jsonl` and plans there. Its plan is its own session,
// linked to its parent in the log; the parent's plan and the child's never mix.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { infoRecord, parseLogRecord } from '../../../src/core/log/logRecord';
import { LogPlanSink, sessionKeyForForeign } from '../../../src/core/log/planSink';
import { nextFacts, sameFacts } from '../../../src/core/log/sessionFacts';
import { SessionLog } from '../../../src/core/log/sessionLog';
import { PlanStore } from '../../../src/core/store/store';
import { nodeFileSystem } from '../../../src/node/nodeFileSystem';
import { claudeCodeLocator } from '../../../src/agents/claudeCode/locator';
import { startTerminalFollower } from '../../unit/agentStart';
import { claudeSubagentSession, createClaudeCodeParser, isClaudeSubagentFile } from '../../../src/agents/claudeCode/parser';
import type { ForeignPlan } from '../../../src/core/foreign';
import { recording } from '../../unit/agentRecordings';
import { KEY_A, MemorySink } from '../../unit/helpers';
import { useTempDir } from '../../lib/temp';

const rows = (plan: ForeignPlan | undefined) => (plan?.items ?? []).map((item) => [item.content, item.status]);
const lines = (file: string) => fs.readFileSync(file, 'utf8').trimEnd().split('\n');

describe('Claude Code subagents, over a recording of the real CLI', () => {
  const rec = recording('claude-code', 'subagent');
  const main = rec.sessionFiles.find((file) => !isClaudeSubagentFile(file)) ?? '';
  const child = rec.sessionFiles.find((file) => isClaudeSubagentFile(file)) ?? '';
  const parent = path.basename(main, '.jsonl');
  const agentId = path.basename(child, '.jsonl').slice('agent-'.length);

  it('the subagent keeps its transcript in <session id>/subagents/agent-<id>.jsonl', () => {
    assert.equal(rec.sessionFiles.length, 2);
    assert.equal(path.dirname(child), path.join(main.slice(0, -'.jsonl'.length), 'subagents'));
    assert.equal(isClaudeSubagentFile(main), false);
  });

  it("the subagent's plan is its own session, named after its parent, with the parent linked", () => {
    const out = createClaudeCodeParser({ workspaceFolders: [rec.workspace], subagent: true }).push(lines(child));
    assert.deepEqual(out.unknown, []);
    const session = claudeSubagentSession(parent, agentId);
    assert.deepEqual(out.plans.map((p) => [p.source.tool, p.source.session]), [['TodoWrite', session], ['TodoWrite', session]]);
    assert.deepEqual(out.plans.map(rows), [
      [['Read the tokenizer', 'in_progress'], ['Fix the loop bound', 'pending']],
      [['Read the tokenizer', 'completed'], ['Fix the loop bound', 'in_progress']],
    ]);
    assert.equal(out.info?.parent, parent);
    assert.equal(out.info?.session, session);
    assert.equal(out.info?.cwd, rec.workspace);
    // What the parent asked of it names it: its first request, not a title.
    assert.match(out.info?.request ?? '', /fix the off-by-one/);
    assert.equal(out.info?.title, undefined);
    assert.deepEqual(out.info?.turn, { index: 0, state: 'ended' });
  });

  it("the parent's file gives its own plan only, and a subagent parser's state resumes with the parent link", () => {
    const out = createClaudeCodeParser({ workspaceFolders: [rec.workspace] }).push(lines(main));
    assert.deepEqual(out.plans.map(rows), [[['Hand the fix to a subagent', 'in_progress'], ['Review the fix', 'pending']]]);
    assert.deepEqual(out.plans.map((p) => p.source.session), [parent]);
    assert.equal(out.info?.parent, undefined);
    const all = lines(child);
    const parser = createClaudeCodeParser({ workspaceFolders: [rec.workspace], subagent: true });
    parser.push(all.slice(0, 5));
    const resumed = createClaudeCodeParser({ workspaceFolders: [rec.workspace], subagent: true }, JSON.parse(JSON.stringify(parser.state())));
    const rest = resumed.push(all.slice(5));
    assert.equal(rest.plans.length, 2);
    assert.equal(rest.info?.parent, parent);
  });

  it('the locator lists the subagent transcripts beside the sessions, and watches where new ones appear', async () => {
    const locator = claudeCodeLocator(rec.agentDir, [rec.workspace]);
    assert.deepEqual([...(await locator.list())].sort(), [...rec.sessionFiles].sort());
    assert.ok(locator.watchFolders().includes(path.dirname(child)));
    // A session without a folder of its own is watched through its project folder: no watcher of its own.
    const plain = recording('claude-code', 'todowrite');
    const other = claudeCodeLocator(plain.agentDir, [plain.workspace]);
    await other.list();
    const project = path.dirname(plain.sessionFiles[0] ?? '');
    const extra = other.watchFolders().filter((folder) => folder !== project);
    assert.ok(extra.every((folder) => !fs.existsSync(path.dirname(folder)) && path.dirname(path.dirname(folder)) === project), JSON.stringify(extra));
  });

  describe('the follower', () => {
    const tmp = useTempDir();
    it("hands the parent's plan and the child's, each in its own session, and the child's parent link", async () => {
      const sink = new MemorySink();
      const errors: unknown[] = [];
      const follower = startTerminalFollower({
        agent: 'claude-code',
        folder: rec.agentDir,
        workspaceFolders: [rec.workspace],
        storageDir: tmp.path,
        sink,
        onUnknownShape: (_f, shape) => errors.push(shape),
        onError: (error) => errors.push(error),
        pollMs: 0,
      });
      await follower.refresh();
      follower.dispose();
      assert.deepEqual(errors, []);
      const session = claudeSubagentSession(parent, agentId);
      assert.deepEqual(sink.plans.filter((p) => p.source.session === parent).map(rows), [[['Hand the fix to a subagent', 'in_progress'], ['Review the fix', 'pending']]]);
      assert.equal(sink.plans.filter((p) => p.source.session === session).length, 2);
      assert.equal(sink.plans.length, 3);
      assert.equal(sink.latest(session)?.parent, parent);
      assert.equal(sink.latest(parent)?.parent, undefined);
    });
  });
});

describe('the parent link in the log', () => {
  it('is written in session/info, read back, carried over by later facts, and checked', () => {
    const facts = nextFacts(undefined, { agent: 'claude-code', session: 'p:agent-1', parent: 'p' }, '2026-01-01T00:00:00.000Z');
    assert.equal(facts.parent, 'p');
    const later = nextFacts(facts, { agent: 'claude-code', session: 'p:agent-1', turn: { index: 0, state: 'ended' } }, '2026-01-01T00:00:01.000Z');
    assert.equal(later.parent, 'p');
    assert.equal(sameFacts(facts, nextFacts(facts, { agent: 'claude-code', session: 'p:agent-1' }, '2026-01-01T00:00:02.000Z')), true);
    const line = JSON.parse(JSON.stringify(infoRecord(KEY_A, '2026-01-01T00:00:00.000Z', { agent: 'claude-code', session: 'p:agent-1' }, facts))) as Record<string, unknown>;
    assert.equal(line['parent'], 'p');
    const back = parseLogRecord(line, KEY_A);
    assert.equal(typeof back === 'string' ? back : back.type === 'session/info' ? back.parent : undefined, 'p');
    assert.match(String(parseLogRecord({ ...line, parent: 7 }, KEY_A)), /`parent` must be a string/);
    assert.match(String(parseLogRecord({ ...line, parent: '' }, KEY_A)), /`parent` must be a string/);
  });
});

describe('the parent link after a reload', () => {
  const tmp = useTempDir();
  it("the store reads it from the log: the child names its parent's session, and runs while its turn does", async () => {
    const log = new SessionLog(tmp.path, nodeFileSystem);
    const sink = new LogPlanSink(log);
    const child = { agent: 'claude-code' as const, tool: 'TodoWrite', session: 'p:agent-1', call: 'toolu_1' };
    await sink.importPlans([{ source: child, items: [{ content: 'Read', status: 'in_progress' }] }]);
    await sink.updateSession({ agent: 'claude-code', session: 'p:agent-1', parent: 'p', turn: { index: 0, state: 'running' } });
    await sink.importPlans([{ source: { ...child, session: 'p', call: 'toolu_0' }, items: [{ content: 'Delegate', status: 'in_progress' }] }]);
    const store = new PlanStore(new SessionLog(tmp.path, nodeFileSystem));
    await store.load();
    const childKey = sessionKeyForForeign('claude-code', 'p:agent-1');
    const parentKey = sessionKeyForForeign('claude-code', 'p');
    assert.equal(store.details(childKey).parent, parentKey);
    assert.equal(store.details(childKey).running, true);
    assert.equal(store.details(parentKey).parent, undefined);
    assert.deepEqual(store.get(parentKey)?.todos.map((t) => t.content), ['Delegate']);
    assert.deepEqual(store.get(childKey)?.todos.map((t) => t.content), ['Read']);
  });
});

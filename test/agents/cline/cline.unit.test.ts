// Cline, over recordings of the real CLIs (test/agents/cline/recordings): 2.x's focus chain from
// ui_messages.json (two states, never an item in progress), 3.x's team task board, edits,
// usage and subagent from its messages files; and the follower over a data folder, reading
// each whole-file version as one snapshot. Expectations are read from the recorded files.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cline, clineExtensionFolder, createClineSessionParser, createClineTaskParser } from '../../../src/agents/cline';
import { blankLinesWithinDepth, MAX_SNAPSHOT_DEPTH } from '../../../src/agents/follow/snapshotFiles';
import { LogPlanSink } from '../../../src/core/log/planSink';
import { foreignSessionKey } from '../../../src/core/log/sessionKey';
import { SessionLog } from '../../../src/core/log/sessionLog';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { itemsFromChecklist } from '../../../src/agents/checklist';
import { MemorySink } from '../../unit/helpers';
import { useTempDir } from '../../lib/temp';

const ROOT = path.join(__dirname, 'recordings');
type Json = Record<string, unknown>;
const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
const meta = (scenario: string) => readJson(path.join(ROOT, scenario, 'meta.json')) as { workspace: string; command: string[]; version: string };
const data = (scenario: string) => path.join(ROOT, scenario, 'home', '.cline', 'data');
/** A document as the snapshot reader hands it to a parser: one line. */
const asLine = (file: string) => [fs.readFileSync(file, 'utf8').replace(/[\r\n]/g, ' ')];

describe('Cline 2.x (cline@2.18.0): the focus chain of ui_messages.json', () => {
  const tasks = path.join(data('focus-chain'), 'tasks');
  const [task] = fs.readdirSync(tasks);
  assert.ok(task);
  const file = path.join(tasks, task, 'ui_messages.json');
  const messages = readJson(file) as Json[];
  const progress = messages.filter((m) => m['say'] === 'task_progress');
  const workspace = meta('focus-chain').workspace;

  it('was recorded with the 2.x CLI', () => {
    assert.equal(meta('focus-chain').version, '2.18.0');
  });

  it('each task_progress message is a plan version, the whole checklist, with pending and completed only', () => {
    const out = createClineTaskParser({ task, cwd: workspace }).push(asLine(file));
    assert.deepEqual(out.unknown, []);
    assert.ok(progress.length >= 3, 'the recording holds several versions');
    assert.deepEqual(out.plans.map((p) => p.source), progress.map((m) => ({ agent: 'cline', tool: 'task_progress', session: task, call: String(m['ts']) })));
    assert.deepEqual(out.plans.map((p) => p.items), progress.map((m) => itemsFromChecklist(String(m['text']), 'x')));
    const statuses = new Set(out.plans.flatMap((p) => p.items.map((item) => item.status)));
    assert.ok(!statuses.has('in_progress'), 'a two-state list never has an item in progress');
    assert.deepEqual([...statuses].sort(), ['completed', 'pending']);
    assert.ok(out.plans.at(-1)?.items.every((item) => item.status === 'completed'));
  });

  it('the last version is the focus-chain file the task folder holds', () => {
    const markdown = fs.readFileSync(path.join(tasks, task, `focus_chain_taskid_${task}.md`), 'utf8');
    const out = createClineTaskParser({ task }).push(asLine(file));
    assert.deepEqual(out.plans.at(-1)?.items, itemsFromChecklist(markdown, 'x'));
  });

  it('the files its tools wrote, in record order, each after the versions before it', () => {
    const out = createClineTaskParser({ task }).push(asLine(file));
    const tools = messages.filter((m) => m['say'] === 'tool').map((m) => ({ ts: m['ts'], tool: JSON.parse(String(m['text'])) as Json }));
    const written = tools.filter((t) => ['newFileCreated', 'editedExistingFile'].includes(String(t.tool['tool'])));
    assert.deepEqual(out.writes?.map((w) => [w.source.call, w.files]), written.map((t) => [String(t.ts), [t.tool['path']]]));
    for (const write of out.writes ?? []) {
      const before = progress.filter((m) => Number(m['ts']) < Number(write.source.call)).length;
      assert.equal(write.plansBefore, before);
    }
  });

  it("each api_req_started is a model request's usage", () => {
    const out = createClineTaskParser({ task }).push(asLine(file));
    const requests = messages.filter((m) => m['say'] === 'api_req_started').map((m) => ({ ts: m['ts'], info: JSON.parse(String(m['text'])) as Json }));
    assert.deepEqual(
      out.usage?.map((u) => [u.source.call, u.tokens]),
      requests.map((r) => [String(r.ts), { input: r.info['tokensIn'], output: r.info['tokensOut'], cached: Number(r.info['cacheReads']) + Number(r.info['cacheWrites']) }]),
    );
    assert.equal(out.usage?.reduce((sum, u) => sum + u.calls, 0), messages.filter((m) => m['say'] === 'tool' || m['say'] === 'command').length);
  });

  it('the session: its task id, workspace and prompt', () => {
    const out = createClineTaskParser({ task, cwd: workspace }).push(asLine(file));
    assert.deepEqual(out.info, { agent: 'cline', session: task, cwd: workspace, request: messages.find((m) => m['say'] === 'task')?.['text'] });
  });

  it('each version the run went through gives the versions so far; a version read half-written gives nothing and reports nothing', () => {
    const snapshots = path.join(ROOT, 'focus-chain', 'task-snapshots');
    let seen = 0;
    for (const request of fs.readdirSync(snapshots).sort()) {
      const text = fs.readFileSync(path.join(snapshots, request, task, 'ui_messages.json'), 'utf8');
      const plans = createClineTaskParser({ task }).push([text.replace(/\n/g, ' ')]).plans;
      assert.ok(plans.length >= seen, `request ${request}`);
      seen = plans.length;
      const torn = createClineTaskParser({ task }).push([text.slice(0, Math.floor(text.length / 2)).replace(/\n/g, ' ')]);
      assert.deepEqual([torn.plans, torn.unknown], [[], []]);
    }
    assert.ok(seen < progress.length, 'the last version came after the last request');
  });

  it('another mark in the checklist is reported, never turned into a status', () => {
    const odd = messages.map((m) => (m === progress[0] ? { ...m, text: String(m['text']).replace('- [ ] ', '- [~] ') } : m));
    assert.notDeepEqual(odd, messages);
    const out = createClineTaskParser({ task }).push([JSON.stringify(odd)]);
    assert.deepEqual(out.unknown.map((u) => u.detail), ['a task_progress item marked "~"']);
  });
});

describe('Cline 3.x (cline@3.0.65): the team task board of a session', () => {
  const sessionsOf = (scenario: string) => path.join(data(scenario), 'sessions');
  const [sid] = fs.readdirSync(sessionsOf('team-board'));
  assert.ok(sid);
  const folder = path.join(sessionsOf('team-board'), sid);
  const file = path.join(folder, `${sid}.messages.json`);
  const doc = readJson(file) as { messages: Array<{ id: string; role: string; content: Json[]; metrics?: Json }> };
  const blocks = doc.messages.flatMap((m) => m.content);
  const uses = new Map(blocks.filter((b) => b['type'] === 'tool_use').map((b) => [String(b['id']), b]));
  const results = blocks.filter((b) => b['type'] === 'tool_result');
  const workspace = meta('team-board').workspace;

  it('each board change (create, claim, complete) is a plan version: the board after it, as the results tell', () => {
    const out = createClineSessionParser({ cwd: workspace }).push(asLine(file));
    assert.deepEqual(out.unknown, []);
    const changes = results.filter((r) => uses.get(String(r['tool_use_id']))?.['name'] === 'team_task');
    assert.deepEqual(out.plans.map((p) => p.source.call), changes.map((r) => r['tool_use_id']));
    // The board folded from the results and the create calls' titles.
    const board = new Map<string, [string, string]>();
    const expected = changes.map((r) => {
      const answer = JSON.parse(String(r['content'])) as Json;
      const input = uses.get(String(r['tool_use_id']))?.['input'] as Json;
      const id = String(answer['taskId']);
      board.set(id, [String(input['title'] ?? board.get(id)?.[0]), String(answer['status'])]);
      return [...board.entries()].sort().map(([, item]) => item);
    });
    assert.deepEqual(out.plans.map((p) => p.items.map((i) => [i.content, i.status])), expected);
    assert.ok(out.plans.some((p) => p.items.some((i) => i.status === 'in_progress')), 'a claimed task is in progress');
  });

  it("the board's last version is the team_tasks table's rows as the run left them (from the recorded team events)", () => {
    // team_events rows hold a JSON payload each; without node:sqlite, the payloads are found in the
    // database's pages and write-ahead log as text.
    const raw = ['teams.db', 'teams.db-wal'].map((name) => fs.readFileSync(path.join(data('team-board'), 'db', name)).toString('latin1')).join('');
    // Pages are not in event order: the newest event of each task is the one updated last.
    const last = new Map<string, { at: string; item: string }>();
    for (const match of raw.matchAll(/\{"type":"team_task_updated","task":(\{.*?"dependsOn":\[[^\]]*\][^}]*\})\}/g)) {
      const task = JSON.parse(match[1] ?? '{}') as Json;
      const at = String(task['updatedAt']);
      if ((last.get(String(task['id']))?.at ?? '') <= at) last.set(String(task['id']), { at, item: `${String(task['title'])}:${String(task['status'])}` });
    }
    assert.ok(last.size >= 3, 'the recorded events are found');
    const out = createClineSessionParser({}).push(asLine(file));
    assert.deepEqual(out.plans.at(-1)?.items.map((i) => `${i.content}:${i.status}`), [...last.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, v]) => v.item));
  });

  it('the files its editor calls wrote, each after the board versions before it', () => {
    const out = createClineSessionParser({}).push(asLine(file));
    const edits = [...uses.values()].filter((u) => u['name'] === 'editor');
    assert.deepEqual(out.writes?.map((w) => [w.source.call, w.files]), edits.map((u) => [u['id'], [(u['input'] as Json)['path']]]));
    // Files per item: the item in progress in the version before each write.
    const plans = out.plans;
    const inProgress = out.writes?.map((w) => plans[w.plansBefore - 1]?.items.filter((i) => i.status === 'in_progress').map((i) => i.content));
    assert.deepEqual(inProgress, [['Add the separator constant'], ['Use it in the parser']]);
  });

  it("each assistant message's metrics is a model response's usage; the sums are the manifest's", () => {
    const out = createClineSessionParser({}).push(asLine(file));
    const assistants = doc.messages.filter((m) => m.role === 'assistant' && m.metrics);
    assert.deepEqual(out.usage?.map((u) => u.source.call), assistants.map((m) => m.id));
    assert.deepEqual(out.usage?.map((u) => u.calls), assistants.map((m) => m.content.filter((b) => b['type'] === 'tool_use').length));
    const manifest = readJson(path.join(folder, `${sid}.json`)) as { metadata: { usage: Json } };
    assert.equal(out.usage?.reduce((s, u) => s + (u.tokens?.input ?? 0), 0), manifest.metadata.usage['inputTokens']);
    assert.equal(out.usage?.reduce((s, u) => s + (u.tokens?.output ?? 0), 0), manifest.metadata.usage['outputTokens']);
  });

  it('the session: its id, workspace and prompt without its wrapper', () => {
    const out = createClineSessionParser({ cwd: workspace }).push(asLine(file));
    const manifest = readJson(path.join(folder, `${sid}.json`)) as Json;
    assert.deepEqual(out.info, { agent: 'cline', session: sid, cwd: workspace, request: manifest['prompt'] });
  });

  it("a subagent's file is its own session under its parent, with its own edit and usage", () => {
    const [root] = fs.readdirSync(sessionsOf('subagent'));
    assert.ok(root);
    const sub = fs.readdirSync(path.join(sessionsOf('subagent'), root)).find((name) => name.startsWith('agent_'));
    assert.ok(sub);
    const subDoc = readJson(path.join(sessionsOf('subagent'), root, sub)) as { sessionId: string };
    const out = createClineSessionParser({}).push(asLine(path.join(sessionsOf('subagent'), root, sub)));
    assert.equal(out.info?.parent, root);
    assert.equal(out.info?.session, subDoc.sessionId);
    assert.deepEqual(out.plans, []);
    assert.equal(out.writes?.length, 1);
    assert.equal(out.writes?.[0]?.parent, root, 'its edit names its parent, under whose items it counts');
    assert.ok(out.usage && out.usage.length > 0);
    const parent = createClineSessionParser({}).push(asLine(path.join(sessionsOf('subagent'), root, `${root}.messages.json`)));
    assert.equal(parent.info?.parent, undefined);
    assert.deepEqual(parent.writes ?? [], [], "the subagent's edit is not the parent's");
    assert.ok(parent.plans.length >= 3);
  });
});

describe('Cline follower over a data folder', () => {
  const tmp = useTempDir();

  it('follows the sessions and tasks of this workspace from both generations, each whole-file version once', async () => {
    const folder = path.join(tmp.path, 'data');
    for (const scenario of ['focus-chain', 'team-board', 'subagent']) fs.cpSync(data(scenario), folder, { recursive: true });
    const sink = new MemorySink();
    const workspaces = ['focus-chain', 'team-board', 'subagent'].map((s) => meta(s).workspace);
    const running = cline.start({ folder, workspaceFolders: workspaces, workspaceStorageFolder: undefined, storageDir: path.join(tmp.path, 'own'), sink, onUnknownShape: (f, s) => assert.fail(`${f}: ${s.detail}`), onError: (e) => assert.fail(String(e)), onPolling: () => undefined, pollMs: 0 });
    assert.ok(running);
    try {
      await running.refresh();
      const tools = new Set(sink.plans.map((p) => p.source.tool));
      assert.deepEqual([...tools].sort(), ['task_progress', 'team_task']);
      assert.ok(sink.infos.some((i) => i.parent !== undefined), 'the subagent is followed');
      const before = sink.plans.length;
      await running.refresh();
      assert.equal(sink.plans.length, before, 'an unchanged file is not read again');
      // Another workspace follows none of them.
      const other = new MemorySink();
      const elsewhere = cline.start({ folder, workspaceFolders: [path.join(tmp.path, 'elsewhere')], workspaceStorageFolder: undefined, storageDir: path.join(tmp.path, 'own2'), sink: other, onUnknownShape: () => undefined, onError: () => undefined, onPolling: () => undefined, pollMs: 0 });
      await elsewhere?.refresh();
      elsewhere?.dispose();
      assert.deepEqual(other.plans, []);
    } finally {
      running.dispose();
    }
  });

  it("a subagent's edit, with no board of its own, counts under the item its parent had in progress, marked as the subagent's", async () => {
    const folder = path.join(tmp.path, 'data');
    fs.cpSync(data('subagent'), folder, { recursive: true });
    const [root] = fs.readdirSync(path.join(folder, 'sessions'));
    assert.ok(root);
    const log = new SessionLog(path.join(tmp.path, 'logs'), new NodeFileSystem());
    const sink = new LogPlanSink(log);
    const running = cline.start({ folder, workspaceFolders: [meta('subagent').workspace], workspaceStorageFolder: undefined, storageDir: path.join(tmp.path, 'own'), sink, onUnknownShape: (f, s) => assert.fail(`${f}: ${s.detail}`), onError: (e) => assert.fail(String(e)), onPolling: () => undefined, pollMs: 0 });
    assert.ok(running);
    try {
      await running.refresh();
    } finally {
      running.dispose();
      sink.dispose();
    }
    const lines = fs
      .readFileSync(log.fileFor(foreignSessionKey('cline', root)), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Json)
      .filter((line) => line['type'] === 'file/write');
    assert.deepEqual(
      lines.map((line) => [(line['source'] as Json)['session'], line['files'], line['items'], line['subagent']]),
      [[`${root}__agent_1796523327422_i37xwo`, [path.join(meta('subagent').workspace, 'src', 'tokens.ts')], ['Hand the edit to a subagent'], true]],
    );
  });

  it('a version is parsed only when it nests at most 64 deep; its line breaks are blanked in place, strings passed over', async () => {
    const bytes = (text: string) => new TextEncoder().encode(text);
    const deep = (depth: number) => bytes(`${'['.repeat(depth)}${']'.repeat(depth)}`);
    assert.equal(MAX_SNAPSHOT_DEPTH, 64);
    assert.equal(await blankLinesWithinDepth(deep(64), 64), true);
    assert.equal(await blankLinesWithinDepth(deep(65), 64), false);
    const text = bytes('{\n  "a": "[[[[\\"{{",\r\n  "b": [[1]]\n}');
    assert.equal(await blankLinesWithinDepth(text, 3), true, 'brackets inside a string, after an escaped quote, do not count');
    assert.equal(new TextDecoder().decode(text), '{   "a": "[[[[\\"{{",    "b": [[1]] }');
    assert.equal(await blankLinesWithinDepth(bytes('{"b": [[[1]]]}'), 3), false);
  });

  it("also looks in the VS Code extension's global storage, beside this workspace's storage", () => {
    assert.equal(clineExtensionFolder(path.join('/u', 'User', 'workspaceStorage', 'abc')), path.join('/u', 'User', 'globalStorage', 'saoudrizwan.claude-dev'));
  });
});

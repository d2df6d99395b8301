// The Copilot follower end to end below the log: the shared follower reads the recorded chat
// session files from a workspace storage folder in a temp dir, as VS Code grows them, and
// hands each manage_todo_list call to the sink once: across appends, a restart, and the
// rewrite VS Code makes of a long log (the file shrinks to one kind 0 line).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { LogPlanSink } from '../../../src/core/log/planSink';
import { copilotSessionKey } from '../../../src/core/log/sessionKey';
import { SessionLog } from '../../../src/core/log/sessionLog';
import { Follower } from '../../../src/agents/follow/follower';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { firstChatRequest } from '../../unit/helpers';
import { locateCopilotChats } from '../../../src/agents/copilotChat/start';
import { copilotChatParserFactory, createCopilotChatParser } from '../../../src/agents/copilotChat';
import type { ForeignPlan, PlanSink, UnknownShape } from '../../../src/core/foreign';
import { MemorySink, rewrittenChatLog } from '../../unit/helpers';
import { buildLedger, type LedgerFigures } from '../../../src/core/derived/ledger';
import { parseLogRecord, type LogRecord } from '../../../src/core/log/logRecord';
import { useTempDir } from '../../lib/temp';

const FIXTURES = path.join(__dirname, 'recordings');
const CHATS = ['manage-todo-list', 'both-tools', 'titled'];

function recordedLines(name: string): string[] {
  const text = fs.readFileSync(path.join(FIXTURES, `${name}.jsonl`), 'utf8');
  return text.slice(0, -1).split('\n');
}
const uuidOf = (name: string): string =>
  (JSON.parse(fs.readFileSync(path.join(FIXTURES, 'manifest.json'), 'utf8')) as { chats: { file: string; uuid: string }[] }).chats.find(
    (c) => c.file === `${name}.jsonl`,
  )?.uuid ?? '';

describe('copilot chats through the follower', () => {
  const followers: Follower[] = [];
  // Registered before the temp folder's own clean-up, so no watcher is left over a folder being removed.
  afterEach(() => {
    for (const follower of followers.splice(0)) follower.dispose();
  });
  const tmp = useTempDir();

  function follower(storage: string, sink: PlanSink, unknown: UnknownShape[] = []): Follower {
    const made = new Follower({
      locator: locateCopilotChats(storage),
      createParser: copilotChatParserFactory(),
      parserVersion: 'copilot-test/1',
      sink,
      cursorDir: path.join(tmp.path, 'agent-plan-storage', 'cursors'),
      pollMs: 0,
      onUnknownShape: (_file, shape) => unknown.push(shape),
      onError: (error) => assert.fail(String(error)),
    });
    followers.push(made);
    return made;
  }

  it('follows every chat of the workspace as it grows, once per call, and survives a restart and a rewrite', async () => {
    const storage = path.join(tmp.path, 'workspaceStorage', 'abc123');
    const folder = path.join(storage, 'chatSessions');
    const sink = new MemorySink();
    const unknown: UnknownShape[] = [];

    // No folder yet (no chat in this workspace): nothing, no error. Stopped then, so its watch
    // does not read the chats below into the same sink as well.
    const none = follower(storage, sink, unknown);
    await none.refresh();
    assert.equal(sink.plans.length, 0);
    none.dispose();

    await fsp.mkdir(folder, { recursive: true });
    await fsp.writeFile(path.join(folder, 'notes.txt'), 'not a chat\n');
    const expected = new Map<string, ForeignPlan[]>();
    for (const name of CHATS) {
      const lines = recordedLines(name);
      expected.set(name, createCopilotChatParser().push(lines).plans);
      const half = Math.ceil(lines.length / 2);
      await fsp.writeFile(path.join(folder, `${uuidOf(name)}.jsonl`), lines.slice(0, half).join('\n') + '\n');
    }
    const first = follower(storage, sink, unknown);
    await first.refresh();
    assert.deepEqual(first.followedFiles().map((f) => path.basename(f)).sort(), CHATS.map((n) => `${uuidOf(n)}.jsonl`).sort());

    // VS Code appends the rest, the last line in two writes.
    for (const name of CHATS) {
      const lines = recordedLines(name);
      const half = Math.ceil(lines.length / 2);
      const rest = lines.slice(half).join('\n') + '\n';
      const file = path.join(folder, `${uuidOf(name)}.jsonl`);
      await fsp.appendFile(file, rest.slice(0, rest.length - 10));
      await first.refresh();
      await fsp.appendFile(file, rest.slice(rest.length - 10));
    }
    await first.refresh();
    const all = [...expected.values()].flat();
    const byCall = (plans: readonly ForeignPlan[]) => plans.map((p) => p.source.call).sort();
    assert.deepEqual(byCall(sink.plans), byCall(all));
    for (const name of CHATS) {
      const session = uuidOf(name);
      // Read in two halves, a superseded mark and a request's end may differ from one pass: compare without them.
      const plain = (plans: readonly ForeignPlan[] | undefined) => (plans ?? []).map((p) => ({ ...p, ranBy: undefined, source: { ...p.source, superseded: undefined } }));
      assert.deepEqual(plain(sink.plans.filter((p) => p.source.session === session)), plain(expected.get(name)), `${name}: in call order`);
    }
    assert.deepEqual(sink.latest(uuidOf('manage-todo-list'))?.latestTurn, { index: 1, planned: false });
    assert.deepEqual(sink.latest(uuidOf('both-tools')), {
      agent: 'copilot',
      session: uuidOf('both-tools'),
      title: 'Mirror fixture chat',
      request: firstChatRequest(fs.readFileSync(path.join(FIXTURES, 'both-tools.jsonl'), 'utf8').trimEnd().split('\n')),
      latestTurn: { index: 1, planned: true },
      participant: 'GitHub.copilot-chat',
      turn: { index: 1, state: 'ended' },
      calls: 0,
      pending: null,
    });
    first.dispose();

    // A restart: cursors saved in Agent Plan's storage; nothing is read twice.
    const count = sink.plans.length;
    const second = follower(storage, sink, unknown);
    await second.refresh();
    assert.equal(sink.plans.length, count);

    // VS Code rewrites a long log in place as one kind 0 line: shorter, the same inode.
    const name = 'manage-todo-list';
    const file = path.join(folder, `${uuidOf(name)}.jsonl`);
    const compact = rewrittenChatLog(recordedLines(name)) + '\n';
    assert.ok(Buffer.byteLength(compact) < (await fsp.stat(file)).size, 'the rewrite is shorter than the log it replaces');
    await fsp.writeFile(file, compact);
    await second.refresh();
    assert.equal(sink.plans.length, count, 'a rewrite re-emits no call');
    // Then the chat goes on: a new request with a new call comes through.
    const part = { kind: 'toolInvocationSerialized', toolId: 'manage_todo_list', toolCallId: 'call_after_rewrite', isConfirmed: { type: 1 }, toolSpecificData: { kind: 'todoList', todoList: [{ id: '1', title: 'After the rewrite', status: 'in-progress' }] } };
    await fsp.appendFile(file, JSON.stringify({ kind: 2, k: ['requests'], v: [{ requestId: 'r3', response: [part] }] }) + '\n');
    await second.refresh();
    assert.deepEqual(sink.plans.slice(count).map((p) => [p.source.call, p.source.turn, p.items]), [
      ['call_after_rewrite', 2, [{ content: 'After the rewrite', status: 'in_progress' }]],
    ]);
    assert.deepEqual(sink.latest(uuidOf(name))?.latestTurn, { index: 2, planned: true });
    assert.deepEqual(unknown, []);
  });
  it('the recorded chat with edits: one file/write line per edit, in the chat’s session log, given to the items in progress then', async () => {
    const storage = path.join(tmp.path, 'workspaceStorage', 'abc123');
    const folder = path.join(storage, 'chatSessions');
    await fsp.mkdir(folder, { recursive: true });
    const log = new SessionLog(path.join(tmp.path, 'sessions'), new NodeFileSystem());
    const sink = new LogPlanSink(log);
    const uuid = uuidOf('edits');
    const key = copilotSessionKey(uuid);
    const lines = recordedLines('edits');
    const file = path.join(folder, `${uuid}.jsonl`);
    const todoWrite = (status: [string, string]) => log.append(key, [{ content: 'Write the notes', status: status[0] }, { content: 'Update the readme', status: status[1] }] as never);
    // As it happened: todo_write saves its line when it runs; VS Code saves the chat a moment later.
    await todoWrite(['in_progress', 'pending']);
    const second = lines.findIndex((line) => /"toolId":"todo_write"[^]*t0s6c0/.test(line) || /t0s6c0[^]*"toolId":"todo_write"/.test(line));
    assert.ok(second > 0, 'the second todo_write call is in the recording');
    await fsp.writeFile(file, lines.slice(0, second).join('\n') + '\n');
    const reader = follower(storage, sink);
    await reader.refresh();
    await todoWrite(['completed', 'completed']);
    await fsp.appendFile(file, lines.slice(second).join('\n') + '\n');
    await reader.refresh();
    await reader.refresh();

    const records = fs.readFileSync(log.fileFor(key), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; source?: { call: string }; files?: string[]; items?: string[] });
    const writes = records.filter((record) => record.type === 'file/write');
    assert.deepEqual(
      writes.map((write) => [/t\d+s\d+c\d+$/.exec(write.source!.call)?.[0], write.files, write.items]),
      [
        ['t0s1c0', ['/WORKSPACE/notes.md'], ['Write the notes']],
        ['t0s2c0', ['/WORKSPACE/README.md'], ['Write the notes']],
        ['t0s4c0', ['/WORKSPACE/README.md'], ['Update the readme']],
        ['t0s5c0', ['/WORKSPACE/docs/CHANGES.md'], ['Update the readme']],
        ['t1s0c0', ['/WORKSPACE/README.md'], []],
      ],
    );
    // Read again from the start (another parser version): nothing is written twice.
    const again = new Follower({
      locator: locateCopilotChats(storage),
      createParser: copilotChatParserFactory(),
      parserVersion: 'copilot-test/2',
      sink,
      cursorDir: path.join(tmp.path, 'agent-plan-storage', 'cursors'),
      pollMs: 0,
      onError: (error) => assert.fail(String(error)),
    });
    followers.push(again);
    await again.refresh();
    assert.equal(fs.readFileSync(log.fileFor(key), 'utf8').trim().split('\n').length, records.length);
  });

  it('the recorded chat with edits: one model/usage line per model call, the ledger per item; a second follower over the same files and log adds nothing', async () => {
    const storage = path.join(tmp.path, 'workspaceStorage', 'abc123');
    const folder = path.join(storage, 'chatSessions');
    await fsp.mkdir(folder, { recursive: true });
    const log = new SessionLog(path.join(tmp.path, 'sessions'), new NodeFileSystem());
    const sink = new LogPlanSink(log);
    const uuid = uuidOf('edits');
    const key = copilotSessionKey(uuid);
    const lines = recordedLines('edits');
    const file = path.join(folder, `${uuid}.jsonl`);
    const todoWrite = (status: [string, string]) => log.append(key, [{ content: 'Write the notes', status: status[0] }, { content: 'Update the readme', status: status[1] }] as never);
    await todoWrite(['in_progress', 'pending']);
    const second = lines.findIndex((line) => /"toolId":"todo_write"[^]*t0s6c0/.test(line) || /t0s6c0[^]*"toolId":"todo_write"/.test(line));
    assert.ok(second > 0, 'the second todo_write call is in the recording');
    await fsp.writeFile(file, lines.slice(0, second).join('\n') + '\n');
    const reader = follower(storage, sink);
    await reader.refresh();
    await todoWrite(['completed', 'completed']);
    await fsp.appendFile(file, lines.slice(second).join('\n') + '\n');
    await reader.refresh();
    await reader.refresh();

    const read = (): LogRecord[] =>
      fs
        .readFileSync(log.fileFor(key), 'utf8')
        .trim()
        .split('\n')
        .map((line) => parseLogRecord(JSON.parse(line) as Record<string, unknown>, key))
        .filter((record): record is LogRecord => typeof record !== 'string');
    const records = read();
    // The script: the first request makes 8 model calls (a todo_write, three calls under
    // "Write the notes", three under "Update the readme", the answer), the second 2 (an edit
    // with no item in progress, the answer). The scripted model answers step s of a request
    // with 10 + s prompt and 20 output tokens; the file keeps the last call's of each request.
    const usage = records.filter((record) => record.type === 'model/usage');
    assert.equal(usage.length, 10, 'one line per model call');
    const f = (responses: number, calls: number, tokens?: [number, number]): LedgerFigures => ({ responses, calls, tokens: tokens && { input: tokens[0], output: tokens[1], cached: 0 }, cost: undefined });
    const ledger = buildLedger(records);
    const item = (content: string) => ledger.items.find((i) => i.content === content);
    assert.deepEqual(item('Write the notes')?.all, f(3, 3), 'its calls; the tokens of those model calls are not recorded');
    assert.deepEqual(item('Update the readme')?.all, f(3, 3));
    assert.equal(item('Write the notes')?.shared.responses, 0);
    assert.deepEqual(ledger.session, f(4, 2, [10 + 7 + 10 + 1, 20 + 20]));
    assert.deepEqual(ledger.total, f(10, 8, [28, 40]));

    // A restart: another follower, reading the same chat file from the start into the same log.
    const again = new Follower({
      locator: locateCopilotChats(storage),
      createParser: copilotChatParserFactory(),
      parserVersion: 'copilot-test/2',
      sink: new LogPlanSink(new SessionLog(path.join(tmp.path, 'sessions'), new NodeFileSystem())),
      cursorDir: path.join(tmp.path, 'agent-plan-storage', 'cursors-2'),
      pollMs: 0,
      onError: (error) => assert.fail(String(error)),
    });
    followers.push(again);
    await again.refresh();
    assert.deepEqual(read(), records, 'no usage counted twice');
    assert.deepEqual(buildLedger(read()), ledger);
  });
});

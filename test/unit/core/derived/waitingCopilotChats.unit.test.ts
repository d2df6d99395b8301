// Waiting on a tool call in Copilot's VS Code chats, over chat session files the real host
// wrote (test/agents/copilotChat/recordings, scripts/record-copilot-chats.mjs): a terminal
// command with auto-approve off, left at its confirmation (wait-left) or allowed and run
// (wait-confirmed).
// Each recording is replayed line by line through the real parser, the log's import side, the
// log, the health book and the Needs You queue, with a clock the test moves.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_HEALTH_SETTINGS } from '../../../../src/core/derived/health';
import { signalText, signalWord } from '../../../../src/core/derived/healthText';
import { needsYouReason } from '../../../../src/core/derived/needsYouText';
import { formatOnly } from '../../../../src/core/plan/present';
import { createCopilotChatParser } from '../../../../src/agents/copilotChat';
import { Replay } from '../../replay';
import { useTempDir } from '../../../lib/temp';

const FIXTURES = path.join(__dirname, '..', '..', '..', 'agents', 'copilotChat', 'recordings');
const WAIT_MS = DEFAULT_HEALTH_SETTINGS.waitSeconds * 1000;

function chatLines(name: string): string[] {
  return fs.readFileSync(path.join(FIXTURES, `${name}.jsonl`), 'utf8').trimEnd().split('\n');
}

/**
 * The response parts a line sends: pushed on a response, in the requests it pushes, or in the
 * whole chat of a kind 0 line (VS Code saves any of these ways, as its timing falls).
 */
function partsOf(line: string): Array<Record<string, unknown>> {
  const record = JSON.parse(line) as { kind: number; k?: unknown[]; v?: unknown };
  const responses = (requests: unknown): Array<Record<string, unknown>> =>
    Array.isArray(requests) ? (requests as Array<Record<string, unknown>>).flatMap((request) => (Array.isArray(request['response']) ? (request['response'] as Array<Record<string, unknown>>) : [])) : [];
  if (record.kind === 0) return responses((record.v as { requests?: unknown } | undefined)?.requests);
  if (record.kind !== 2 || !Array.isArray(record.v)) return [];
  if (record.k?.length === 1 && record.k[0] === 'requests') return responses(record.v);
  return record.k?.at(-1) === 'response' ? (record.v as Array<Record<string, unknown>>) : [];
}

/** The first line that sends the run_in_terminal part as `confirmed` says (set or not). */
function terminalPartLine(lines: readonly string[], confirmed: boolean): number {
  const at = lines.findIndex((line) => partsOf(line).some((part) => part['toolId'] === 'run_in_terminal' && (part['isConfirmed'] !== undefined) === confirmed));
  assert.ok(at >= 0, `no run_in_terminal part ${confirmed ? 'with' : 'without'} isConfirmed`);
  return at;
}

/** The Needs You queue as [session, kind, approval]. */
function queued(r: Replay): Array<[string, string, boolean | undefined]> {
  return r.needs.queue().map(({ session, signal }) => [session, signal.kind, signal.wait?.approval]);
}

/** A chat replayed from its first line: every line read, on a clock of its own. */
function replay(dir: string): Replay {
  return new Replay(dir, createCopilotChatParser(), { start: Date.UTC(2026, 11, 5, 9, 0, 0), everyLine: true });
}

describe('waiting on a tool call in Copilot’s VS Code chats, over files of the real host', () => {
  const tmp = useTempDir();

  it('a terminal command left at its confirmation (auto-approve off): waiting for your approval once 30 s have passed, first in the Needs You queue', async () => {
    const lines = chatLines('wait-left');
    const asked = terminalPartLine(lines, false);
    const r = replay(tmp.path);
    await r.push(lines.slice(0, asked));
    if (asked > 0) {
      // (VS Code may save the call in the chat's first line; then there is no before.)
      r.wait(10 * WAIT_MS);
      assert.deepEqual(r.waits(), [], 'before the call is in the file, nothing waits');
    }
    await r.push(lines.slice(asked, asked + 1));
    const seen = r.clock.now;
    await r.push(lines.slice(asked + 1));
    assert.deepEqual(r.waits(), [], 'not before waitSeconds');
    assert.deepEqual(queued(r), []);
    assert.equal(r.book.nextCheck(), seen + WAIT_MS, 'the one time the book looks again: the wait deadline');
    r.wait(seen + WAIT_MS - r.clock.now);
    const [wait] = r.waits();
    assert.deepEqual(wait?.wait, { tool: 'run_in_terminal', approval: true });
    assert.equal(r.book.signals(r.key!)[0]?.kind, 'waiting', 'the most urgent signal');
    assert.equal(signalWord(wait, formatOnly), 'waiting for your approval');
    assert.deepEqual(queued(r), [[r.key, 'waiting', true]]);
    assert.equal(needsYouReason(r.needs.get(r.key!)!.signal, formatOnly), 'waiting for your approval');
    r.wait(seen + 120_000 - r.clock.now);
    assert.equal(signalText(r.waits()[0] ?? wait, new Date(r.clock.now), formatOnly), 'Waiting for your approval of run_in_terminal for 2 min');
  });

  it('the same prompt allowed: the approval wait clears; the command running reads "waiting on run_in_terminal"; its exit and the request’s end clear it', async () => {
    const lines = chatLines('wait-confirmed');
    const asked = terminalPartLine(lines, false);
    const allowed = terminalPartLine(lines, true);
    assert.ok(asked < allowed);
    const r = replay(tmp.path);
    await r.push(lines.slice(0, asked + 1));
    r.wait(WAIT_MS);
    assert.deepEqual(r.waits().map((s) => s.wait), [{ tool: 'run_in_terminal', approval: true }]);
    assert.deepEqual(queued(r), [[r.key, 'waiting', true]]);
    // Allowed: the request runs again (modelState 0), then the part comes with isConfirmed while the command runs.
    await r.push(lines.slice(asked + 1, allowed));
    assert.deepEqual(r.waits(), [], 'no longer asking');
    assert.deepEqual(queued(r), []);
    await r.push(lines.slice(allowed, allowed + 1));
    r.wait(WAIT_MS);
    const [running] = r.waits();
    assert.deepEqual(running?.wait, { tool: 'run_in_terminal', approval: false });
    assert.equal(signalWord(running, formatOnly), 'waiting on run_in_terminal');
    assert.deepEqual(queued(r), [[r.key, 'waiting', false]]);
    // The part sent again once the command exited (its terminalCommandState has an exitCode); the request still runs.
    const exited = lines.findIndex((line, n) => n > allowed && line.includes('"toolId":"run_in_terminal"') && line.includes('"exitCode":0'));
    assert.ok(exited > allowed);
    await r.push(lines.slice(allowed + 1, exited + 1));
    assert.deepEqual(r.waits(), [], 'the command exited');
    assert.equal(createCopilotChatParser().push(lines.slice(0, exited + 1)).info?.turn?.state, 'running', 'while the request goes on');
    await r.push(lines.slice(exited + 1));
    assert.deepEqual(r.waits(), [], 'the request completed');
    assert.deepEqual(queued(r), []);
    r.wait(3_600_000);
    assert.deepEqual(r.waits(), [], 'and none later');
  });

  it('a prompt not answered, the user sending a new request instead: VS Code cancels the request (modelState 2) and the wait clears', async () => {
    const lines = chatLines('wait-moved-on');
    const asked = terminalPartLine(lines, false);
    const r = replay(tmp.path);
    await r.push(lines.slice(0, asked + 1));
    r.wait(WAIT_MS);
    assert.deepEqual(r.waits().map((s) => s.wait), [{ tool: 'run_in_terminal', approval: true }]);
    const cancelled = lines.findIndex((line, n) => n > asked && line.startsWith('{"kind":1,"k":["requests",0,"modelState"],"v":{"value":2'));
    assert.ok(cancelled > asked, 'VS Code records the request cancelled');
    await r.push(lines.slice(asked + 1, cancelled + 1));
    assert.deepEqual(r.waits(), [], 'its request is over: nothing waits');
    assert.deepEqual(queued(r), [[r.key, 'stopped-open', undefined]], 'the queue holds it for its open item instead');
    assert.equal(needsYouReason(r.needs.get(r.key!)!.signal, formatOnly), 'cancelled with 1 item open');
    await r.push(lines.slice(cancelled + 1));
    r.wait(3_600_000);
    assert.deepEqual(r.waits(), [], 'the new request waits on nothing');
  });

  it('the recorded chats that complete show no wait at any line, however long after (no false alarm)', async () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'manifest.json'), 'utf8')) as { chats: Array<{ file: string }> };
    const names = manifest.chats.map((chat) => chat.file.replace(/\.jsonl$/, '')).filter((name) => !name.startsWith('wait-'));
    assert.ok(names.length >= 7, names.join());
    for (const name of names) {
      const lines = chatLines(name);
      const parser = createCopilotChatParser();
      lines.forEach((line, n) => assert.equal(parser.push([line]).info?.pending ?? null, null, `${name}, line ${n}`));
      const r = replay(path.join(tmp.path, name));
      await r.push(lines);
      r.wait(3_600_000);
      assert.deepEqual(r.waits(), [], name);
      assert.ok(queued(r).every(([, kind]) => kind !== 'waiting'), name);
    }
  });
});

// Waiting on a tool call, over runs of the real programs (test/agents/<agent>/recordings): each
// recording is replayed line by line through the real parser, the log's import side, the log and
// the health book, with a clock the test moves. A run left at an approval prompt shows the wait
// once agentPlan.health.waitSeconds has passed; the same run answered clears it; a run that
// completes shows no wait however long after. opencode's and Kilo CLI's recordings are SQLite
// databases, read with node:sqlite: their tests are in test/agents/opencode/opencode.unit.test.ts.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { DEFAULT_HEALTH_SETTINGS, type HealthSignal } from '../../../../src/core/derived/health';
import { signalText, signalWord } from '../../../../src/core/derived/healthText';
import { formatOnly } from '../../../../src/core/plan/present';
import { createClaudeCodeParser } from '../../../../src/agents/claudeCode';
import { createCodexParser } from '../../../../src/agents/codex';
import { createCopilotCliParser } from '../../../../src/agents/copilotCli';
import { createQwenCodeParser } from '../../../../src/agents/qwenCode/parser';
import type { SessionParser } from '../../../../src/core/foreign';
import { findLine, recordedLines, recording } from '../../agentRecordings';
import { Replay } from '../../replay';
import { useTempDir } from '../../../lib/temp';

const WAIT_MS = DEFAULT_HEALTH_SETTINGS.waitSeconds * 1000;

/** Index of the first recorded line whose JSON has `type` (and passes `test`, if given). */
function typedLine(lines: readonly string[], type: string, test: (data: Record<string, unknown>) => boolean = () => true): number {
  return findLine(lines, (value) => value['type'] === type && test((value['data'] ?? {}) as Record<string, unknown>));
}

/** Index of the Qwen Code assistant record that calls `tool` (a functionCall part). */
function qwenCallLine(lines: readonly string[], tool: string): number {
  return findLine(lines, (value) => value['type'] === 'assistant' && ((value['message'] as { parts?: Array<{ functionCall?: { name?: string } }> } | undefined)?.parts ?? []).some((part) => part.functionCall?.name === tool));
}

const waits = (signals: readonly HealthSignal[]) => signals.filter((signal) => signal.kind === 'waiting');

/** Index of the line that starts the recorded call of `tool` (a Claude tool_use, a Codex function_call). */
function callLine(lines: readonly string[], tool: string): number {
  return findLine(lines, (value) => {
    const message = value['message'] as { content?: Array<{ type?: string; name?: string }> } | undefined;
    const payload = value['payload'] as { type?: string; name?: string } | undefined;
    return (message?.content ?? []).some((block) => block.type === 'tool_use' && block.name === tool) || (payload?.type === 'function_call' && payload.name === tool);
  });
}

describe('waiting on a tool call, over recordings of the real programs', () => {
  const tmp = useTempDir();

  it('Claude Code left at its approval prompt (interactive, no auto-approve): waiting on Bash once 30 s have passed, one check at that time', async () => {
    const rec = recording('claude-code', 'approval-left');
    const lines = recordedLines(rec);
    const r = new Replay(tmp.path, createClaudeCodeParser({ workspaceFolders: [rec.workspace] }));
    const call = callLine(lines, 'Bash');
    await r.push(lines.slice(0, call + 1));
    const seen = r.clock.now;
    await r.push(lines.slice(call + 1));
    assert.deepEqual(waits(r.signals()), [], 'not before waitSeconds');
    assert.equal(r.book.nextCheck(), seen + WAIT_MS, 'the one time the book looks again: the wait deadline');
    r.wait(WAIT_MS);
    const [wait] = waits(r.signals());
    assert.deepEqual(wait?.wait, { tool: 'Bash', approval: false }, 'Claude Code records nothing that tells the prompt apart');
    assert.equal(r.signals()[0]?.kind, 'waiting', 'the most urgent signal');
    assert.equal(signalWord(wait, formatOnly), 'waiting on Bash');
    r.wait(90_000);
    assert.equal(signalText(waits(r.signals())[0] ?? wait, new Date(r.clock.now), formatOnly), 'Waiting on Bash for 2 min');
    assert.equal(r.book.nextCheck(), undefined, 'waiting already, nothing else on the clock: no timer');
  });

  it('Claude Code answered at the prompt: the wait shows while it waits and clears when the call completes', async () => {
    const rec = recording('claude-code', 'approval-given');
    const lines = recordedLines(rec);
    const r = new Replay(tmp.path, createClaudeCodeParser({ workspaceFolders: [rec.workspace] }));
    const call = callLine(lines, 'Bash');
    await r.push(lines.slice(0, call + 1));
    r.wait(WAIT_MS);
    assert.deepEqual(waits(r.signals()).map((s) => s.wait?.tool), ['Bash']);
    await r.push(lines.slice(call + 1));
    assert.deepEqual(waits(r.signals()), [], 'its result came: no wait');
    r.wait(3_600_000);
    assert.deepEqual(waits(r.signals()), [], 'and none later');
  });

  it('Codex left at its approval prompt (interactive, on-request, a command asking to leave the sandbox): waiting for your approval', async () => {
    const rec = recording('codex', 'approval-left');
    const lines = recordedLines(rec);
    const r = new Replay(tmp.path, createCodexParser());
    await r.push(lines);
    assert.deepEqual(waits(r.signals()), [], 'not before waitSeconds');
    r.wait(WAIT_MS + lines.length * 1000);
    const [wait] = waits(r.signals());
    assert.deepEqual(wait?.wait, { tool: 'exec_command', approval: true });
    assert.equal(signalWord(wait, formatOnly), 'waiting for your approval');
    assert.match(signalText(wait, new Date(r.clock.now), formatOnly), /^Waiting for your approval of exec_command for \d+ s$/);
  });

  it('Codex answered at the prompt: the wait clears when the command completes; a command that runs without asking is no approval', async () => {
    const rec = recording('codex', 'approval-given');
    const lines = recordedLines(rec);
    const r = new Replay(tmp.path, createCodexParser());
    const call = callLine(lines, 'exec_command');
    await r.push(lines.slice(0, call + 1));
    r.wait(WAIT_MS);
    assert.deepEqual(waits(r.signals()).map((s) => s.wait), [{ tool: 'exec_command', approval: true }]);
    await r.push(lines.slice(call + 1));
    assert.deepEqual(waits(r.signals()), []);
    // The recorded `cat` of codex/no-plan, cut at its call: a command that runs, not an approval.
    const read = recordedLines(recording('codex', 'no-plan'));
    const readCall = callLine(read, 'exec_command');
    const parser = createCodexParser();
    const out = parser.push(read.slice(0, readCall + 1));
    assert.deepEqual(out.info?.pending, { tool: 'exec_command', call: 'call_scripted_001_0' });
    assert.equal(parser.push(read.slice(readCall + 1)).info?.pending, null, 'its output came');
  });

  it('Copilot CLI left at its approval prompt (interactive, without --allow-all-tools, killed): waiting for your approval from its permission.requested, in health and the Needs you queue', async () => {
    const rec = recording('copilot-cli', 'approval-left');
    const lines = recordedLines(rec);
    const asked = typedLine(lines, 'permission.requested');
    const bash = typedLine(lines, 'tool.execution_start', (data) => data['toolName'] === 'bash');
    const call = (JSON.parse(lines[bash] ?? '{}') as { data: { toolCallId: string } }).data.toolCallId;
    // Before its prompt the call reads as a running tool; the prompt's event makes it an approval.
    const parser = createCopilotCliParser();
    assert.deepEqual(parser.push(lines.slice(0, asked)).info?.pending, { tool: 'bash', call });
    assert.deepEqual(parser.push([lines[asked] ?? '']).info?.pending, { tool: 'bash', call, approval: true });
    assert.equal(asked, lines.length - 1, 'killed at its prompt: nothing after the request (no permission.completed, no session.shutdown)');

    const r = new Replay(tmp.path, createCopilotCliParser());
    await r.push(lines.slice(0, asked + 1));
    const seen = r.clock.now;
    await r.push(lines.slice(asked + 1));
    assert.deepEqual(waits(r.signals()), [], 'not before waitSeconds');
    assert.equal(r.needsYou(), undefined, 'nor in the Needs you queue');
    assert.equal(r.book.nextCheck(), seen + WAIT_MS, 'the wait is timed from the prompt');
    r.wait(WAIT_MS);
    const [wait] = waits(r.signals());
    assert.deepEqual(wait?.wait, { tool: 'bash', approval: true });
    assert.equal(r.signals()[0]?.kind, 'waiting', 'the most urgent signal');
    assert.equal(signalWord(wait, formatOnly), 'waiting for your approval');
    r.wait(90_000);
    assert.equal(signalText(waits(r.signals())[0] ?? wait, new Date(r.clock.now), formatOnly), 'Waiting for your approval of bash for 2 min');
    assert.equal(r.needsYou(), 'waiting for your approval');
  });

  it('Copilot CLI answered at the prompt: waiting for your approval until permission.completed, then no wait once the command completes', async () => {
    const rec = recording('copilot-cli', 'approval-given');
    const lines = recordedLines(rec);
    const asked = typedLine(lines, 'permission.requested');
    const answered = typedLine(lines, 'permission.completed');
    const r = new Replay(tmp.path, createCopilotCliParser());
    await r.push(lines.slice(0, asked + 1));
    r.wait(WAIT_MS);
    assert.deepEqual(waits(r.signals()).map((s) => s.wait), [{ tool: 'bash', approval: true }]);
    assert.equal(r.needsYou(), 'waiting for your approval');
    // Answered: the call runs, no longer an approval (and not yet a wait of its own).
    await r.push(lines.slice(asked + 1, answered + 1));
    assert.deepEqual(waits(r.signals()), [], 'answered: no approval waits');
    assert.notEqual(r.needsYou(), 'waiting for your approval');
    await r.push(lines.slice(answered + 1));
    r.wait(3_600_000);
    assert.deepEqual(waits(r.signals()), [], 'the command completed: no wait, however long after');
    assert.notEqual(r.needs.get(r.key ?? '')?.signal.kind, 'waiting', 'the Needs you queue holds no wait of it');
  });

  it('Copilot CLI resumed from its saved state (a restart) between the prompt and its answer: still waiting for approval, and the answer read after the restart ends it', () => {
    const lines = recordedLines(recording('copilot-cli', 'approval-given'));
    const asked = typedLine(lines, 'permission.requested');
    const answered = typedLine(lines, 'permission.completed');
    const head = createCopilotCliParser();
    const call = head.push(lines.slice(0, asked + 1)).info?.pending?.call;
    assert.ok(call !== undefined);
    const resumed = createCopilotCliParser(JSON.parse(JSON.stringify(head.state())));
    // The lines before the answer: nothing that names the call (the resumed parser keeps its wait).
    const before = resumed.push(lines.slice(asked + 1, answered)).info?.pending;
    assert.ok(before === undefined || JSON.stringify(before) === JSON.stringify({ tool: 'bash', call, approval: true }), JSON.stringify(before));
    assert.deepEqual(resumed.push([lines[answered] ?? '']).info?.pending, { tool: 'bash', call }, 'answered: it runs, no longer an approval');
    assert.equal(resumed.push(lines.slice(answered + 1)).info?.pending, null);
  });

  it('Qwen Code left at its approval prompt (interactive, --approval-mode default, killed): its record ends at the functionCall and tells no approval apart: waiting on run_shell_command', async () => {
    const rec = recording('qwen-code', 'approval-left');
    const lines = recordedLines(rec);
    const call = qwenCallLine(lines, 'run_shell_command');
    assert.equal(call, lines.length - 1, 'killed at its prompt: nothing after the call');
    const r = new Replay(tmp.path, createQwenCodeParser({ workspaceFolders: [rec.workspace] }));
    await r.push(lines.slice(0, call + 1));
    const seen = r.clock.now;
    assert.deepEqual(waits(r.signals()), [], 'not before waitSeconds');
    assert.equal(r.needsYou(), undefined);
    assert.equal(r.book.nextCheck(), seen + WAIT_MS);
    r.wait(WAIT_MS);
    const [wait] = waits(r.signals());
    assert.deepEqual(wait?.wait, { tool: 'run_shell_command', approval: false }, 'Qwen Code records nothing that tells the prompt apart');
    assert.equal(signalWord(wait, formatOnly), 'waiting on run_shell_command');
    r.wait(90_000);
    assert.equal(signalText(waits(r.signals())[0] ?? wait, new Date(r.clock.now), formatOnly), 'Waiting on run_shell_command for 2 min');
    assert.equal(r.needsYou(), 'waiting on run_shell_command');
  });

  it('Qwen Code answered at the prompt: the wait shows while it waits and clears with its tool_result', async () => {
    const rec = recording('qwen-code', 'approval-given');
    const lines = recordedLines(rec);
    const call = qwenCallLine(lines, 'run_shell_command');
    const r = new Replay(tmp.path, createQwenCodeParser({ workspaceFolders: [rec.workspace] }));
    await r.push(lines.slice(0, call + 1));
    r.wait(WAIT_MS);
    assert.deepEqual(waits(r.signals()).map((s) => s.wait), [{ tool: 'run_shell_command', approval: false }]);
    assert.equal(r.needsYou(), 'waiting on run_shell_command');
    await r.push(lines.slice(call + 1));
    assert.deepEqual(waits(r.signals()), [], 'its result came: no wait');
    r.wait(3_600_000);
    assert.deepEqual(waits(r.signals()), [], 'and none later');
    assert.notEqual(r.needs.get(r.key ?? '')?.signal.kind, 'waiting', 'the Needs you queue holds no wait of it');
  });

  it('Copilot CLI with --allow-all-tools: a real run cut after the model asked for a tool waits on it; its completion and a whole run leave none', () => {
    for (const name of ['no-plan', 'edits', 'sql-todos']) {
      const lines = recordedLines(recording('copilot-cli', name));
      const asked = findLine(lines, (value) => value['type'] === 'assistant.message' && Array.isArray((value['data'] as { toolRequests?: unknown[] }).toolRequests) && ((value['data'] as { toolRequests: unknown[] }).toolRequests.length > 0));
      const first = JSON.parse(lines[asked] ?? '{}') as { data: { toolRequests: Array<{ toolCallId: string; name: string }> } };
      const request = first.data.toolRequests[0];
      const parser = createCopilotCliParser();
      assert.deepEqual(parser.push(lines.slice(0, asked + 1)).info?.pending, { tool: request?.name, call: request?.toolCallId }, name);
      const done = findLine(lines, (value) => value['type'] === 'tool.execution_complete' && (value['data'] as { toolCallId?: string }).toolCallId === request?.toolCallId);
      let pending: unknown = 'unchanged';
      for (let i = asked + 1; i <= done; i++) {
        const info = parser.push([lines[i] ?? '']).info;
        if (info) pending = info.pending;
      }
      assert.ok(pending === null || (pending as { call?: string }).call !== request?.toolCallId, `${name}: its completion ends the wait (${JSON.stringify(pending)})`);
      const whole = createCopilotCliParser();
      assert.equal(whole.push(lines).info?.pending, null, `${name}: a whole run leaves no call waiting`);
    }
  });

  it('Qwen Code with --yolo: a real run cut after a functionCall waits on it; its tool_result and a whole run leave none', () => {
    for (const name of ['no-plan', 'edits', 'todo-write']) {
      const rec = recording('qwen-code', name);
      const lines = recordedLines(rec);
      const asked = findLine(lines, (value) => value['type'] === 'assistant' && JSON.stringify(value['message'] ?? {}).includes('"functionCall"'));
      const parts = (JSON.parse(lines[asked] ?? '{}') as { message: { parts: Array<{ functionCall?: { id: string; name: string } }> } }).message.parts;
      const call = parts.find((part) => part.functionCall !== undefined)?.functionCall;
      const parser = createQwenCodeParser({ workspaceFolders: [rec.workspace] });
      assert.deepEqual(parser.push(lines.slice(0, asked + 1)).info?.pending, { tool: call?.name, call: call?.id }, name);
      const result = findLine(lines, (value) => value['type'] === 'tool_result' && (value['toolCallResult'] as { callId?: string } | undefined)?.callId === call?.id);
      assert.notDeepEqual(parser.push(lines.slice(asked + 1, result + 1)).info?.pending, { tool: call?.name, call: call?.id }, `${name}: its result ends the wait`);
      assert.equal(createQwenCodeParser({ workspaceFolders: [rec.workspace] }).push(lines).info?.pending, null, `${name}: a whole run leaves no call waiting`);
    }
  });

  it('runs that complete show no wait, however long after (no false alarm)', async () => {
    const runs = [
      ...['todowrite', 'tasks', 'no-plan', 'edits', 'health-done', 'health-stall'].map((name) => ({ agent: 'claude-code' as const, name })),
      ...['update-plan', 'no-plan', 'edits', 'health-done', 'health-stall'].map((name) => ({ agent: 'codex' as const, name })),
      ...['todo-write', 'no-plan', 'edits', 'approval-given'].map((name) => ({ agent: 'qwen-code' as const, name })),
      ...['sql-todos', 'no-plan', 'edits', 'approval-given'].map((name) => ({ agent: 'copilot-cli' as const, name })),
    ];
    const parserOf = (agent: (typeof runs)[number]['agent'], workspace: string): SessionParser =>
      agent === 'claude-code' ? createClaudeCodeParser({ workspaceFolders: [workspace] }) : agent === 'codex' ? createCodexParser() : agent === 'qwen-code' ? createQwenCodeParser({ workspaceFolders: [workspace] }) : createCopilotCliParser();
    const checked = new Set<string>();
    for (const { agent, name } of runs) {
      const rec = recording(agent, name);
      const r = new Replay(path.join(tmp.path, `${agent}-${name}`), parserOf(agent, rec.workspace));
      await r.push(recordedLines(rec));
      if (r.key === undefined) continue; // a run that never planned writes no session/info
      r.wait(3_600_000);
      assert.deepEqual(waits(r.signals()), [], `${agent}/${name}`);
      assert.notEqual(r.needs.get(r.key)?.signal.kind, 'waiting', `${agent}/${name}: not in the Needs you queue for a wait`);
      checked.add(agent);
    }
    assert.deepEqual([...checked].sort(), ['claude-code', 'codex', 'copilot-cli', 'qwen-code'], 'every agent had runs to check');
  });
});

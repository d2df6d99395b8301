// A session is named by what the user asked: each agent's parser hands the text of the
// session's first request as `request`, read from the real program's own record. The
// expected text is the prompt each recorded run was given on its command line (meta.json),
// or the first request of a recorded VS Code chat, never the parser's own reading.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createClaudeCodeParser } from '../../../src/agents/claudeCode';
import { createCodexParser } from '../../../src/agents/codex';
import { createCopilotChatParser } from '../../../src/agents/copilotChat';
import { createCopilotCliParser } from '../../../src/agents/copilotCli/parser';
import { createGeminiCliParser } from '../../../src/agents/geminiCli';
import { createQwenCodeParser } from '../../../src/agents/qwenCode/parser';
import { sessionInfo } from '../../../src/agents/opencode/opencodeParser';
import type { SessionParser } from '../../../src/core/foreign';
import { MAX_SESSION_REQUEST_LENGTH } from '../../../src/core/log/logRecord';
import { recordedLines, recording, type Recording } from '../agentRecordings';
import { firstChatRequest } from '../helpers';

type Agent = 'claude-code' | 'codex' | 'gemini-cli' | 'qwen-code' | 'copilot-cli';
const SCENARIOS: Record<Agent, string[]> = {
  'claude-code': ['tasks', 'todowrite', 'no-plan', 'edits', 'health-done', 'health-stall'],
  codex: ['update-plan', 'no-plan', 'edits', 'health-done'],
  'gemini-cli': ['write-todos', 'no-plan', 'edits', 'health-done'],
  'qwen-code': ['todo-write', 'no-plan', 'edits'],
  'copilot-cli': ['sql-todos', 'no-plan', 'edits'],
};

function parserFor(agent: Agent, rec: Recording, state?: unknown): SessionParser {
  const workspaceFolders = [rec.workspace];
  switch (agent) {
    case 'claude-code':
      return createClaudeCodeParser({ workspaceFolders }, state);
    case 'codex':
      return createCodexParser(state);
    case 'gemini-cli':
      return createGeminiCliParser({ workspaceFolders }, state);
    case 'qwen-code':
      return createQwenCodeParser({ workspaceFolders }, state);
    case 'copilot-cli':
      return createCopilotCliParser(state);
  }
}

/** The newest info a parser handed while reading `lines`, in batches of `size`. */
function lastInfo(parser: SessionParser, lines: readonly string[], size = lines.length): ReturnType<SessionParser['push']>['info'] {
  let info;
  for (let at = 0; at < lines.length; at += size) info = parser.push(lines.slice(at, at + size)).info ?? info;
  return info;
}

describe('a session is named by its first request, over the real programs’ records', () => {
  for (const [agent, scenarios] of Object.entries(SCENARIOS) as [Agent, string[]][]) {
    for (const scenario of scenarios) {
      it(`${agent}/${scenario}: the prompt the run was given, nothing the program added to it`, () => {
        const rec = recording(agent, scenario);
        const lines = recordedLines(rec);
        const info = lastInfo(parserFor(agent, rec), lines);
        assert.equal(info?.request, rec.prompt);
        // Resumed from its state half way, the parser still has it.
        const half = Math.floor(lines.length / 2);
        const first = parserFor(agent, rec);
        first.push(lines.slice(0, half));
        const resumed = parserFor(agent, rec, JSON.parse(JSON.stringify(first.state())));
        resumed.push(lines.slice(half));
        assert.equal((resumed.state() as { request?: string }).request, rec.prompt);
      });
    }
  }

  it('a later prompt does not rename the session; a long one is one bounded line', () => {
    const rec = recording('claude-code', 'tasks');
    const lines = recordedLines(rec);
    const parser = parserFor('claude-code', rec);
    parser.push(lines);
    const later = JSON.parse(lines.find((line) => JSON.parse(line).type === 'user')!) as Record<string, unknown>;
    parser.push([JSON.stringify({ ...later, uuid: 'later', message: { role: 'user', content: 'Now something else' } })]);
    assert.equal((parser.state() as { request?: string }).request, rec.prompt);

    const long = `${'Make the toggle remember the choice '.repeat(10)}\nand test it`;
    const fresh = parserFor('claude-code', rec);
    const first = lines.findIndex((line) => JSON.parse(line).type === 'user');
    const edited = lines.map((line, i) => (i === first ? JSON.stringify({ ...JSON.parse(line), message: { role: 'user', content: long } }) : line));
    const request = lastInfo(fresh, edited)?.request ?? '';
    assert.equal(request.length, MAX_SESSION_REQUEST_LENGTH);
    assert.ok(request.endsWith('…') && !/[\r\n]/.test(request));
    assert.ok(long.replace(/\s+/g, ' ').startsWith(request.slice(0, -1)));
  });

  it('Claude Code: a command wrapper or a meta line before the prompt is no request', () => {
    const rec = recording('claude-code', 'todowrite');
    const lines = recordedLines(rec);
    const first = lines.findIndex((line) => JSON.parse(line).type === 'user');
    const user = JSON.parse(lines[first]!) as Record<string, unknown>;
    const wrapper = JSON.stringify({ ...user, uuid: 'w', message: { role: 'user', content: '<command-name>/clear</command-name>' } });
    const meta = JSON.stringify({ ...user, uuid: 'm', isMeta: true, message: { role: 'user', content: 'Caveat: the messages below were generated by the user' } });
    const info = lastInfo(parserFor('claude-code', rec), [...lines.slice(0, first), wrapper, meta, ...lines.slice(first)]);
    assert.equal(info?.request, rec.prompt);
  });
});

describe('a VS Code chat is named by its first request', () => {
  const FIXTURES = path.join(__dirname, '..', '..', 'agents', 'copilotChat', 'recordings');
  const read = (name: string): string[] => fs.readFileSync(path.join(FIXTURES, `${name}.jsonl`), 'utf8').trimEnd().split('\n');
  const firstMessage = firstChatRequest;

  for (const name of ['manage-todo-list', 'both-tools', 'titled', 'edits']) {
    it(`${name}: the first request's text`, () => {
      const lines = read(name);
      const info = createCopilotChatParser().push(lines).info;
      assert.equal(info?.request, firstMessage(lines));
    });
  }

  it('a request to a participant is named without the participant it was addressed to', () => {
    const lines = read('manage-todo-list');
    const text = firstMessage(lines);
    let done = false;
    const addressed = lines.map((line) => {
      const entry = JSON.parse(line) as { kind: number; k?: unknown[]; v?: unknown };
      const requests = entry.kind === 0 ? (entry.v as { requests: Record<string, unknown>[] }).requests : entry.kind === 2 && entry.k?.length === 1 && entry.k[0] === 'requests' ? (entry.v as Record<string, unknown>[]) : [];
      const first = requests[0];
      if (done || first === undefined) return line;
      done = true;
      first['message'] = {
        text: `@demo ${text}`,
        parts: [
          { kind: 'agent', text: '@demo', range: { start: 0, endExclusive: 5 } },
          { kind: 'text', text: ` ${text}`, range: { start: 5, endExclusive: 6 + text.length } },
        ],
      };
      return JSON.stringify(entry);
    });
    assert.ok(done);
    assert.equal(createCopilotChatParser().push(addressed).info?.request, text.trim());
  });
});

describe('opencode and Kilo CLI: the session row\'s title', () => {
  it('is the name once one is made; the default "New session - <time>" they start with is none', () => {
    // Row shapes as the recorded databases hold them (test/agents/kilo/recordings/*/…/kilo.db: the
    // run ended before Kilo CLI made a title; opencode's recordings have "Fix the parser").
    const row = (title: string) => ({ id: 'ses_1', directory: '/work/demo', title, time_updated: 0 });
    assert.equal(sessionInfo('kilo', row('New session - 2026-12-03T14:05:12.359Z')).title, undefined);
    assert.equal(sessionInfo('opencode', row('Child session - 2026-12-03T14:05:12.359Z')).title, undefined);
    assert.equal(sessionInfo('opencode', row(' Fix the parser ')).title, 'Fix the parser');
    assert.equal(sessionInfo('kilo', row('New session - the plan')).title, 'New session - the plan');
  });
});

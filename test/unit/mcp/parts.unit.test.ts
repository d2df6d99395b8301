// The MCP server's pure parts: the command line, the bounded line reader, the guard every
// line passes, what a call says about its session, and the roots it records.
import * as assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { ERRORS } from '../../../src/core/plan/validate';
import { boundedText, envSession, metaCallId, metaSession } from '../../../src/mcp/callFacts';
import { guardLine } from '../../../src/mcp/jsonRpcGuard';
import { BoundedLineReader, type LineEvent } from '../../../src/mcp/lineReader';
import { parseOptions } from '../../../src/mcp/options';
import { firstFileRoot, MAX_CWD } from '../../../src/mcp/roots';
import { INPUT_SCHEMA, TOOL, checkInput, savedText } from '../../../src/mcp/tool';

describe('MCP parts: the command line', () => {
  it('takes --inbox <folder>, --inbox=<folder>, or the environment', () => {
    assert.deepEqual(parseOptions(['--inbox', '/i'], {}, '/home/me'), { ok: true, inbox: '/i' });
    assert.deepEqual(parseOptions(['--inbox=/j'], {}, '/home/me'), { ok: true, inbox: '/j' });
    assert.deepEqual(parseOptions([], { AGENT_PLAN_MCP_INBOX: '/k' }, '/home/me'), { ok: true, inbox: '/k' });
    assert.deepEqual(parseOptions(['--inbox', '/i'], { AGENT_PLAN_MCP_INBOX: '/k' }, '/home/me'), { ok: true, inbox: '/i' }, 'the argument wins');
  });

  it('without either, Agent Plan\'s own inbox (the one the extension reads)', () => {
    const expected = process.platform === 'win32' ? undefined : '/home/me/.local/share/agent-plan/mcp-inbox';
    if (expected !== undefined) {
      assert.deepEqual(parseOptions([], {}, '/home/me'), { ok: true, inbox: expected });
      assert.deepEqual(parseOptions([], { AGENT_PLAN_MCP_INBOX: '' }, '/home/me'), { ok: true, inbox: expected });
    }
  });

  it('refuses an empty folder and an unknown argument, with the usage', () => {
    for (const args of [['--inbox'], ['--inbox='], ['--verbose']]) {
      const options = parseOptions(args, {}, '/home/me');
      assert.ok(!options.ok && options.message.includes('usage: node mcp.js [--inbox <folder>]'), JSON.stringify(args));
    }
  });
});

describe('MCP parts: the bounded line reader', () => {
  const texts = (events: LineEvent[]): unknown[] => events.map((e) => (e.kind === 'line' ? e.text : `oversized ${e.bytes}`));

  it('splits lines across chunks, drops a CR before the LF, keeps UTF-8 split between chunks', () => {
    const reader = new BoundedLineReader(100);
    const bytes = Buffer.from('{"a":"é"}\r\n{"b"', 'utf8');
    assert.deepEqual(texts(reader.push(bytes.subarray(0, 7))), []);
    assert.deepEqual(texts(reader.push(bytes.subarray(7))), ['{"a":"é"}']);
    assert.deepEqual(texts(reader.push(Buffer.from(':1}\n\n'))), ['{"b":1}', '']);
  });

  it('drops a line over the bound as it streams by, reports it when it ends, then reads on', () => {
    const reader = new BoundedLineReader(10);
    assert.deepEqual(texts(reader.push(Buffer.from('0123456789'))), [], 'at the bound: kept');
    assert.deepEqual(texts(reader.push(Buffer.from('abc'))), []);
    assert.deepEqual(texts(reader.push(Buffer.from('x'.repeat(1000)))), []);
    assert.deepEqual(texts(reader.push(Buffer.from('yz\nok\n'))), ['oversized 1015', 'ok']);
    assert.deepEqual(texts(reader.push(Buffer.from('0123456789\n'))), ['0123456789']);
  });
});

describe('MCP parts: the guard every line passes', () => {
  it('forwards a valid message', () => {
    const guarded = guardLine('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    assert.deepEqual(guarded, { kind: 'forward', message: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
  });

  it('ignores a blank line', () => {
    assert.deepEqual(guardLine('   '), { kind: 'ignore' });
  });

  it('answers garbage with a parse error, without an id', () => {
    assert.deepEqual(guardLine('{"jsonrpc":'), {
      kind: 'reply',
      message: { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the line is not JSON' } },
      problem: 'a line that is not JSON',
    });
  });

  it('answers a bad id, a batch, a wrong version with an invalid-request error', () => {
    for (const line of ['{"jsonrpc":"2.0","id":null,"method":"tools/list"}', '{"jsonrpc":"2.0","id":{"a":1},"method":"x"}', '[{"jsonrpc":"2.0","id":1,"method":"x"}]', '{"id":1,"method":"x"}', '7', 'null']) {
      const guarded = guardLine(line);
      assert.ok(guarded.kind === 'reply' && 'error' in guarded.message && guarded.message.error.code === -32600, line);
    }
  });

  it('ignores a malformed response (answering it could loop)', () => {
    assert.equal(guardLine('{"jsonrpc":"2.0","id":{},"result":{}}').kind, 'ignore');
  });

  it('answers todo_write arguments that are not an object with the contract text, as a tool error', () => {
    for (const args of ['"todos"', '[]', 'null', '3']) {
      const guarded = guardLine(`{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"todo_write","arguments":${args}}}`);
      assert.deepEqual(guarded, { kind: 'reply', message: { jsonrpc: '2.0', id: 'c', result: { content: [{ type: 'text', text: ERRORS.notObject }], isError: true } } }, args);
    }
    assert.equal(guardLine('{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"todo_write","arguments":{}}}').kind, 'forward');
    assert.equal(guardLine('{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"todo_write"}}').kind, 'forward');
  });

  it('survives a deeply nested line', () => {
    const deep = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`;
    assert.ok(['forward', 'reply'].includes(guardLine(deep).kind));
  });
});

describe('MCP parts: what a call says about its session', () => {
  it('reads an agent’s session variable only when that agent is the client', () => {
    const env = { CLAUDE_CODE_SESSION_ID: 'c1', COPILOT_AGENT_SESSION_ID: 'p1', QWEN_CODE_SESSION_ID: 'q1' };
    assert.deepEqual(
      ['claude-code', 'copilot-cli', 'qwen-cli-mcp-client-plan', 'gemini-cli-mcp-client', 'opencode', 'codex-mcp-client', ''].map((name) => envSession(name, env)),
      ['c1', 'p1', 'q1', undefined, undefined, undefined, undefined],
    );
    assert.equal(envSession('claude-code', { CLAUDE_CODE_SESSION_ID: '' }), undefined);
  });

  it('reads Codex’s session from _meta.sessionId or its turn metadata, and the call id', () => {
    assert.equal(metaSession({ sessionId: 's', 'x-codex-turn-metadata': { session_id: 't' } }), 's');
    assert.equal(metaSession({ 'x-codex-turn-metadata': { session_id: 't' } }), 't');
    assert.equal(metaSession({ 'x-codex-turn-metadata': '{"session_id":"u"}' }), 'u');
    assert.deepEqual([metaSession(undefined), metaSession({ sessionId: 5 }), metaSession({ 'x-codex-turn-metadata': '{bad' }), metaSession([])], [undefined, undefined, undefined, undefined]);
    assert.deepEqual([metaCallId({ 'claudecode/toolUseId': 'toolu', callId: 'c' }), metaCallId({ callId: 'c' }), metaCallId({ progressToken: 1 })], ['toolu', 'c', undefined]);
  });

  it('leaves out ids past 200 characters and cuts names by code point', () => {
    assert.equal(metaSession({ sessionId: 'x'.repeat(201) }), undefined);
    assert.equal(metaCallId({ callId: 'x'.repeat(200) }), 'x'.repeat(200));
    assert.equal(boundedText('😀'.repeat(300), 200), '😀'.repeat(200));
    assert.equal(boundedText(42, 10), '');
  });
});

describe('MCP parts: the working folder recorded', () => {
  it('is the first root that is a local file URL', () => {
    const here = process.platform === 'win32' ? 'C:\\work\\repo' : '/work/repo';
    assert.equal(firstFileRoot([{ uri: 'file://remote/share' }, { uri: pathToFileURL(here).href }, { uri: pathToFileURL('/other').href }]), here);
    assert.equal(firstFileRoot([]), undefined);
    assert.equal(firstFileRoot([{ uri: pathToFileURL(`/${'x'.repeat(MAX_CWD)}`).href }]), undefined, 'too long');
  });
});

describe('MCP parts: the tool', () => {
  it('is the language-model tool’s contract: its schema, its validation, its texts', () => {
    assert.equal(TOOL.name, 'todo_write');
    assert.equal('$schema' in INPUT_SCHEMA, false);
    assert.deepEqual(checkInput({ todos: [{ content: ' a ', status: 'completed' }] }), { ok: true, todos: [{ content: 'a', status: 'completed' }] });
    assert.deepEqual(checkInput({ todos: [{ content: 'a', status: 'x' }] }), { ok: false, text: ERRORS.invalidStatus(1) });
    assert.equal(savedText([{ content: 'a', status: 'completed' }]), 'Updated todo list: 0 pending, 0 in progress, 1 completed.');
  });
});

// Hostile session keys: whatever the tool invocation token carries (path separators,
// `..`, NUL, 10 KB strings, unicode, throwing getters, proxies), every file the log
// writes is a `<32 hex>.jsonl` directly inside the log folder, and nothing lands
// anywhere else.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { NO_SESSION_TEXT, successText, countTodos } from '../../src/core/plan/plan';
import { runTodoWrite } from '../../src/core/store/todoWrite';
import { openStore } from './lib/env';
import { recordFigures, runSeed } from './lib/figures';
import { useTempDir } from '../lib/temp';

const LOG_FILE = /^[0-9a-f]{32}\.jsonl$/;
const PLAN = { todos: [{ content: 'Hostile key', status: 'pending' }] };

function boom(): never {
  throw new Error('hostile getter');
}

const hostileStrings = [
  '../../../../etc/passwd',
  '..',
  '.',
  '/',
  '/tmp/escape',
  'a/b',
  'a_b',
  'a\\b',
  '..\\..\\windows',
  'C:\\Windows\\system32',
  'x\u0000y',
  '\u0000',
  'x'.repeat(10 * 1024),
  '../'.repeat(3500),
  '会话 🧭 сессия',
  '\ud800',
  '\u202eevil',
  'CON',
  'NUL.jsonl',
  'aux',
  '0'.repeat(32),
  '0123456789abcdef0123456789abcdef',
  `${'f'.repeat(32)}.jsonl`,
  ' ',
  '\n',
  'file:///../../x',
];

function hostileTokens(): unknown[] {
  const tokens: unknown[] = [];
  for (const value of hostileStrings) {
    tokens.push({ sessionId: value });
    tokens.push({ sessionResource: value });
    tokens.push({ sessionResource: { scheme: 'vscode-chat-session', authority: value, path: `/${value}`, query: value, fragment: value } });
    tokens.push({ sessionResource: { toString: () => value } });
  }
  tokens.push(
    // throwing getters, alone and next to a usable field
    {
      get sessionId(): string {
        return boom();
      },
    },
    {
      get sessionResource(): unknown {
        return boom();
      },
    },
    {
      get sessionResource(): unknown {
        return boom();
      },
      sessionId: 'has an id too',
    },
    {
      sessionResource: {
        get scheme(): string {
          return boom();
        },
      },
    },
    { sessionResource: { scheme: 'file', get path(): string { return boom(); } } },
    { sessionResource: { toString: boom } },
    { sessionResource: { toString: () => ({ not: 'a string' }) } },
    { sessionResource: { [Symbol.toPrimitive]: boom, toString: boom, valueOf: boom } },
    { sessionId: { toString: () => '../x', valueOf: () => '../x' } },
    new Proxy({}, { get: boom, has: boom, ownKeys: boom, getOwnPropertyDescriptor: boom, getPrototypeOf: boom }),
    { sessionResource: new Proxy({}, { get: boom, has: boom, ownKeys: boom, getPrototypeOf: boom }) },
    Object.create(new Proxy({}, { get: boom })),
    Object.create({ sessionId: '../inherited' }),
    JSON.parse('{"__proto__": {"sessionId": "../proto"}, "constructor": {"sessionId": "../c"}}'),
    // wrong types
    { sessionId: 42 },
    { sessionId: ['..', '..'] },
    { sessionId: null },
    { sessionId: '' },
    { sessionResource: '' },
    { sessionResource: 42 },
    null,
    undefined,
    42,
    '../../session',
    [],
    () => '../x',
    Symbol('token'),
  );
  return tokens;
}

const arbitraryToken = fc.oneof(
  fc.record({ sessionId: fc.string({ unit: 'binary', maxLength: 64 }) }),
  fc.record({ sessionId: fc.array(fc.constantFrom('..', '/', '\\', '\u0000', '.', 'a', 'é', '\ud800', ':'), { maxLength: 40 }).map((p) => p.join('')) }),
  fc.record({ sessionResource: fc.string({ unit: 'grapheme', maxLength: 64 }) }),
  fc.record({
    sessionResource: fc.record({
      scheme: fc.string({ maxLength: 8 }),
      authority: fc.string({ maxLength: 8 }),
      path: fc.string({ unit: 'binary', maxLength: 32 }),
      query: fc.string({ maxLength: 8 }),
      fragment: fc.string({ maxLength: 8 }),
    }),
  }),
  fc.anything({ maxDepth: 2 }),
);

describe('reliability: hostile session keys', () => {
  const tmp = useTempDir('rel-keys');
  it('writes only <32 hex>.jsonl files inside the log folder, whatever the token holds', async () => {
    // sandbox/outer/logs: both levels above the log folder must stay as they were.
    const sandbox = tmp.path;
    const outer = path.join(sandbox, 'outer');
    const dir = path.join(outer, 'logs');
    fs.mkdirSync(dir, { recursive: true });
    const { log, store } = openStore(dir);
    const seed = runSeed();
    let saved = 0;
    let noSession = 0;
    const keyOfId = new Map<string, string>();

    const attempt = async (token: unknown): Promise<void> => {
      let outcome;
      try {
        outcome = await runTodoWrite(store, token, PLAN);
      } catch (error) {
        assert.fail(`runTodoWrite threw ${String(error)}`);
      }
      if (outcome.kind === 'saved') {
        assert.equal(outcome.text, successText(countTodos(PLAN.todos as never)));
        const file = log.fileFor(outcome.event.session);
        assert.equal(path.dirname(file), dir);
        assert.match(path.basename(file), LOG_FILE);
        assert.ok(fs.statSync(file).isFile());
        saved++;
      } else {
        assert.equal(outcome.text, NO_SESSION_TEXT, `unexpected ${outcome.kind}: ${outcome.text}`);
        noSession++;
      }
    };

    const fixed = hostileTokens();
    for (const token of fixed) await attempt(token);
    // Different strings are different sessions: nothing is collapsed by "sanitizing".
    for (const value of hostileStrings) {
      const outcome = await runTodoWrite(store, { sessionId: value }, PLAN);
      assert.equal(outcome.kind, 'saved', `sessionId ${JSON.stringify(value.slice(0, 40))}`);
      if (outcome.kind === 'saved') keyOfId.set(value, outcome.event.session);
    }
    assert.equal(new Set(keyOfId.values()).size, keyOfId.size, 'distinct session ids get distinct files');
    // Throwing getters and proxies are no session at all, never an exception.
    for (const token of [
      {
        get sessionId(): string {
          return boom();
        },
      },
      new Proxy({}, { get: boom }),
    ]) {
      assert.equal((await runTodoWrite(store, token, PLAN)).text, NO_SESSION_TEXT);
    }

    const generated = 1000;
    await fc.assert(
      fc.asyncProperty(arbitraryToken, async (token) => attempt(token)),
      { numRuns: generated, seed },
    );

    // Nothing but log files in the folder, and nothing next to it.
    const entries = fs.readdirSync(dir, { withFileTypes: true });
    for (const entry of entries) {
      assert.ok(entry.isFile(), `${entry.name} is a plain file`);
      assert.match(entry.name, LOG_FILE);
    }
    assert.deepEqual(fs.readdirSync(outer), ['logs'], 'nothing was created next to the log folder');
    assert.deepEqual(fs.readdirSync(sandbox), ['outer'], 'nothing was created above it');
    // And every file holds only its own session's events.
    const sessions = await log.sessions();
    assert.equal(sessions.length, entries.length);
    for (const summary of sessions) assert.equal(summary.current?.session, summary.key);

    recordFigures('hostile session keys', {
      seed,
      tokens: fixed.length + generated,
      saved,
      'no session': noSession,
      'log files': entries.length,
      'distinct ids → files': `${keyOfId.size} → ${new Set(keyOfId.values()).size}`,
      'entries outside': 0,
    });
    assert.ok(saved > 0 && noSession > 0);
  });
});

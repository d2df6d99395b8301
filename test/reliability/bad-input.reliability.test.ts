// Bad input: property-based fuzzing of one todo_write call, through a real PlanStore
// over a real SessionLog in a temp folder.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import fc from 'fast-check';
import { countTodos, successText, type Todo } from '../../src/core/plan/plan';
import type { PlanRecord } from '../../src/core/log/sessionLog';
import { sessionKeyFromToken } from '../../src/core/log/sessionKey';
import { runTodoWrite } from '../../src/core/store/todoWrite';
import { ERROR_KINDS, recognizeError } from './lib/errorTexts';
import { openStore } from './lib/env';
import { recordFigures, runSeed } from './lib/figures';
import { inputProblem } from './lib/oracle';
import { useTempDir } from '../lib/temp';

const NUM_RUNS = Number(process.env.AGENT_PLAN_FUZZ_RUNS ?? 10_000);

// ---- strings ---------------------------------------------------------------------

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const whitespace = fc.constantFrom(' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u2028', '\u3000', '\ufeff', '\u200a');
const tricky = fc.constantFrom(
  '\u0000',
  '\u202e',
  '\u200b',
  '"',
  '\\',
  '\\"',
  '</script>',
  '${x}',
  '{"todos":[]}',
  '__proto__',
  'constructor',
  '\ud83d\ude00',
  '\u0301',
  '文',
  'İ',
);

const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 12 }) },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: loneSurrogate, minLength: 1, maxLength: 3 }) },
  { weight: 2, arbitrary: fc.tuple(fc.string({ maxLength: 4 }), loneSurrogate, fc.string({ maxLength: 4 })).map((p) => p.join('')) },
  { weight: 1, arbitrary: fc.string({ unit: whitespace, maxLength: 4 }) },
  { weight: 2, arbitrary: fc.array(fc.oneof(tricky, fc.string({ maxLength: 3 })), { minLength: 1, maxLength: 4 }).map((p) => p.join('')) },
  {
    // Around the length limit (in code points: astral characters count once), and far beyond it.
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(999, 1000, 1001, 1500, 20_000, 200_000), fc.constantFrom('x', 'é', '\ud83d\ude00', '\ud800', ' '))
      .map(([n, c]) => c.repeat(n)),
  },
);

const status = fc.constantFrom('pending', 'in_progress', 'completed');
const notAStatus = fc.oneof(
  fc.constantFrom('Pending', 'PENDING', 'done', 'in-progress', 'inProgress', ' pending', 'pending ', '', 'completed\u0000', 'cancelled'),
  fc.integer(),
  fc.constant(null),
  fc.boolean(),
  fc.constant(['pending']),
  fc.constant({ status: 'pending' }),
);
const nonString = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constant(null),
  fc.boolean(),
  fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }),
  fc.constant({ content: 'x' }),
  fc.constant(0),
);
const jsonValue = fc.jsonValue({ maxDepth: 2 });

const goodItem = fc.record({ content: text, status }, { noNullPrototype: true });
const goodList = fc.uniqueArray(goodItem, { maxLength: 6, selector: (t) => t.content.trim() });

// ---- own keys that JavaScript treats specially: built with JSON.parse ---------------

const extraKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'priority', 'activeForm', 'children', 'todos', 'Content', 'STATUS', 'content ', ' status', ''),
  fc.string({ maxLength: 8 }),
  fc.constantFrom('k'.repeat(10_000), 'ключ\u202e\u0000', '\ud800'),
);

/** A copy of a plain object with one more OWN key (even `__proto__`), at the front or the back. */
function withOwnKey(object: Record<string, unknown>, key: string, value: unknown, first: boolean): Record<string, unknown> {
  const body = JSON.stringify(object).slice(1, -1);
  const extra = `${JSON.stringify(key)}:${JSON.stringify(value)}`;
  return JSON.parse(`{${(first ? [extra, body] : [body, extra]).filter((part) => part !== '').join(',')}}`) as Record<string, unknown>;
}

// ---- whole inputs ----------------------------------------------------------------

type Mutation = (todos: Todo[]) => fc.Arbitrary<unknown>;

const itemMutations: Mutation[] = [
  // an extra key on one item (id, priority, __proto__, …)
  (todos) => fc.tuple(fc.nat(), extraKey, jsonValue, fc.boolean()).map(([i, k, v, first]) => {
    const copy: unknown[] = [...todos];
    copy[i % todos.length] = withOwnKey(todos[i % todos.length] as unknown as Record<string, unknown>, k, v, first);
    return { todos: copy };
  }),
  // a number (or other non-string) where `content` belongs
  (todos) => fc.tuple(fc.nat(), nonString).map(([i, v]) => ({ todos: todos.map((t, j) => (j === i % todos.length ? { ...t, content: v } : t)) })),
  // a status outside the enum
  (todos) => fc.tuple(fc.nat(), notAStatus).map(([i, v]) => ({ todos: todos.map((t, j) => (j === i % todos.length ? { ...t, status: v } : t)) })),
  // a missing field
  (todos) => fc.tuple(fc.nat(), fc.constantFrom('content', 'status')).map(([i, field]) => ({
    todos: todos.map((t, j) => {
      if (j !== i % todos.length) return t;
      const copy: Record<string, unknown> = { ...t };
      delete copy[field];
      return copy;
    }),
  })),
  // a duplicate differing only in surrounding whitespace (or exactly the same, or only in case)
  (todos) => fc.tuple(fc.nat(), fc.nat(), whitespace, fc.constantFrom('same', 'lead', 'trail', 'case'), status).map(([i, at, ws, how, st]) => {
    const original = (todos[i % todos.length] as Todo).content;
    const content =
      how === 'same' ? original : how === 'lead' ? ws + original : how === 'trail' ? original + ws : original.toUpperCase() === original ? original.toLowerCase() : original.toUpperCase();
    const copy: unknown[] = [...todos];
    copy.splice(at % (todos.length + 1), 0, { content, status: st });
    return { todos: copy };
  }),
  // an item that is not an object, or nested one level too deep
  (todos) => fc.tuple(fc.nat(), fc.oneof(jsonValue, fc.constant(todos), fc.constant([todos[0]]))).map(([i, v]) => {
    const copy: unknown[] = [...todos];
    copy[i % todos.length] = v;
    return { todos: copy };
  }),
  // nesting: subtasks inside an item
  (todos) => fc.nat().map((i) => ({ todos: todos.map((t, j) => (j === i % todos.length ? { ...t, todos: [{ ...t }] } : t)) })),
];

const topMutations: Mutation[] = [
  // an extra top-level key, __proto__ and friends included
  (todos) => fc.tuple(extraKey, jsonValue, fc.boolean()).map(([k, v, first]) => withOwnKey({ todos }, k, v, first)),
  // `todos` of the wrong type
  (todos) => fc.oneof(jsonValue, fc.constant(JSON.stringify(todos)), fc.constant({ 0: todos[0], length: 1 })).map((v) => ({ todos: v })),
  // the list wrapped in one more array
  (todos) => fc.constant({ todos: [todos] }),
  // more than 100 items, all distinct
  () => fc.constantFrom(100, 101, 150).map((n) => ({ todos: Array.from({ length: n }, (_, i) => ({ content: `item ${i}`, status: 'pending' })) })),
  // `todos` missing, or under another name
  (todos) => fc.constantFrom('Todos', 'todo', 'items', 'todos ').map((k) => ({ [k]: todos })),
];

const nonObjects = fc.oneof(
  fc.constantFrom(undefined, null, 0, -1, NaN, Infinity, '', 'todos', '{"todos":[]}', true, false),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.double(),
  fc.bigInt(),
  fc.array(jsonValue, { maxLength: 3 }),
  fc.array(fc.array(fc.array(goodItem, { maxLength: 2 }), { maxLength: 2 }), { maxLength: 2 }),
  fc.constant([{ todos: [] }]),
);

const mutated = fc
  .tuple(goodList.filter((l) => l.length > 0), fc.constantFrom(...itemMutations, ...topMutations))
  .chain(([todos, mutation]) => mutation(todos));

const input: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: goodList.map((todos) => ({ todos })) },
  { weight: 8, arbitrary: mutated },
  { weight: 2, arbitrary: nonObjects },
  { weight: 1, arbitrary: fc.object({ maxDepth: 2, maxKeys: 4, withNullPrototype: false }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '{"__proto__":{"todos":[]}}',
      '{"todos":[],"__proto__":{"todos":[{"content":"x","status":"pending"}]}}',
      '{"constructor":{"prototype":{"todos":[]}}}',
      '{"todos":[{"content":"a","status":"pending","__proto__":{"id":1}}]}',
      '{"todos":[{"__proto__":{"content":"a","status":"pending"}}]}',
      '{"todos":{"__proto__":[]}}',
      '{"todos":[{"content":"a","status":"pending"},{"content":"a ","status":"completed"}]}',
      '{"todos":[{"content":"Step","status":"pending"},{"content":"step","status":"completed"}]}',
      '{"todos":[{"content":"a","content":"b","status":"pending"}]}',
    ).map((json) => JSON.parse(json) as unknown),
  },
);

function describeInput(value: unknown): string {
  try {
    const json = JSON.stringify(value);
    return json === undefined ? String(value) : json.length > 300 ? `${json.slice(0, 300)}…` : json;
  } catch {
    return String(value);
  }
}

describe('reliability: bad input (property-based fuzzing of todo_write)', () => {
  const tmp = useTempDir('rel-fuzz');
  it(`never throws, answers only documented texts, writes exactly what it accepts (${NUM_RUNS} inputs)`, async () => {
    const dir = tmp.path;
    const { log, store } = openStore(dir);
    const token = { sessionId: 'fuzz' };
    const session = sessionKeyFromToken(token);
    assert.ok(session, 'the fuzz token names a session');
    const file = log.fileFor(session);
    const written: PlanRecord[] = [];
    let changes = 0;
    store.onDidWrite((event) => written.push(event));
    store.onDidChange(() => changes++);

    const seen = new Map<string, number>();
    let accepted = 0;
    let rejected = 0;
    let bytes = 0;
    const seed = runSeed();
    const started = Date.now();
    const size = (): number => (fs.existsSync(file) ? fs.statSync(file).size : 0);

    async function checkOne(value: unknown): Promise<void> {
      const sizeBefore = size();
      const planBefore = store.get(session as string);
      const writesBefore = written.length;
      const changesBefore = changes;
      const problem = inputProblem(value);

      let outcome;
      try {
        outcome = await runTodoWrite(store, token, value);
      } catch (error) {
        assert.fail(`runTodoWrite threw ${String(error)}`);
      }
      const sizeAfter = size();

      if (outcome.kind === 'saved') {
        assert.equal(problem, undefined, 'accepted an input the spec rejects');
        // The canonical item is the trimmed text (as in the seed's dsh).
        const todos = (value as { todos: Todo[] }).todos.map((todo) => ({ content: todo.content.trim(), status: todo.status }));
        assert.equal(outcome.text, successText(countTodos(todos)));
        assert.equal(written.length, writesBefore + 1, 'one onDidWrite per saved call');
        assert.ok(changes > changesBefore, 'onDidChange fired');
        assert.deepStrictEqual(written[written.length - 1]?.todos, todos);
        // The new bytes are exactly one line, and it is the input.
        const line = Buffer.alloc(sizeAfter - sizeBefore);
        const fd = fs.openSync(file, 'r');
        try {
          fs.readSync(fd, line, 0, line.length, sizeBefore);
        } finally {
          fs.closeSync(fd);
        }
        assert.equal(line.indexOf(0x0a), line.length - 1, 'exactly one complete line appended');
        const parsed = JSON.parse(line.toString('utf8')) as Record<string, unknown>;
        assert.deepStrictEqual(parsed['todos'], todos, "the file's last line is the input");
        assert.equal(parsed['session'], session);
        assert.deepStrictEqual((await log.current(session as string))?.todos, todos, 'SessionLog.current is the input');
        assert.deepStrictEqual(store.get(session as string)?.todos, todos);
        accepted++;
        bytes += line.length;
      } else {
        assert.equal(outcome.kind, 'rejected', `${outcome.kind}: ${outcome.text}`);
        assert.notEqual(problem, undefined, `rejected a valid input with ${JSON.stringify(outcome.text)}`);
        const error = recognizeError(outcome.text, value);
        assert.ok(error, `undocumented text ${JSON.stringify(outcome.text)}`);
        assert.ok(error.claimHolds, `${error.name} does not describe the input: ${JSON.stringify(outcome.text)}`);
        assert.equal(sizeAfter, sizeBefore, 'a rejected input appended bytes');
        assert.equal(written.length, writesBefore, 'no onDidWrite for a rejection');
        assert.equal(changes, changesBefore, 'no onDidChange for a rejection');
        assert.equal(store.get(session as string), planBefore, 'the current plan is unchanged');
        rejected++;
        seen.set(error.name, (seen.get(error.name) ?? 0) + 1);
      }
    }

    await fc.assert(
      fc.asyncProperty(input, async (value) => {
        try {
          await checkOne(value);
        } catch (error) {
          // Described only on failure: stringifying every input would cost more than the call.
          if (error instanceof Error) error.message += `\n    input: ${describeInput(value)}`;
          throw error;
        }
      }),
      { numRuns: NUM_RUNS, seed },
    );

    // A fresh reader agrees with the last write.
    const fresh = openStore(dir);
    await fresh.store.load();
    assert.deepStrictEqual(fresh.store.get(session)?.todos, store.get(session)?.todos);

    const missing = ERROR_KINDS.map((k) => k.name).filter((name) => !seen.has(name));
    recordFigures('bad input (fuzz)', {
      seed,
      inputs: accepted + rejected,
      accepted,
      rejected,
      'error kinds hit': `${ERROR_KINDS.length - missing.length}/${ERROR_KINDS.length}`,
      'rarest kind': [...seen].sort((a, b) => a[1] - b[1]).map(([name, n]) => `${name} ×${n}`)[0] ?? '-',
      'log bytes': bytes,
      ms: Date.now() - started,
    });
    assert.equal(accepted + rejected, NUM_RUNS);
    assert.ok(accepted >= NUM_RUNS / 5, `too few accepted inputs to exercise the write path (${accepted})`);
    assert.deepEqual(missing, [], 'every documented error text was produced at least once');
  });
});

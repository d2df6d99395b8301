import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ERRORS, LIMITS, quoteKey, schemaErrorText, validateTodoInput } from '../../../../src/core/plan/validate';
import type { Todo } from '../../../../src/core/plan/plan';

const root = path.resolve(__dirname, '..', '..', '..', '..');

function rejects(input: unknown, expected: string): void {
  const result = validateTodoInput(input);
  assert.deepEqual(result, { ok: false, error: expected });
}

function accepts(todos: Todo[]): void {
  const input = { todos };
  const result = validateTodoInput(input);
  assert.ok(result.ok, `expected ok, got ${JSON.stringify(result)}`);
  assert.deepEqual(result.todos, todos);
  assert.notEqual(result.todos, todos);
  result.todos.forEach((todo, i) => assert.notEqual(todo, todos[i]));
}

function item(content: string, status: Todo['status'] = 'pending'): Todo {
  return { content, status };
}

describe('validate: rejection texts, byte for byte', () => {
  const shape = '{"todos": [{"content": string, "status": "pending" | "in_progress" | "completed"}]}';

  it('input not an object', () => {
    const text = `Error: invalid input: expected ${shape}`;
    for (const input of [undefined, null, 42, 'todos', true, [], [{ todos: [] }]]) rejects(input, text);
  });

  it('missing `todos`', () => {
    rejects({}, 'Error: invalid input: missing `todos`; send the whole list as an array ([] clears it)');
    rejects({ todo: [] }, ERRORS.missingTodos);
  });

  it('`todos` not an array', () => {
    const text = 'Error: invalid input: `todos` must be an array of {"content", "status"} objects';
    for (const todos of [null, {}, 'a', 1, { 0: item('a') }]) rejects({ todos }, text);
  });

  it('unknown top-level key', () => {
    rejects({ todos: [], merge: true }, 'Error: invalid input: unknown key "merge"; the only key is `todos`');
  });

  it('__proto__ and constructor are unknown keys, as JSON.parse makes them own properties', () => {
    rejects(JSON.parse('{"todos":[],"__proto__":{"x":1}}'), ERRORS.unknownKey('__proto__'));
    rejects(JSON.parse('{"todos":[],"constructor":1}'), ERRORS.unknownKey('constructor'));
    rejects(
      JSON.parse('{"todos":[{"content":"a","status":"pending","__proto__":{"id":1}}]}'),
      'Error: invalid todo 1: unknown key "__proto__"; only `content` and `status` are allowed',
    );
    rejects(JSON.parse('{"todos":[{"content":"a","status":"pending","constructor":"x"}]}'), ERRORS.unknownTodoKey(1, 'constructor'));
  });

  it('too many items', () => {
    const todos = Array.from({ length: 101 }, (_, i) => item(`task ${i}`));
    rejects({ todos }, 'Error: invalid todos: more than 100 items; keep the list to at most 100');
  });

  it('item not an object', () => {
    const text = 'Error: invalid todo 2: must be an object {"content": string, "status": string}';
    for (const bad of ['b', null, 3, [], ['b', 'pending']]) rejects({ todos: [item('a'), bad] }, text);
  });

  it('missing `content`', () => {
    rejects({ todos: [{ status: 'pending' }] }, 'Error: invalid todo 1: missing `content`');
  });

  it('missing `status`', () => {
    rejects(
      { todos: [item('a'), item('b'), { content: 'c' }] },
      'Error: invalid todo 3: missing `status`; use "pending", "in_progress" or "completed"',
    );
  });

  it('`content` not a string', () => {
    const text = 'Error: invalid todo 1: `content` must be a string';
    for (const content of [1, null, ['a'], { text: 'a' }, true]) rejects({ todos: [{ content, status: 'pending' }] }, text);
  });

  it('empty content: the contract string', () => {
    const text = 'Error: invalid todo: `content` must be a non-empty string';
    rejects({ todos: [item('')] }, text);
    rejects({ todos: [item('ok'), item('   ')] }, text);
    rejects({ todos: [item('\n\t \u00a0\u3000')] }, text);
  });

  it('content too long', () => {
    rejects(
      { todos: [item('x'.repeat(1001))] },
      'Error: invalid todo 1: `content` is longer than 1000 characters; shorten it',
    );
  });

  it('content length counts code points, not UTF-16 units', () => {
    assert.equal(validateTodoInput({ todos: [item('😀'.repeat(1000))] }).ok, true);
    rejects({ todos: [item('😀'.repeat(1001))] }, ERRORS.contentTooLong(1));
  });

  it('`status` not one of the enum', () => {
    const text = 'Error: invalid todo 1: `status` must be "pending", "in_progress" or "completed"';
    for (const status of ['done', 'in-progress', 'Pending', '', 1, null, ['pending']]) {
      rejects({ todos: [{ content: 'a', status }] }, text);
    }
  });

  it('unknown item key, named', () => {
    rejects(
      { todos: [item('a'), { content: 'b', status: 'pending', id: 7 }] },
      'Error: invalid todo 2: unknown key "id"; only `content` and `status` are allowed',
    );
    for (const key of ['activeForm', 'priority', 'children']) {
      rejects({ todos: [{ content: 'a', status: 'pending', [key]: 1 }] }, ERRORS.unknownTodoKey(1, key));
    }
  });

  it('hostile keys stay short and printable', () => {
    const long = 'k'.repeat(10_000);
    const text = ERRORS.unknownTodoKey(1, long);
    rejects({ todos: [{ content: 'a', status: 'pending', [long]: 1 }] }, text);
    assert.equal(quoteKey(long), `"${'k'.repeat(38)}…`);
    assert.equal(Array.from(quoteKey(long)).length, LIMITS.maxQuotedKeyLength);
    const hostile = 'a\u0000b\nc\u202ed\u2028e\u007f';
    assert.equal(quoteKey(hostile), '"a\\u0000b\\nc\\u202ed\\u2028e\\u007f"');
    assert.doesNotMatch(ERRORS.unknownKey(hostile), /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u);
  });

  it('duplicate content: the contract string quotes the trimmed content as JSON.stringify writes it (as dsh does)', () => {
    rejects(
      { todos: [item('Write tests'), item('Ship'), item('  Write tests ', 'completed')] },
      'Error: invalid todos: duplicate content "Write tests"',
    );
    rejects({ todos: [item('say "hi"'), item(' say "hi" ')] }, 'Error: invalid todos: duplicate content "say \\"hi\\""');
  });

  it('stores the trimmed content, as dsh does', () => {
    const result = validateTodoInput({ todos: [item('  plan the work  '), item('\tship\n', 'completed')] });
    assert.deepEqual(result, {
      ok: true,
      todos: [
        { content: 'plan the work', status: 'pending' },
        { content: 'ship', status: 'completed' },
      ],
    });
  });

  it('duplicates are case-sensitive', () => {
    assert.equal(validateTodoInput({ todos: [item('Ship'), item('ship')] }).ok, true);
  });

  it('checks run in a fixed order: schema errors in document order before duplicates', () => {
    rejects({ todos: [item('a'), item('a'), { content: 'b', status: 'x' }] }, ERRORS.invalidStatus(3));
    rejects({ todos: [{ content: '', status: 'x' }] }, ERRORS.emptyContent);
    rejects({ todos: [{ status: 'x', extra: 1 }] }, ERRORS.missingContent(1));
    rejects({ todos: [{ content: 'a', status: 'pending', extra: 1 }], other: 1 }, ERRORS.unknownKey('other'));
    rejects({ other: 1 }, ERRORS.missingTodos);
  });

  it('input read through getters is validated as the copy it returns', () => {
    let reads = 0;
    const tricky = {
      status: 'pending',
      get content(): unknown {
        reads++;
        return reads === 1 ? 'fine' : 42;
      },
    };
    rejects({ todos: [tricky] }, ERRORS.contentNotString(1));
  });

  it('a throwing proxy is rejected, not thrown', () => {
    const proxy = new Proxy({}, {
      ownKeys() {
        throw new Error('hostile');
      },
      get() {
        throw new Error('hostile');
      },
    });
    rejects(proxy, ERRORS.notObject);
  });

  it('maps an unexpected schema error to the shape text rather than ajv wording', () => {
    assert.equal(schemaErrorText(undefined), ERRORS.notObject);
    assert.equal(
      schemaErrorText({ keyword: 'whatever', instancePath: '/elsewhere', schemaPath: '#', params: {} }),
      ERRORS.notObject,
    );
  });
});

describe('validate: accepted input', () => {
  it('an empty list (clears the plan)', () => accepts([]));

  it('one item', () => accepts([item('Only task', 'in_progress')]));

  it('100 items', () => accepts(Array.from({ length: 100 }, (_, i) => item(`task ${i + 1}`, i % 2 ? 'completed' : 'pending'))));

  it('several in_progress at once', () =>
    accepts([item('a', 'in_progress'), item('b', 'in_progress'), item('c', 'in_progress'), item('d')]));

  it('unicode content, and content at the length limit', () =>
    accepts([item('修复登录页面的错误 🐛'), item('Ünïcödé — ok', 'completed'), item('x'.repeat(1000))]));

  it('returns fresh items with exactly content then status', () => {
    const result = validateTodoInput(JSON.parse('{"todos":[{"status":"completed","content":"b"}]}'));
    assert.ok(result.ok);
    assert.equal(JSON.stringify(result.todos), '[{"content":"b","status":"completed"}]');
  });
});

describe('validate: schema and code agree', () => {
  const schema = JSON.parse(fs.readFileSync(path.join(root, 'schemas', 'todo-write.input.json'), 'utf8'));
  const items = schema.properties.todos.items;

  it('LIMITS match the schema', () => {
    assert.equal(schema.properties.todos.maxItems, LIMITS.maxTodos);
    assert.equal(items.properties.content.maxLength, LIMITS.maxContentLength);
  });

  it('the schema forbids extra keys, requires both fields and lists exactly the three statuses', () => {
    assert.equal(schema.additionalProperties, false);
    assert.deepEqual(schema.required, ['todos']);
    assert.equal(items.additionalProperties, false);
    assert.deepEqual(items.required, ['content', 'status']);
    assert.deepEqual(items.properties.status.enum, ['pending', 'in_progress', 'completed']);
    assert.equal(items.properties.content.minLength, 1);
    assert.equal(items.properties.content.pattern, '\\S');
  });

  it('every property has a short description', () => {
    for (const prop of [schema.properties.todos, items.properties.content, items.properties.status]) {
      assert.equal(typeof prop.description, 'string');
      assert.ok(prop.description.length > 0 && prop.description.length <= 60, prop.description);
    }
  });

  it('the manifest’s inputSchema is the schema file (without $schema)', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    const tool = manifest.contributes.languageModelTools.find((t: { name: string }) => t.name === 'todo_write');
    const { $schema, ...expected } = schema;
    assert.equal($schema, 'http://json-schema.org/draft-07/schema#');
    assert.deepEqual(tool.inputSchema, expected);
  });

  it('the generated validator is up to date with the schema', async () => {
    // A computed specifier: the script is plain JS without type declarations.
    const script = pathToFileURL(path.join(root, 'scripts', 'gen-validator.mjs')).href;
    const generator = (await import(script)) as {
      generate(): { js: string; dts: string };
    };
    const { js, dts } = generator.generate();
    const dir = path.join(root, 'src', 'core', 'generated');
    assert.equal(fs.readFileSync(path.join(dir, 'inputValidator.js'), 'utf8'), js, 'run node scripts/gen-validator.mjs');
    assert.equal(fs.readFileSync(path.join(dir, 'inputValidator.d.ts'), 'utf8'), dts);
  });

  it('the generated validator needs nothing of ajv at run time but its small runtime helpers', () => {
    const js = fs.readFileSync(path.join(root, 'src', 'core', 'generated', 'inputValidator.js'), 'utf8');
    const requires = [...js.matchAll(/require\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]);
    assert.ok(requires.length > 0);
    for (const spec of requires) assert.match(spec ?? '', /^ajv\/dist\/runtime\//);
  });
});

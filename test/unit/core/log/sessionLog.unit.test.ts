import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import fc from 'fast-check';
import type { Todo } from '../../../../src/core/plan/plan';
import { hashIdentity } from '../../../../src/core/log/sessionKey';
import { LogWriteError, MAX_LOG_LINE_BYTES, SessionLog, type PlanRecord, type SessionLogOptions } from '../../../../src/core/log/sessionLog';
import { nodeFileSystem } from '../../../../src/node/nodeFileSystem';
import { CountingFileSystem, FailingAppendFileSystem, KEY_A, KEY_B, fsError } from '../../helpers';
import { useTempDir } from '../../../lib/temp';

interface Report {
  file: string;
  detail: string;
  offset: number;
}

/** A log with a ticking clock and recorded reports. */
function openLog(dir: string, fsImpl = nodeFileSystem, extra: SessionLogOptions = {}) {
  const corrupt: Report[] = [];
  const readErrors: { file: string; reason: string }[] = [];
  let tick = Date.UTC(2025, 0, 1);
  const log = new SessionLog(dir, fsImpl, {
    now: () => new Date((tick += 1000)),
    onCorrupt: (file, detail, offset) => corrupt.push({ file, detail, offset }),
    onReadError: (file, reason) => readErrors.push({ file, reason }),
    ...extra,
  });
  return { log, corrupt, readErrors };
}

function plan(...items: [string, Todo['status']][]): Todo[] {
  return items.map(([content, status]) => ({ content, status }));
}

/** A valid event line as another program would write it. */
function foreignLine(session: string, todos: Todo[], ts = '2030-01-01T00:00:00.000Z'): string {
  const counts = {
    pending: todos.filter((t) => t.status === 'pending').length,
    inProgress: todos.filter((t) => t.status === 'in_progress').length,
    completed: todos.filter((t) => t.status === 'completed').length,
  };
  return JSON.stringify({ v: 1, type: 'todo/write', ts, session, todos, counts }) + '\n';
}

describe('sessionLog: format and round trip', () => {
  const tmp = useTempDir();

  it('appends one JSON line per snapshot in the documented format', async () => {
    const dir = path.join(tmp.path, 'nested', 'logs');
    const { log } = openLog(dir);
    const todos = plan(['Read the spec', 'completed'], ['Write code', 'in_progress'], ['Test', 'pending']);
    const event = await log.append(KEY_A, todos);
    assert.equal(log.fileFor(KEY_A), path.join(dir, `${KEY_A}.jsonl`));
    const text = fs.readFileSync(path.join(dir, `${KEY_A}.jsonl`), 'utf8');
    assert.equal(
      text,
      `{"v":1,"type":"todo/write","ts":"2025-01-01T00:00:01.000Z","session":"${KEY_A}",` +
        '"todos":[{"content":"Read the spec","status":"completed"},{"content":"Write code","status":"in_progress"},' +
        '{"content":"Test","status":"pending"}],"counts":{"pending":1,"inProgress":1,"completed":1}}\n',
    );
    assert.deepEqual(JSON.parse(text), event);
  });

  it('current returns the last snapshot; history returns all in order', async () => {
    const { log } = openLog(tmp.path);
    const first = await log.append(KEY_A, plan(['a', 'pending']));
    const second = await log.append(KEY_A, plan(['a', 'in_progress'], ['b', 'pending']));
    const third = await log.append(KEY_A, []);
    assert.deepEqual(await log.current(KEY_A), third);
    assert.deepEqual(await log.history(KEY_A), [first, second, third]);
    assert.deepEqual(third.counts, { pending: 0, inProgress: 0, completed: 0 });
  });

  it('a fresh instance reads what another wrote (survives restart)', async () => {
    const { log } = openLog(tmp.path);
    const event = await log.append(KEY_A, plan(['persist', 'completed']));
    const { log: reopened } = openLog(tmp.path);
    assert.deepEqual(await reopened.current(KEY_A), event);
  });

  it('sessions are independent files', async () => {
    const { log } = openLog(tmp.path);
    const a = await log.append(KEY_A, plan(['for a', 'pending']));
    const b = await log.append(KEY_B, plan(['for b', 'pending']));
    assert.deepEqual(await log.current(KEY_A), a);
    assert.deepEqual(await log.current(KEY_B), b);
  });

  it('an unknown session has no plan and no history', async () => {
    const { log, corrupt, readErrors } = openLog(path.join(tmp.path, 'missing'));
    assert.equal(await log.current(KEY_A), undefined);
    assert.deepEqual(await log.history(KEY_A), []);
    assert.deepEqual(await log.readNew(KEY_A), []);
    assert.deepEqual([corrupt, readErrors], [[], []]);
  });

  it('the appended event is a copy: later changes to the caller’s list do not leak in', async () => {
    const { log } = openLog(tmp.path);
    const todos = plan(['x', 'pending']);
    await log.append(KEY_A, todos);
    (todos[0] as Todo).content = 'changed';
    assert.equal((await log.current(KEY_A))?.todos[0]?.content, 'x');
  });

  it('refuses anything but a session key as a file name, and writes nothing', async () => {
    const { log } = openLog(tmp.path);
    for (const bad of ['../' + 'a'.repeat(29), 'A'.repeat(32), '', 'a'.repeat(33), 'x.jsonl']) {
      assert.throws(() => log.fileFor(bad), TypeError);
      await assert.rejects(log.append(bad, []), TypeError);
      await assert.rejects(log.current(bad), TypeError);
    }
    assert.deepEqual(fs.readdirSync(tmp.path), []);
  });

  it('refuses invalid todos (a caller bug), and writes nothing', async () => {
    const { log } = openLog(tmp.path);
    await assert.rejects(log.append(KEY_A, plan(['same', 'pending'], ['same', 'completed'])), TypeError);
    await assert.rejects(log.append(KEY_A, [{ content: '', status: 'pending' }]), TypeError);
    assert.equal(fs.existsSync(log.fileFor(KEY_A)), false);
  });

  it('keeps call order for 50 concurrent appends to one session', async () => {
    const { log } = openLog(tmp.path);
    const calls = Array.from({ length: 50 }, (_, i) => log.append(KEY_A, plan([`step ${i}`, 'pending'])));
    const events = await Promise.all(calls);
    const history = await log.history(KEY_A);
    assert.deepEqual(
      history.map((e) => e.todos[0]?.content),
      Array.from({ length: 50 }, (_, i) => `step ${i}`),
    );
    assert.deepEqual(history, events);
    assert.deepEqual(await log.current(KEY_A), events[49]);
  });

  it('handles lines longer than a read chunk', async () => {
    const { log } = openLog(tmp.path);
    const big = (tag: string): Todo[] =>
      Array.from({ length: 100 }, (_, i) => ({ content: `${tag} ${i} ${'é'.repeat(990)}`, status: 'pending' }));
    const events = [await log.append(KEY_A, big('one')), await log.append(KEY_A, big('two')), await log.append(KEY_A, big('three'))];
    assert.ok(fs.statSync(log.fileFor(KEY_A)).size > 3 * 150_000);
    const { log: reader } = openLog(tmp.path);
    assert.deepEqual(await reader.current(KEY_A), events[2]);
    assert.deepEqual(await reader.history(KEY_A), events);
  });

  it('property: for any valid list, append then current deep-equals it', async () => {
    const { log } = openLog(tmp.path);
    let run = 0;
    const todo = fc.record({
      content: fc
        .string({ minLength: 1, maxLength: 60, unit: 'grapheme' })
        .filter((s) => /\S/u.test(s)),
      status: fc.constantFrom<Todo['status']>('pending', 'in_progress', 'completed'),
    }, { noNullPrototype: true });
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(todo, { maxLength: 20, selector: (t) => t.content.trim() }), async (todos) => {
        const session = hashIdentity(`property ${run++}`);
        const written = await log.append(session, todos);
        const read = await log.current(session);
        assert.deepEqual(read, written);
        assert.deepEqual(read?.todos, todos.map((t) => ({ content: t.content.trim(), status: t.status })));
      }),
      { numRuns: 60 },
    );
  });
});

describe('sessionLog: crashes and corruption', () => {
  const tmp = useTempDir();

  it('ignores a torn last line; the next append starts on a new line', async () => {
    const { log, corrupt } = openLog(tmp.path);
    const file = log.fileFor(KEY_A);
    const first = await log.append(KEY_A, plan(['a', 'pending']));
    const second = await log.append(KEY_A, plan(['a', 'completed']));
    fs.appendFileSync(file, '{"v":1,"type":"todo/write","ts":"2025-');
    const { log: afterCrash, corrupt: afterCrashCorrupt } = openLog(tmp.path);
    assert.deepEqual(await afterCrash.current(KEY_A), second);
    assert.deepEqual(await afterCrash.history(KEY_A), [first, second]);
    assert.deepEqual(afterCrashCorrupt, [], 'a torn last line is expected after a crash, not reported');

    const third = await log.append(KEY_A, plan(['b', 'in_progress']));
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    assert.equal(lines.length, 5);
    assert.equal(lines[2], '{"v":1,"type":"todo/write","ts":"2025-');
    assert.deepEqual(JSON.parse(lines[3] ?? ''), third);
    assert.equal(lines[4], '');
    assert.deepEqual(await log.current(KEY_A), third);
    assert.deepEqual(await log.history(KEY_A), [first, second, third]);
    assert.equal(corrupt.length, 1, 'the glued-off fragment is now a corrupt middle line');
  });

  it('skips a corrupt middle line and reports it once', async () => {
    const { log, corrupt } = openLog(tmp.path);
    const file = log.fileFor(KEY_A);
    const first = await log.append(KEY_A, plan(['a', 'pending']));
    const offset = fs.statSync(file).size;
    fs.appendFileSync(file, 'this is not json\n');
    const second = await log.append(KEY_A, plan(['a', 'completed']));
    assert.deepEqual(await log.history(KEY_A), [first, second]);
    assert.deepEqual(await log.history(KEY_A), [first, second]);
    assert.deepEqual(corrupt, [{ file, offset, detail: `skipped the line at byte ${offset}: not valid JSON` }]);
  });

  it('current scans back past corrupt last lines to the last valid event, reporting each once', async () => {
    const { log, corrupt } = openLog(tmp.path);
    const file = log.fileFor(KEY_A);
    const good = await log.append(KEY_A, plan(['keep', 'in_progress']));
    fs.appendFileSync(file, '{broken\n');
    fs.appendFileSync(file, JSON.stringify({ v: 1, type: 'todo/write', ts: 'x', session: KEY_A, todos: [], counts: {} }) + '\n');
    assert.deepEqual(await log.current(KEY_A), good);
    assert.deepEqual(await log.current(KEY_A), good);
    assert.equal(corrupt.length, 2);
    assert.deepEqual(
      corrupt.map((c) => c.detail.replace(/^skipped the line at byte \d+: /, '')),
      ['`ts` is not a timestamp', 'not valid JSON'],
    );
  });

  it('validates every event read back', async () => {
    const good: Todo[] = [{ content: 'ok', status: 'pending' }];
    const base = { v: 1, type: 'todo/write', ts: '2031-01-01T00:00:00.000Z', session: KEY_A, todos: good, counts: { pending: 1, inProgress: 0, completed: 0 } };
    const cases: [string, string][] = [
      ['[1,2]', 'not a JSON object'],
      ['null', 'not a JSON object'],
      [JSON.stringify({ ...base, v: 2 }), 'unsupported format version 2'],
      [JSON.stringify({ ...base, type: 'todo/read' }), 'unknown event type "todo/read"'],
      [JSON.stringify({ ...base, ts: 5 }), '`ts` is not a timestamp'],
      [JSON.stringify({ ...base, session: KEY_B }), '`session` does not match the file name'],
      [JSON.stringify({ ...base, todos: [{ content: 'ok', status: 'done' }] }), 'invalid todos (Error: invalid todo 1: `status` must be "pending", "in_progress" or "completed")'],
      [JSON.stringify({ ...base, todos: [...good, ...good], counts: { pending: 2, inProgress: 0, completed: 0 } }), 'invalid todos (Error: invalid todos: duplicate content "ok")'],
      [JSON.stringify({ ...base, todos: [{ content: 'ok', status: 'pending', id: 1 }] }), 'invalid todos (Error: invalid todo 1: unknown key "id"; only `content` and `status` are allowed)'],
      [JSON.stringify({ ...base, counts: { pending: 0, inProgress: 1, completed: 0 } }), '`counts` do not match `todos`'],
      [JSON.stringify({ ...base, counts: null }), '`counts` do not match `todos`'],
    ];
    for (const [line, problem] of cases) {
      const { log, corrupt } = openLog(tmp.path);
      const file = log.fileFor(KEY_A);
      fs.rmSync(file, { force: true });
      const valid = await log.append(KEY_A, plan(['valid', 'completed']));
      fs.appendFileSync(file, line + '\n');
      assert.deepEqual(await log.current(KEY_A), valid, line);
      assert.equal(corrupt.length, 1, line);
      assert.match(corrupt[0]?.detail ?? '', /^skipped the line at byte \d+: /);
      assert.equal(corrupt[0]?.detail.replace(/^skipped the line at byte \d+: /, ''), problem);
    }
  });

  it('accepts a foreign line with extra fields, and returns only the known ones', async () => {
    const { log } = openLog(tmp.path);
    const todos = plan(['from a script', 'pending']);
    const line = JSON.parse(foreignLine(KEY_A, todos)) as Record<string, unknown>;
    fs.writeFileSync(log.fileFor(KEY_A), JSON.stringify({ ...line, origin: 'cli' }) + '\r\n');
    const event = await log.current(KEY_A);
    assert.deepEqual(event, { v: 1, type: 'todo/write', ts: '2030-01-01T00:00:00.000Z', session: KEY_A, todos, counts: { pending: 1, inProgress: 0, completed: 0 } });
  });

  it('skips blank lines silently and invalid UTF-8 with a report', async () => {
    const { log, corrupt } = openLog(tmp.path);
    const file = log.fileFor(KEY_A);
    const good = await log.append(KEY_A, plan(['x', 'pending']));
    fs.appendFileSync(file, '\n\n');
    fs.appendFileSync(file, Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]));
    fs.appendFileSync(file, '   \n');
    assert.deepEqual(await log.current(KEY_A), good);
    assert.deepEqual(
      corrupt.map((c) => c.detail.replace(/^skipped the line at byte \d+: /, '')),
      ['not valid UTF-8'],
    );
  });

  it('skips an over-long line without buffering it whole', async () => {
    const { log, corrupt } = openLog(tmp.path);
    const file = log.fileFor(KEY_A);
    const first = await log.append(KEY_A, plan(['before', 'pending']));
    fs.appendFileSync(file, 'x'.repeat(MAX_LOG_LINE_BYTES + 10) + '\n');
    const { log: reader, corrupt: readerCorrupt } = openLog(tmp.path);
    assert.deepEqual(await reader.current(KEY_A), first);
    assert.deepEqual(await reader.history(KEY_A), [first]);
    const last = await log.append(KEY_A, plan(['after', 'pending']));
    assert.deepEqual(await log.history(KEY_A), [first, last]);
    assert.equal(readerCorrupt.length, 1);
    assert.match(readerCorrupt[0]?.detail ?? '', /line longer than \d+ bytes/);
    assert.equal(corrupt.length, 1);
  });

  it('reads the current plan of a 100,000-event log in bounded bytes', async function () {
    this.timeout(60_000);
    const file = path.join(tmp.path, `${KEY_A}.jsonl`);
    const chunks: string[] = [];
    for (let i = 0; i < 100_000; i++) {
      chunks.push(foreignLine(KEY_A, plan([`task ${i}`, 'in_progress'], ['next', 'pending']), new Date(Date.UTC(2025, 0, 1) + i).toISOString()));
    }
    fs.writeFileSync(file, chunks.join(''));
    assert.ok(fs.statSync(file).size > 10_000_000);
    const counting = new CountingFileSystem();
    const { log } = openLog(tmp.path, counting);
    const current = await log.current(KEY_A);
    assert.equal(current?.todos[0]?.content, 'task 99999');
    assert.ok(counting.bytesRead < 256 * 1024, `read ${counting.bytesRead} bytes`);
    const before = counting.bytesRead;
    const [summary] = await log.sessions();
    assert.deepEqual(summary?.current, current);
    assert.ok(counting.bytesRead - before < 256 * 1024, `sessions read ${counting.bytesRead - before} bytes`);
  });
});

describe('sessionLog: write failures', () => {
  const tmp = useTempDir();

  it('disk full: rejects with a clear reason and writes nothing', async () => {
    const failing = new FailingAppendFileSystem(fsError('ENOSPC', 'no space left on device, write'));
    const { log } = openLog(tmp.path, failing);
    const error = await log.append(KEY_A, plan(['a', 'pending'])).then(
      () => assert.fail('append should reject'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof LogWriteError);
    assert.equal(error.message, 'no space left on device');
    assert.equal(fs.existsSync(log.fileFor(KEY_A)), false);
    assert.equal(await log.current(KEY_A), undefined);
  });

  it('permission denied from the file system: clear reason, previous plan stands', async () => {
    const { log: good } = openLog(tmp.path);
    const kept = await good.append(KEY_A, plan(['kept', 'pending']));
    const sizeBefore = fs.statSync(good.fileFor(KEY_A)).size;
    const { log } = openLog(tmp.path, new FailingAppendFileSystem(fsError('EACCES', 'permission denied, open')));
    await assert.rejects(log.append(KEY_A, plan(['lost', 'pending'])), { name: 'LogWriteError', message: 'permission denied' });
    assert.equal(fs.statSync(good.fileFor(KEY_A)).size, sizeBefore);
    assert.deepEqual(await log.current(KEY_A), kept);
  });

  it('a failed append does not block the next one', async () => {
    let fail = true;
    const flaky = new CountingFileSystem();
    const realAppend = flaky.appendText.bind(flaky);
    flaky.appendText = async (p, text) => {
      if (fail) {
        fail = false;
        throw fsError('EIO', 'i/o error, write');
      }
      return realAppend(p, text);
    };
    const { log } = openLog(tmp.path, flaky);
    const results = await Promise.allSettled([log.append(KEY_A, plan(['1', 'pending'])), log.append(KEY_A, plan(['2', 'pending']))]);
    assert.equal(results[0]?.status, 'rejected');
    assert.equal(results[1]?.status, 'fulfilled');
    assert.deepEqual((await log.history(KEY_A)).map((e) => e.todos[0]?.content), ['2']);
  });

  it('the log file is a directory: says so', async () => {
    const { log } = openLog(tmp.path);
    fs.mkdirSync(log.fileFor(KEY_A));
    await assert.rejects(log.append(KEY_A, plan(['a', 'pending'])), {
      name: 'LogWriteError',
      message: `${log.fileFor(KEY_A)} is a directory`,
    });
  });

  it('the log folder is a file: says so', async () => {
    const dir = path.join(tmp.path, 'not-a-dir');
    fs.writeFileSync(dir, 'x');
    const { log } = openLog(dir);
    const error = await log.append(KEY_A, []).then(
      () => assert.fail('append should reject'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof LogWriteError);
    assert.match(error.message, /(is not a directory|already exists and is not a directory)$/);
    assert.equal(fs.readFileSync(dir, 'utf8'), 'x');
  });
});

describe('sessionLog: reading problems never crash', () => {
  const tmp = useTempDir();

  it('an unreadable log file → undefined / [] and one report', async () => {
    const { log, readErrors } = openLog(tmp.path);
    fs.mkdirSync(log.fileFor(KEY_A));
    assert.equal(await log.current(KEY_A), undefined);
    assert.equal(await log.current(KEY_A), undefined);
    assert.deepEqual(await log.history(KEY_A), []);
    assert.deepEqual(readErrors, [{ file: log.fileFor(KEY_A), reason: `${log.fileFor(KEY_A)} is a directory` }]);
  });

  it('a failing size() is reported, not thrown', async () => {
    const broken = new CountingFileSystem();
    broken.size = async () => {
      throw fsError('EACCES', 'permission denied, stat');
    };
    const { log, readErrors } = openLog(tmp.path, broken);
    assert.equal(await log.current(KEY_A), undefined);
    assert.deepEqual(await log.readNew(KEY_A), []);
    assert.deepEqual(await log.history(KEY_A), []);
    assert.deepEqual(readErrors, [{ file: log.fileFor(KEY_A), reason: 'permission denied' }]);
  });
});

describe('sessionLog: sessions', () => {
  const tmp = useTempDir();

  it('a missing folder has no sessions', async () => {
    const { log, readErrors } = openLog(path.join(tmp.path, 'nope'));
    assert.deepEqual(await log.sessions(), []);
    assert.deepEqual(readErrors, []);
  });

  it('lists every <key>.jsonl, most recent first, ignoring other names', async () => {
    const { log } = openLog(tmp.path);
    const keyC = hashIdentity('c');
    const a = await log.append(KEY_A, plan(['a', 'pending']));
    const b = await log.append(KEY_B, plan(['b', 'completed']));
    const a2 = await log.append(KEY_A, plan(['a', 'completed']));
    fs.writeFileSync(path.join(tmp.path, `${keyC}.jsonl`), 'junk\n');
    fs.writeFileSync(path.join(tmp.path, 'README.txt'), 'hi');
    fs.writeFileSync(path.join(tmp.path, `${KEY_A.toUpperCase()}.jsonl`), foreignLine(KEY_A, []));
    fs.writeFileSync(path.join(tmp.path, `${KEY_B}.json`), foreignLine(KEY_B, []));
    fs.mkdirSync(path.join(tmp.path, 'sub'));
    // The order is this machine's order of writes (the files' modification times), not the lines' clocks.
    fs.utimesSync(log.fileFor(keyC), new Date(1_000_000), new Date(1_000_000));
    fs.utimesSync(log.fileFor(KEY_B), new Date(2_000_000), new Date(2_000_000));
    fs.utimesSync(log.fileFor(KEY_A), new Date(3_000_000), new Date(3_000_000));
    const sessions = await log.sessions();
    assert.deepEqual(
      sessions.map((s) => [s.key, s.current]),
      [
        [KEY_A, a2],
        [KEY_B, b],
        [keyC, undefined],
      ],
    );
    assert.notDeepEqual(a, a2);
    for (const s of sessions) {
      assert.equal(s.file, log.fileFor(s.key));
      assert.equal(s.size, fs.statSync(s.file).size);
    }
  });

  it('lists many sessions (more than are read at once)', async () => {
    const { log } = openLog(tmp.path);
    const keys = Array.from({ length: 40 }, (_, i) => hashIdentity(`s${i}`));
    for (const [index, key] of keys.entries()) {
      await log.append(key, plan([key, 'pending']));
      fs.utimesSync(log.fileFor(key), new Date(1_000_000 + index * 1000), new Date(1_000_000 + index * 1000));
    }
    const sessions = await log.sessions();
    assert.deepEqual(
      sessions.map((s) => s.key),
      [...keys].reverse(),
    );
    assert.ok(sessions.every((s) => s.current?.todos[0]?.content === s.key));
  });

  it('one stat per file for a listing; files that did not change are not handed to listeners again', async () => {
    const counting = new CountingFileSystem();
    const { log } = openLog(tmp.path, counting);
    const keys = Array.from({ length: 30 }, (_, i) => hashIdentity(`one-stat-${i}`));
    for (const key of keys) await log.append(key, plan([key, 'pending']));
    const reads: string[] = [];
    log.onDidRead((read) => reads.push(read.session));
    counting.stats = 0;
    counting.reads = 0;
    await log.sessions();
    // The folder's own time, then one stat of each file.
    assert.equal(counting.stats, keys.length + 1);
    assert.equal(counting.reads, 0, 'nothing new to read');
    assert.equal(reads.length, 0, 'no unchanged state handed on');
    await log.sessions({ restate: true });
    assert.equal(reads.length, keys.length, 'a listener that came later asks for every state');
  });

  it('poll: while nothing changes, one stat of the folder and one of each file, and nothing read or handed on', async () => {
    const counting = new CountingFileSystem();
    const { log } = openLog(tmp.path, counting);
    const keys = Array.from({ length: 20 }, (_, i) => hashIdentity(`poll-${i}`));
    for (const key of keys) await log.append(key, plan([key, 'pending']));
    // A folder last changed a while ago: its time can be trusted to show the next change.
    fs.utimesSync(tmp.path, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    await log.sessions();
    const reads: string[] = [];
    log.onDidRead((read) => reads.push(read.session));
    counting.stats = 0;
    counting.reads = 0;
    assert.equal(await log.poll(), false);
    assert.equal(await log.poll(), false);
    assert.equal(counting.stats, 2 * (keys.length + 1));
    assert.equal(counting.reads, 0);
    assert.equal(reads.length, 0, 'nothing handed on');

    // Another program appends to one file: only that one is read, and its line handed on.
    const target = keys[7] as string;
    fs.appendFileSync(log.fileFor(target), foreignLine(target, plan(['appended', 'completed'])));
    assert.equal(await log.poll(), true);
    assert.deepEqual(reads, [target]);
    assert.equal((await log.current(target))?.todos[0]?.content, 'appended');

    // A new file changes the folder: it is listed again and the new session is read.
    const fresh = hashIdentity('poll-new');
    fs.writeFileSync(log.fileFor(fresh), foreignLine(fresh, plan(['new', 'pending'])));
    assert.equal(await log.poll(), true);
    assert.ok(reads.includes(fresh), 'the new session was read');

    // A deleted file is reported gone.
    const gone: string[] = [];
    log.onDidRead((read) => {
      if (read.gone) gone.push(read.session);
    });
    fs.utimesSync(tmp.path, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    await log.poll();
    fs.rmSync(log.fileFor(keys[0] as string));
    fs.utimesSync(tmp.path, new Date(Date.now() - 30_000), new Date(Date.now() - 30_000));
    assert.equal(await log.poll(), true);
    assert.deepEqual(gone, [keys[0]]);
  });

  it('remove deletes one session’s log only', async () => {
    const { log } = openLog(tmp.path);
    await log.append(KEY_A, plan(['a', 'pending']));
    const b = await log.append(KEY_B, plan(['b', 'pending']));
    await log.remove(KEY_A);
    assert.equal(fs.existsSync(log.fileFor(KEY_A)), false);
    assert.equal(await log.current(KEY_A), undefined);
    assert.deepEqual((await log.sessions()).map((s) => s.current), [b]);
    await log.remove(KEY_A);
    const again = await log.append(KEY_A, plan(['fresh', 'pending']));
    assert.deepEqual(await log.history(KEY_A), [again]);
  });

  it('remove failures reject with a reason', async () => {
    const fake = new CountingFileSystem();
    fake.remove = async () => {
      throw fsError('EPERM', 'operation not permitted, unlink');
    };
    const { log } = openLog(tmp.path, fake);
    await assert.rejects(log.remove(KEY_A), { name: 'LogWriteError', message: 'permission denied' });
  });
});

describe('sessionLog: readNew (the watcher feed)', () => {
  const tmp = useTempDir();

  it('returns another writer’s appends once, never its own', async () => {
    const { log } = openLog(tmp.path);
    const file = log.fileFor(KEY_A);
    const own1 = await log.append(KEY_A, plan(['own 1', 'pending']));
    assert.deepEqual(await log.readNew(KEY_A), []);
    const foreign1 = plan(['foreign 1', 'in_progress']);
    const foreign2 = plan(['foreign 2', 'completed']);
    fs.appendFileSync(file, foreignLine(KEY_A, foreign1));
    fs.appendFileSync(file, foreignLine(KEY_A, foreign2));
    assert.deepEqual((await log.readNew(KEY_A)).map((e) => e.todos), [foreign1, foreign2]);
    assert.deepEqual(await log.readNew(KEY_A), []);
    const own2 = await log.append(KEY_A, plan(['own 2', 'pending']));
    assert.deepEqual(await log.readNew(KEY_A), []);
    assert.deepEqual((await log.history(KEY_A)).map((e) => e.todos[0]?.content), ['own 1', 'foreign 1', 'foreign 2', 'own 2']);
    assert.notDeepEqual(own1, own2);
  });

  it('one reader: an append reads back another writer’s line before its own, in file order', async () => {
    const { log } = openLog(tmp.path);
    const file = log.fileFor(KEY_A);
    const seen: string[] = [];
    log.onDidRead((read) => {
      for (const record of read.records) if (record.type === 'todo/write') seen.push(record.todos[0]?.content ?? '');
      if (read.sync) seen.push(`sync:${read.sync.current?.todos[0]?.content ?? ''}`);
    });
    await log.append(KEY_A, plan(['own 1', 'pending']));
    const foreign = plan(['foreign', 'pending']);
    fs.appendFileSync(file, foreignLine(KEY_A, foreign));
    const own = await log.append(KEY_A, plan(['own 2', 'pending']));
    assert.equal(own.todos[0]?.content, 'own 2');
    assert.deepEqual(seen, ['own 1', 'foreign', 'own 2']);
    assert.deepEqual(await log.readNew(KEY_A), []);
  });

  it('leaves a partial trailing line for the next call', async () => {
    const { log } = openLog(tmp.path);
    const file = log.fileFor(KEY_A);
    await log.append(KEY_A, []);
    const line = foreignLine(KEY_A, plan(['slow writer', 'pending']));
    fs.appendFileSync(file, line.slice(0, 20));
    assert.deepEqual(await log.readNew(KEY_A), []);
    fs.appendFileSync(file, line.slice(20));
    assert.deepEqual((await log.readNew(KEY_A)).map((e) => e.todos[0]?.content), ['slow writer']);
  });

  it('after startup (current/sessions), returns everything appended since', async () => {
    const file = path.join(tmp.path, `${KEY_A}.jsonl`);
    fs.writeFileSync(file, foreignLine(KEY_A, plan(['old', 'pending'])));
    const { log } = openLog(tmp.path);
    assert.equal((await log.sessions())[0]?.current?.todos[0]?.content, 'old');
    fs.appendFileSync(file, foreignLine(KEY_A, plan(['new 1', 'pending'])) + foreignLine(KEY_A, plan(['new 2', 'pending'])));
    assert.deepEqual((await log.readNew(KEY_A)).map((e) => e.todos[0]?.content), ['new 1', 'new 2']);
  });

  it('a file never seen before yields its current event only', async () => {
    const file = path.join(tmp.path, `${KEY_B}.jsonl`);
    fs.writeFileSync(file, foreignLine(KEY_B, plan(['first', 'pending'])) + foreignLine(KEY_B, plan(['second', 'pending'])));
    const { log } = openLog(tmp.path);
    assert.deepEqual((await log.readNew(KEY_B)).map((e) => e.todos[0]?.content), ['second']);
    assert.deepEqual(await log.readNew(KEY_B), []);
  });

  it('a truncated file resets: the current event only', async () => {
    const { log } = openLog(tmp.path);
    const file = log.fileFor(KEY_A);
    await log.append(KEY_A, plan(['a', 'pending']));
    await log.append(KEY_A, plan(['b', 'pending']));
    fs.writeFileSync(file, foreignLine(KEY_A, plan(['rewritten', 'pending'])));
    assert.deepEqual((await log.readNew(KEY_A)).map((e) => e.todos[0]?.content), ['rewritten']);
    fs.appendFileSync(file, foreignLine(KEY_A, plan(['after', 'pending'])));
    assert.deepEqual((await log.readNew(KEY_A)).map((e) => e.todos[0]?.content), ['after']);
  });

  it('a deleted file yields nothing', async () => {
    const { log } = openLog(tmp.path);
    await log.append(KEY_A, plan(['a', 'pending']));
    await fsp.unlink(log.fileFor(KEY_A));
    assert.deepEqual(await log.readNew(KEY_A), []);
  });

  it('skips and reports a corrupt appended line', async () => {
    const { log, corrupt } = openLog(tmp.path);
    const file = log.fileFor(KEY_A);
    await log.append(KEY_A, []);
    fs.appendFileSync(file, 'garbage\n' + foreignLine(KEY_A, plan(['ok', 'pending'])));
    assert.deepEqual((await log.readNew(KEY_A)).map((e) => e.todos[0]?.content), ['ok']);
    assert.equal(corrupt.length, 1);
  });

  it('reads only the new bytes', async () => {
    const counting = new CountingFileSystem();
    const { log } = openLog(tmp.path, counting);
    const file = log.fileFor(KEY_A);
    const big = Array.from({ length: 100 }, (_, i) => ({ content: `item ${i} ${'z'.repeat(900)}`, status: 'pending' as const }));
    for (let i = 0; i < 5; i++) await log.append(KEY_A, big);
    const line = foreignLine(KEY_A, plan(['small', 'pending']));
    fs.appendFileSync(file, line);
    const before = counting.bytesRead;
    assert.equal((await log.readNew(KEY_A)).length, 1);
    assert.equal(counting.bytesRead - before, Buffer.byteLength(line));
  });
});

describe('sessionLog: the returned events', () => {
  const tmp = useTempDir();

  it('history events equal the events append returned', async () => {
    const { log } = openLog(tmp.path);
    const events: PlanRecord[] = [];
    for (const status of ['pending', 'in_progress', 'completed'] as const) events.push(await log.append(KEY_A, plan(['t', status])));
    assert.deepEqual(await log.history(KEY_A), events);
    assert.deepEqual(
      events.map((e) => e.counts),
      [
        { pending: 1, inProgress: 0, completed: 0 },
        { pending: 0, inProgress: 1, completed: 0 },
        { pending: 0, inProgress: 0, completed: 1 },
      ],
    );
  });
});

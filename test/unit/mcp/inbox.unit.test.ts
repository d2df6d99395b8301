// The MCP server's inbox, in process: the writer's bounds and whole lines, the sweep at start,
// and the plan read back for a session, on real files in a temp folder.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { InboxWriter } from '../../../src/mcp/inbox';
import { INBOX_BOUNDS, INBOX_FULL } from '../../../src/mcp/inboxBounds';
import { inboxFileName, inboxFilePid, inboxLine, parseInboxLine } from '../../../src/mcp/inboxLine';
import { latestSessionPlan } from '../../../src/mcp/inboxPlan';
import { sweepInbox } from '../../../src/mcp/inboxSweep';
import { useTempDir } from '../../lib/temp';

const DAY = 24 * 60 * 60 * 1000;

function line(session: string | undefined, ts: string, todos: Array<{ content: string; status: 'pending' | 'in_progress' | 'completed' }>): string {
  return inboxLine({ ts, client: { name: 'c', version: '1' }, cwd: '/w', agentSession: session, call: 'x', todos });
}

describe('MCP inbox: the line and the file name', () => {
  it('names a file by UTC time, pid and 6 hex characters, and reads the pid back', () => {
    const name = inboxFileName(new Date('2026-12-07T08:09:10.123Z'), 4242, 'a1b2c3');
    assert.equal(name, '20261207T080910-4242-a1b2c3.jsonl');
    assert.deepEqual([inboxFilePid(name), inboxFilePid('20261207T080910-4242-a1b2c3.jsonl.tmp'), inboxFilePid('x.jsonl')], [4242, undefined, undefined]);
  });

  it('writes the contract fields in order, agentSession only when known, one line', () => {
    const withSession = line('s', 't', [{ content: 'a', status: 'pending' }]);
    assert.equal(withSession, '{"v":1,"type":"mcp/todo_write","ts":"t","client":{"name":"c","version":"1"},"cwd":"/w","agentSession":"s","call":"x","todos":[{"content":"a","status":"pending"}]}\n');
    assert.equal(line(undefined, 't', []), '{"v":1,"type":"mcp/todo_write","ts":"t","client":{"name":"c","version":"1"},"cwd":"/w","call":"x","todos":[]}\n');
    assert.equal(line('s', 't', [{ content: 'a\nb\u2028', status: 'pending' }]).split('\n').length, 2, 'a newline in the content stays escaped');
  });

  it('reads back only valid records: todos checked again, other shapes skipped', () => {
    assert.deepEqual(parseInboxLine(line('s', 't', [{ content: 'a', status: 'pending' }]).trim()), { ts: 't', agentSession: 's', todos: [{ content: 'a', status: 'pending' }] });
    for (const bad of [
      'not json',
      '{"v":2,"type":"mcp/todo_write","ts":"t","todos":[]}',
      '{"v":1,"type":"todo/write","ts":"t","todos":[]}',
      '{"v":1,"type":"mcp/todo_write","ts":"t","agentSession":7,"todos":[]}',
      '{"v":1,"type":"mcp/todo_write","ts":"t","todos":[{"content":"a","status":"done"}]}',
      '{"v":1,"type":"mcp/todo_write","ts":"t","todos":[{"content":"a","status":"pending","id":1}]}',
    ]) {
      assert.equal(parseInboxLine(bad), undefined, bad);
    }
  });
});

describe('MCP inbox: the writer', function () {
  // Thousands of files and 8 MiB written: more than mocha's default 2 s on a busy machine.
  this.timeout(20_000);
  const tmp = useTempDir();

  it('creates the folder 0700 and the file 0600 on the first line, and appends whole lines', () => {
    const folder = path.join(tmp.path, 'a', 'inbox');
    const writer = new InboxWriter(folder, () => 'f.jsonl');
    assert.equal(fs.existsSync(folder), false, 'nothing before the first line');
    assert.deepEqual(writer.append('one\n'), { ok: true });
    assert.deepEqual(writer.append('two\n'), { ok: true });
    writer.close();
    assert.equal(fs.readFileSync(path.join(folder, 'f.jsonl'), 'utf8'), 'one\ntwo\n');
    if (process.platform !== 'win32') {
      assert.equal(fs.statSync(folder).mode & 0o777, 0o700);
      assert.equal(fs.statSync(path.join(folder, 'f.jsonl')).mode & 0o777, 0o600);
    }
  });

  it('refuses a line that would take its file past 8 MiB, and keeps the file whole', () => {
    const writer = new InboxWriter(tmp.path, () => 'f.jsonl');
    const big = 'x'.repeat(1024 * 1024 - 1) + '\n';
    for (let i = 0; i < 8; i++) assert.deepEqual(writer.append(big), { ok: true }, `line ${i}`);
    assert.deepEqual(writer.append('y\n'), { ok: false, reason: INBOX_FULL.file });
    writer.close();
    assert.equal(fs.statSync(path.join(tmp.path, 'f.jsonl')).size, INBOX_BOUNDS.maxFileBytes);
  });

  it('refuses when the folder holds 2,000 files or 64 MiB, counting every file in it', () => {
    for (let i = 0; i < 1999; i++) fs.writeFileSync(path.join(tmp.path, `x${i}`), '');
    const writer = new InboxWriter(tmp.path, () => 'f.jsonl');
    assert.deepEqual(writer.append('a\n'), { ok: true }, 'the 2,000th file');
    fs.writeFileSync(path.join(tmp.path, 'one-more'), '');
    assert.deepEqual(writer.append('b\n'), { ok: false, reason: INBOX_FULL.folderFiles });
    fs.rmSync(path.join(tmp.path, 'one-more'));
    fs.truncateSync(path.join(tmp.path, 'x0'), INBOX_BOUNDS.maxFolderBytes - 3);
    assert.deepEqual(writer.append('c\n'), { ok: false, reason: INBOX_FULL.folderBytes });
    writer.close();
    assert.equal(fs.readFileSync(path.join(tmp.path, 'f.jsonl'), 'utf8'), 'a\n');
  });

  it('turns an I/O failure into a reason naming only its code', () => {
    const file = path.join(tmp.path, 'taken');
    fs.writeFileSync(file, '');
    const writer = new InboxWriter(path.join(file, 'inbox'), () => 'f.jsonl');
    const result = writer.append('a\n');
    assert.ok(!result.ok);
    assert.match(result.reason, /^the inbox could not be written \((ENOTDIR|EEXIST)\)$/);
  });

  it('never follows a symlink where its file would be', function () {
    if (process.platform === 'win32') this.skip();
    const target = path.join(tmp.path, 'target');
    fs.writeFileSync(target, 'keep\n');
    fs.symlinkSync(target, path.join(tmp.path, 'f.jsonl'));
    const writer = new InboxWriter(tmp.path, () => 'f.jsonl');
    assert.equal(writer.append('a\n').ok, false);
    assert.equal(fs.readFileSync(target, 'utf8'), 'keep\n');
  });
});

describe('MCP inbox: the sweep at start', () => {
  const tmp = useTempDir();

  function file(name: string, ageDays: number): string {
    const p = path.join(tmp.path, name);
    fs.writeFileSync(p, '{}\n');
    const when = new Date(Date.now() - ageDays * DAY);
    fs.utimesSync(p, when, when);
    return name;
  }

  it('removes only old inbox files of processes that are gone', function () {
    const gone = file('20250101T000000-111-aaaaaa.jsonl', 31);
    const running = file('20250101T000000-222-bbbbbb.jsonl', 31);
    const recent = file('20250101T000000-333-cccccc.jsonl', 29);
    const foreign = file('notes.jsonl', 100);
    const odd = file('20250101T000000-444-cccccc.jsonl.bak', 100);
    const linked: string[] = [];
    if (process.platform !== 'win32') {
      const target = file('target.txt', 100);
      fs.symlinkSync(path.join(tmp.path, target), path.join(tmp.path, '20250101T000000-555-dddddd.jsonl'));
      linked.push(target, '20250101T000000-555-dddddd.jsonl');
    }
    const removed = sweepInbox(tmp.path, Date.now(), (pid) => pid === 222);
    assert.equal(removed, 1);
    assert.deepEqual(fs.readdirSync(tmp.path).sort(), [running, recent, foreign, odd, ...linked].sort());
    assert.equal(fs.readdirSync(tmp.path).includes(gone), false);
  });

  it('is quiet about a folder that does not exist', () => {
    assert.equal(sweepInbox(path.join(tmp.path, 'none'), Date.now()), 0);
  });
});

describe('MCP inbox: the plan of a session, read back', () => {
  const tmp = useTempDir();

  it('is the latest valid line of that session across the files, other sessions and bad lines skipped', () => {
    const a = '20260101T000000-1-aaaaaa.jsonl';
    const b = '20260102T000000-2-bbbbbb.jsonl';
    fs.writeFileSync(
      path.join(tmp.path, a),
      line('s1', '2026-01-01T00:00:00.000Z', [{ content: 'first', status: 'pending' }]) +
        line('s1', '2026-01-03T00:00:00.000Z', [{ content: 'latest', status: 'completed' }]) +
        '{"v":1,"type":"mcp/todo_write","ts":"2026-01-09T00:00:00.000Z","agentSession":"s1","todos":[{"content":"bad","status":"done"}]}\n' +
        '{"torn":',
    );
    fs.writeFileSync(
      path.join(tmp.path, b),
      line('s1', '2026-01-02T00:00:00.000Z', [{ content: 'middle', status: 'pending' }]) + line('s2', '2026-01-05T00:00:00.000Z', [{ content: 'other', status: 'pending' }]),
    );
    fs.writeFileSync(path.join(tmp.path, 'notes.jsonl'), line('s1', '2027-01-01T00:00:00.000Z', [{ content: 'not an inbox file', status: 'pending' }]));
    assert.deepEqual(latestSessionPlan(tmp.path, 's1'), [{ content: 'latest', status: 'completed' }]);
    assert.deepEqual(latestSessionPlan(tmp.path, 's2'), [{ content: 'other', status: 'pending' }]);
    assert.equal(latestSessionPlan(tmp.path, 's3'), undefined);
    assert.equal(latestSessionPlan(path.join(tmp.path, 'none'), 's1'), undefined);
  });
});

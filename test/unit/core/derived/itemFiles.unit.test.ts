// What each item changed: the file/write record, its import, and the book the views read.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { FileBook, SessionFiles } from '../../../../src/core/derived/itemFiles';
import { fileWriteRecord, parseLogRecord } from '../../../../src/core/log/logRecord';
import { LogPlanSink } from '../../../../src/core/log/planSink';
import { foreignSessionKey } from '../../../../src/core/log/sessionKey';
import { SessionLog } from '../../../../src/core/log/sessionLog';
import { PlanStore } from '../../../../src/core/store/store';
import { NodeFileSystem } from '../../../../src/node/nodeFileSystem';
import type { ForeignPlan, ForeignWrite } from '../../../../src/core/foreign';
import { KEY_A } from '../../helpers';
import { useTempDir } from '../../../lib/temp';
import { waitFor } from '../../../lib/wait';

const source = { agent: 'claude-code', session: 'run-1', call: 'toolu_1' } as const;
const TS = '2026-12-03T10:00:00.000Z';

const plan = (call: string, ...items: Array<[string, ForeignPlan['items'][number]['status']]>): ForeignPlan => ({
  source: { agent: 'claude-code', tool: 'TodoWrite', session: 'run-1', call },
  items: items.map(([content, status]) => ({ content, status })),
});
const write = (call: string, plansBefore: number, ...files: string[]): ForeignWrite => ({ source: { agent: 'claude-code', session: 'run-1', call }, files, plansBefore });

describe('file/write: the record', () => {
  it('reads back what it writes, with the files once each and the items in progress', () => {
    const record = fileWriteRecord(KEY_A, TS, source, ['/w/a.ts', 'src/b.ts', '/w/a.ts'], ['Write the fix'], '2026-12-03T09:59:59.000Z');
    assert.deepEqual(record.files, ['/w/a.ts', 'src/b.ts']);
    assert.deepEqual(parseLogRecord(JSON.parse(JSON.stringify(record)), KEY_A), record);
  });

  it('rejects a line that breaks the rules, each with its own text', () => {
    const good = fileWriteRecord(KEY_A, TS, source, ['a.ts'], []);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...good, files: [] }, /`files` of a file\/write must be a list of 1 to 64 paths/],
      [{ ...good, files: ['a\nb'] }, /NUL or a line break/],
      [{ ...good, files: ['a.ts', 'a.ts'] }, /names a path twice/],
      [{ ...good, files: [''] }, /non-empty string/],
      [{ ...good, items: [1] }, /`items` of a file\/write/],
      [{ ...good, source: { agent: 'claude-code', session: 'run-1' } }, /`source` of a file\/write/],
      [{ ...good, source: { ...source, agent: 'vim' } }, /`source` of a file\/write/],
      [{ ...good, at: 'yesterday' }, /`at` is not a timestamp/],
    ];
    for (const [line, problem] of cases) {
      const parsed = parseLogRecord(line, KEY_A);
      assert.equal(typeof parsed, 'string', JSON.stringify(line));
      assert.match(parsed as string, problem);
    }
  });
});

describe('file/write: files by item', () => {
  it('a plan-less sub-agent’s write counts under the item in progress, marked as the sub-agent’s', () => {
    const files = new SessionFiles();
    files.feed(fileWriteRecord(KEY_A, TS, source, ['own.ts'], ['A']));
    files.feed(fileWriteRecord(KEY_A, TS, { ...source, session: 'sub-1', call: '9' }, ['helper.ts'], ['A'], undefined, true));
    files.feed(fileWriteRecord(KEY_A, TS, { ...source, call: '10' }, ['helper.ts'], ['A']));
    assert.deepEqual(
      files.of('A').map((file) => [file.path, file.subagent === true, file.writes]),
      [
        ['own.ts', false, 1],
        ['helper.ts', true, 2],
      ],
    );
  });

  it('one item in progress: its files; several: each of theirs, shared; none: the session’s', () => {
    const files = new SessionFiles();
    assert.equal(files.feed(fileWriteRecord(KEY_A, TS, source, ['a.ts'], ['A'])), true);
    files.feed(fileWriteRecord(KEY_A, TS, { ...source, call: '2' }, ['b.ts', 'a.ts'], ['A', 'B']));
    files.feed(fileWriteRecord(KEY_A, '2026-12-03T10:05:00.000Z', { ...source, call: '3' }, ['README.md'], []));
    assert.deepEqual(
      files.of('A').map((file) => [file.path, file.shared, file.writes]),
      [
        ['a.ts', true, 2],
        ['b.ts', true, 1],
      ],
    );
    assert.deepEqual(files.of('B').map((file) => file.path), ['b.ts', 'a.ts']);
    assert.deepEqual(files.session().map((file) => [file.path, file.last]), [['README.md', '2026-12-03T10:05:00.000Z']]);
    assert.deepEqual(files.of('C'), []);
  });
});

describe('file/write: imported from an agent’s record', () => {
  const tmp = useTempDir();
  const open = () => {
    const log = new SessionLog(tmp.path, new NodeFileSystem());
    const store = new PlanStore(log);
    return { log, store, sink: new LogPlanSink(log), files: new FileBook(log) };
  };
  const key = foreignSessionKey('claude-code', 'run-1');
  const writeLines = (log: SessionLog) =>
    fs
      .readFileSync(log.fileFor(key), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; files?: string[]; items?: string[] })
      .filter((line) => line.type === 'file/write')
      .map((line) => [line.files, line.items]);

  it('gives each write to the item in progress in the version the record puts it after, even when later versions are in already', async () => {
    const { log, sink, files } = open();
    await sink.importPlans([plan('p1', ['A', 'in_progress'], ['B', 'pending']), plan('p2', ['A', 'completed'], ['B', 'in_progress']), plan('p3', ['A', 'completed'], ['B', 'completed'])]);
    await sink.importWrites([write('w0', 0, '/w/setup.sh'), write('w1', 1, '/w/a.ts'), write('w2', 2, '/w/b.ts'), write('w9', 9, '/w/late.ts')]);
    assert.deepEqual(writeLines(log), [
      [['/w/setup.sh'], []],
      [['/w/a.ts'], ['A']],
      [['/w/b.ts'], ['B']],
      // A version the log does not hold: the current plan's, which has none in progress.
      [['/w/late.ts'], []],
    ]);
    const book = await files.get(key);
    assert.deepEqual(book.of('A').map((file) => file.path), ['/w/a.ts']);
    assert.deepEqual(book.of('B').map((file) => file.path), ['/w/b.ts']);
    assert.deepEqual(book.session().map((file) => file.path), ['/w/setup.sh', '/w/late.ts']);
  });

  it('imports a write once, also after a restart, and the book of a new reader finds it in the past', async () => {
    const first = open();
    await first.sink.importPlans([plan('p1', ['A', 'in_progress'], ['B', 'in_progress'])]);
    await first.sink.importWrites([write('w1', 1, '/w/a.ts', '/w/b.ts')]);
    await first.sink.importWrites([write('w1', 1, '/w/a.ts', '/w/b.ts')]);
    const second = open();
    await second.sink.importWrites([write('w1', 1, '/w/a.ts', '/w/b.ts'), write('w2', 1, '/w/c.ts')]);
    assert.deepEqual(writeLines(second.log), [
      [['/w/a.ts', '/w/b.ts'], ['A', 'B']],
      [['/w/c.ts'], ['A', 'B']],
    ]);
    const book = await second.files.get(key);
    assert.deepEqual(book.of('A').map((file) => [file.path, file.shared]), [
      ['/w/a.ts', true],
      ['/w/b.ts', true],
      ['/w/c.ts', true],
    ]);
  });

  it('the book follows new lines as the reader meets them, and says which session changed', async () => {
    const { sink, files } = open();
    await sink.importPlans([plan('p1', ['A', 'in_progress'])]);
    await files.get(key);
    const changed: string[] = [];
    files.onDidChange((session) => changed.push(session));
    await sink.importWrites([write('w1', 1, '/w/a.ts')]);
    assert.deepEqual(changed, [key]);
    assert.deepEqual(files.peek(key)?.of('A').map((file) => file.path), ['/w/a.ts']);
  });

  it('a run that edits but never plans leaves no file; its writes land once its first plan does', async () => {
    const { log, sink } = open();
    await sink.importWrites([write('w0', 0, '/w/setup.sh')]);
    assert.equal(fs.existsSync(log.fileFor(key)), false, 'no session file for a run without a plan');
    await sink.importPlans([plan('p1', ['A', 'in_progress'])]);
    // The held write is appended once the reader has met the plan.
    await waitFor(() => writeLines(log).length > 0, 'the held write to be appended', 2000, 10);
    assert.deepEqual(writeLines(log), [[['/w/setup.sh'], []]]);
  });

  it('a write not in the contract’s shape is refused before anything is written', async () => {
    const { log, sink } = open();
    await sink.importPlans([plan('p1', ['A', 'in_progress'])]);
    const before = fs.readFileSync(log.fileFor(key), 'utf8');
    await assert.rejects(sink.importWrites([write('w1', 1, '/w/a.ts'), write('w2', 1, 'bad\nname')]), /importWrites: write 2: a path holds a NUL or a line break/);
    await assert.rejects(sink.importWrites([write('w3', 1)]), /importWrites: write 1: no files/);
    await assert.rejects(sink.importWrites([write('w4', -1, 'a.ts')]), /plansBefore/);
    assert.equal(fs.readFileSync(log.fileFor(key), 'utf8'), before);
  });
});

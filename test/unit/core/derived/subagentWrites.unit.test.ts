// A subagent's edits while its session has no plan of its own (a Cline 3.x subagent never has a
// board): they are written to its parent's log, counted under the items the parent had in
// progress when they were made, and marked as the subagent's; once each, whichever window
// imports them; held, as any write, while the parent has no plan either.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { FileBook } from '../../../../src/core/derived/itemFiles';
import { fileWriteRecord, parseLogRecord } from '../../../../src/core/log/logRecord';
import { LogPlanSink } from '../../../../src/core/log/planSink';
import { foreignSessionKey } from '../../../../src/core/log/sessionKey';
import { SessionLog } from '../../../../src/core/log/sessionLog';
import { NodeFileSystem } from '../../../../src/node/nodeFileSystem';
import type { ForeignPlan, ForeignWrite } from '../../../../src/core/foreign';
import { KEY_A } from '../../helpers';
import { useTempDir } from '../../../lib/temp';
import { waitFor } from '../../../lib/wait';

const PARENT = '1796523326456_jq8k4';
const SUB = `${PARENT}__agent_1796523327422_i37xwo`;
const at = (ms: number) => new Date(1796523327000 + ms).toISOString();
const plan = (call: string, ms: number, status: ForeignPlan['items'][number]['status']): ForeignPlan => ({
  source: { agent: 'cline', tool: 'team_task', session: PARENT, call },
  items: [
    { content: 'Hand the edit to a subagent', status },
    { content: 'Review it', status: 'pending' },
  ],
  at: at(ms),
});
const subWrite = (call: string, ms: number | undefined, file: string): ForeignWrite => ({
  source: { agent: 'cline', session: SUB, call },
  files: [file],
  plansBefore: 0,
  parent: PARENT,
  ...(ms !== undefined ? { at: at(ms) } : {}),
});

describe("a plan-less subagent's edits count under its parent's item in progress", () => {
  const tmp = useTempDir();
  const open = () => {
    const log = new SessionLog(tmp.path, new NodeFileSystem());
    return { log, sink: new LogPlanSink(log), files: new FileBook(log) };
  };
  const parentKey = foreignSessionKey('cline', PARENT);
  const subKey = foreignSessionKey('cline', SUB);
  const writeLines = (log: SessionLog, key = parentKey) =>
    fs.existsSync(log.fileFor(key))
      ? fs
          .readFileSync(log.fileFor(key), 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((line) => line['type'] === 'file/write')
      : [];

  it("lands in the parent's log with the items in progress when it was made, marked as the subagent's, once whichever window imports it", async () => {
    const first = open();
    // The parent claimed the item, the subagent edited, the parent completed it: all read before the subagent's file.
    await first.sink.importPlans([plan('claim', 300, 'in_progress'), plan('complete', 600, 'completed')]);
    await first.sink.importWrites([subWrite('call_1', 470, '/w/src/tokens.ts')]);
    await first.sink.importWrites([subWrite('call_1', 470, '/w/src/tokens.ts')]);
    const second = open();
    await second.sink.importWrites([subWrite('call_1', 470, '/w/src/tokens.ts')]);
    const lines = writeLines(first.log);
    assert.equal(lines.length, 1);
    assert.deepEqual(lines[0]?.['source'], { agent: 'cline', session: SUB, call: 'call_1' });
    assert.deepEqual(lines[0]?.['items'], ['Hand the edit to a subagent']);
    assert.equal(lines[0]?.['subagent'], true);
    assert.equal(fs.existsSync(first.log.fileFor(subKey)), false, 'the subagent, with no plan, has no log of its own');
    const book = await second.files.get(parentKey);
    assert.deepEqual(book.of('Hand the edit to a subagent').map((file) => file.path), ['/w/src/tokens.ts']);
  });

  it("without a time to place it, it counts under the parent's current items in progress", async () => {
    const { log, sink } = open();
    await sink.importPlans([plan('claim', 300, 'in_progress')]);
    await sink.importWrites([subWrite('call_2', undefined, '/w/a.ts')]);
    assert.deepEqual(writeLines(log).map((line) => line['items']), [['Hand the edit to a subagent']]);
  });

  it('while the parent has no plan either, it waits for the parent’s first plan', async () => {
    const { log, sink } = open();
    await sink.importWrites([subWrite('call_3', 470, '/w/b.ts')]);
    assert.equal(fs.existsSync(log.fileFor(parentKey)), false);
    await sink.importPlans([plan('claim', 300, 'in_progress')]);
    // The parent's first plan lets the waiting write go (the sink appends it in a step of its own).
    await waitFor(() => writeLines(log).length > 0, 'the waiting write appended to the parent’s log', 10_000, 20);
    assert.deepEqual(
      writeLines(log).map((line) => [line['files'], line['items'], line['subagent']]),
      [[['/w/b.ts'], ['Hand the edit to a subagent'], true]],
    );
  });

  it('the mark reads back, and is refused in any other value; a write naming itself as its parent is refused', async () => {
    const record = fileWriteRecord(KEY_A, at(0), { agent: 'cline', session: SUB, call: 'c' }, ['a.ts'], ['A'], undefined, true);
    assert.equal(record.subagent, true);
    assert.deepEqual(parseLogRecord(JSON.parse(JSON.stringify(record)), KEY_A), record);
    assert.equal(parseLogRecord({ ...record, subagent: false }, KEY_A), '`subagent` of a file/write must be true when present');
    assert.equal(fileWriteRecord(KEY_A, at(0), { agent: 'cline', session: SUB, call: 'c' }, ['a.ts'], ['A']).subagent, undefined);
    const { sink } = open();
    await assert.rejects(sink.importWrites([{ ...subWrite('c', 1, 'a.ts'), parent: SUB }]), /`parent` must be another session's id/);
  });
});

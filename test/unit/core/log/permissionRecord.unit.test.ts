// The permission/ask and permission/answer lines (src/core/log/permissionRecord.ts): what the
// log reader keeps of them (unknown fields dropped), each rejection's stable text, the
// documented examples, and SessionLog.appendPermission writing a line that reads back equal.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseLogRecord, type LogRecord } from '../../../../src/core/log/logRecord';
import { MAX_PERMISSION_INPUT, MAX_PERMISSION_TEXT, PERMISSION_ANSWER_EVENT, PERMISSION_ASK_EVENT, permissionAnswerProblem, permissionAskProblem } from '../../../../src/core/log/permissionRecord';
import { SessionLog } from '../../../../src/core/log/sessionLog';
import { nodeFileSystem } from '../../../../src/node/nodeFileSystem';
import { KEY_A } from '../../helpers';
import { useTempDir } from '../../../lib/temp';

const KEY = KEY_A;
const TS = '2026-12-07T09:30:01.200Z';
const UNTIL = '2026-12-07T09:31:01.200Z';
const ID = 'claude-code.48211.1796635801';

const askLine = (extra: Record<string, unknown> = {}) => ({
  v: 1,
  type: 'permission/ask',
  ts: TS,
  session: KEY,
  id: ID,
  agent: 'claude-code',
  tool: 'Bash',
  input: 'touch approved.txt',
  description: 'Create the marker file',
  until: UNTIL,
  ...extra,
});
const answerLine = (extra: Record<string, unknown> = {}) => ({ v: 1, type: 'permission/answer', ts: TS, session: KEY, id: ID, answer: 'deny', message: 'use pnpm', ...extra });

describe('permission lines: permission/ask and permission/answer', () => {
  it('read back as written, unknown fields dropped; an empty description or message is left out', () => {
    assert.deepEqual(parseLogRecord({ ...askLine(), color: 'red', nested: { a: 1 } }, KEY), askLine());
    assert.deepEqual(parseLogRecord({ ...answerLine(), extra: true }, KEY), answerLine());
    const { description: _description, ...bare } = askLine();
    assert.deepEqual(parseLogRecord(bare, KEY), bare, 'description is optional');
    assert.deepEqual(parseLogRecord(askLine({ description: '' }), KEY), bare);
    const { message: _message, ...allow } = answerLine({ answer: 'allow' });
    assert.deepEqual(parseLogRecord(allow, KEY), allow, 'message is optional');
    assert.deepEqual(parseLogRecord({ ...allow, message: '' }, KEY), allow);
    for (const answer of ['allow', 'deny', 'ended']) assert.deepEqual(parseLogRecord(answerLine({ answer }), KEY), answerLine({ answer }));
    // Fresh copies: the record is not the parsed object.
    const value = askLine();
    const record = parseLogRecord(value, KEY);
    assert.notEqual(record, value);
    // Every agent id the registry knows, and the bounds themselves, are accepted.
    for (const agent of ['codex', 'opencode', 'mcp']) assert.equal(typeof parseLogRecord(askLine({ agent }), KEY), 'object', agent);
    const atBounds = askLine({ tool: 't'.repeat(200), input: 'i'.repeat(MAX_PERMISSION_INPUT), description: 'd'.repeat(MAX_PERMISSION_TEXT) });
    assert.deepEqual(parseLogRecord(atBounds, KEY), atBounds);
    assert.deepEqual(parseLogRecord(answerLine({ message: 'm'.repeat(MAX_PERMISSION_TEXT) }), KEY), answerLine({ message: 'm'.repeat(MAX_PERMISSION_TEXT) }));
  });

  it('the documented example lines are one of each, and read back as they stand', () => {
    const examples = fs
      .readFileSync(path.join(__dirname, '..', '..', '..', '..', 'docs', 'log-format.examples.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { type: string; session: string });
    const permission = examples.filter((line) => line.type === PERMISSION_ASK_EVENT || line.type === PERMISSION_ANSWER_EVENT);
    assert.deepEqual(permission.map((line) => line.type), [PERMISSION_ASK_EVENT, PERMISSION_ANSWER_EVENT]);
    for (const line of permission) assert.deepEqual(parseLogRecord(line, line.session), line);
    assert.equal((permission[0] as { id?: string }).id, (permission[1] as { id?: string }).id, 'the answer names the ask it ends');
  });

  it('each wrong ask has its own stable text', () => {
    const idProblem = '`id` of a permission/ask must be <agent>.<pid>.<seconds>';
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ id: 'claude-code' }, idProblem],
      [{ id: 'claude-code.12' }, idProblem],
      [{ id: 'Claude.1.2' }, idProblem],
      [{ id: 'claude-code.1.2\n' }, idProblem],
      [{ id: 'claude-code.x.2' }, idProblem],
      [{ id: `claude-code.${'1'.repeat(11)}.2` }, idProblem],
      [{ id: 7 }, idProblem],
      [{ id: undefined }, idProblem],
      [{ agent: 'chatgpt' }, '`agent` of a permission/ask must be a known agent'],
      [{ agent: undefined }, '`agent` of a permission/ask must be a known agent'],
      [{ tool: '' }, '`tool` of a permission/ask must be a string of 1 to 200 characters'],
      [{ tool: 't'.repeat(201) }, '`tool` of a permission/ask must be a string of 1 to 200 characters'],
      [{ tool: ['Bash'] }, '`tool` of a permission/ask must be a string of 1 to 200 characters'],
      [{ input: 'i'.repeat(4001) }, '`input` of a permission/ask must be a string of at most 4000 characters'],
      [{ input: { command: 'ls' } }, '`input` of a permission/ask must be a string of at most 4000 characters'],
      [{ input: undefined }, '`input` of a permission/ask must be a string of at most 4000 characters'],
      [{ description: 'd'.repeat(2001) }, '`description` of a permission/ask must be a string of at most 2000 characters'],
      [{ description: 5 }, '`description` of a permission/ask must be a string of at most 2000 characters'],
      [{ until: 'in a minute' }, '`until` of a permission/ask is not a timestamp'],
      [{ until: 1796635861 }, '`until` of a permission/ask is not a timestamp'],
      [{ until: undefined }, '`until` of a permission/ask is not a timestamp'],
    ];
    for (const [extra, problem] of cases) assert.equal(parseLogRecord(askLine(extra), KEY), problem, JSON.stringify(extra));
    // The same texts from the checks a writer calls before appending.
    assert.equal(permissionAskProblem({ id: 'x', agent: 'claude-code', tool: 'Bash', input: '', until: UNTIL }), idProblem);
    assert.equal(permissionAskProblem({ id: ID, agent: 'claude-code', tool: 'Bash', input: '', until: UNTIL }), undefined, 'an empty input is allowed');
  });

  it('each wrong answer has its own stable text', () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ id: 'nope' }, '`id` of a permission/answer must be <agent>.<pid>.<seconds>'],
      [{ id: null }, '`id` of a permission/answer must be <agent>.<pid>.<seconds>'],
      [{ answer: 'yes' }, '`answer` of a permission/answer must be one of allow, deny, ended'],
      [{ answer: 'Allow' }, '`answer` of a permission/answer must be one of allow, deny, ended'],
      [{ answer: undefined }, '`answer` of a permission/answer must be one of allow, deny, ended'],
      [{ answer: true }, '`answer` of a permission/answer must be one of allow, deny, ended'],
      [{ message: 'm'.repeat(2001) }, '`message` of a permission/answer must be a string of at most 2000 characters'],
      [{ message: 42 }, '`message` of a permission/answer must be a string of at most 2000 characters'],
    ];
    for (const [extra, problem] of cases) assert.equal(parseLogRecord(answerLine(extra), KEY), problem, JSON.stringify(extra));
    assert.equal(permissionAnswerProblem({ id: ID, answer: 'ended' }), undefined);
  });

  it('the checks every line gets come first: session, ts, version', () => {
    assert.equal(parseLogRecord(askLine({ session: 'b'.repeat(32) }), KEY), '`session` does not match the file name');
    assert.equal(parseLogRecord(answerLine({ ts: 'now' }), KEY), '`ts` is not a timestamp');
    assert.equal(parseLogRecord(answerLine({ v: 2 }), KEY), 'unsupported format version 2');
    assert.equal(parseLogRecord(askLine({ type: 'permission/other' }), KEY), 'unknown event type "permission/other"');
  });
});

describe('permission lines: SessionLog.appendPermission in a real folder', () => {
  const tmp = useTempDir();
  const NOW = Date.UTC(2026, 11, 7, 9, 30, 1, 200);

  const open = () => {
    const corrupt: string[] = [];
    const log = new SessionLog(path.join(tmp.path, 'sessions'), nodeFileSystem, { now: () => new Date(NOW), onCorrupt: (_file, detail) => corrupt.push(detail) });
    return { log, corrupt };
  };

  it('writes one line per call that the reader reads back equal, by this log and a fresh one', async () => {
    const { log, corrupt } = open();
    const ask = await log.appendPermission(KEY, { ask: { id: ID, agent: 'claude-code', tool: 'Bash', input: 'touch approved.txt', description: 'Create the marker file', until: UNTIL } });
    assert.deepEqual(ask, askLine({ ts: new Date(NOW).toISOString() }));
    const answer = await log.appendPermission(KEY, { answer: { id: ID, answer: 'deny', message: 'use pnpm' } });
    assert.deepEqual(answer, answerLine({ ts: new Date(NOW).toISOString() }));
    const bare = await log.appendPermission(KEY, { ask: { id: 'codex.7.8', agent: 'codex', tool: 'shell', input: 'ls\n-la', description: undefined, until: UNTIL } });
    assert.equal('description' in bare, false, 'no description key when there is none');

    const lines = fs.readFileSync(log.fileFor(KEY), 'utf8').split('\n');
    assert.equal(lines.pop(), '', 'each line ends with a newline');
    assert.deepEqual(lines.map((line) => JSON.parse(line) as unknown), [ask, answer, bare]);
    for (const line of lines) assert.deepEqual(parseLogRecord(JSON.parse(line), KEY), JSON.parse(line));

    const fresh = open();
    const read: LogRecord[] = [];
    await fresh.log.readRecordsBackward(KEY, (record) => {
      read.push(record);
      return false;
    });
    assert.deepEqual(read.reverse(), [ask, answer, bare]);
    assert.deepEqual([...corrupt, ...fresh.corrupt], [], 'no line was skipped as corrupt');
    log.dispose();
    fresh.log.dispose();
  });
});

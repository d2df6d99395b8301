// Asked through the agent's permission hook (a permission/ask line): a `waiting` signal at
// once, with the request, until its permission/answer line, its hook's time (`until`), or the
// call it asked for is seen waiting and then no longer; first in urgency; the oldest of several
// shows. Pure rules (SessionHealth), then through the health book fed by a real SessionLog.
// Its words, with hostile input, at the end.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { SessionHealth, type AskFacts, type HealthSignal } from '../../../../src/core/derived/health';
import { HealthBook, type HealthChange } from '../../../../src/core/derived/healthBook';
import { signalText, signalWord } from '../../../../src/core/derived/healthText';
import { SessionLog } from '../../../../src/core/log/sessionLog';
import type { ItemStatus, PlanItem } from '../../../../src/core/plan/plan';
import { formatOnly } from '../../../../src/core/plan/present';
import { nodeFileSystem } from '../../../../src/node/nodeFileSystem';
import { KEY_A } from '../../helpers';
import { useTempDir } from '../../../lib/temp';

const T0 = Date.UTC(2026, 11, 7, 9, 30, 0);
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();
const ms = (seconds: number) => T0 + seconds * 1000;
const item = (content: string, status: ItemStatus): PlanItem => ({ content, status });
const settings = { stallCalls: 25, stallMinutes: 10, waitSeconds: 30 };
const running = { state: 'running' as const, since: at(0) };
const kinds = (signals: HealthSignal[]) => signals.map((s) => s.kind);
const askIds = (signals: HealthSignal[]) => signals.map((s) => s.ask?.id);

const ID = 'claude-code.48211.1796635801';
const facts = (id = ID, until = 60, extra: Partial<AskFacts> = {}): AskFacts => ({ id, tool: 'Bash', input: 'touch approved.txt', until: at(until), ...extra });
/** The waiting signal an ask gives. */
const asked = (ask: AskFacts, since: string): HealthSignal => ({ kind: 'waiting', since, wait: { tool: ask.tool, approval: true }, ask });

describe('asked through the permission hook: SessionHealth', () => {
  it('is waiting at once (no waitSeconds), with the request, the wait for approval, and nothing more', () => {
    const h = new SessionHealth();
    const ask = facts(ID, 60, { description: 'Create the marker file' });
    h.ask({ ...ask, ts: at(1) });
    // At the very time of the line, with a wait threshold of an hour: shown.
    assert.deepEqual(h.signals(ms(1), { ...settings, waitSeconds: 3600 }), [asked(ask, at(1))]);
    const bare = new SessionHealth();
    bare.ask({ ...facts('codex.7.8', 60), ts: at(2) });
    const [signal] = bare.signals(ms(2), settings);
    assert.deepEqual(signal, asked(facts('codex.7.8', 60), at(2)));
    assert.equal(signal !== undefined && 'description' in signal.ask!, false, 'no description key when the line has none');
  });

  it('comes first, before a stop and a drop of the same session', () => {
    const h = new SessionHealth();
    h.info({ ts: at(0), turn: running });
    h.plan({ ts: at(1), todos: [item('a', 'in_progress'), item('b', 'pending')] }, 0);
    h.plan({ ts: at(2), todos: [item('a', 'in_progress')] }, 50);
    h.info({ ts: at(3), turn: { state: 'ended', since: at(3) } });
    assert.deepEqual(kinds(h.signals(ms(4), settings)), ['stopped-open', 'dropped']);
    h.ask({ ...facts(), ts: at(4) });
    const signals = h.signals(ms(5), settings);
    assert.deepEqual(kinds(signals), ['waiting', 'stopped-open', 'dropped']);
    assert.equal(signals[0]?.ask?.id, ID);
  });

  it('stands in for a plain waiting call of the same session while open; the call shows again once the ask ends', () => {
    const h = new SessionHealth();
    h.info({ ts: at(0), turn: running, pending: { tool: 'Bash', call: 'c1', since: at(0), approval: true } });
    const plain: HealthSignal = { kind: 'waiting', since: at(0), wait: { tool: 'Bash', approval: true } };
    assert.deepEqual(h.signals(ms(40), settings), [plain]);
    h.ask({ ...facts(ID, 100, { tool: 'Write' }), ts: at(41) });
    assert.deepEqual(h.signals(ms(42), settings), [asked(facts(ID, 100, { tool: 'Write' }), at(41))], 'one waiting signal: the ask');
    h.answered(ID, at(43));
    assert.deepEqual(h.signals(ms(44), settings), [plain], 'the call still waits in the agent’s record');
  });

  it('ends with its permission/answer line; another id’s answer leaves it', () => {
    const h = new SessionHealth();
    h.ask({ ...facts(), ts: at(1) });
    h.answered('codex.1.1', at(2));
    assert.deepEqual(askIds(h.signals(ms(3), settings)), [ID]);
    h.answered(ID, at(4));
    assert.deepEqual(h.signals(ms(5), settings), []);
    assert.equal(h.nextCheck(ms(5), settings), undefined, 'no clock for an answered ask');
  });

  it('ends by time after `until`; nextCheck says until + 1 ms while open, nothing after', () => {
    const h = new SessionHealth();
    h.ask({ ...facts(ID, 60), ts: at(1) });
    assert.equal(h.nextCheck(ms(2), settings), ms(60) + 1);
    assert.deepEqual(askIds(h.signals(ms(60), settings)), [ID], 'at `until` itself the hook still waits');
    assert.deepEqual(h.signals(ms(60) + 1, settings), [], 'past `until`: the agent asks at its own prompt');
    assert.deepEqual(h.signals(ms(3600), settings), []);
    assert.equal(h.nextCheck(ms(61), settings), undefined);
    // Beside the stall clock of a running turn, the nearer time wins.
    const busy = new SessionHealth();
    busy.info({ ts: at(0), turn: running });
    busy.plan({ ts: at(1), todos: [item('a', 'in_progress')] });
    assert.equal(busy.nextCheck(ms(2), settings), ms(1) + 600_000);
    busy.ask({ ...facts(ID, 60), ts: at(2) });
    assert.equal(busy.nextCheck(ms(3), settings), ms(60) + 1);
  });

  it('ends when its call was seen waiting in a session/info line and a later one names none', () => {
    const h = new SessionHealth();
    h.info({ ts: at(0), turn: running });
    h.ask({ ...facts(ID, 600), ts: at(1) });
    h.info({ ts: at(2), turn: running, pending: { tool: 'Bash', call: 'c1', since: at(2), approval: true } });
    assert.deepEqual(askIds(h.signals(ms(3), settings)), [ID], 'seen waiting: still asked');
    h.info({ ts: at(4), turn: running, activity: { calls: 1, at: at(4) } });
    assert.deepEqual(h.signals(ms(5), settings), [], 'answered at the agent’s own prompt');
    assert.equal(h.nextCheck(ms(5), settings), undefined, 'its `until` no longer on the clock');
  });

  it("asks for the call of its tool the record names waiting when the ask is read (the record names it first); ends when that call waits no more, not when another tool's call does", () => {
    const h = new SessionHealth();
    h.info({ ts: at(0), turn: running, pending: { tool: 'Bash', call: 'c1', since: at(0), approval: true } });
    h.ask({ ...facts(ID, 600), ts: at(1) });
    assert.deepEqual(askIds(h.signals(ms(2), settings)), [ID]);
    h.info({ ts: at(3), turn: running, pending: { tool: 'Bash', call: 'c1', since: at(0), approval: true }, activity: { calls: 1, at: at(3) } });
    assert.deepEqual(askIds(h.signals(ms(4), settings)), [ID], 'the same call still waits');
    h.info({ ts: at(5), turn: running, pending: { tool: 'Bash', call: 'c2', since: at(5) } });
    assert.deepEqual(h.signals(ms(6), settings), [], 'its call completed at the agent’s own prompt; the next call waits by the record’s own rule (waitSeconds)');
    // A call of another tool waiting when the ask is read is not the one it asks for.
    const other = new SessionHealth();
    other.info({ ts: at(0), turn: running, pending: { tool: 'Read', call: 'r1', since: at(0) } });
    other.ask({ ...facts(ID, 600), ts: at(1) });
    other.info({ ts: at(2), turn: running });
    assert.deepEqual(askIds(other.signals(ms(3), settings)), [ID]);
  });

  it('is not ended by info lines without a call before any call was seen waiting', () => {
    const h = new SessionHealth();
    h.info({ ts: at(0), turn: running });
    h.ask({ ...facts(ID, 600), ts: at(1) });
    h.info({ ts: at(2), turn: running, activity: { calls: 3, at: at(2) } });
    h.info({ ts: at(3), turn: running });
    assert.deepEqual(askIds(h.signals(ms(4), settings)), [ID]);
    // Then seen waiting, then not: it ends.
    h.info({ ts: at(5), turn: running, pending: { tool: 'Bash', call: 'c1', since: at(5) } });
    assert.deepEqual(askIds(h.signals(ms(6), settings)), [ID]);
    h.info({ ts: at(7), turn: running });
    assert.deepEqual(h.signals(ms(8), settings), []);
  });

  it('of two asks the oldest shows; the next one once the first ends, by answer or by time', () => {
    const first = facts('claude-code.1.100', 100);
    const second = facts('claude-code.2.200', 200, { tool: 'Edit', input: 'src/a.ts' });
    const h = new SessionHealth();
    h.ask({ ...first, ts: at(1) });
    h.ask({ ...second, ts: at(2) });
    assert.deepEqual(h.signals(ms(3), settings), [asked(first, at(1))], 'one waiting signal, the oldest');
    assert.deepEqual(h.signals(ms(150), settings), [asked(second, at(2))], 'the first one’s hook gave up');
    assert.equal(h.nextCheck(ms(3), settings), ms(100) + 1);
    h.answered(first.id, at(4));
    assert.deepEqual(h.signals(ms(5), settings), [asked(second, at(2))]);
    assert.equal(h.nextCheck(ms(5), settings), ms(200) + 1);
  });

  it('seed() clears the asks (a file’s first look knows none)', () => {
    const h = new SessionHealth();
    h.ask({ ...facts(ID, 600), ts: at(1) });
    h.seed({ ts: at(2), todos: [item('a', 'pending')] }, undefined, false);
    assert.deepEqual(h.signals(ms(3), settings), []);
    assert.equal(h.nextCheck(ms(3), settings), undefined);
  });
});

describe('asked through the permission hook: the health book fed by a real log', () => {
  const tmp = useTempDir();
  const clock = { now: T0 };
  beforeEach(() => {
    clock.now = T0;
  });
  const open = () => {
    const log = new SessionLog(path.join(tmp.path, 'sessions'), nodeFileSystem, { now: () => new Date(clock.now) });
    const book = new HealthBook(log, { now: () => clock.now });
    const changes: HealthChange[] = [];
    book.onDidChange((change) => changes.push(change));
    return { log, book, changes };
  };
  const ask = { id: ID, agent: 'claude-code' as const, tool: 'Bash', input: 'touch approved.txt', description: 'Create the marker file', until: at(60) };
  const shown = asked({ id: ID, tool: 'Bash', input: 'touch approved.txt', description: 'Create the marker file', until: at(60) }, at(1));

  it('a permission/ask line shows at once; its permission/answer line takes it off; each is told', async () => {
    const { log, book, changes } = open();
    await log.append(KEY_A, [{ content: 'a', status: 'in_progress' }]);
    assert.deepEqual(book.signals(KEY_A), []);
    assert.deepEqual(changes, []);
    clock.now = ms(1);
    await log.appendPermission(KEY_A, { ask });
    assert.deepEqual(book.signals(KEY_A), [shown]);
    assert.deepEqual(changes, [{ session: KEY_A, live: true }]);
    assert.equal(book.nextCheck(), ms(60) + 1, 'the hook’s time is on the clock');
    clock.now = ms(9);
    await log.appendPermission(KEY_A, { answer: { id: ID, answer: 'allow' } });
    assert.deepEqual(book.signals(KEY_A), []);
    assert.deepEqual(changes, [
      { session: KEY_A, live: true },
      { session: KEY_A, live: true },
    ]);
    assert.equal(book.nextCheck(), ms(9) + 600_000, 'its time is off the clock: only the stall rule’s is left');
    book.dispose();
    log.dispose();
  });

  it('an ask nobody answers leaves at its `until` when the book checks', async () => {
    const { log, book, changes } = open();
    clock.now = ms(1);
    await log.appendPermission(KEY_A, { ask });
    assert.deepEqual(book.signals(KEY_A), [shown]);
    assert.equal(changes.length, 1);
    const next = book.nextCheck();
    assert.equal(next, ms(60) + 1);
    clock.now = next!;
    book.check();
    assert.deepEqual(book.signals(KEY_A), []);
    assert.deepEqual(changes, [
      { session: KEY_A, live: true },
      { session: KEY_A, live: true },
    ]);
    assert.equal(book.nextCheck(), undefined);
    book.dispose();
    log.dispose();
  });
});

describe('asked through the permission hook: the words', () => {
  const now = new Date(ms(10));
  const hostile =
    '\u001b[31mrm -rf ~\u001b[0m\r\n\u202Etxt.exe\u202C [x](http://e) \u0007\u0000\u009B\u2066' +
    Array.from({ length: 400 }, (_, i) => `line ${i}\n\t`).join('') +
    'x'.repeat(10_000);
  const signal = (input: string, tool = 'Bash'): HealthSignal => asked({ id: ID, tool, input, until: at(60) }, at(1));
  /** Line breaks, C0 and C1 controls (tab included) and the bidirectional controls. */
  const RAW = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029]/;

  it('say what it asks to run, as the input reads', () => {
    assert.equal(signalText(signal('touch approved.txt'), now, formatOnly), 'Asks to run Bash: touch approved.txt');
    assert.equal(signalWord(signal('touch approved.txt'), formatOnly), 'asks to run Bash');
  });

  it('with a hostile input of 10,000 characters: one line, bounded, no raw control, Markdown as literal text', () => {
    assert.ok(hostile.length > 10_000);
    const text = signalText(signal(hostile), now, formatOnly);
    const prefix = 'Asks to run Bash: ';
    assert.ok(text.startsWith(prefix), text);
    const shown = text.slice(prefix.length);
    assert.ok([...shown].length <= 80, `at most 80 characters of the input, not ${[...shown].length}`);
    assert.ok(text.length <= 100, `one short line, not ${text.length} characters`);
    assert.ok(shown.endsWith('…'), 'cut with an ellipsis');
    assert.doesNotMatch(text, RAW);
    assert.equal(text.split('\n').length, 1);
    assert.ok(text.includes('\uFFFD[31mrm -rf ~\uFFFD[0m'), `escape sequences shown, their ESC replaced: ${text}`);
    assert.ok(text.includes('\uFFFDtxt.exe\uFFFD'), 'the bidi override shown, not obeyed');
    assert.ok(text.includes(' [x](http://e) '), `the Markdown link kept as the literal text it is: ${text}`);
    assert.ok(text.includes('line 0 line 1'), 'line breaks and tabs folded to one space');
  });

  it('a hostile tool name is one short line in the text and the word alike', () => {
    const tool = `Bash\n\u202E${'T'.repeat(1000)}`;
    const text = signalText(signal('ls', tool), now, formatOnly);
    const word = signalWord(signal('ls', tool), formatOnly);
    for (const line of [text, word]) {
      assert.doesNotMatch(line, RAW);
      assert.ok(line.length <= 'Asks to run '.length + 40 + ': ls'.length, `${line.length}: ${line}`);
    }
    assert.ok(word.startsWith('asks to run Bash \uFFFDTTT'), word);
    assert.ok(text.endsWith('…: ls'), text);
  });
});

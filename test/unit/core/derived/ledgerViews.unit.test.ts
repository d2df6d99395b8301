// What each item cost, as the views say it (core/derived/ledgerText.ts), and the plan as a pull
// request's description (core/handoff/prDescription.ts): over log lines built by the core's own record
// builders and read back through a real log, and over the real Claude Code recording imported
// through the real sink (its fake model server answers every request with 10 input and 20
// output tokens, so the sums are known). The GitHub address of a git config (core/worktrees/gitRemote.ts).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createClaudeCodeParser } from '../../../../src/agents/claudeCode';
import { githubBlobBase, githubRepository, parseGitHubUrl } from '../../../../src/core/worktrees/gitRemote';
import { buildLedger, emptyFigures, type LedgerFigures } from '../../../../src/core/derived/ledger';
import type { FileChange, ItemChanges } from '../../../../src/core/derived/itemChanges';
import { ledgerText } from '../../../../src/core/derived/ledgerText';
import { fileWriteRecord, planEvent, type LogRecord } from '../../../../src/core/log/logRecord';
import { LogPlanSink } from '../../../../src/core/log/planSink';
import { prDescription, relativePath } from '../../../../src/core/handoff/prDescription';
import { formatOnly } from '../../../../src/core/plan/present';
import { foreignSessionKey } from '../../../../src/core/log/sessionKey';
import { SessionLog } from '../../../../src/core/log/sessionLog';
import { buildTimeline } from '../../../../src/core/timeline/timeline';
import { readTimelinePage } from '../../../../src/core/timeline/timelineRead';
import { timelineViewModel } from '../../../../src/core/timeline/timelineView';
import { usageRecord } from '../../../../src/core/log/usageRecord';
import { NodeFileSystem } from '../../../../src/node/nodeFileSystem';
import { recordedLines, recording } from '../../agentRecordings';
import { useTempDir } from '../../../lib/temp';

const figures = (responses: number, calls: number, tokens?: [number, number, number], cost?: number): LedgerFigures => ({
  responses,
  calls,
  tokens: tokens ? { input: tokens[0], output: tokens[1], cached: tokens[2] } : undefined,
  cost,
});

describe('ledger text', () => {
  it('time, calls and tokens, short: "6 min · 14 calls · 52k tokens"', () => {
    assert.equal(ledgerText({ ms: 6 * 60_000, all: figures(5, 14, [40_000, 2_000, 10_000]) }, formatOnly), '6 min · 14 calls · 52k tokens');
  });

  it('time only when no response was recorded; in detail it says so, never 0', () => {
    assert.equal(ledgerText({ ms: 90_000, all: emptyFigures() }, formatOnly), '1 min 30 s');
    assert.equal(ledgerText({ ms: 90_000, all: emptyFigures() }, formatOnly, { detail: true }), '1 min 30 s · usage not recorded');
    assert.equal(ledgerText({ all: emptyFigures() }, formatOnly), '');
  });

  it('responses without tokens: "tokens not recorded"', () => {
    const text = ledgerText({ ms: 0, all: figures(2, 1) }, formatOnly);
    assert.equal(text, '1 call · tokens not recorded');
    assert.doesNotMatch(text, /\b0 tokens/);
  });

  it('detail splits the tokens; a recorded cost is said in the agent’s own unit; shared parts are marked', () => {
    const all = figures(3, 6, [300, 150, 3000], 0.5);
    assert.equal(ledgerText({ all, shared: figures(1, 3) }, formatOnly, { detail: true }), '6 calls · 3.5k tokens (input 300, output 150, cached 3k) · cost 0.5 · partly shared with other items');
    assert.equal(ledgerText({ all, shared: all }, formatOnly), '6 calls · 3.5k tokens · cost 0.5 · shared with other items');
    assert.equal(ledgerText({ all: figures(1, 1, [1, 1, 0], 0.00312) }, formatOnly), '1 call · 2 tokens · cost 0.00312');
  });

  it('goes through the translator', () => {
    const seen: string[] = [];
    ledgerText({ ms: 1000, all: figures(1, 1, [1, 2, 3]), shared: figures(1, 1) }, (message, ...args) => {
      seen.push(message);
      return formatOnly(message, ...args);
    });
    assert.deepEqual(seen, ['{0} s', '1 call', '{0} tokens', 'shared with other items']);
  });
});

describe('the plan as a pull request description', () => {
  const tmp = useTempDir('pr');
  /** How many logs throughLog wrote: each in a folder of its own. */
  let logs = 0;
  const T0 = Date.UTC(2026, 11, 4, 9, 0, 0);
  const KEY = 'a'.repeat(32);
  const iso = (s: number) => new Date(T0 + s * 1000).toISOString();
  const ROOT = '/home/me/app';
  const src = { agent: 'opencode' as const, session: 's', call: '' };
  type Status = 'pending' | 'in_progress' | 'completed' | 'cancelled';
  const plan = (s: number, items: Array<[string, Status]>) =>
    planEvent(KEY, iso(s), items.map(([content, status]) => ({ content, status })), { ...src, tool: 'todowrite', call: `p${s}` });
  const used = (s: number, items: string[], calls: number, tokens?: [number, number, number]) =>
    usageRecord(KEY, iso(s), { ...src, call: `u${s}` }, { calls, ...(tokens ? { tokens: { input: tokens[0], output: tokens[1], cached: tokens[2] } } : {}) }, items);
  const wrote = (s: number, files: string[], items: string[]) => fileWriteRecord(KEY, iso(s), { ...src, call: `w${s}` }, files, items);

  // A session: two items at once (one file shared), one dropped, one cancelled, one still in
  // progress, a file written and a response made while no item was.
  const RECORDS: LogRecord[] = [
    plan(0, [['Read the code', 'pending'], ['Add the palette', 'pending'], ['Add the toggle', 'pending'], ['Try a theme library', 'pending'], ['Write the tests', 'pending']]),
    used(10, [], 1, [100, 10, 0]),
    wrote(15, [`${ROOT}/README.md`], []),
    plan(20, [['Read the code', 'in_progress'], ['Add the palette', 'pending'], ['Add the toggle', 'pending'], ['Try a theme library', 'pending'], ['Write the tests', 'pending']]),
    used(50, ['Read the code'], 2, [1000, 200, 4000]),
    plan(80, [['Read the code', 'completed'], ['Add the palette', 'in_progress'], ['Add the toggle', 'in_progress'], ['Try a theme library', 'pending'], ['Write the tests', 'pending']]),
    used(100, ['Add the palette', 'Add the toggle'], 3, [2000, 500, 8000]),
    wrote(101, [`${ROOT}/src/styles.css`], ['Add the palette', 'Add the toggle']),
    plan(200, [['Read the code', 'completed'], ['Add the palette', 'completed'], ['Add the toggle', 'in_progress'], ['Try a theme library', 'cancelled'], ['Write the tests', 'pending']]),
    used(250, ['Add the toggle'], 1, [500, 100, 0]),
    wrote(251, [`${ROOT}/src/app.js`, 'index.html'], ['Add the toggle']),
    plan(380, [['Read the code', 'completed'], ['Add the palette', 'completed'], ['Add the toggle', 'completed'], ['Try a theme library', 'cancelled'], ['Write the tests', 'in_progress']]),
    plan(400, [['Read the code', 'completed'], ['Add the palette', 'completed'], ['Add the toggle', 'completed'], ['Write the tests', 'in_progress']]),
    wrote(420, [`${ROOT}/test/theme test.js`], ['Write the tests']),
  ];

  async function throughLog(records: readonly LogRecord[]): Promise<{ lines: Awaited<ReturnType<typeof readTimelinePage>>['lines'] }> {
    const dir = path.join(tmp.path, `log-${++logs}`);
    fs.mkdirSync(dir);
    const log = new SessionLog(dir, new NodeFileSystem());
    fs.writeFileSync(log.fileFor(KEY), records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    return await readTimelinePage(new SessionLog(dir, new NodeFileSystem()), KEY, 1000);
  }

  it('the checklist, the dropped and cancelled items, the files outside any item and the totals, read back from a log', async () => {
    const { lines } = await throughLog(RECORDS);
    assert.equal(lines.length, RECORDS.length, 'every line read back');
    const now = T0 + 480_000;
    const timeline = buildTimeline(lines, { now });
    const ledger = buildLedger(
      lines.map((line) => line.record),
      now,
    );
    const markdown = prDescription({ title: 'Add a dark mode toggle', timeline, ledger, root: ROOT, linkBase: 'https://github.com/me/app/blob/dark-mode/' }, formatOnly);
    const link = (file: string) => `[\`${file}\`](https://github.com/me/app/blob/dark-mode/${file.split('/').map(encodeURIComponent).join('/')})`;
    assert.equal(
      markdown,
      [
        '## Add a dark mode toggle',
        '',
        '- [x] Read the code — 1 min · 2 calls · 5.2k tokens',
        '- [x] Add the palette — 2 min · 3 calls · 11k tokens · shared with other items',
        `  - ${link('src/styles.css')} *(shared)*`,
        '- [x] Add the toggle — 5 min · 4 calls · 11k tokens · partly shared with other items',
        `  - ${link('src/styles.css')} *(shared)*`,
        `  - ${link('src/app.js')}`,
        `  - ${link('index.html')}`,
        '- [ ] Write the tests *(in progress)* — 1 min 40 s',
        `  - ${link('test/theme test.js')}`,
        '',
        '### Dropped and cancelled',
        '',
        '- ~~Try a theme library~~ *(cancelled)*',
        '',
        '### Files changed outside any item',
        '',
        `- ${link('README.md')}`,
        '',
        '### Session totals',
        '',
        '- Elapsed 8 min · 7 calls · 16k tokens (input 3.6k, output 810, cached 12k)',
        '- While no item was in progress: 1 call · 110 tokens (input 100, output 10, cached 0)',
        '',
      ].join('\n'),
    );
  });

  it('an item dropped while open is listed as dropped; without a GitHub remote, paths are not links', async () => {
    const records = [plan(0, [['A', 'in_progress'], ['B', 'pending']]), wrote(5, ['/elsewhere/x.ts', `${ROOT}/a.ts`], ['A']), plan(60, [['A', 'completed']])];
    const { lines } = await throughLog(records);
    const markdown = prDescription({ title: 'T', timeline: buildTimeline(lines), ledger: buildLedger(lines.map((l) => l.record)), root: ROOT, linkBase: undefined }, formatOnly);
    assert.equal(markdown, ['## T', '', '- [x] A — 1 min', '  - `/elsewhere/x.ts`', '  - `a.ts`', '', '### Dropped and cancelled', '', '- ~~B~~ *(dropped)*', '', '### Session totals', '', '- Elapsed 1 min · usage not recorded', ''].join('\n'));
  });

  it('the real Claude Code recording: each item its files and what it cost, the session’s part and the total', async () => {
    const rec = recording('claude-code', 'edits');
    const out = createClaudeCodeParser({ workspaceFolders: [rec.workspace] }).push(recordedLines(rec));
    const dir = tmp.path;
    // A clock a second on per line stamped: every item was in progress for a while, on any machine.
    let tick = 0;
    const now = (): Date => new Date(Date.UTC(2026, 0, 1) + 1000 * tick++);
    const sink = new LogPlanSink(new SessionLog(dir, new NodeFileSystem(), { now }));
    await sink.importPlans(out.plans);
    await sink.importWrites(out.writes ?? []);
    await sink.importUsage(out.usage ?? []);
    sink.dispose();
    const key = foreignSessionKey('claude-code', out.plans[0]!.source.session);
    const { lines } = await readTimelinePage(new SessionLog(dir, new NodeFileSystem()), key, 1000);
    const markdown = prDescription(
      { title: 'Claude', timeline: buildTimeline(lines), ledger: buildLedger(lines.map((l) => l.record)), root: rec.workspace, linkBase: 'https://github.com/o/r/blob/main/' },
      formatOnly,
    );
    // Times are when the lines were stamped: said as "<time>".
    const normalized = markdown.replace(/(— |Elapsed )(under 1 s|\d+ (s|min)( \d+ s)?) · /g, '$1<time> · ');
    assert.equal(
      normalized,
      [
        '## Claude',
        '',
        '- [x] Add the separator constant — <time> · 2 calls · 60 tokens',
        '  - [`src/tokens.ts`](https://github.com/o/r/blob/main/src/tokens.ts)',
        '- [x] Use it in the parser — <time> · 4 calls · 120 tokens',
        '  - [`src/parser.ts`](https://github.com/o/r/blob/main/src/parser.ts)',
        '',
        '### Session totals',
        '',
        '- Elapsed <time> · 8 calls · 270 tokens (input 90, output 180, cached 0)',
        '- While no item was in progress: 2 calls · 90 tokens (input 30, output 60, cached 0)',
        '',
      ].join('\n'),
    );
  });

  it('the Plan Timeline: each lane’s note and hover add what it cost, the summary the session’s', async () => {
    const { lines } = await throughLog(RECORDS);
    const now = T0 + 480_000;
    const view = timelineViewModel(KEY, buildTimeline(lines, { now }), 'title', false, formatOnly, String, () => '', buildLedger(lines.map((l) => l.record), now));
    const lane = (name: string) => view.lanes.find((candidate) => candidate.name === name)!;
    assert.equal(lane('Read the code').cost, '2 calls · 5.2k tokens');
    assert.equal(lane('Add the toggle').cost, '4 calls · 11k tokens · partly shared with other items');
    assert.match(lane('Add the toggle').label, /in progress 5 min · done after 6 min 20 s · 4 calls · 11k tokens · partly shared with other items, 3 files$/);
    assert.equal(lane('Write the tests').cost, '', 'no response recorded while it was in progress: nothing said');
    assert.match(view.summary, / · in all 7 calls · 16k tokens$/);
    const without = timelineViewModel(KEY, buildTimeline(lines, { now }), 'title', false, formatOnly, String, () => '');
    assert.equal(without.lanes[0]!.cost, '', 'no ledger given: no cost');
  });

  describe('each item’s diffstat, where the working tree’s snapshots recorded it', () => {
    const change = (file: string, added: number | undefined, removed: number | undefined, marks: { shared?: true; meanwhile?: true } = {}): FileChange => ({
      path: file,
      added,
      removed,
      ...marks,
      before: { tree: '1'.repeat(40), path: file },
      after: { tree: '2'.repeat(40), path: file },
      folder: ROOT,
    });
    const changes = (entries: ItemChanges[]) => new Map(entries.map((entry) => [entry.content, entry]));
    const describeWith = async (records: readonly LogRecord[], map: ReadonlyMap<string, ItemChanges> | undefined, title = 'T') => {
      const { lines } = await throughLog(records);
      const now = T0 + 480_000;
      return prDescription({ title, timeline: buildTimeline(lines, { now }), ledger: buildLedger(lines.map((l) => l.record), now), root: ROOT, changes: map }, formatOnly);
    };

    it('"+12 −3" before the cost: binary files count no lines, changed-meanwhile files count, a partly recorded item says so; not recorded or no change: nothing', async () => {
      const markdown = await describeWith(
        RECORDS,
        changes([
          { content: 'Read the code', recorded: 'all', files: [] },
          { content: 'Add the palette', recorded: 'all', files: [change('src/styles.css', 10, 3, { shared: true }), change('logo.png', undefined, undefined), change('package-lock.json', 2, 0, { meanwhile: true })] },
          { content: 'Add the toggle', recorded: 'part', files: [change('src/app.js', 7, 1)] },
          { content: 'Try a theme library', recorded: 'all', files: [change('package.json', 1, 1)] },
          { content: 'Write the tests', recorded: 'none', files: [] },
        ]),
      );
      const heads = markdown.split('\n').filter((line) => line.startsWith('- ['));
      assert.deepEqual(heads, [
        '- [x] Read the code — 1 min · 2 calls · 5.2k tokens',
        '- [x] Add the palette — +12 \u22123 · 2 min · 3 calls · 11k tokens · shared with other items',
        '- [x] Add the toggle — +7 \u22121 *(partly recorded)* · 5 min · 4 calls · 11k tokens · partly shared with other items',
        '- [ ] Write the tests *(in progress)* — 1 min 40 s',
      ]);
      assert.ok(markdown.includes('\n- ~~Try a theme library~~ *(cancelled)* — +1 \u22121\n'), markdown);
    });

    it('no changes recorded (no snapshot: not a git working tree, git missing, history from before): byte for byte the description without them', async () => {
      const without = await describeWith(RECORDS, undefined);
      assert.equal(await describeWith(RECORDS, new Map()), without);
      const none = changes(['Read the code', 'Add the palette', 'Add the toggle', 'Try a theme library', 'Write the tests'].map((content) => ({ content, recorded: 'none' as const, files: [] })));
      assert.equal(await describeWith(RECORDS, none), without);
    });

    it('an item with no cost recorded still shows its diffstat; the item’s text stays escaped', async () => {
      const hostile = '@team fixes #2 <b>[x](javascript:alert(1))</b>';
      const records = [plan(0, [[hostile, 'in_progress']]), plan(60, [[hostile, 'completed']])];
      const markdown = await describeWith(records, changes([{ content: hostile, recorded: 'all', files: [change('a.ts', 4, 0)] }]));
      const head = markdown.split('\n')[2]!;
      assert.ok(head.startsWith('- [x] '), head);
      assert.ok(head.endsWith(' — +4 \u22120 · 1 min'), head);
      assert.ok(!head.includes('<b>') && !head.includes('[x](') && !head.includes('@team'), head);
    });
  });

  it('the Plan Timeline: each lane’s note and accessible name add its diffstat where recorded; none where not', async () => {
    const { lines } = await throughLog(RECORDS);
    const now = T0 + 480_000;
    const file = (p: string, added: number | undefined, removed: number | undefined): FileChange => ({ path: p, added, removed, before: { tree: '1'.repeat(40), path: p }, after: { tree: '2'.repeat(40), path: p }, folder: ROOT });
    const changes = new Map<string, ItemChanges>([
      ['Add the palette', { content: 'Add the palette', recorded: 'all', files: [file('src/styles.css', 10, 3), file('logo.png', undefined, undefined), file('package.json', 2, 0)] }],
      ['Add the toggle', { content: 'Add the toggle', recorded: 'part', files: [file('src/app.js', 7, 1)] }],
      ['Read the code', { content: 'Read the code', recorded: 'all', files: [] }],
      ['Write the tests', { content: 'Write the tests', recorded: 'none', files: [] }],
    ]);
    const ledger = buildLedger(lines.map((l) => l.record), now);
    const view = timelineViewModel(KEY, buildTimeline(lines, { now }), 'title', false, formatOnly, String, () => '', ledger, changes);
    const lane = (name: string) => view.lanes.find((candidate) => candidate.name === name)!;
    assert.equal(lane('Add the palette').diffstat, '+12 \u22123');
    assert.match(lane('Add the palette').note, / · \+12 \u22123 · 3 calls · 11k tokens · shared with other items$/);
    assert.match(lane('Add the palette').label, /^Add the palette, completed, in progress 2 min · done after 3 min 20 s · \+12 \u22123 · 3 calls · 11k tokens · shared with other items, 1 file$/);
    assert.equal(lane('Add the toggle').diffstat, '+7 \u22121 (partly recorded)');
    assert.match(lane('Add the toggle').label, / · \+7 \u22121 \(partly recorded\) · 4 calls/);
    for (const name of ['Read the code', 'Write the tests', 'Try a theme library']) assert.equal(lane(name).diffstat, '', `${name}: nothing changed, not recorded or not known: no diffstat`);
    const without = timelineViewModel(KEY, buildTimeline(lines, { now }), 'title', false, formatOnly, String, () => '', ledger);
    assert.deepEqual(
      view.lanes.filter((l) => l.diffstat === '').map((l) => [l.label, l.note]),
      without.lanes.filter((l) => !['Add the palette', 'Add the toggle'].includes(l.name)).map((l) => [l.label, l.note]),
      'a lane without recorded changes reads as before',
    );
  });

  it('its fixed words go through the translator', async () => {
    const { lines } = await throughLog(RECORDS);
    const seen = new Set<string>();
    prDescription({ title: 'T', timeline: buildTimeline(lines), ledger: buildLedger(lines.map((l) => l.record)) }, (message, ...args) => {
      seen.add(message);
      return formatOnly(message, ...args);
    });
    for (const word of ['Dropped and cancelled', 'Files changed outside any item', 'Session totals', 'Elapsed {0}', 'cancelled', 'shared', 'in progress']) assert.ok(seen.has(word), word);
  });

  it('paths relative to the repository’s folder', () => {
    assert.equal(relativePath('/home/me/app/src/a.ts', '/home/me/app'), 'src/a.ts');
    assert.equal(relativePath('/home/me/app/src/a.ts', '/home/me/app/'), 'src/a.ts');
    assert.equal(relativePath('/home/me/application/a.ts', '/home/me/app'), '/home/me/application/a.ts');
    assert.equal(relativePath('./src\\a.ts', '/home/me/app'), 'src/a.ts');
    assert.equal(relativePath('C:\\Code\\App\\src\\a.ts', 'c:\\code\\app'), 'src/a.ts');
  });
});

describe('a repository’s GitHub address from its git config', () => {
  it('origin first, else another remote on github.com; https, ssh and scp forms', () => {
    const config = ['[core]', '\tbare = false', '[remote "upstream"]', '\turl = https://github.com/up/app.git', '[remote "origin"]', '\turl = git@github.com:me/app.git', '\tfetch = +refs/heads/*:refs/remotes/origin/*'].join('\n');
    assert.deepEqual(githubRepository(config), { owner: 'me', name: 'app' });
    assert.deepEqual(githubRepository('[remote "origin"]\n url = https://gitlab.com/me/app.git\n[remote "gh"]\n url = ssh://git@github.com/o/r\n'), { owner: 'o', name: 'r' });
    assert.equal(githubRepository('[remote "origin"]\n url = https://gitlab.com/me/app.git\n'), undefined);
    assert.equal(githubRepository('[branch "main"]\n url = https://github.com/me/app\n'), undefined, 'only a remote’s url');
    assert.deepEqual(parseGitHubUrl('https://token@github.com/me/my.app'), { owner: 'me', name: 'my.app' });
    assert.equal(parseGitHubUrl('https://github.com/me/app/extra'), undefined);
    assert.equal(parseGitHubUrl('https://github.com/me/a%20b'), undefined);
  });

  it('the blob base names the ref, each part encoded; a ref git would refuse gives no base', () => {
    assert.equal(githubBlobBase({ owner: 'me', name: 'app' }, 'feature/dark#1'), 'https://github.com/me/app/blob/feature/dark%231/');
    for (const hostile of ['../../../evil', 'a/../../b', 'feature/dark #1', 'x\nfixes #2']) assert.equal(githubBlobBase({ owner: 'me', name: 'app' }, hostile), undefined, hostile);
  });
});

// The attribution rules of what each item changed (core/derived/itemChanges.ts), over made
// lines and a made numstat table, then end to end with real git.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { attributeChanges, changeSegments, changesBetween, diffstat, neededPairs, relativeTo, sessionSnapshots, snapshotSince, type FileChange, type NumstatLine } from '../../../../src/core/derived/itemChanges';
import { fileWriteRecord, planEvent, type LogRecord } from '../../../../src/core/log/logRecord';
import { snapshotRecord } from '../../../../src/core/log/snapshotRecord';
import type { ItemStatus } from '../../../../src/core/plan/plan';
import { GitSnapshots } from '../../../../src/node/gitSnapshots';
import { realPaths } from '../../../../src/node/itemChangesReader';
import { committedRepo, KEY_A } from '../../helpers';
import { useTempDir } from '../../../lib/temp';

const TS = '2026-12-03T10:00:00.000Z';
const W = '/w';
const tree = (n: number): string => String(n).padStart(40, '0');

/** A session's lines with offsets 0, 10, 20, … */
class Lines {
  readonly list: Array<{ record: LogRecord; at: number }> = [];
  plan(...items: Array<[string, ItemStatus]>): number {
    return this.push(planEvent(KEY_A, TS, items.map(([content, status]) => ({ content, status }))));
  }
  snap(n: number, items: string[], plan?: number, folder = W): void {
    this.push(snapshotRecord(KEY_A, TS, { tree: tree(n), folder, items, plan: plan ?? this.lastPlan }));
  }
  write(items: string[], ...files: string[]): void {
    this.push(fileWriteRecord(KEY_A, TS, { agent: 'claude-code', session: 's', call: `c${this.list.length}` }, files, items));
  }
  private lastPlan = 0;
  private push(record: LogRecord): number {
    const at = this.list.length * 10;
    this.list.push({ record, at });
    if (record.type === 'todo/write') this.lastPlan = at;
    return at;
  }
}

const table = (entries: Record<string, NumstatLine[]>) => (from: string, to: string) => entries[`${from}..${to}`];
const pair = (a: number, b: number): string => `${tree(a)}..${tree(b)}`;
const line = (p: string, added: number | undefined, removed: number | undefined, from?: string): NumstatLine => ({ path: p, added, removed, ...(from ? { from } : {}) });

describe('what each item changed: the rules', () => {
  it('one item at a time: its stretch is its diff; files its writes name are its own, others changed meanwhile', () => {
    const l = new Lines();
    l.plan(['A', 'pending'], ['B', 'pending']);
    l.snap(1, []);
    l.plan(['A', 'in_progress'], ['B', 'pending']);
    l.snap(2, ['A']);
    l.write(['A'], '/w/src/a.ts');
    l.plan(['A', 'completed'], ['B', 'in_progress']);
    l.snap(3, ['B']);
    l.write(['B'], 'src/b.ts');
    l.plan(['A', 'completed'], ['B', 'completed']);
    l.snap(4, []);
    const segments = changeSegments(l.list);
    const numstat = table({
      [pair(2, 3)]: [line('src/a.ts', 5, 1), line('package-lock.json', 300, 2)],
      [pair(3, 4)]: [line('src/b.ts', 2, 0)],
      [pair(1, 4)]: [line('src/a.ts', 5, 1), line('package-lock.json', 300, 2), line('src/b.ts', 2, 0)],
    });
    assert.deepEqual(
      neededPairs(segments).map((p) => `${p.from}..${p.to}`).sort(),
      [pair(1, 4), pair(2, 3), pair(3, 4)].sort(),
      'no diff for a segment with no item in progress and no change',
    );
    const changes = attributeChanges(segments, ['A', 'B'], numstat);
    const [a, b] = changes.items;
    assert.equal(a?.recorded, 'all');
    assert.deepEqual(
      a?.files.map((f) => [f.path, f.added, f.removed, f.meanwhile ?? false, f.shared ?? false]),
      [
        ['src/a.ts', 5, 1, false, false],
        ['package-lock.json', 300, 2, true, false],
      ],
    );
    assert.deepEqual(a?.files[0]?.before, { tree: tree(2), path: 'src/a.ts' });
    assert.deepEqual(a?.files[0]?.after, { tree: tree(3), path: 'src/a.ts' });
    assert.deepEqual(b?.files.map((f) => [f.path, f.meanwhile ?? false]), [['src/b.ts', false]]);
    assert.equal(diffstat(a?.files ?? []), '+305 \u22123');
    assert.deepEqual(changes.session.map((f) => f.path), ['src/a.ts', 'package-lock.json', 'src/b.ts']);
  });

  it('overlapping items: the stretch they share is shared for both, the rest each one’s own', () => {
    const l = new Lines();
    l.plan(['A', 'in_progress'], ['B', 'pending']);
    l.snap(1, ['A']);
    l.plan(['A', 'in_progress'], ['B', 'in_progress']);
    l.snap(2, ['A', 'B']);
    l.plan(['A', 'completed'], ['B', 'in_progress']);
    l.snap(3, ['B']);
    l.plan(['A', 'completed'], ['B', 'completed']);
    l.snap(4, []);
    const numstat = table({
      [pair(1, 2)]: [line('a.ts', 1, 0)],
      [pair(2, 3)]: [line('both.ts', 4, 4), line('a.ts', 1, 1)],
      [pair(3, 4)]: [line('b.ts', 2, 0)],
    });
    const changes = attributeChanges(changeSegments(l.list), ['A', 'B'], numstat);
    const [a, b] = changes.items;
    assert.deepEqual(
      a?.files.map((f) => [f.path, f.added, f.removed, f.shared ?? false]),
      [
        ['a.ts', 2, 1, true],
        ['both.ts', 4, 4, true],
      ],
    );
    assert.deepEqual(
      b?.files.map((f) => [f.path, f.shared ?? false]),
      [
        ['both.ts', true],
        ['a.ts', true],
        ['b.ts', false],
      ],
    );
    assert.equal(a?.recorded, 'all');
  });

  it('another agent in the same working tree: its files are “changed meanwhile”, never this item’s', () => {
    const l = new Lines();
    l.plan(['A', 'in_progress']);
    l.snap(1, ['A']);
    l.write(['A'], '/w/mine.ts');
    l.plan(['A', 'completed']);
    l.snap(2, []);
    const changes = attributeChanges(changeSegments(l.list), ['A'], table({ [pair(1, 2)]: [line('mine.ts', 1, 0), line('theirs.ts', 9, 9)] }));
    assert.deepEqual(
      changes.items[0]?.files.map((f) => [f.path, f.meanwhile ?? false]),
      [
        ['mine.ts', false],
        ['theirs.ts', true],
      ],
    );
  });

  it('after a restart with no snapshot (history from before snapshots): not recorded, nothing invented', () => {
    const l = new Lines();
    l.plan(['A', 'in_progress'], ['B', 'pending']);
    l.plan(['A', 'completed'], ['B', 'in_progress']);
    // Snapshots begin here (a newer Agent Plan, a reload): B's stretch started unsnapshotted.
    l.plan(['A', 'completed'], ['B', 'completed'], ['C', 'in_progress']);
    l.snap(1, ['C']);
    l.plan(['A', 'completed'], ['B', 'completed'], ['C', 'completed']);
    l.snap(2, []);
    const changes = attributeChanges(changeSegments(l.list), ['A', 'B', 'C'], table({ [pair(1, 2)]: [line('c.ts', 1, 0)] }));
    assert.deepEqual(
      changes.items.map((i) => [i.content, i.recorded, i.files.length]),
      [
        ['A', 'none', 0],
        ['B', 'none', 0],
        ['C', 'all', 1],
      ],
    );
  });

  it('a folder that is not a git working tree (no snapshot ever): every worked item says not recorded', () => {
    const l = new Lines();
    l.plan(['A', 'in_progress'], ['B', 'pending']);
    l.write(['A'], 'a.ts');
    l.plan(['A', 'completed'], ['B', 'pending']);
    const changes = attributeChanges(changeSegments(l.list), ['A', 'B'], table({}));
    assert.deepEqual(
      changes.items.map((i) => [i.content, i.recorded]),
      [
        ['A', 'none'],
        ['B', 'all'],
      ],
      'B was never in progress: nothing to record',
    );
    assert.deepEqual(changes.session, []);
  });

  it('two sets between two snapshots (a moment passed unsnapshotted): both parts not recorded', () => {
    const l = new Lines();
    l.plan(['A', 'in_progress'], ['B', 'pending']);
    l.snap(1, ['A']);
    l.plan(['A', 'completed'], ['B', 'in_progress']);
    l.plan(['A', 'completed'], ['B', 'completed']);
    l.snap(2, []);
    const changes = attributeChanges(changeSegments(l.list), ['A', 'B'], table({ [pair(1, 2)]: [line('x.ts', 1, 0)] }));
    assert.deepEqual(
      changes.items.map((i) => [i.content, i.recorded, i.files.length, i.missed?.why]),
      [
        ['A', 'none', 0, 'read-together'],
        ['B', 'none', 0, 'read-together'],
      ],
      'and each says why: its versions were read together',
    );
  });

  it('the item in progress now: its stretch runs to a snapshot of now', () => {
    const l = new Lines();
    l.plan(['A', 'in_progress']);
    l.snap(1, ['A']);
    const segments = changeSegments(l.list);
    const now = { tree: tree(9), folder: W };
    assert.deepEqual(neededPairs(segments, now), [{ from: tree(1), to: tree(9) }]);
    const changes = attributeChanges(segments, ['A'], table({ [pair(1, 9)]: [line('a.ts', 3, 0)] }), now);
    assert.deepEqual(changes.items[0]?.files.map((f) => f.path), ['a.ts']);
    assert.equal(changes.items[0]?.recorded, 'all');
  });

  it('a rename, a deletion and a binary file, over two segments of one item', () => {
    const l = new Lines();
    l.plan(['A', 'in_progress'], ['B', 'pending']);
    l.snap(1, ['A']);
    l.plan(['A', 'in_progress'], ['B', 'in_progress']);
    l.snap(2, ['A', 'B']);
    l.plan(['A', 'completed'], ['B', 'completed']);
    l.snap(3, []);
    const numstat = table({
      [pair(1, 2)]: [line('old.ts', 2, 0), line('gone.ts', 0, 4), line('logo.png', undefined, undefined)],
      [pair(2, 3)]: [line('new.ts', 0, 0, 'old.ts'), line('logo.png', undefined, undefined)],
    });
    const [a] = attributeChanges(changeSegments(l.list), ['A', 'B'], numstat).items;
    assert.deepEqual(
      a?.files.map((f) => [f.path, f.from, f.added, f.removed]),
      [
        ['new.ts', 'old.ts', 2, 0],
        ['gone.ts', undefined, 0, 4],
        ['logo.png', undefined, undefined, undefined],
      ],
    );
    const renamed = a?.files[0];
    assert.deepEqual([renamed?.before, renamed?.after], [
      { tree: tree(1), path: 'old.ts' },
      { tree: tree(3), path: 'new.ts' },
    ]);
  });

  it('since a version: the snapshot taken at or before it, else the first after it (not exact); nothing without snapshots', () => {
    const l = new Lines();
    const v0 = l.plan(['A', 'pending']);
    const v1 = l.plan(['A', 'in_progress']);
    l.snap(1, ['A']);
    const v2 = l.plan(['A', 'in_progress'], ['B', 'pending']);
    const v3 = l.plan(['A', 'completed'], ['B', 'pending']);
    l.snap(2, []);
    const snapshots = sessionSnapshots(l.list);
    assert.deepEqual(snapshotSince(snapshots, v1), { from: { tree: tree(1), folder: W }, exact: true }, 'the version’s own snapshot');
    assert.deepEqual(snapshotSince(snapshots, v2), { from: { tree: tree(1), folder: W }, exact: true }, 'a version that changed no in-progress set: the working tree since the last that did');
    assert.deepEqual(snapshotSince(snapshots, v3)?.from.tree, tree(2));
    assert.deepEqual(snapshotSince(snapshots, v0), { from: { tree: tree(1), folder: W }, exact: false }, 'before the first snapshot: from it, said');
    assert.equal(snapshotSince([], v1), undefined);
    const files = changesBetween({ tree: tree(1), folder: W }, { tree: tree(2), folder: W }, [line('b.ts', 1, 0, 'a.ts'), line('c.png', undefined, undefined)]);
    assert.deepEqual(
      files.map((f) => [f.path, f.from, f.added, f.before, f.after, f.meanwhile, f.shared]),
      [
        ['b.ts', 'a.ts', 1, { tree: tree(1), path: 'a.ts' }, { tree: tree(2), path: 'b.ts' }, undefined, undefined],
        ['c.png', undefined, undefined, { tree: tree(1), path: 'c.png' }, { tree: tree(2), path: 'c.png' }, undefined, undefined],
      ],
    );
  });

  it('relativeTo: absolute paths inside the working tree, relative ones kept', () => {
    assert.equal(relativeTo('/w/', '/w/src/a.ts'), 'src/a.ts');
    assert.equal(relativeTo('C:\\w', 'C:\\w\\src\\a.ts'), 'src/a.ts');
    assert.equal(relativeTo('/w', './src/a.ts'), 'src/a.ts');
  });
});

describe('what each item changed: end to end with real git', function () {
  this.timeout(60_000);
  const tmp = useTempDir();

  it('each item’s files and line counts equal git diff --numstat between the states seen', async () => {
    const repo = committedRepo(path.join(tmp.path, 'repo'), { 'a.txt': '1\n2\n', 'doomed.txt': 'x\n' });
    const store = new GitSnapshots(path.join(tmp.path, 'store'));
    const l = new Lines();
    const snap = async (items: string[]): Promise<string> => {
      const result = await store.snapshot(repo);
      assert.ok(result.ok);
      l.snap(Number.NaN, items);
      const last = l.list.at(-1)?.record;
      if (last && last.type === 'tree/snapshot') Object.assign(last, { tree: result.tree, folder: result.toplevel });
      return result.tree;
    };
    l.plan(['A', 'in_progress'], ['B', 'pending']);
    const t1 = await snap(['A']);
    fs.writeFileSync(path.join(repo, 'a.txt'), '1\ntwo\n3\n');
    fs.rmSync(path.join(repo, 'doomed.txt'));
    l.write(['A'], path.join(fs.realpathSync(repo), 'a.txt'));
    l.plan(['A', 'completed'], ['B', 'in_progress']);
    const t2 = await snap(['B']);
    fs.writeFileSync(path.join(repo, 'img.bin'), Buffer.from([0, 0, 1]));
    l.plan(['A', 'completed'], ['B', 'completed']);
    const t3 = await snap([]);
    const segments = changeSegments(l.list);
    const stats = new Map<string, NumstatLine[]>();
    for (const { from, to } of neededPairs(segments)) stats.set(`${from}..${to}`, (await store.numstat(from, to)) ?? []);
    const changes = attributeChanges(segments, ['A', 'B'], (from, to) => stats.get(`${from}..${to}`));
    const expected = (from: string, to: string) =>
      execFileSync('git', ['--git-dir', store.store, 'diff-tree', '-r', '--numstat', '-M', from, to], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .map((row) => row.split('\t'))
        .map(([added, removed, p]) => [p, added === '-' ? undefined : Number(added), removed === '-' ? undefined : Number(removed)]);
    assert.deepEqual(changes.items[0]?.files.map((f) => [f.path, f.added, f.removed]), expected(t1, t2));
    assert.deepEqual(changes.items[0]?.files.map((f) => f.meanwhile ?? false), [false, true], 'a.txt named by the agent; doomed.txt deleted by someone else');
    assert.deepEqual(changes.items[1]?.files.map((f) => [f.path, f.added, f.removed]), expected(t2, t3));
    assert.equal((await store.readFile(changes.items[0]?.files[0]?.before.tree ?? '', 'a.txt'))?.toString(), '1\n2\n');
  });
});

describe('what each item changed: the rules with real git', function () {
  this.timeout(60_000);
  const tmp = useTempDir();

  /** A session's lines whose snapshots are real ones of `repo`, and the changes read from them. */
  function session(store: GitSnapshots, repo: string) {
    const l = new Lines();
    return {
      l,
      snap: async (items: string[]): Promise<string> => {
        const result = await store.snapshot(repo);
        assert.ok(result.ok, JSON.stringify(result));
        l.snap(0, items);
        Object.assign(l.list.at(-1)?.record ?? {}, { tree: result.tree, folder: result.toplevel });
        return result.tree;
      },
      changes: async (items: string[]) => {
        const segments = changeSegments(l.list);
        const stats = new Map<string, NumstatLine[] | undefined>();
        for (const { from, to } of neededPairs(segments)) stats.set(`${from}..${to}`, await store.numstat(from, to));
        return attributeChanges(segments, items, (from, to) => stats.get(`${from}..${to}`));
      },
    };
  }
  const rows = (files: readonly FileChange[] | undefined) => (files ?? []).map((f) => [f.path, f.from, f.added, f.removed, f.shared ?? false, f.meanwhile ?? false]);

  it('a renamed, a deleted and a binary file the agent named: its own, with git’s counts (binary: none)', async () => {
    const repo = committedRepo(path.join(tmp.path, 'repo'), { 'old.txt': 'a\nb\nc\nd\ne\n', 'gone.txt': 'x\ny\n', 'logo.png': 'v1' });
    const store = new GitSnapshots(path.join(tmp.path, 'store'));
    const s = session(store, repo);
    s.l.plan(['A', 'in_progress']);
    await s.snap(['A']);
    fs.renameSync(path.join(repo, 'old.txt'), path.join(repo, 'new.txt'));
    fs.appendFileSync(path.join(repo, 'new.txt'), 'f\n');
    fs.rmSync(path.join(repo, 'gone.txt'));
    fs.writeFileSync(path.join(repo, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 0]));
    const real = fs.realpathSync(repo);
    s.l.write(['A'], path.join(real, 'new.txt'), path.join(real, 'gone.txt'), 'logo.png');
    s.l.plan(['A', 'completed']);
    await s.snap([]);
    const [a] = (await s.changes(['A'])).items;
    assert.equal(a?.recorded, 'all');
    assert.deepEqual(
      rows(a?.files).sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
      [
        ['gone.txt', undefined, 0, 2, false, false],
        ['logo.png', undefined, undefined, undefined, false, false],
        ['new.txt', 'old.txt', 1, 0, false, false],
      ],
    );
    const renamed = a?.files.find((f) => f.path === 'new.txt');
    assert.equal((await store.readFile(renamed?.before.tree ?? '', renamed?.before.path ?? ''))?.toString(), 'a\nb\nc\nd\ne\n', 'the diff editor’s left side is the old path in the snapshot before');
    assert.equal(diffstat(a?.files ?? []), '+1 \u22122', 'a binary file counts no lines');
  });

  it('overlapping items with real git: the shared stretch is in both, shared; the rest each one’s own', async () => {
    const repo = committedRepo(path.join(tmp.path, 'repo'), { 'a.txt': '1\n', 'b.txt': '1\n' });
    const s = session(new GitSnapshots(path.join(tmp.path, 'store')), repo);
    s.l.plan(['A', 'in_progress'], ['B', 'pending']);
    await s.snap(['A']);
    fs.appendFileSync(path.join(repo, 'a.txt'), '2\n');
    s.l.plan(['A', 'in_progress'], ['B', 'in_progress']);
    await s.snap(['A', 'B']);
    fs.appendFileSync(path.join(repo, 'a.txt'), '3\n');
    fs.appendFileSync(path.join(repo, 'b.txt'), '2\n');
    s.l.plan(['A', 'completed'], ['B', 'in_progress']);
    await s.snap(['B']);
    fs.appendFileSync(path.join(repo, 'b.txt'), '3\n');
    s.l.plan(['A', 'completed'], ['B', 'completed']);
    await s.snap([]);
    const [a, b] = (await s.changes(['A', 'B'])).items;
    assert.deepEqual(rows(a?.files), [
      ['a.txt', undefined, 2, 0, true, true],
      ['b.txt', undefined, 1, 0, true, true],
    ]);
    assert.deepEqual(rows(b?.files), [
      ['a.txt', undefined, 1, 0, true, true],
      ['b.txt', undefined, 2, 0, true, true],
    ]);
  });

  it('another agent in the same working tree: its file is “changed meanwhile” in this session and its own in the other', async () => {
    const repo = committedRepo(path.join(tmp.path, 'repo'), { 'mine.txt': '1\n', 'theirs.txt': '1\n' });
    const store = new GitSnapshots(path.join(tmp.path, 'store'));
    const one = session(store, repo);
    const two = session(store, repo);
    one.l.plan(['mine', 'in_progress']);
    await one.snap(['mine']);
    two.l.plan(['theirs', 'in_progress']);
    await two.snap(['theirs']);
    fs.appendFileSync(path.join(repo, 'mine.txt'), '2\n');
    one.l.write(['mine'], 'mine.txt');
    fs.appendFileSync(path.join(repo, 'theirs.txt'), '2\n3\n');
    two.l.write(['theirs'], 'theirs.txt');
    one.l.plan(['mine', 'completed']);
    await one.snap([]);
    two.l.plan(['theirs', 'completed']);
    await two.snap([]);
    assert.deepEqual(rows((await one.changes(['mine'])).items[0]?.files), [
      ['mine.txt', undefined, 1, 0, false, false],
      ['theirs.txt', undefined, 2, 0, false, true],
    ]);
    assert.deepEqual(rows((await two.changes(['theirs'])).items[0]?.files), [
      ['mine.txt', undefined, 1, 0, false, true],
      ['theirs.txt', undefined, 2, 0, false, false],
    ]);
  });

  it('a working tree reached through a symbolic link: the files the agent named under the link are still its own', async function () {
    const real = committedRepo(path.join(tmp.path, 'real', 'repo'), { 'a.txt': '1\n' });
    const link = path.join(tmp.path, 'link');
    try {
      fs.symlinkSync(path.join(tmp.path, 'real'), link, 'dir');
    } catch (error) {
      console.log(`      SKIPPED: no symbolic links here (${String(error)})`);
      this.skip();
    }
    const repo = path.join(link, 'repo');
    const store = new GitSnapshots(path.join(tmp.path, 'store'));
    const s = session(store, repo);
    s.l.plan(['A', 'in_progress']);
    await s.snap(['A']);
    assert.equal((s.l.list.at(-1)?.record as { folder?: string }).folder, fs.realpathSync(real), 'git names the real top folder');
    fs.appendFileSync(path.join(repo, 'a.txt'), '2\n');
    s.l.write(['A'], path.join(repo, 'a.txt'));
    s.l.plan(['A', 'completed']);
    await s.snap([]);
    const segments = changeSegments(s.l.list);
    const stats = new Map<string, NumstatLine[] | undefined>();
    for (const { from, to } of neededPairs(segments)) stats.set(`${from}..${to}`, await store.numstat(from, to));
    const named = await realPaths(segments);
    const changes = attributeChanges(segments, ['A'], (from, to) => stats.get(`${from}..${to}`), undefined, (file) => named.get(file) ?? file);
    assert.deepEqual(rows(changes.items[0]?.files), [['a.txt', undefined, 1, 0, false, false]]);
  });

  it('an agent working in a subfolder names files relative to it: still its own', async () => {
    const repo = committedRepo(path.join(tmp.path, 'repo'), { 'top.txt': '1\n' });
    fs.mkdirSync(path.join(repo, 'pkg', 'src'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'pkg', 'src', 'a.ts'), '1\n');
    const store = new GitSnapshots(path.join(tmp.path, 'store'));
    const s = session(store, path.join(repo, 'pkg'));
    s.l.plan(['A', 'in_progress']);
    await s.snap(['A']);
    fs.appendFileSync(path.join(repo, 'pkg', 'src', 'a.ts'), '2\n');
    fs.appendFileSync(path.join(repo, 'top.txt'), '2\n');
    s.l.write(['A'], 'src/a.ts');
    s.l.plan(['A', 'completed']);
    await s.snap([]);
    const segments = changeSegments(s.l.list);
    const stats = new Map<string, NumstatLine[] | undefined>();
    for (const { from, to } of neededPairs(segments)) stats.set(`${from}..${to}`, await store.numstat(from, to));
    const named = await realPaths(segments, path.join(repo, 'pkg'));
    const changes = attributeChanges(segments, ['A'], (from, to) => stats.get(`${from}..${to}`), undefined, (file) => named.get(file) ?? file);
    assert.deepEqual(rows(changes.items[0]?.files), [
      ['pkg/src/a.ts', undefined, 1, 0, false, false],
      ['top.txt', undefined, 1, 0, false, true],
    ]);
    const unknown = attributeChanges(segments, ['A'], (from, to) => stats.get(`${from}..${to}`));
    assert.equal(unknown.items[0]?.files[0]?.meanwhile, true, 'without the folder it works in, a relative path cannot be placed: not claimed');
  });
});

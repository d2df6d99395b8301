// The attribution rules of what each item changed (core/derived/itemChanges.ts), over made
// lines and a made numstat table, then end to end with real git.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { attributeChanges, changeSegments, diffstat, neededPairs, relativeTo, type NumstatLine } from '../../src/core/derived/itemChanges';
import { fileWriteRecord, planEvent, type LogRecord } from '../../src/core/log/logRecord';
import { snapshotRecord } from '../../src/core/log/snapshotRecord';
import type { ItemStatus } from '../../src/core/plan/plan';
import { GitSnapshots } from '../../src/node/gitSnapshots';
import { committedRepo, KEY_A, useTempDir } from './helpers';

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
      changes.items.map((i) => [i.content, i.recorded, i.files.length]),
      [
        ['A', 'none', 0],
        ['B', 'none', 0],
      ],
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

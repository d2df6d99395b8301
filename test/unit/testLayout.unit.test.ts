// The tests' own layout: the integration files run in the order of their names, so each has
// a prefix of its own; and no two folders of test/ are named alike (agent/agents, say).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const testRoot = path.resolve(__dirname, '..');

describe('the tests are laid out by feature, with names that do not collide', () => {
  it('every integration file has a prefix of its own (they run in the order of their names)', () => {
    const files = fs.readdirSync(path.join(testRoot, 'integration')).filter((name) => name.endsWith('.test.ts'));
    assert.ok(files.length > 0, 'no integration files found');
    const prefixes = files.map((name) => /^(\d+)-/.exec(name)?.[1]);
    assert.deepEqual(files.filter((_, i) => prefixes[i] === undefined), [], 'integration files without a number prefix');
    const seen = new Map<string, string>();
    for (const [i, prefix] of prefixes.entries()) {
      assert.ok(!seen.has(prefix!), `${files[i]} shares its prefix with ${seen.get(prefix!)}`);
      seen.set(prefix!, files[i]!);
    }
    assert.ok(new Set(prefixes.map((prefix) => prefix!.length)).size === 1, 'prefixes of one width, so that names sort as numbers');
  });

  it('no two folders of test/ differ only by a plural, a case or a separator', () => {
    const folders = fs.readdirSync(testRoot, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    const key = (name: string) => name.toLowerCase().replace(/[-_]/g, '').replace(/s$/, '');
    const byKey = new Map<string, string>();
    for (const folder of folders) {
      assert.ok(!byKey.has(key(folder)), `test/${folder} and test/${byKey.get(key(folder))} are named alike`);
      byKey.set(key(folder), folder);
    }
  });
});

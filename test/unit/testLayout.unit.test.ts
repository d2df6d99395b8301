// The tests' own layout: the integration files run in the order of the run's seed, so their
// names carry no number (an order in the names would be a promise the run does not keep), no two
// are named alike, and the file that seeds the restart phase (held last) and those that need
// Copilot off (held first) exist; no two folders of test/ are named alike (agent/agents, say).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BEFORE_COPILOT_FILES, RESTART_SEED_FILE, mainPhaseOrder } from '../integration/order';

const testRoot = path.resolve(__dirname, '..');

describe('the tests are laid out by feature, with names that do not collide', () => {
  it('integration files are named by feature, without a number prefix, each name its own; the files the order holds exist', () => {
    const files = fs.readdirSync(path.join(testRoot, 'integration')).filter((name) => name.endsWith('.test.ts'));
    assert.ok(files.length > 1, 'no integration files found');
    assert.deepEqual(files.filter((name) => /^\d/.test(name)), [], 'integration files with a number prefix (they run in the order of the seed, not of their names)');
    const key = (name: string) => name.toLowerCase().replace(/\.test\.ts$/, '').replace(/[-_]/g, '').replace(/s$/, '');
    const seen = new Map<string, string>();
    for (const name of files) {
      assert.ok(!seen.has(key(name)), `${name} and ${seen.get(key(name))} are named alike`);
      seen.set(key(name), name);
    }
    for (const held of [RESTART_SEED_FILE, ...BEFORE_COPILOT_FILES]) assert.ok(files.includes(held), `test/integration/${held}, which test/integration/order.ts holds in place, exists`);
    // Every seed: the restart-seeding file last, the Copilot-off files first, every file once.
    for (const seed of [0, 1, 42, 2 ** 32 - 1]) {
      const order = mainPhaseOrder(files, seed);
      assert.deepEqual([...order].sort(), [...files].sort(), `seed ${seed}: every file once`);
      assert.equal(order.at(-1), RESTART_SEED_FILE, `seed ${seed}: the restart-seeding file last`);
      assert.deepEqual([...order.slice(0, BEFORE_COPILOT_FILES.length)].sort(), [...BEFORE_COPILOT_FILES].sort(), `seed ${seed}: the Copilot-off files first`);
    }
    assert.notDeepEqual(mainPhaseOrder(files, 1), mainPhaseOrder(files, 2), 'two seeds, two orders');
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

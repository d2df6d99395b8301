// The tests' own layout: the integration and reliability files run in the order of the run's
// seed, so their names carry no number (an order in the names would be a promise the run does not
// keep), no two integration files are named alike, and the file that seeds the restart phase (held
// last) and those that need Copilot off (held first) exist; no two folders of test/ are named alike
// (agent/agents, say); a unit test sits in the folder of test/unit/ that mirrors the room of src/
// it tests (test/unit/project/: the repository as a whole), named in camelCase.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BEFORE_COPILOT_FILES, RESTART_SEED_FILE, mainPhaseOrder } from '../../integration/order';

const testRoot = path.resolve(__dirname, '..', '..');
const unitRoot = path.join(testRoot, 'unit');
const srcRoot = path.resolve(testRoot, '..', 'src');

/** The files a test file names: its relative imports, resolved, and its `'src', 'a', 'b'` path segments. */
function named(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const imports = [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((m) => path.resolve(path.dirname(file), m[1] ?? ''));
  const joined = [...text.matchAll(/'src', ((?:'[^']+', )*'[^']+')/g)].map((m) => path.join(srcRoot, ...(m[1] ?? '').split(', ').map((s) => s.slice(1, -1))));
  return [...imports, ...joined];
}

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

  it('reliability files are named by scenario in kebab-case, without a number prefix', () => {
    const files = fs.readdirSync(path.join(testRoot, 'reliability')).filter((name) => name.endsWith('.test.ts'));
    assert.ok(files.length > 1, 'no reliability files found');
    assert.deepEqual(files.filter((name) => !/^[a-z][a-z0-9]*(-[a-z0-9]+)*\.reliability\.test\.ts$/.test(name)), [], 'reliability files not named <kebab-case>.reliability.test.ts');
  });

  it('each unit test sits in the folder mirroring the room of src/ it tests (or project/), named <camelCase>.unit.test.ts', () => {
    const files = (fs.readdirSync(unitRoot, { recursive: true }) as string[]).map((name) => name.split(path.sep).join('/')).filter((name) => name.endsWith('.test.ts'));
    assert.ok(files.length > 50, 'no unit test files found');
    const helpers = fs.readdirSync(unitRoot).filter((name) => name.endsWith('.ts')).map((name) => path.join(unitRoot, name));
    for (const name of files) {
      const folder = path.posix.dirname(name);
      const base = path.posix.basename(name);
      assert.match(base, /^[a-z][a-zA-Z0-9]*\.unit\.test\.ts$/, `test/unit/${name}: one naming style, <camelCase>.unit.test.ts`);
      assert.notEqual(folder, '.', `test/unit/${name}: test/unit/ itself holds only the shared helpers; a test goes in the folder of its room`);
      if (folder === 'project') continue;
      const room = path.join(srcRoot, folder);
      assert.ok(fs.existsSync(room) && fs.statSync(room).isDirectory(), `test/unit/${folder}/ mirrors no folder of src/ (test/unit/${name})`);
      // The room's code, named by the test itself or by a shared helper of test/unit/ it imports.
      const direct = named(path.join(unitRoot, name));
      const reached = [...direct, ...direct.filter((file) => helpers.includes(`${file}.ts`)).flatMap((file) => named(`${file}.ts`))];
      assert.ok(reached.some((file) => file.startsWith(room + path.sep)), `test/unit/${name} names nothing of src/${folder}/: it belongs in the folder of the room it tests`);
    }
    // project/ is the repository as a whole: flat, no rooms of its own.
    assert.deepEqual(files.filter((name) => name.startsWith('project/') && name.split('/').length > 2), [], 'test/unit/project/ is flat');
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

// The files derived from the agents' descriptors and the command manifest (scripts/generate.mjs:
// the manifest's agent settings, commands, menus and keybindings, their strings, the l10n names,
// the generated ids, the docs' agent tables and lists) are what those sources make now: a stale
// one fails here, naming the command that rewrites it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { useTempDir } from '../../lib/temp';

const script = path.join(__dirname, '..', '..', '..', 'scripts', 'generate.mjs');

interface Generator {
  staleFiles(root?: string): Promise<string[]>;
  SOURCES: string[];
  DERIVED_FILES: string[];
}

describe('the files generated from the agents and the commands', () => {
  it('are up to date: none differs from what `npm run generate` writes', async () => {
    const generator = (await import(script)) as Generator;
    assert.ok(generator.DERIVED_FILES.includes('package.json'));
    const stale = await generator.staleFiles();
    assert.deepEqual(stale, [], `stale: ${stale.join(', ')}; run \`npm run generate\` and commit what it writes`);
  });
});

describe("docs/agents.md's tables of the agents' rows (each descriptor's `about.rows`)", () => {
  const copy = useTempDir('rows');
  const REGIONS = ['naming', 'mapping', 'waiting', 'ledger'];

  it('are generated: each is between its markers, and an edited row there makes the page stale', async function () {
    this.timeout(60_000);
    const generator = (await import(script)) as Generator;
    const repo = path.join(__dirname, '..', '..', '..');
    const tmp = copy.path;
    for (const file of [...generator.SOURCES, ...generator.DERIVED_FILES]) fs.cpSync(path.join(repo, file), path.join(tmp, file), { recursive: true });
    const page = path.join(tmp, 'docs', 'agents.md');
    const fresh = fs.readFileSync(page, 'utf8');
    for (const region of REGIONS) {
      const start = fresh.indexOf(`<!-- generated:agents-${region} -->`);
      assert.ok(start >= 0, `docs/agents.md has the region agents-${region}`);
      const end = fresh.indexOf('<!-- /generated -->', start);
      const lastRow = fresh.lastIndexOf(' |\n', end);
      assert.ok(lastRow > start, `agents-${region} holds a table`);
      fs.writeFileSync(page, `${fresh.slice(0, lastRow)} (edited)${fresh.slice(lastRow)}`);
      assert.deepEqual(await generator.staleFiles(tmp), ['docs/agents.md'], `an edited row of agents-${region}`);
    }
  });
});

// The files derived from the agents' descriptors and the command manifest (scripts/generate.mjs:
// the manifest's agent settings, commands, menus and keybindings, their strings, the l10n names,
// the generated ids, the docs' agent tables and lists) are what those sources make now: a stale
// one fails here, naming the command that rewrites it.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';

const script = path.join(__dirname, '..', '..', 'scripts', 'generate.mjs');

interface Generator {
  staleFiles(root?: string): Promise<string[]>;
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

// A made-up agent added as CONTRIBUTING says (a copied folder and test twin, one registry line), then
// `npm run generate`, type-checks as `npm run check-types` does: before the generator runs, its
// id is not one the log accepts and the check fails; after, it passes. (The unit level,
// test/unit/project/agentFolders.unit.test.ts, checks what the generator writes; this one runs tsc.)
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { generator, madeUpCopy, MADE_UP, repoRoot } from '../unit/madeUpAgent';
import { useTempDir } from '../lib/temp';

function checkTypes(root: string): { status: number | null; output: string } {
  const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '--noEmit', '-p', 'tsconfig.json'], { cwd: root, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('a made-up agent, type-checked', () => {
  const copy = useTempDir('madeup');
  it('fails check-types until `npm run generate` runs, and passes after', async function () {
    this.timeout(120_000);
    assert.ok(fs.existsSync(path.join(repoRoot, 'src', 'core', 'generated', 'inputValidator.js')), 'the validator is built (npm run build)');
    const tmp = await madeUpCopy(copy.path, ['schemas']);
    fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(tmp, 'node_modules'), 'dir');
    const config = JSON.parse(fs.readFileSync(path.join(repoRoot, 'tsconfig.json'), 'utf8')) as { compilerOptions: { types: string[] }; include: string[] };
    fs.writeFileSync(path.join(tmp, 'tsconfig.json'), JSON.stringify({ ...config, compilerOptions: { ...config.compilerOptions, types: ['node', 'vscode'] }, include: ['src/**/*.ts'] }));
    const before = checkTypes(tmp);
    assert.notEqual(before.status, 0, 'its id is not an AgentId before the generator runs');
    assert.match(before.output, new RegExp(`"${MADE_UP.id}"`));
    await (await generator()).generate(tmp);
    const after = checkTypes(tmp);
    assert.equal(after.status, 0, after.output);
  });
});

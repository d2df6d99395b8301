// A made-up agent, "Made Up" (`made-up`), added as CONTRIBUTING's "Adding an agent" says: a copy
// of a JSON-lines agent's folder (Codex's, src/agents/codex/) under its own id, name and settings
// key, a copy of its test twin (test/agents/codex/: its recording recipe under its own id and npm
// package, its scenarios, recordings and tests), and one line in the registry, in a temp copy of
// the repository's sources and of the files generated from them.
// test/unit/project/agentFolders.unit.test.ts runs the generator over it; test/build/ also type-checks it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const repoRoot = path.resolve(__dirname, '..', '..');
export const MADE_UP = { id: 'made-up', folder: 'madeUp', name: 'Made Up', settingKey: 'madeUp', npmPackage: 'made-up-cli' } as const;

export interface Generator {
  SOURCES: string[];
  DERIVED_FILES: string[];
  generate(root?: string): Promise<string[]>;
  staleFiles(root?: string): Promise<string[]>;
}

export async function generator(): Promise<Generator> {
  return (await import(path.join(repoRoot, 'scripts', 'generate.mjs'))) as Generator;
}

/** Fills `tmp` (an empty folder, a test's: test/lib/temp.ts) with what the generator reads (src/, scripts/agents/, test/agents/), the generated files and the given extra paths, with the made-up agent added; returns `tmp`. */
export async function madeUpCopy(tmp: string, extra: readonly string[] = []): Promise<string> {
  const { DERIVED_FILES, SOURCES } = await generator();
  for (const file of [...SOURCES, ...DERIVED_FILES, ...extra]) fs.cpSync(path.join(repoRoot, file), path.join(tmp, file), { recursive: true });
  const copy = path.join(tmp, 'src', 'agents', MADE_UP.folder);
  fs.cpSync(path.join(tmp, 'src', 'agents', 'codex'), copy, { recursive: true });
  const index = path.join(copy, 'index.ts');
  const text = fs
    .readFileSync(index, 'utf8')
    .replace(/\bcodex\b/g, MADE_UP.folder)
    .replace(/\bCodex\b/g, MADE_UP.name)
    .replace(`id: '${MADE_UP.folder}',`, `id: '${MADE_UP.id}',`);
  assert.ok(text.includes(`id: '${MADE_UP.id}',`) && text.includes(`name: '${MADE_UP.name}',`) && text.includes(`export const ${MADE_UP.folder}`), 'the copy has its own id and name');
  fs.writeFileSync(index, text);
  // Its test twin, and in it its recording recipe: its own id and npm package.
  const twin = path.join(tmp, 'test', 'agents', MADE_UP.folder);
  fs.cpSync(path.join(tmp, 'test', 'agents', 'codex'), twin, { recursive: true });
  const recipe = path.join(twin, 'recording.mjs');
  const recipeText = fs.readFileSync(recipe, 'utf8').replace("id: 'codex',", `id: '${MADE_UP.id}',`).replace("package: '@openai/codex',", `package: '${MADE_UP.npmPackage}',`);
  assert.ok(recipeText.includes(`id: '${MADE_UP.id}',`) && recipeText.includes(`package: '${MADE_UP.npmPackage}',`), 'the recipe has its own id and package');
  fs.writeFileSync(recipe, recipeText);
  // Its line in the registry: the import, and its name in the list.
  const registry = path.join(tmp, 'src', 'agents', 'registry.ts');
  const before = fs.readFileSync(registry, 'utf8');
  const after = before
    .replace("import { kilo } from './kilo';\n", `import { kilo } from './kilo';\nimport { ${MADE_UP.folder} } from './${MADE_UP.folder}';\n`)
    .replace(/(export const AGENTS[^=]*=\s*\[[^\]]*)\]/, `$1, ${MADE_UP.folder}]`);
  assert.notEqual(after, before);
  fs.writeFileSync(registry, after);
  return tmp;
}

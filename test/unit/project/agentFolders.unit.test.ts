// An agent is one folder: every agent id is written only in its own folder (src/agents/<agent>/),
// the registry, and what is generated from the registry; its tests, recording recipe, scenarios and
// recordings are its test twin (test/agents/<agent>/), and src/ imports nothing of the tests or the
// scripts; and a new agent is its folder, its twin and its line in the registry, then
// `npm run generate` (test/build/ type-checks it).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { AGENTS } from '../../../src/agents/registry';
import { generator, madeUpCopy, MADE_UP } from '../madeUpAgent';
import { useTempDir } from '../../lib/temp';

const root = path.join(__dirname, '..', '..', '..');
const src = path.join(root, 'src');
const agentsDir = path.join(src, 'agents');
const registry = path.join(agentsDir, 'registry.ts');
const generated = path.join(src, 'core', 'generated');

function filesOf(dir: string, extension: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? filesOf(file, extension) : entry.name.endsWith(extension) ? [file] : [];
  });
}
const tsFiles = (dir: string) => filesOf(dir, '.ts');

/** The module specifiers a TypeScript file names: static imports and exports, `import(…)` and `require(…)`. */
function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)(['"])([^'"\n]+)\1/gm)].map((match) => match[2]!);
}

/** The folder whose index.ts declares the descriptor with this id. */
function folderOf(id: string): string {
  const folders = fs.readdirSync(agentsDir, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  const found = folders.filter((entry) => {
    const index = path.join(agentsDir, entry.name, 'index.ts');
    return fs.existsSync(index) && fs.readFileSync(index, 'utf8').includes(`id: '${id}',`);
  });
  assert.equal(found.length, 1, `one folder of src/agents declares id '${id}'`);
  return path.join(agentsDir, found[0]!.name);
}

const inside = (file: string, folder: string) => file.startsWith(folder + path.sep);

/**
 * Words equal to an agent id that are not that agent's id where they are written: each file, the
 * word, and what it is there.
 */
const NOT_AN_ID: ReadonlyArray<{ file: string; word: string; is: string }> = [
  { file: 'src/agents/copilotCli/connect.ts', word: 'copilot', is: "Copilot CLI's program on PATH" },
  { file: 'src/agents/opencode/connect.ts', word: 'mcp', is: "the key of opencode's settings that holds its MCP servers" },
];
const notAnId = (file: string, word: string): boolean => NOT_AN_ID.some((entry) => entry.word === word && path.join(root, entry.file) === file);

describe('an agent is one folder', () => {
  const copy = useTempDir('madeup');
  it("each agent id is written only in its folder, the registry and the generated files", () => {
    const files = tsFiles(src).map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));
    assert.ok(files.length > 100, `src/ read (${files.length} files)`);
    for (const agent of AGENTS) {
      const folder = folderOf(agent.id);
      const quoted = new RegExp(`(['"\`])${agent.id.replace(/[-]/g, '\\-')}\\1`);
      let own = 0;
      for (const { file, text } of files) {
        if (!quoted.test(text) || notAnId(file, agent.id)) continue;
        if (inside(file, folder)) {
          own++;
          continue;
        }
        assert.ok(file === registry || inside(file, generated), `'${agent.id}' is written in ${path.relative(root, file)}, outside ${path.relative(root, folder)}`);
      }
      assert.ok(own > 0, `'${agent.id}' is found in its own folder ${path.relative(root, folder)}`);
    }
  });

  it('src/ holds no plain .mjs and imports nothing of scripts/ or test/: what tests an agent is in its test twin', () => {
    assert.deepEqual(filesOf(src, '.mjs').map((file) => path.relative(root, file)), [], 'no .mjs in src/ (a recording recipe or its scenarios go to test/agents/<agent>/)');
    const outside = [path.join(root, 'scripts'), path.join(root, 'test')];
    let relative = 0;
    for (const file of tsFiles(src)) {
      for (const specifier of specifiers(fs.readFileSync(file, 'utf8'))) {
        if (!specifier.startsWith('.')) continue;
        relative++;
        const target = path.resolve(path.dirname(file), specifier);
        assert.ok(!outside.some((dir) => target === dir || inside(target, dir)), `${path.relative(root, file)} imports ${specifier}, which is in ${path.relative(root, target)}`);
      }
    }
    assert.ok(relative > 500, `the imports of src/ read (${relative})`);
  });

  it("each agent has its test twin, test/agents/<its folder>/, and every folder there is an agent's", () => {
    const folders = AGENTS.map((agent) => path.basename(folderOf(agent.id))).sort();
    const found = fs.readdirSync(path.join(root, 'test', 'agents'), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
    assert.deepEqual(found, folders, 'test/agents/ holds one folder per agent, named as its folder of src/agents/');
  });

  it('a made-up agent (a copied folder and test twin under a new id, one line in the registry) is in every generated file after `npm run generate`, and only then', async function () {
    this.timeout(30_000);
    const tmp = await madeUpCopy(copy.path);
    const { generate, staleFiles, DERIVED_FILES } = await generator();
    // Before the generator runs, every generated file is stale but the docs' prose pages that list no agent.
    assert.ok((await staleFiles(tmp)).includes('package.json'), 'a registry line alone leaves package.json stale');
    const written = await generate(tmp);
    assert.deepEqual([...written].sort(), [...DERIVED_FILES].sort(), 'the generator writes every derived file');
    const read = (file: string) => fs.readFileSync(path.join(tmp, file), 'utf8');
    const json = (file: string) => JSON.parse(read(file)) as Record<string, Record<string, unknown>>;
    const manifest = JSON.parse(read('package.json')) as { contributes: { configuration: { properties: Record<string, { scope?: string }> } }; capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } } };
    const properties = manifest.contributes.configuration.properties;
    const setting = (which: string) => `agentPlan.sources.${MADE_UP.settingKey}.${which}`;
    assert.ok(properties[setting('enabled')], 'its enabled setting is contributed');
    assert.equal(properties[setting('folder')]?.scope, 'machine', 'its folder setting is contributed, a machine setting');
    assert.ok(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations.includes(setting('enabled')));
    for (const [file, said] of [['package.nls.json', 'Show the plans'], ['package.nls.zh-cn.json', '显示在本工作区运行的']] as const) {
      const strings = json(file) as unknown as Record<string, string>;
      assert.ok(strings[`configuration.sources.${MADE_UP.settingKey}.enabled`]?.includes(said), `${file}: its enabled setting is described`);
      assert.ok(strings[`configuration.sources.${MADE_UP.settingKey}.folder`]?.includes(MADE_UP.name), `${file}: its folder setting names it`);
    }
    for (const file of ['l10n/bundle.l10n.json', 'l10n/bundle.l10n.zh-cn.json']) assert.equal(json(file)[MADE_UP.name], MADE_UP.name, `${file} has its name as it is`);
    assert.match(read('src/core/generated/agentIds.ts'), new RegExp(`'${MADE_UP.id}': \\{ name: '${MADE_UP.name}'`));
    for (const file of ['docs/agents.md', 'README.md']) assert.ok(read(file).includes(`| ${MADE_UP.name} `), `${file}'s tables have its rows`);
    assert.ok(read('docs/agents.md').includes(`\`${setting('enabled')}\``), "docs/agents.md's settings table names its settings");
    assert.ok(read('docs/agents.md').includes(`\`src/agents/${MADE_UP.folder}/\``), "the agents' page names its folder (as docs.unit.test.ts asks of every folder of src/)");
    assert.ok(read('docs/agents.md').includes(`\`test/agents/${MADE_UP.folder}/\``), "the agents' page names its test twin");
    assert.ok(read('docs/log-format.md').includes(`\`${MADE_UP.id}\``), 'the log format names its id');
    assert.ok(read('docs/api.md').includes(`'${MADE_UP.id}'`), 'the API names its id');
    assert.ok(read('scripts/agents/recipes.mjs').includes(`from '../../test/agents/${MADE_UP.folder}/recording.mjs'`), 'the scripts gather its recording recipe from its test twin');
    assert.equal(json('scripts/agents/package.json')['dependencies']?.[MADE_UP.npmPackage], '0.171.0', "its recipe's package is pinned for the scripts");
    // A second run changes nothing; a stale file is found.
    assert.deepEqual(await generate(tmp), [], 'a second run writes nothing');
    assert.deepEqual(await staleFiles(tmp), []);
    const manifestFile = path.join(tmp, 'package.json');
    fs.writeFileSync(manifestFile, read('package.json').replace(`"${setting('folder')}"`, '"agentPlan.sources.gone.folder"'));
    assert.deepEqual(await staleFiles(tmp), ['package.json'], 'a package.json edited by hand is stale');
    // And it builds: bundled with the registry, it is listed, and the log accepts its id.
    const entry = path.join(tmp, 'list.ts');
    fs.writeFileSync(
      entry,
      "import { AGENTS } from './src/agents/registry';\nimport { AGENT_IDS } from './src/core/log/logRecord';\n" +
        `console.log(JSON.stringify({ agents: AGENTS.map((a) => a.id), ids: AGENT_IDS, name: AGENTS.find((a) => a.id === '${MADE_UP.id}')?.name }));\n`,
    );
    fs.writeFileSync(path.join(tmp, 'src', 'core', 'generated', 'inputValidator.js'), fs.readFileSync(path.join(generated, 'inputValidator.js')));
    const out = path.join(tmp, 'list.js');
    await esbuild.build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', outfile: out, external: ['vscode'], nodePaths: [path.join(root, 'node_modules')], logLevel: 'silent' });
    const listed = JSON.parse(execFileSync(process.execPath, [out], { encoding: 'utf8' })) as { agents: string[]; ids: string[]; name: string };
    assert.deepEqual(listed.agents, [...AGENTS.map((a) => a.id), MADE_UP.id]);
    assert.deepEqual(listed.ids, listed.agents);
    assert.equal(listed.name, MADE_UP.name);
  });
});

describe('an agent taken out', () => {
  const copy = useTempDir('taken-out');
  it('leaves nothing of it in the generated files once its registry line is gone and `npm run generate` ran', async function () {
    this.timeout(30_000);
    const last = AGENTS[AGENTS.length - 1]!;
    const folder = path.basename(folderOf(last.id));
    const { generate, DERIVED_FILES, SOURCES } = await generator();
    const tmp = copy.path;
    for (const file of [...SOURCES, ...DERIVED_FILES]) fs.cpSync(path.join(root, file), path.join(tmp, file), { recursive: true });
    fs.rmSync(path.join(tmp, 'src', 'agents', folder), { recursive: true });
    fs.rmSync(path.join(tmp, 'test', 'agents', folder), { recursive: true, force: true });
    const registryCopy = path.join(tmp, 'src', 'agents', 'registry.ts');
    const before = fs.readFileSync(registryCopy, 'utf8');
    const after = before.replace(new RegExp(`^import \\{ (\\w+) \\} from '\\./${folder}';\\n`, 'm'), '').replace(/, (\w+)\];/, (line, name: string) => (before.includes(`import { ${name} } from './${folder}';`) ? '];' : line));
    assert.notEqual(after, before);
    fs.writeFileSync(registryCopy, after);
    await generate(tmp);
    const id = new RegExp(`['"\`/]${last.id}['"\`/]`);
    for (const file of DERIVED_FILES.filter((f) => !f.endsWith('.md'))) {
      const text = fs.readFileSync(path.join(tmp, file), 'utf8');
      assert.ok(!id.test(text) && !text.includes(`"${last.name}"`) && !text.includes(`/${folder}/`), `${file} names ${last.name} no more`);
    }
  });
});

// An agent is one folder: every agent id is written only in its own folder (src/agents/<agent>/),
// the registry, and what is generated from the registry; and a new agent is its folder and its
// entry in the registry (plus its manifest entries, which the registry test checks).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { AGENTS } from '../../src/agents/registry';

const root = path.join(__dirname, '..', '..');
const src = path.join(root, 'src');
const agentsDir = path.join(src, 'agents');
const registry = path.join(agentsDir, 'registry.ts');
const generated = path.join(src, 'core', 'generated');

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? tsFiles(file) : entry.name.endsWith('.ts') ? [file] : [];
  });
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

describe('an agent is one folder', () => {
  it("each agent id is written only in its folder, the registry and the generated files", () => {
    const files = tsFiles(src).map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));
    assert.ok(files.length > 100, `src/ read (${files.length} files)`);
    for (const agent of AGENTS) {
      const folder = folderOf(agent.id);
      const quoted = new RegExp(`(['"\`])${agent.id.replace(/[-]/g, '\\-')}\\1`);
      let own = 0;
      for (const { file, text } of files) {
        if (!quoted.test(text)) continue;
        if (inside(file, folder)) {
          own++;
          continue;
        }
        assert.ok(file === registry || inside(file, generated), `'${agent.id}' is written in ${path.relative(root, file)}, outside ${path.relative(root, folder)}`);
      }
      assert.ok(own > 0, `'${agent.id}' is found in its own folder ${path.relative(root, folder)}`);
    }
  });

  it('a made-up agent (a copied folder under a new id, and its entry in the registry) builds and is listed', async function () {
    this.timeout(60_000);
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-plan-madeup-'));
    try {
      fs.cpSync(src, path.join(tmp, 'src'), { recursive: true, filter: (from) => from !== path.join(generated, 'agentIds.ts') });
      const copy = path.join(tmp, 'src', 'agents', 'madeUp');
      fs.cpSync(path.join(tmp, 'src', 'agents', 'codex'), copy, { recursive: true });
      const index = path.join(copy, 'index.ts');
      const text = fs.readFileSync(index, 'utf8').replace(/\bcodex\b/g, 'madeUp').replace("id: 'madeUp',", "id: 'made-up',").replace("name: 'Codex',", "name: 'Made Up',");
      assert.ok(text.includes("id: 'made-up',") && text.includes('export const madeUp'), 'the copy has its own id and name');
      fs.writeFileSync(index, text);
      // Its entry in the registry: the import, and its name in the list.
      const reg = path.join(tmp, 'src', 'agents', 'registry.ts');
      const before = fs.readFileSync(reg, 'utf8');
      const after = before.replace("import { kilo } from './kilo';\n", "import { kilo } from './kilo';\nimport { madeUp } from './madeUp';\n").replace(/(export const AGENTS[^=]*=\s*\[[^\]]*)\]/, '$1, madeUp]');
      assert.notEqual(after, before);
      fs.writeFileSync(reg, after);
      // The ids the log accepts are generated from the registry, as every build does.
      execFileSync(process.execPath, [path.join(root, 'scripts', 'gen-agent-ids.mjs'), tmp]);
      const entry = path.join(tmp, 'list.ts');
      fs.writeFileSync(
        entry,
        "import { AGENTS } from './src/agents/registry';\nimport { AGENT_IDS } from './src/core/log/logRecord';\n" +
          "console.log(JSON.stringify({ agents: AGENTS.map((a) => a.id), ids: AGENT_IDS, name: AGENTS.find((a) => a.id === 'made-up')?.name }));\n",
      );
      const out = path.join(tmp, 'list.js');
      await esbuild.build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', outfile: out, external: ['vscode'], nodePaths: [path.join(root, 'node_modules')], logLevel: 'silent' });
      const listed = JSON.parse(execFileSync(process.execPath, [out], { encoding: 'utf8' })) as { agents: string[]; ids: string[]; name: string };
      assert.deepEqual(listed.agents, [...AGENTS.map((a) => a.id), 'made-up']);
      assert.deepEqual(listed.ids, listed.agents);
      assert.equal(listed.name, 'Made Up');
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});

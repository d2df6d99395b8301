// The bundle requires the host's modules (vscode, node:*) once each, as they are: no file gets a
// copy of a module's namespace (esbuild's __toESM), whose getters and closures alone cost the extension host 1.1 MiB.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { useTempDir } from '../../lib/temp';

interface HostModules {
  requireHostModules(source: string): string;
  hostModulesPlugin: esbuild.Plugin;
}

const root = path.resolve(__dirname, '..', '..', '..');
const load = async (): Promise<HostModules> => (await import(pathToFileURL(path.join(root, 'scripts', 'lib', 'hostModules.mjs')).href)) as HostModules;

describe('the bundle requires host modules once', () => {
  const tmp = useTempDir('host-modules');
  it('rewrites namespace and named imports of vscode and node:* as plain requires, one line each, types dropped', async () => {
    const { requireHostModules } = await load();
    const source = [
      "import * as vscode from 'vscode';",
      "import { join, type ParsedPath, relative as rel } from 'node:path';",
      "import { type Stats } from 'node:fs';",
      "import type { Dirent } from 'node:fs';",
      "import { helper } from './helper';",
      'export const x = 1;',
    ].join('\n');
    assert.equal(
      requireHostModules(source),
      [
        "import vscode = require('vscode');",
        "import __host0 = require('node:path'); const join = __host0.join, rel = __host0.relative;",
        "import __host1 = require('node:fs');",
        "import type { Dirent } from 'node:fs';",
        "import { helper } from './helper';",
        'export const x = 1;',
      ].join('\n'),
    );
  });

  it('a bundle built with the plugin runs, and holds no namespace copy of a host module', async () => {
    const { hostModulesPlugin } = await load();
    const dir = tmp.path;
    const src = path.join(dir, 'src');
    fs.mkdirSync(src);
    fs.writeFileSync(path.join(src, 'a.ts'), "import * as path from 'node:path';\nimport { b } from './b';\nexport const a = (): string => path.join('a', b());\n");
    fs.writeFileSync(path.join(src, 'b.ts'), "import { basename as base } from 'node:path';\nimport * as os from 'node:os';\nexport const b = (): string => base('/x/b') + typeof os.tmpdir;\n");
    const outfile = path.join(dir, 'out.js');
    await esbuild.build({ entryPoints: [path.join(src, 'a.ts')], bundle: true, platform: 'node', format: 'cjs', outfile, logLevel: 'silent', plugins: [hostModulesPlugin] });
    const text = fs.readFileSync(outfile, 'utf8');
    assert.ok(!text.includes('__toESM('), 'no namespace copy');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const bundled = require(outfile) as { a(): string };
    assert.equal(bundled.a(), path.join('a', 'bfunction'));
  });

  it("the extension's bundle copies none of vscode's or Node's modules", async () => {
    const { hostModulesPlugin } = await load();
    const result = await esbuild.build({ absWorkingDir: root, entryPoints: ['src/extension.ts'], bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'], write: false, outfile: 'extension.js', logLevel: 'silent', plugins: [hostModulesPlugin] });
    const text = result.outputFiles[0]?.text ?? '';
    assert.ok(text.includes('require("vscode")'));
    assert.deepEqual(text.match(/__toESM\(require\("[^"]+"\)\)/g) ?? [], []);
  });
});

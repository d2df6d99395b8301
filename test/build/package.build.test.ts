// The build's outputs, checked once the build ran (the build level of `npm test`, after
// `scripts/build.mjs`): the extension's bundle exports what VS Code loads, the .vsix holds only
// what runs, the Plan Timeline's page is one small self-contained bundle, and vsce packages it with the flags of `npm run package`.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import { useTempDir } from '../lib/temp';

const root = path.resolve(__dirname, '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

describe('the bundle', () => {
  it('exports activate and deactivate and no default', () => {
    const bundle = path.join(root, 'dist', 'extension.js');
    assert.ok(fs.existsSync(bundle), 'dist/extension.js is built (npm run build)');
    // Load the CommonJS bundle with a stand-in for the `vscode` module: only its export shape is read here.
    const load = (Module as unknown as { _load: (request: string, parent: unknown, isMain: boolean) => unknown });
    const original = load._load;
    const standIn = { l10n: { t: (message: string) => message } };
    load._load = (request, parent, isMain) => (request === 'vscode' ? standIn : original(request, parent, isMain));
    try {
      delete require.cache[bundle];
      const exported = require(bundle) as Record<string, unknown>;
      assert.equal(typeof exported.activate, 'function');
      assert.equal(typeof exported.deactivate, 'function');
      assert.equal('default' in exported, false, 'a default export would hide activate from the loader');
    } finally {
      load._load = original;
    }
  });

  it('keeps vscode external and compiles the schema at build time', () => {
    const text = fs.readFileSync(path.join(root, 'dist', 'extension.js'), 'utf8');
    assert.match(text, /require\("vscode"\)/);
    assert.doesNotMatch(text, /new Ajv\b|\.compile\(/, 'no schema compilation at activation');
  });
});

/** vsce runs with the environment of a plain shell: an outer `npm test` leaves npm_* config that npm-aware tools read. */
function childEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) && key !== 'NODE' && key !== 'INIT_CWD'));
}

describe('the .vsix file list', () => {
  it('holds only what the extension needs at run time', function () {
    this.timeout(60_000);
    const result = spawnSync(process.execPath, [path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce'), 'ls', '--no-dependencies'], { cwd: root, encoding: 'utf8', env: childEnv() });
    assert.equal(result.status, 0, result.stderr);
    const files = result.stdout.split('\n').filter((line) => line.trim() !== '').sort();
    const allowed = [/^dist\/(extension|timeline|mcp)\.js$/, /^dist\/answer\.sh$/, /^media\/timeline\.css$/, /^package(\.nls(\.[a-z-]+)?)?\.json$/, /^l10n\/bundle\.l10n(\.[a-z-]+)?\.json$/, /^media\/[\w.-]+\.(svg|png)$/, /^schemas\/todo-write\.input\.json$/, /^(README|CHANGELOG)\.md$/, /^LICENSE$/, /^docs\/screenshot-[a-z-]+\.png$/];
    for (const file of files) assert.ok(allowed.some((pattern) => pattern.test(file)), `${file} does not belong in the package`);
    for (const needed of ['dist/extension.js', 'dist/timeline.js', 'dist/mcp.js', 'dist/answer.sh', 'media/timeline.css', 'package.json', 'package.nls.json', 'package.nls.zh-cn.json', 'l10n/bundle.l10n.zh-cn.json', 'media/agent-plan.svg']) {
      assert.ok(files.includes(needed), `${needed} is packaged`);
    }
  });
});

describe('packaging', () => {
  const tmp = useTempDir('vsix');
  it('vsce packages the extension with the flags of `npm run package`', function () {
    this.timeout(120_000);
    const script = manifest.scripts.package as string;
    const vsceArgs = script.slice(script.indexOf('vsce package') + 'vsce '.length).split(' ');
    const outIndex = vsceArgs.indexOf('--out');
    assert.ok(outIndex > 0, 'npm run package names its output');
    const dir = tmp.path;
    vsceArgs[outIndex + 1] = path.join(dir, 'agent-plan.vsix');
    const result = spawnSync(process.execPath, [path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce'), ...vsceArgs], { cwd: root, encoding: 'utf8', env: childEnv() });
    assert.equal(result.status, 0, result.stderr + result.stdout);
    assert.ok(fs.statSync(path.join(dir, 'agent-plan.vsix')).size > 10_000);
  });
});

describe('the Plan Timeline page', () => {
  it('is one minified esbuild bundle of at most 150 KB that loads nothing remote', () => {
    const file = path.join(root, 'dist', 'timeline.js');
    assert.ok(fs.existsSync(file), 'dist/timeline.js is built (npm run build)');
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(text.length <= 150 * 1024, `${text.length} bytes`);
    assert.ok(text.split('\n').length <= 3, 'minified');
    // The SVG namespace is a name, not a resource; nothing else may point off the machine.
    const urls = [...text.matchAll(/https?:\/\/[^\s"'`)]+/g)].map((m) => m[0]).filter((url) => url !== 'http://www.w3.org/2000/svg');
    assert.deepEqual(urls, []);
    assert.doesNotMatch(text, /\beval\(|new Function\(|innerHTML\s*=/);
  });
});

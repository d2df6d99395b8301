// Bundle size: the production bundle built with esbuild's JS API and the same options
// as `node esbuild.mjs --production` (esbuild.mjs builds on import, so they are
// repeated here), into a temp folder, leaving dist/ alone.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import * as esbuild from 'esbuild';
import { repoRoot } from '../lib/host.mjs';
import { hostModulesPlugin } from '../lib/hostModules.mjs';

function sizes(file) {
  const bytes = fs.readFileSync(file);
  return {
    bytes: bytes.length,
    gzipBytes: zlib.gzipSync(bytes, { level: 9 }).length,
  };
}

/** Builds the production bundle into `outDir` and measures it (and the dev bundle, if built). */
export async function bundleSizes(outDir) {
  const outfile = path.join(outDir, 'extension.js');
  const result = await esbuild.build({
    absWorkingDir: repoRoot,
    entryPoints: ['src/extension.ts'],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    outfile,
    external: ['vscode'],
    minify: true,
    sourcemap: false,
    sourcesContent: false,
    logLevel: 'warning',
    metafile: true,
    plugins: [hostModulesPlugin],
  });
  const output = Object.values(result.metafile.outputs)[0];
  const inputs = Object.entries(output?.inputs ?? {})
    .map(([name, { bytesInOutput }]) => ({ name, bytes: bytesInOutput }))
    .sort((a, b) => b.bytes - a.bytes);
  const group = (name) => (name.includes('/generated/') ? 'generated validator (ajv standalone)' : name.startsWith('node_modules/') ? name.split('/').slice(0, name.startsWith('node_modules/@') ? 3 : 2).join('/') : name.split('/').slice(0, 2).join('/'));
  const groups = new Map();
  for (const input of inputs) groups.set(group(input.name), (groups.get(group(input.name)) ?? 0) + input.bytes);
  const dev = path.join(repoRoot, 'dist', 'extension.js');
  return {
    file: outfile,
    production: sizes(outfile),
    development: fs.existsSync(dev) ? sizes(dev) : undefined,
    inputs: [...groups.entries()].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes),
    esbuild: esbuild.version,
  };
}

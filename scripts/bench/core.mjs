// The benchmark's in-process part (test/bench/core.ts) as the extension ships its core:
// bundled by esbuild for Node 20 into `folder`, then loaded.
import * as esbuild from 'esbuild';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { repoRoot } from '../lib/host.mjs';

export async function loadBenchCore(folder) {
  const coreFile = path.join(folder, 'core.cjs');
  await esbuild.build({
    entryPoints: [path.join(repoRoot, 'test', 'bench', 'core.ts')],
    outfile: coreFile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  return createRequire(import.meta.url)(coreFile);
}

// Bundles the extension (src/extension.ts → dist/extension.js) and compiles the
// integration tests (test/integration → out/test/integration, with the helpers every test level
// shares: test/lib → out/test/lib) for the extension host.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { hostModulesPlugin } from './scripts/lib/hostModules.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Prints errors in the form VS Code's `$esbuild-watch` problem matcher reads. */
const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      console.log('[watch] build finished');
    });
  },
};

const extension = {
  entryPoints: ['src/extension.ts'],
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  outfile: 'dist/extension.js',
  external: ['vscode'],
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
  // The `[watch]` lines are for VS Code's `$esbuild-watch` problem matcher: watch mode only.
  // vscode and node:* required once each, not copied into every importing file (scripts/lib/hostModules.mjs).
  plugins: [hostModulesPlugin, ...(watch ? [problemMatcher] : [])],
};

/** The Plan Timeline's page: a browser bundle, minified always (it ships as is). */
const timelinePage = {
  entryPoints: ['src/webview/timeline.ts'],
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  outfile: 'dist/timeline.js',
  minify: true,
  sourcemap: false,
  logLevel: 'warning',
  plugins: watch ? [problemMatcher] : [],
};

/**
 * The MCP server agents start (`node dist/mcp.js`): everything bundled, the
 * MCP SDK included, so it needs nothing but Node 18 or later at run time.
 */
const mcpServer = {
  entryPoints: ['src/mcp/server.ts'],
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node18',
  outfile: 'dist/mcp.js',
  banner: { js: '#!/usr/bin/env node' },
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
  plugins: watch ? [problemMatcher] : [],
};

/** Every .ts file below a folder (Node 20 has no fs.globSync). */
function listTs(dir) {
  return fs
    .readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join(dir, f));
}

const contexts = [await esbuild.context(extension), await esbuild.context(timelinePage), await esbuild.context(mcpServer)];
if (!production) {
  contexts.push(
    await esbuild.context({
      // Not bundled: test/integration's imports of test/lib (waiting) need test/lib compiled beside it.
      entryPoints: [...listTs('test/integration'), ...listTs('test/lib')],
      outbase: '.',
      outdir: 'out',
      bundle: false,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      sourcemap: true,
      logLevel: 'warning',
    }),
  );
}

// The permission hook agents run with sh (src/node/answers/answer.sh): shipped as it is.
fs.mkdirSync('dist', { recursive: true });
fs.copyFileSync('src/node/answers/answer.sh', 'dist/answer.sh');

if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  for (const c of contexts) {
    await c.rebuild();
    await c.dispose();
  }
}

// An esbuild plugin for the extension's bundle: the host's modules (vscode, node:*) are required
// once, as they are. Bundled to CommonJS, `import * as vscode from 'vscode'` becomes
// `__toESM(require('vscode'))` in every file that writes it: a copy of the module's namespace
// with a getter and a closure per export, each file its own. With 30 files importing vscode and
// 41 importing node:path, those copies' getters and closures alone held 1.1 MiB of the extension host's heap
// (heap snapshots in docs/benchmarks.md). Written `import vscode = require('vscode')`, esbuild
// emits a plain require: no copy. The sources keep the usual ES import; this rewrites it as it loads.
import * as fs from 'node:fs';

const HOST_MODULE = String.raw`vscode|node:[\w/]+`;
const NAMESPACE_IMPORT = new RegExp(String.raw`^import \* as (\w+) from '(${HOST_MODULE})';$`, 'gm');
const NAMED_IMPORT = new RegExp(String.raw`^import \{([^}]*)\} from '(${HOST_MODULE})';$`, 'gm');

/** The source with its imports of host modules as plain requires (types left for esbuild to drop). */
export function requireHostModules(source) {
  let taken = 0;
  return source.replace(NAMESPACE_IMPORT, "import $1 = require('$2');").replace(NAMED_IMPORT, (_, names, module) => {
    const bindings = names
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '' && !name.startsWith('type '))
      .map((name) => {
        const [imported, local = imported] = name.split(/\s+as\s+/);
        return `${local} = __host${taken}.${imported}`;
      });
    // One line, so the file's line numbers (and its source map) stay as they are.
    const line = `import __host${taken} = require('${module}');${bindings.length > 0 ? ` const ${bindings.join(', ')};` : ''}`;
    taken++;
    return line;
  });
}

/** The plugin: every TypeScript file of src/ loaded through requireHostModules. */
export const hostModulesPlugin = {
  name: 'require-host-modules',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => ({ contents: requireHostModules(await fs.promises.readFile(args.path, 'utf8')), loader: 'ts' }));
  },
};

// Set-up shared by every launcher: one clean environment for child processes, the
// npm that belongs to this Node, and installing the npm dependencies when they are
// missing or older than the lock file. Node built-ins only (runs before `npm ci`).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The environment for every nested npm, node, vsce or host call: the caller's, minus
 * what an outer npm or VS Code put there (npm reads `npm_config_*` as its own config,
 * and code-server's postinstall reads the Node version from `npm_config_user_agent`).
 */
export function cleanEnv(extra = {}) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    const drop = /^npm_/i.test(key) || /^VSCODE_/.test(key) || ['NODE', 'INIT_CWD', 'ELECTRON_RUN_AS_NODE'].includes(key);
    if (!drop) env[key] = value;
  }
  return { ...env, ...extra };
}

/** npm's own entry point next to this Node, so `node npm-cli.js` runs on a Node we chose. */
export function npmCli() {
  const besideNode = path.resolve(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');
  if (fs.existsSync(besideNode)) return besideNode;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const bin = path.join(dir, 'npm');
    if (!fs.existsSync(bin)) continue;
    const cli = path.join(path.dirname(fs.realpathSync(bin)), 'npm-cli.js');
    if (fs.existsSync(cli)) return cli;
  }
  throw new Error('npm not found: install Node.js with npm');
}

/** Runs npm (on `node`, this process's Node unless told) with a clean environment; throws on failure. */
export function runNpm(args, { cwd, env = {}, node = process.execPath } = {}) {
  const result = spawnSync(node, [npmCli(), ...args], { cwd, stdio: 'inherit', env: cleanEnv(env) });
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} failed with ${result.status ?? result.signal} (in ${cwd})`);
}

/** Runs a Node script of this checkout on this process's Node; returns true when it exited 0. */
export function runNode(args, { env = {}, stdio = 'inherit' } = {}) {
  return spawnSync(process.execPath, args, { cwd: repoRoot, stdio, env: cleanEnv(env) }).status === 0;
}

export function ensureDependencies() {
  const lock = path.join(repoRoot, 'package-lock.json');
  const installed = path.join(repoRoot, 'node_modules', '.package-lock.json');
  const fresh = fs.existsSync(installed) && fs.statSync(installed).mtimeMs >= fs.statSync(lock).mtimeMs;
  if (fresh) return;
  process.stderr.write('[agent-plan] installing npm dependencies (npm ci)\n');
  try {
    runNpm(['ci', '--no-audit', '--no-fund'], { cwd: repoRoot });
  } catch (error) {
    process.stderr.write(`[agent-plan] ${error.message}\n`);
    process.exit(1);
  }
}

// The pinned terminal agents (each recipe's package, and more where its recipe says so: another
// generation, say), installed once from the npm registry into a cache folder keyed by their
// versions, like the VS Code host.
// The install uses this folder's package.json and committed package-lock.json; their
// native binaries come as npm optional dependencies.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RECIPES, recipeOf } from './recipes.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const manifest = JSON.parse(fs.readFileSync(path.join(here, 'package.json'), 'utf8'));

/**
 * Each package installed, by its name here: an agent's own by its id, with its command's path
 * under node_modules (test/agents/<agent>/recording.mjs); more of one agent's packages (another
 * generation, say) by the names its recipe gives them (`morePackages`).
 */
const INSTALLS = Object.fromEntries(
  Object.values(RECIPES).flatMap((recipe) => [
    [recipe.id, { package: recipe.package, bin: recipe.binPath ?? path.join('.bin', recipe.bin) }],
    ...Object.entries(recipe.morePackages ?? {}),
  ]),
);
const PACKAGES = Object.fromEntries(Object.entries(INSTALLS).map(([name, install]) => [name, install.package]));

/** The pinned version of each package, read from package.json so there is one source (`npm:<package>@<version>` for an alias). */
export const VERSIONS = Object.fromEntries(Object.entries(PACKAGES).map(([agent, name]) => [agent, manifest.dependencies[name]?.replace(/^npm:.*@/, '')]));
for (const [agent, version] of Object.entries(VERSIONS)) if (version === undefined) throw new Error(`${PACKAGES[agent]} (${agent}) is not pinned in ${path.join(here, 'package.json')}`);

const cacheRoot = process.env.AGENT_PLAN_CACHE ?? path.join(os.homedir(), '.cache', 'agent-plan');
export const agentsDir = path.join(cacheRoot, `agents-${Object.entries(VERSIONS).map(([agent, version]) => `${agent}-${version}`).join('-')}`);
const completeMarker = path.join(agentsDir, '.complete');

/** Where each package's command is once installed, by its name in INSTALLS. */
export const BINARIES = Object.fromEntries(Object.entries(INSTALLS).map(([name, install]) => [name, path.join(agentsDir, 'node_modules', install.bin)]));

/** Which installed package a scenario runs (its agent's own, unless its recipe says another). */
export function packageOf(scenario) {
  return recipeOf(scenario.agent).packageOf?.(scenario) ?? scenario.agent;
}

/** The version a scenario runs. */
export function versionOf(scenario) {
  return VERSIONS[packageOf(scenario)];
}

function log(message) {
  process.stderr.write(`[agents] ${message}\n`);
}

/** The environment of a child the launcher starts: no npm_* or NODE* leaking from an outer npm run. */
export function cleanEnv(extra = {}) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('npm_') || key.startsWith('NODE') || key === 'INIT_CWD') continue;
    env[key] = value;
  }
  // The agents' launchers are Node scripts: the Node running this script runs them too.
  env.PATH = `${path.dirname(process.execPath)}${path.delimiter}${env.PATH ?? ''}`;
  return { ...env, ...extra };
}

/** npm's own CLI next to this Node, so the install runs under process.execPath. */
function npmCli() {
  const candidates = [
    path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
    path.join(path.dirname(process.execPath), 'node_modules', 'npm', 'bin', 'npm-cli.js'),
  ];
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) throw new Error(`npm not found next to ${process.execPath} (looked in ${candidates.join(', ')})`);
  return found;
}

async function withLock(lockPath, fn) {
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    try {
      fs.mkdirSync(lockPath);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      if (Date.now() - fs.statSync(lockPath).mtimeMs > 20 * 60_000) fs.rmSync(lockPath, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lockPath}`);
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lockPath, { recursive: true, force: true });
  }
}

/** Throws unless each installed package is the pinned version. */
function checkInstalled() {
  for (const [agent, name] of Object.entries(PACKAGES)) {
    const file = path.join(agentsDir, 'node_modules', ...name.split('/'), 'package.json');
    const installed = JSON.parse(fs.readFileSync(file, 'utf8')).version;
    if (installed !== VERSIONS[agent]) throw new Error(`${name} ${installed} is installed in ${agentsDir}, ${VERSIONS[agent]} is pinned; remove the folder and run again`);
  }
}

/** Installs the pinned agents once; returns the paths of their commands. */
export async function ensureAgents() {
  if (fs.existsSync(completeMarker)) {
    checkInstalled();
    return BINARIES;
  }
  fs.mkdirSync(path.dirname(agentsDir), { recursive: true });
  await withLock(`${agentsDir}.lock`, async () => {
    if (fs.existsSync(completeMarker)) return;
    fs.rmSync(agentsDir, { recursive: true, force: true });
    fs.mkdirSync(agentsDir, { recursive: true });
    for (const file of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(here, file), path.join(agentsDir, file));
    const started = Date.now();
    log(`installing ${Object.entries(PACKAGES).map(([agent, name]) => `${name} ${VERSIONS[agent]}`).join(', ')} into ${agentsDir}, once`);
    // `npm install` over the committed lock rather than `npm ci`: opencode's and Kilo CLI's
    // platform packages for other systems are not all published, so the lock cannot list
    // them and `npm ci` would call it out of sync. The lock still pins what is installed.
    const result = spawnSync(process.execPath, [npmCli(), 'install', '--no-save', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: agentsDir,
      env: cleanEnv(),
      stdio: 'inherit',
    });
    if (result.status !== 0) throw new Error(`npm install in ${agentsDir} failed with ${result.status ?? result.signal}`);
    for (const [name, file] of Object.entries(BINARIES)) {
      if (!fs.existsSync(file)) throw new Error(`${name} not found at ${file} after npm install`);
    }
    checkInstalled();
    fs.writeFileSync(completeMarker, new Date().toISOString() + '\n');
    log(`agents installed in ${Math.round((Date.now() - started) / 1000)} s`);
  });
  return BINARIES;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const bins = await ensureAgents();
  for (const [name, file] of Object.entries(bins)) process.stdout.write(`${name}: ${file}\n`);
}

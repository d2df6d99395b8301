// Lint for the shipped code: type-aware rules that catch what tsc does not,
// above all promises nobody awaits (deliberate fire-and-forget is written `void x()`); and for the
// plain-ESM scripts and the agents' test twins (test/agents/<agent>/*.mjs), the checks that need no types.
import * as fs from 'node:fs';
import * as path from 'node:path';
import tseslint from 'typescript-eslint';

/** The agents' folders: each folder of src/agents with a descriptor (index.ts). */
const agentsDir = path.join(import.meta.dirname, 'src', 'agents');
const AGENT_FOLDERS = fs
  .readdirSync(agentsDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(agentsDir, entry.name, 'index.ts')))
  .map((entry) => entry.name);

/**
 * The one exception to "an agent imports no other agent's folder": Kilo CLI is a fork of opencode
 * that keeps opencode's database schema and plan tool, so it is read by opencode's schema modules
 * (src/agents/opencode/opencode*.ts: its start, reader, parser, usage, waits and writes) instead
 * of a copy of them. Everything else of opencode's folder (its descriptor, index.ts, and what
 * Connect writes, connect.ts) stays opencode's own, and no other agent imports even those modules.
 */
const AGENT_IMPORT_EXCEPTIONS = { kilo: { folder: 'opencode', modules: 'opencode[A-Z][A-Za-z]*' } };
for (const [agent, { folder }] of Object.entries(AGENT_IMPORT_EXCEPTIONS)) {
  if (!AGENT_FOLDERS.includes(agent) || !AGENT_FOLDERS.includes(folder)) throw new Error(`eslint.config.mjs: AGENT_IMPORT_EXCEPTIONS names ${agent} and ${folder}, which are not both agents' folders`);
}

/** What src/agents imports nothing of. */
const AGENTS_LAYER = {
  paths: [{ name: 'vscode', message: 'the agents import nothing of VS Code: src/vscode starts them' }],
  patterns: [
    { group: ['**/vscode/**'], message: 'the agents import nothing of src/vscode' },
    { group: ['**/webview/**'], message: 'the agents import nothing of the webview' },
  ],
};

const AGENT_FOLDER_MESSAGE = "an agent's folder is imported only by the registry: what agents share goes to src/agents/follow/ or beside agent.ts";

/**
 * The imports of a file of src/agents: AGENTS_LAYER and no agent's folder; for the files of
 * `agent`, its exception's modules of the folder it names (and nothing else of that folder).
 */
function agentImports(agent, exception) {
  const folders = AGENT_FOLDERS.filter((folder) => folder !== exception?.folder);
  return {
    ...AGENTS_LAYER,
    patterns: [
      ...AGENTS_LAYER.patterns,
      { group: folders.flatMap((folder) => [`**/${folder}`, `**/${folder}/**`]), message: AGENT_FOLDER_MESSAGE },
      ...(exception === undefined
        ? []
        : [
            {
              // The folder itself or any of its files but the named modules (a gitignore group cannot
              // take a file of a folder it names back, so this one is a regular expression).
              regex: `(^|/)${exception.folder}(?!/${exception.modules}$)(/.*)?$`,
              caseSensitive: true,
              message: `${AGENT_FOLDER_MESSAGE}; of ${exception.folder}/, ${agent} imports only the modules eslint.config.mjs's AGENT_IMPORT_EXCEPTIONS names (${exception.modules})`,
            },
          ]),
    ],
  };
}

/** What src/core imports nothing of, whichever room of it a file is in. */
const CORE_LAYER = {
  paths: [{ name: 'vscode', message: 'core imports nothing of VS Code' }],
  patterns: [
    { group: ['**/vscode/**'], message: 'core imports nothing of src/vscode' },
    { group: ['**/agents/**', '**/agents'], message: 'core imports nothing of the agents: the contract is core/foreign.ts' },
    { group: ['**/node/**', '**/node', '**/follow/**', '**/follow'], message: 'core imports nothing of the Node adapters: it reads and writes through core/log/fileSystem.ts' },
    { group: ['**/webview/**'], message: 'core imports nothing of the webview' },
    { group: ['node:fs', 'node:fs/*', 'fs', 'fs/*'], message: 'core reads and writes through core/log/fileSystem.ts' },
  ],
};

/**
 * Core's floors, lowest first: a room imports only the floors below its own, never a room of
 * its floor or above. '.' is the files at core's root (foreign.ts, emitter.ts, json.ts).
 */
const CORE_FLOORS = [['generated', 'text'], ['.'], ['plan'], ['log'], ['store', 'derived', 'worktrees'], ['timeline'], ['handoff']];
const coreDir = path.join(import.meta.dirname, 'src', 'core');
const CORE_ROOT_MODULES = fs
  .readdirSync(coreDir, { withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
  .map((entry) => entry.name.slice(0, -'.ts'.length));
for (const entry of fs.readdirSync(coreDir, { withFileTypes: true })) {
  if (entry.isDirectory() && !CORE_FLOORS.flat().includes(entry.name)) throw new Error(`eslint.config.mjs: src/core/${entry.name} is on none of CORE_FLOORS: give it its floor`);
}
const CORE_FLOORS_TEXT = CORE_FLOORS.map((floor) => floor.map((room) => (room === '.' ? "core's root" : room)).join(', ')).join(' < ');

/** The import paths of `room` from a file of `from` (both rooms of src/core or src/vscode, '.' the root). */
function roomImports(from, room, rootModules = []) {
  const up = from === '.' ? './' : '../';
  return room === '.' ? rootModules.map((module) => `${up}${module}`) : [`${up}${room}`, `${up}${room}/**`];
}

/** Each room of core (and its root) held to its floor: CORE_LAYER and the rooms of its floor and above. */
const CORE_FLOOR_CONFIGS = CORE_FLOORS.flatMap((floor, level) =>
  floor.map((room) => {
    const above = CORE_FLOORS.slice(level).flat().filter((other) => other !== room);
    return {
      files: [room === '.' ? 'src/core/*.ts' : `src/core/${room}/**/*.ts`],
      rules: {
        '@typescript-eslint/no-restricted-imports': [
          'error',
          {
            ...CORE_LAYER,
            patterns: [
              ...CORE_LAYER.patterns,
              ...above.map((other) => ({
                group: roomImports(room, other, CORE_ROOT_MODULES),
                message: `core's floors run ${CORE_FLOORS_TEXT}: ${room === '.' ? "core's root" : `core/${room}`} imports nothing of ${other === '.' ? "core's root" : `core/${other}`}`,
              })),
            ],
          },
        ],
      },
    };
  }),
);

/**
 * src/vscode's floors: the shared modules at its root and the command machinery (commands/:
 * the manifest and the table) < history/ (a plan's versions: the picker, the diff, the
 * documents it compares) < the features, one room each < the wiring (views.ts, api.ts), which
 * only extension.ts imports. A feature imports no other feature: what two share goes down.
 */
const VSCODE_WIRING = ['views', 'api'];
const VSCODE_SHARED_ROOMS = ['commands', 'history'];
const vscodeDir = path.join(import.meta.dirname, 'src', 'vscode');
const VSCODE_FEATURES = fs
  .readdirSync(vscodeDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !VSCODE_SHARED_ROOMS.includes(entry.name))
  .map((entry) => entry.name);
const VSCODE_FLOORS_TEXT = `src/vscode's root and commands/ < history/ < the features (${VSCODE_FEATURES.join(', ')}) < ${VSCODE_WIRING.map((module) => `${module}.ts`).join(', ')}`;

/** A file of `from` (a room of src/vscode, '.' its root) imports none of `rooms`, nor the wiring. */
function vscodeFloor(files, from, rooms, why, ignores = []) {
  return {
    files,
    ...(ignores.length > 0 ? { ignores } : {}),
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            ...rooms.map((room) => ({ group: roomImports(from, room), message: `src/vscode's floors run ${VSCODE_FLOORS_TEXT}: ${why(room)}` })),
            { group: roomImports(from, '.', VSCODE_WIRING), message: `views.ts and api.ts wire the features: only src/extension.ts imports them` },
          ],
        },
      ],
    },
  };
}

const VSCODE_FLOOR_CONFIGS = [
  vscodeFloor(['src/vscode/*.ts'], '.', ['history', ...VSCODE_FEATURES], (room) => `the shared modules at its root import nothing of ${room}/`, VSCODE_WIRING.map((module) => `src/vscode/${module}.ts`)),
  vscodeFloor(['src/vscode/commands/**/*.ts'], 'commands', ['history', ...VSCODE_FEATURES], (room) => `the command machinery imports nothing of ${room}/: each feature registers its own table`),
  vscodeFloor(['src/vscode/history/**/*.ts'], 'history', VSCODE_FEATURES, (room) => `history/ serves the features and imports nothing of ${room}/`),
  ...VSCODE_FEATURES.map((feature) =>
    vscodeFloor([`src/vscode/${feature}/**/*.ts`], feature, VSCODE_FEATURES.filter((other) => other !== feature), (room) => `${feature}/ imports nothing of the feature ${room}/: what two features share goes to src/vscode's root (or history/)`),
  ),
];

export default tseslint.config(
  { ignores: ['src/core/generated/**'] },
  {
    files: ['src/**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'error',
    },
  },
  {
    // The adapters stay short ways: a command's behaviour is a function of its own, registered from a table.
    files: ['src/vscode/**/*.ts', 'src/webview/**/*.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // One way to register a command: from a feature's table (commandTable.ts); each command is declared in commandManifest.ts.
    files: ['src/**/*.ts'],
    ignores: ['src/vscode/commands/commandTable.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name=/^register(TextEditor)?Command$/]",
          message: 'register a command from its feature\'s table (src/vscode/commands/commandTable.ts), declared in src/vscode/commands/commandManifest.ts',
        },
      ],
    },
  },
  // The floors of src/vscode (VSCODE_FLOOR_CONFIGS); the manifest's own rule below comes after them.
  ...VSCODE_FLOOR_CONFIGS,
  {
    // The command manifest is plain data: scripts/generate.mjs reads it without VS Code.
    files: ['src/vscode/commands/commandManifest.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ group: ['*', '**'], message: 'commandManifest.ts imports nothing: the generator reads it without VS Code' }] }],
    },
  },
  {
    // Core stands alone: the plan, the log and what is derived from it import nothing of VS Code,
    // of the agents, or of the Node adapters (tsconfig.core.json checks the same when compiling).
    files: ['src/core/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', CORE_LAYER] },
  },
  // And each room of core keeps to its floor (CORE_FLOORS), CORE_LAYER included.
  ...CORE_FLOOR_CONFIGS,
  {
    // The Node adapters serve core and the agents: they know neither the agents nor VS Code.
    files: ['src/node/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'src/node imports nothing of VS Code' }],
          patterns: [
            { group: ['**/vscode/**'], message: 'src/node imports nothing of src/vscode' },
            { group: ['**/agents/**', '**/agents'], message: 'src/node imports nothing of the agents: they import it' },
            { group: ['**/webview/**'], message: 'src/node imports nothing of the webview' },
          ],
        },
      ],
    },
  },
  {
    // The agents read other programs' files with Node: they import core and src/node, never VS Code.
    // An agent is one folder: no file of src/agents but the registry imports an agent's folder
    // (what two agents share goes to src/agents/follow/ or beside agent.ts).
    files: ['src/agents/**/*.ts'],
    ignores: ['src/agents/registry.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', agentImports()] },
  },
  // The named exceptions (AGENT_IMPORT_EXCEPTIONS): kilo imports opencode's schema modules.
  ...Object.entries(AGENT_IMPORT_EXCEPTIONS).map(([agent, exception]) => ({
    files: [`src/agents/${agent}/**/*.ts`],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', agentImports(agent, exception)] },
  })),
  {
    files: ['src/agents/registry.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', AGENTS_LAYER] },
  },
  {
    // The Timeline's page runs in the browser: core's types and its own modules (the messages it
    // shares with src/vscode), no value of core (it would be bundled twice), nothing of the host.
    files: ['src/webview/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'the webview page has no VS Code API but its messages' }],
          patterns: [
            { group: ['**/core/**', '**/core'], allowTypeImports: true, message: 'the webview page imports only types from core (`import type`)' },
            { group: ['**/vscode/**', '**/agents/**', '**/agents', '**/node/**', '**/node'], message: 'the webview page imports only types from core and its own modules' },
            { group: ['node:*'], message: 'the webview page runs in the browser: no Node modules' },
          ],
        },
      ],
    },
  },
  {
    // Plain ESM, run by Node without a build: the scripts, and each agent's test twin (its
    // recording recipe and scenarios, test/agents/<agent>/*.mjs, which scripts/agents/ gathers).
    // src/ holds none (test/unit/project/agentFolders.unit.test.ts).
    files: ['scripts/**/*.mjs', 'test/agents/**/*.mjs'],
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-unreachable': 'error',
      'no-dupe-keys': 'error',
      'no-duplicate-case': 'error',
      'no-self-assign': 'error',
      'no-const-assign': 'error',
      'no-import-assign': 'error',
    },
  },
);

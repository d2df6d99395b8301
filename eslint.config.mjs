// Lint for the shipped code: type-aware rules that catch what tsc does not,
// above all promises nobody awaits (deliberate fire-and-forget is written `void x()`).
import * as fs from 'node:fs';
import * as path from 'node:path';
import tseslint from 'typescript-eslint';

/** The agents' folders: each folder of src/agents with a descriptor (index.ts). */
const agentsDir = path.join(import.meta.dirname, 'src', 'agents');
const AGENT_FOLDERS = fs
  .readdirSync(agentsDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(agentsDir, entry.name, 'index.ts')))
  .map((entry) => entry.name);

/** What src/agents imports nothing of. */
const AGENTS_LAYER = {
  paths: [{ name: 'vscode', message: 'the agents import nothing of VS Code: src/vscode starts them' }],
  patterns: [
    { group: ['**/vscode/**'], message: 'the agents import nothing of src/vscode' },
    { group: ['**/webview/**'], message: 'the agents import nothing of the webview' },
  ],
};

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
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'core imports nothing of VS Code' }],
          patterns: [
            { group: ['**/vscode/**'], message: 'core imports nothing of src/vscode' },
            { group: ['**/agents/**', '**/agents'], message: 'core imports nothing of the agents: the contract is core/foreign.ts' },
            { group: ['**/node/**', '**/node', '**/follow/**', '**/follow'], message: 'core imports nothing of the Node adapters: it reads and writes through core/log/fileSystem.ts' },
            { group: ['**/webview/**'], message: 'core imports nothing of the webview' },
            { group: ['node:fs', 'node:fs/*', 'fs', 'fs/*'], message: 'core reads and writes through core/log/fileSystem.ts' },
          ],
        },
      ],
    },
  },
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
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          ...AGENTS_LAYER,
          patterns: [
            ...AGENTS_LAYER.patterns,
            {
              group: AGENT_FOLDERS.flatMap((folder) => [`**/${folder}`, `**/${folder}/**`]),
              message: "an agent's folder is imported only by the registry: what agents share goes to src/agents/follow/ or beside agent.ts",
            },
          ],
        },
      ],
    },
  },
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
);

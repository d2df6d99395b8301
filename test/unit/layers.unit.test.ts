// The layers are kept by the lint: eslint.config.mjs, as it is, run through ESLint's Node API
// on small files placed (in memory) in each layer. Each forbidden import must be an error
// naming the rule, and each allowed one must pass, so neither half can hold by accident.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { ESLint } from 'eslint';

const root = path.resolve(__dirname, '..', '..');
const RULE = '@typescript-eslint/no-restricted-imports';

/** The real config; the type-aware rules are off (these files exist only in memory), the import rules are the config's own. */
async function lint(file: string, code: string): Promise<string[]> {
  const tseslint = (await import('typescript-eslint')).default;
  const eslint = new ESLint({
    cwd: root,
    overrideConfig: [{ files: ['src/**/*.ts'], ...tseslint.configs.disableTypeChecked }],
  });
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  assert.ok(result, `${file} was linted`);
  const fatal = result.messages.filter((m) => m.fatal === true);
  assert.deepEqual(fatal, [], `${file} parses`);
  return result.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
}

const forbidden: Array<[file: string, code: string, why: string]> = [
  ['src/node/layerProbe.ts', "import { AGENTS } from '../agents/registry';\nexport const n = AGENTS.length;\n", 'src/node imports src/agents'],
  ['src/node/layerProbe.ts', "import type { AgentDescriptor } from '../agents/agent';\nexport type A = AgentDescriptor;\n", 'src/node imports a type of src/agents'],
  ['src/node/layerProbe.ts', "import * as vscode from 'vscode';\nexport const v = vscode.version;\n", 'src/node imports vscode'],
  ['src/agents/layerProbe.ts', "import * as vscode from 'vscode';\nexport const v = vscode.version;\n", 'src/agents imports vscode'],
  ['src/agents/kilo/layerProbe.ts', "import { log } from '../../vscode/log';\nexport const l = log;\n", 'an agent imports src/vscode'],
  ['src/agents/kilo/layerProbe.ts', "import { opencode } from '../opencode';\nexport const o = opencode;\n", "an agent imports another agent's folder"],
  ['src/agents/kilo/layerProbe.ts', "import { createCodexParser } from '../codex/parser';\nexport const p = createCodexParser;\n", "an agent imports a file of another agent's folder"],
  ['src/agents/follow/layerProbe.ts', "import { codex } from '../codex';\nexport const c = codex;\n", "a shared module of src/agents imports an agent's folder"],
  ['src/webview/layerProbe.ts', "import { isRecord } from '../core/json';\nexport const r = isRecord({});\n", 'src/webview imports a value of core'],
  ['src/webview/layerProbe.ts', "import * as vscode from 'vscode';\nexport const v = vscode.version;\n", 'src/webview imports vscode'],
  ['src/webview/layerProbe.ts', "import { FolderWatch } from '../node/folderWatch';\nexport const w = FolderWatch;\n", 'src/webview imports src/node'],
  ['src/core/layerProbe.ts', "import { AGENTS } from '../agents/registry';\nexport const n = AGENTS.length;\n", 'core imports src/agents'],
  ['src/core/plan/layerProbe.ts', "import { FolderWatch } from '../../node/folderWatch';\nexport const w = FolderWatch;\n", 'core imports src/node'],
];

const allowed: Array<[file: string, code: string, why: string]> = [
  ['src/node/layerProbe.ts', "import { isRecord } from '../core/json';\nexport const r = isRecord({});\n", 'src/node imports core'],
  ['src/agents/layerProbe.ts', "import { FolderWatch } from '../node/folderWatch';\nexport const w = FolderWatch;\n", 'src/agents imports src/node'],
  ['src/agents/kilo/layerProbe.ts', "import type { AgentDescriptor } from '../agent';\nimport { startOpencodeStyle } from '../follow/opencodeAgent';\nimport { helper } from './helper';\nexport const k = [startOpencodeStyle, helper] as unknown as AgentDescriptor;\n", 'an agent imports the shared modules and its own files'],
  ['src/agents/registry.ts', "import { codex } from './codex';\nimport { kilo } from './kilo';\nexport const AGENTS = [codex, kilo];\n", "the registry imports the agents' folders"],
  ['src/webview/layerProbe.ts', "import type { JsonRecord } from '../core/json';\nimport type { TimelineHostMessage } from './messages';\nexport type R = JsonRecord | TimelineHostMessage;\n", 'src/webview imports types of core and its message module'],
  ['src/vscode/layerProbe.ts', "import * as vscode from 'vscode';\nimport { AGENTS } from '../agents/registry';\nexport const v = [vscode.version, AGENTS.length];\n", 'src/vscode imports vscode and the agents'],
];

describe('the layers are kept by the lint', function () {
  this.timeout(60_000);

  for (const [file, code, why] of forbidden) {
    it(`fails when ${why}`, async () => {
      const messages = await lint(file, code);
      assert.equal(messages.length, 1, `${file}:\n${code}gives one ${RULE} error, got ${JSON.stringify(messages)}`);
    });
  }

  for (const [file, code, why] of allowed) {
    it(`passes when ${why}`, async () => {
      assert.deepEqual(await lint(file, code), [], `${file}:\n${code}`);
    });
  }
});

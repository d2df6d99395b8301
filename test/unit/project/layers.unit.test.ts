// The layers are kept by the lint: eslint.config.mjs, as it is, run through ESLint's Node API
// on small files placed (in memory) in each layer. Each forbidden import must be an error
// naming the rule, and each allowed one must pass, so neither half can hold by accident.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { ESLint } from 'eslint';

const root = path.resolve(__dirname, '..', '..', '..');
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
  ['src/agents/kilo/layerProbe.ts', "import { opencodeConnect } from '../opencode/connect';\nexport const c = opencodeConnect;\n", "Kilo CLI imports a module of opencode's folder other than its schema modules"],
  ['src/agents/qwenCode/layerProbe.ts', "import { startOpencodeStyle } from '../opencode/opencodeAgent';\nexport const s = startOpencodeStyle;\n", "an agent other than Kilo CLI imports opencode's schema modules"],
  ['src/agents/follow/layerProbe.ts', "import { codex } from '../codex';\nexport const c = codex;\n", "a shared module of src/agents imports an agent's folder"],
  ['src/webview/layerProbe.ts', "import { isRecord } from '../core/json';\nexport const r = isRecord({});\n", 'src/webview imports a value of core'],
  ['src/webview/layerProbe.ts', "import * as vscode from 'vscode';\nexport const v = vscode.version;\n", 'src/webview imports vscode'],
  ['src/webview/layerProbe.ts', "import { FolderWatch } from '../node/folderWatch';\nexport const w = FolderWatch;\n", 'src/webview imports src/node'],
  ['src/core/layerProbe.ts', "import { AGENTS } from '../agents/registry';\nexport const n = AGENTS.length;\n", 'core imports src/agents'],
  ['src/core/plan/layerProbe.ts', "import { FolderWatch } from '../../node/folderWatch';\nexport const w = FolderWatch;\n", 'core imports src/node'],
  // Core's floors: generated, text < core's root < plan < log < store, derived, worktrees < timeline < handoff.
  ['src/core/text/layerProbe.ts', "import { isRecord } from '../json';\nexport const r = isRecord;\n", "core/text imports core's root"],
  ['src/core/layerProbe.ts', "import type { PlanItem } from './plan/plan';\nexport type P = PlanItem;\n", "core's root imports a room of core"],
  ['src/core/plan/layerProbe.ts', "import type { PlanRecord } from '../log/sessionLog';\nexport type R = PlanRecord;\n", "the plan's model imports the log"],
  ['src/core/log/layerProbe.ts', "import type { PlanStore } from '../store/store';\nexport type S = PlanStore;\n", 'the log imports the store'],
  ['src/core/derived/layerProbe.ts', "import type { PlanStore } from '../store/store';\nexport type S = PlanStore;\n", 'core/derived imports a room of its own floor'],
  ['src/core/derived/layerProbe.ts', "import { buildTimeline } from '../timeline/timeline';\nexport const b = buildTimeline;\n", 'core/derived imports the timeline'],
  ['src/core/timeline/layerProbe.ts', "import { prDescription } from '../handoff/prDescription';\nexport const p = prDescription;\n", 'core/timeline imports core/handoff'],
  ['src/core/handoff/layerProbe.ts', "import * as vscode from 'vscode';\nexport const v = vscode.version;\n", 'a room of core imports vscode'],
  // src/vscode's floors: its root and commands/ < history/ < the features < views.ts, api.ts.
  ['src/vscode/commands/layerProbe.ts', "import { sessionCommands } from '../sessions/sessionCommands';\nexport const s = sessionCommands;\n", 'commands/ imports a feature'],
  ['src/vscode/commands/layerProbe.ts', "import { compareWithPrevious } from '../history/compare';\nexport const c = compareWithPrevious;\n", 'commands/ imports history/'],
  ['src/vscode/layerProbe.ts', "import { PlanTreeProvider } from './plan/planTree';\nexport const p = PlanTreeProvider;\n", "a shared module at src/vscode's root imports a feature"],
  ['src/vscode/history/layerProbe.ts', "import { REVIEW_COMMANDS } from '../review/review';\nexport const r = REVIEW_COMMANDS;\n", 'history/ imports a feature'],
  ['src/vscode/timeline/layerProbe.ts', "import { fileRows } from '../plan/fileRows';\nexport const f = fileRows;\n", 'a feature imports another feature'],
  ['src/vscode/sessions/layerProbe.ts', "import type { SignalElement } from '../plan';\nexport type S = SignalElement;\n", "a feature imports another feature's folder"],
  ['src/vscode/plan/layerProbe.ts', "import { createViews } from '../views';\nexport const c = createViews;\n", 'a feature imports the wiring'],
];

const allowed: Array<[file: string, code: string, why: string]> = [
  ['src/node/layerProbe.ts', "import { isRecord } from '../core/json';\nexport const r = isRecord({});\n", 'src/node imports core'],
  ['src/agents/layerProbe.ts', "import { FolderWatch } from '../node/folderWatch';\nexport const w = FolderWatch;\n", 'src/agents imports src/node'],
  ['src/agents/kilo/layerProbe.ts', "import type { AgentDescriptor } from '../agent';\nimport { SqliteFollower } from '../follow/sqliteFollower';\nimport { helper } from './helper';\nexport const k = [SqliteFollower, helper] as unknown as AgentDescriptor;\n", 'an agent imports the shared modules and its own files'],
  ['src/agents/kilo/layerProbe.ts', "import { startOpencodeStyle } from '../opencode/opencodeAgent';\nimport type { OpencodeAgent } from '../opencode/opencodeParser';\nexport const k = startOpencodeStyle as unknown as OpencodeAgent;\n", "Kilo CLI imports opencode's schema modules (the named exception)"],
  ['src/agents/registry.ts', "import { codex } from './codex';\nimport { kilo } from './kilo';\nexport const AGENTS = [codex, kilo];\n", "the registry imports the agents' folders"],
  ['src/webview/layerProbe.ts', "import type { JsonRecord } from '../core/json';\nimport type { TimelineHostMessage } from './messages';\nexport type R = JsonRecord | TimelineHostMessage;\n", 'src/webview imports types of core and its message module'],
  ['src/vscode/layerProbe.ts', "import * as vscode from 'vscode';\nimport { AGENTS } from '../agents/registry';\nexport const v = [vscode.version, AGENTS.length];\n", 'src/vscode imports vscode and the agents'],
  ['src/core/layerProbe.ts', "import { AGENT_IDS } from './generated/agentIds';\nexport const a = AGENT_IDS;\n", "core's root imports generated/"],
  ['src/core/log/layerProbe.ts', "import type { PlanItem } from '../plan/plan';\nimport { validateTodoInput } from '../plan/validate';\nimport type { ForeignStatus } from '../foreign';\nexport const v = validateTodoInput as unknown as PlanItem | ForeignStatus;\n", "the log imports the plan's model and core's root"],
  [
    'src/core/handoff/layerProbe.ts',
    "import { spanText } from '../plan/present';\nimport type { PlanStore } from '../store/store';\nimport { ledgerText } from '../derived/ledgerText';\nimport type { Timeline } from '../timeline/timeline';\nimport { markdownText } from '../text/escape';\nexport const h = [spanText, ledgerText, markdownText] as unknown as PlanStore | Timeline;\n",
    'core/handoff imports every floor below it',
  ],
  [
    'src/vscode/timeline/layerProbe.ts',
    "import { present } from '../../core/plan/present';\nimport { buildTimeline } from '../../core/timeline/timeline';\nimport { compareWithPrevious } from '../history/compare';\nimport type { CommandTable } from '../commands/commandTable';\nimport { CommandId } from '../ids';\nimport { openWrittenFile } from '../writtenFiles';\nimport { helper } from './helper';\nexport const t = [present, buildTimeline, compareWithPrevious, CommandId, openWrittenFile, helper] as unknown as CommandTable<void>;\n",
    "a feature imports core (rooms named like src/vscode's), history/, commands/, the shared modules and its own files",
  ],
  ['src/vscode/ids.ts', "export { CommandId } from './commands/commandManifest';\n", "a shared module at src/vscode's root imports commands/"],
  ['src/vscode/views.ts', "import { PlanTreeProvider } from './plan/planTree';\nimport { SessionsTreeProvider } from './sessions/sessionsTree';\nexport const v = [PlanTreeProvider, SessionsTreeProvider];\n", 'the wiring imports the features'],
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

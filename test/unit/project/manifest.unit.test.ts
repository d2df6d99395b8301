// The manifest, the ids module, the schema file and the l10n files must agree; these tests
// fail as soon as one drifts from the others. The bundle and the package: test/build/.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AGENTS } from '../../../src/agents/registry';
import { CommandId, ContextKey, SettingId, sourceSettingId, TOOL_NAME, TOOL_REFERENCE_NAME, VIEW_CONTAINER, ViewId, EXTENSION_ID } from '../../../src/vscode/ids';

const root = path.resolve(__dirname, '..', '..', '..');
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));
const manifest = readJson('package.json');

describe('manifest', () => {
  it('names the extension as the ids module does', () => {
    assert.equal(`${manifest.publisher}.${manifest.name}`, EXTENSION_ID);
    assert.equal(manifest.main, './dist/extension.js');
  });

  it('contributes exactly the views and container of the ids module', () => {
    const containers = manifest.contributes.viewsContainers.activitybar.map((c: { id: string }) => c.id);
    assert.deepEqual(containers, [VIEW_CONTAINER]);
    const views = manifest.contributes.views[VIEW_CONTAINER].map((v: { id: string }) => v.id);
    assert.deepEqual(views, Object.values(ViewId));
    assert.ok(fs.existsSync(path.join(root, manifest.contributes.viewsContainers.activitybar[0].icon)), 'the activity-bar icon exists');
  });

  it('contributes exactly the commands of the ids module, each with a category', () => {
    const commands = manifest.contributes.commands.map((c: { command: string }) => c.command).sort();
    assert.deepEqual(commands, Object.values(CommandId).sort());
    for (const command of manifest.contributes.commands) assert.equal(command.category, '%category%');
    const menus = Object.values(manifest.contributes.menus as Record<string, Array<{ command: string }>>).flat();
    for (const entry of menus) assert.ok((Object.values(CommandId) as string[]).includes(entry.command), `${entry.command} is a known command`);
  });

  it('contributes exactly the settings of the ids module and of the agent registry', () => {
    const agents = AGENTS.flatMap((agent) => [sourceSettingId(agent.settingKey, 'enabled'), ...(agent.defaultFolder ? [sourceSettingId(agent.settingKey, 'folder')] : [])]);
    assert.deepEqual(Object.keys(manifest.contributes.configuration.properties).sort(), [...Object.values(SettingId), ...agents].sort());
  });

  it('uses only context keys the ids module defines in its when clauses', () => {
    const clauses = JSON.stringify(manifest.contributes.menus) + JSON.stringify(manifest.contributes.commands);
    const used = new Set(clauses.match(/agentPlan\.[a-zA-Z]+(?=[\s"&|)]|$)/g)?.filter((key) => !key.startsWith('agentPlan.plan') && !key.startsWith('agentPlan.sessions') && !key.startsWith('agentPlan.session') && !key.startsWith('agentPlan.todo')) ?? []);
    for (const key of used) {
      if ((Object.values(CommandId) as string[]).includes(key)) continue;
      assert.ok((Object.values(ContextKey) as string[]).includes(key), `${key} is a context key of the ids module`);
    }
  });

  it('declares todo_write with the schema file as its input schema', () => {
    const tools = manifest.contributes.languageModelTools;
    assert.equal(tools.length, 1);
    const tool = tools[0];
    assert.equal(tool.name, TOOL_NAME);
    assert.equal(tool.toolReferenceName, TOOL_REFERENCE_NAME);
    assert.equal(tool.canBeReferencedInPrompt, true);
    for (const key of ['displayName', 'userDescription', 'modelDescription', 'icon']) assert.ok(tool[key], `${key} is set`);
    const schema = readJson('schemas/todo-write.input.json');
    delete schema.$schema;
    assert.deepEqual(tool.inputSchema, schema);
  });

  it('supports untrusted workspaces in a limited way (the settings that widen what is read are the user\'s) and virtual workspaces, with descriptions', () => {
    assert.equal(manifest.capabilities.untrustedWorkspaces.supported, 'limited');
    const restricted: string[] = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations;
    const widening = Object.keys(manifest.contributes.configuration.properties).filter((id) => id === 'agentPlan.extraFolders' || id === 'agentPlan.worktrees.enabled' || id === 'agentPlan.review.enabled' || /^agentPlan\.sources\.[^.]+\.enabled$/.test(id));
    assert.ok(widening.length >= 10, widening.join(', '));
    assert.deepEqual([...restricted].sort(), widening.sort());
    for (const [id, setting] of Object.entries<{ scope?: string }>(manifest.contributes.configuration.properties)) {
      if (id.endsWith('.folder')) assert.equal(setting.scope, 'machine', `${id} is a machine setting: a workspace never names an agent's folder`);
    }
    assert.ok(manifest.capabilities.untrustedWorkspaces.description);
    assert.equal(manifest.capabilities.virtualWorkspaces.supported, true);
    assert.ok(manifest.capabilities.virtualWorkspaces.description);
  });

  it('requires no VS Code newer than the host the tests run in, and types that match it', () => {
    const engine = /^\^(\d+)\.(\d+)\.\d+$/.exec(manifest.engines.vscode);
    assert.ok(engine, manifest.engines.vscode);
    assert.ok(Number(engine[2]) <= 139);
    const types = readJson('node_modules/@types/vscode/package.json').version as string;
    assert.equal(types.split('.').slice(0, 2).join('.'), `${engine[1]}.${engine[2]}`);
  });
});

describe('localization', () => {
  const nlsEn = readJson('package.nls.json');
  const nlsZh = readJson('package.nls.zh-cn.json');

  it('has every %key% of the manifest in English and Simplified Chinese', () => {
    const keys = [...JSON.stringify(manifest).matchAll(/"%([^%"]+)%"/g)].map((m) => m[1]!);
    assert.ok(keys.length > 10);
    for (const key of keys) {
      assert.ok(nlsEn[key], `package.nls.json has ${key}`);
      assert.ok(nlsZh[key], `package.nls.zh-cn.json has ${key}`);
    }
    assert.deepEqual(Object.keys(nlsZh).sort(), Object.keys(nlsEn).sort());
  });

  it('has every runtime string in both l10n bundles: the English one derived (`npm run generate`), the Chinese one translating each and nothing more', async () => {
    const en = readJson('l10n/bundle.l10n.json');
    const zh = readJson('l10n/bundle.l10n.zh-cn.json');
    const { runtimeStrings } = (await import(path.join(root, 'scripts', 'lib', 'l10nStrings.mjs'))) as { runtimeStrings(root: string): Set<string> };
    const used = runtimeStrings(root);
    assert.ok(used.size > 20, `found ${used.size} runtime strings`);
    assert.deepEqual(Object.keys(zh).sort(), Object.keys(en).sort(), 'the Chinese bundle translates exactly the English one\'s strings');
    for (const key of used) {
      assert.ok(key in en, `l10n/bundle.l10n.json has "${key}"`);
      assert.ok(typeof zh[key] === 'string' && zh[key] !== '', `l10n/bundle.l10n.zh-cn.json has "${key}"`);
      const placeholders = (s: string) => [...s.matchAll(/\{\d+\}/g)].map((m) => m[0]).sort();
      assert.deepEqual(placeholders(zh[key]), placeholders(key), `"${key}" keeps its placeholders in Chinese`);
    }
  });
});

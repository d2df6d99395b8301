// The agent registry is the one list: every agent id the log accepts has one entry, each
// entry's settings are in the manifest with their strings in both languages, its name is
// in both l10n bundles, and the settings table of docs/agents.md lists it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AGENT_IDS } from '../../../src/core/log/logRecord';
import { AGENTS } from '../../../src/agents/registry';
import { sourceSettingId } from '../../../src/vscode/ids';

const root = path.join(__dirname, '..', '..', '..');
const json = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as Record<string, unknown>;

describe('agent registry', () => {
  it('names each agent the log accepts once, with a unique settings key and parser version', () => {
    assert.deepEqual(AGENTS.map((a) => a.id).sort(), [...AGENT_IDS].sort());
    for (const key of ['settingKey', 'parserVersion', 'name'] as const) {
      assert.equal(new Set(AGENTS.map((a) => a[key])).size, AGENTS.length, `${key} is unique`);
    }
  });

  it('each agent\'s settings are in the manifest, described in English and Chinese', () => {
    const properties = ((json('package.json')['contributes'] as { configuration: { properties: Record<string, { description?: string; markdownDescription?: string }> } }).configuration.properties);
    const en = json('package.nls.json');
    const zh = json('package.nls.zh-cn.json');
    for (const agent of AGENTS) {
      const ids = [sourceSettingId(agent.settingKey, 'enabled'), ...(agent.defaultFolder ? [sourceSettingId(agent.settingKey, 'folder')] : [])];
      for (const id of ids) {
        const setting = properties[id];
        assert.ok(setting, `${id} is contributed`);
        const key = (setting.description ?? setting.markdownDescription ?? '').replace(/^%|%$/g, '');
        assert.equal(typeof en[key], 'string', `${key} in package.nls.json`);
        assert.equal(typeof zh[key], 'string', `${key} in package.nls.zh-cn.json`);
      }
    }
  });

  it('each agent\'s name is in both l10n bundles, and its icon is a codicon id', () => {
    const en = json('l10n/bundle.l10n.json');
    const zh = json('l10n/bundle.l10n.zh-cn.json');
    for (const agent of AGENTS) {
      assert.equal(typeof en[agent.name], 'string', `${agent.name} in bundle.l10n.json`);
      assert.equal(typeof zh[agent.name], 'string', `${agent.name} in bundle.l10n.zh-cn.json`);
      assert.match(agent.icon, /^[a-z][a-z0-9-]*$/);
    }
  });

  it("docs/agents.md's settings table has a row per agent", () => {
    const page = fs.readFileSync(path.join(root, 'docs', 'agents.md'), 'utf8');
    for (const agent of AGENTS) assert.ok(page.includes(`\`${sourceSettingId(agent.settingKey, 'enabled')}\``), `docs/agents.md names ${sourceSettingId(agent.settingKey, 'enabled')}`);
  });

  it("core imports nothing outside src/core: no agent's folder, no registry, no Node adapter, no vscode", () => {
    const core = path.join(root, 'src', 'core');
    const files = (fs.readdirSync(core, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
    assert.ok(files.some((f) => f.includes(path.sep)), 'the files of core\'s folders are read, not only its root');
    let relative = 0;
    for (const file of files) {
      const text = fs.readFileSync(path.join(core, file), 'utf8');
      for (const [, spec = ''] of text.matchAll(/(?:from|import|require\()\s*'([^']+)'/g)) {
        assert.notEqual(spec, 'vscode', `src/core/${file} imports vscode`);
        if (!spec.startsWith('.')) continue;
        relative++;
        const target = path.relative(core, path.resolve(core, path.dirname(file), spec));
        assert.ok(!target.startsWith('..') && !path.isAbsolute(target), `src/core/${file} imports ${spec}, outside src/core`);
      }
    }
    assert.ok(relative > 50, `${relative} relative imports seen`);
  });
});

// Every command is declared once, in src/vscode/commands/commandManifest.ts, and handled once, in one
// feature's table (`{ [CommandId.X]: handler } satisfies CommandTable<…>`, registered by
// commandTable.ts). The handler tables import `vscode`, so they are read here as TypeScript
// syntax trees, not run; extension.ts's call to registerCommands checks the same at compile
// time (a command without a handler) and at activation (one handled twice).
// A command added to the manifest comes out of `npm run generate` in the manifest and both
// languages' strings.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { COMMANDS, CommandId, handlerProblems, titleKey } from '../../../../src/vscode/commands/commandManifest';
import { generator, repoRoot } from '../../madeUpAgent';
import { useTempDir } from '../../../lib/temp';

const vscodeDir = path.join(repoRoot, 'src', 'vscode');

/** Each handler table of src/: its file and the ids of its keys. */
function handlerTables(): Array<{ file: string; ids: string[] }> {
  const tables: Array<{ file: string; ids: string[] }> = [];
  const files = fs.readdirSync(vscodeDir, { recursive: true }).map(String).filter((name) => name.endsWith('.ts'));
  for (const name of files) {
    const file = path.join(vscodeDir, name);
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isSatisfiesExpression(node) && ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(source) === 'CommandTable') {
        assert.ok(ts.isObjectLiteralExpression(node.expression), `${name}: a CommandTable is an object literal`);
        const ids = node.expression.properties.map((property) => {
          const key = property.name;
          assert.ok(key && ts.isComputedPropertyName(key) && ts.isPropertyAccessExpression(key.expression) && key.expression.expression.getText(source) === 'CommandId', `${name}: a handler's key is [CommandId.<name>]: ${property.getText(source).slice(0, 60)}`);
          const id = (CommandId as Record<string, string>)[key.expression.name.text];
          return id ?? `CommandId.${key.expression.name.text}`;
        });
        tables.push({ file: name, ids });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return tables;
}

describe('the command manifest', () => {
  const copy = useTempDir('command');
  it('has exactly one handler for each command, and none for a command it does not declare', () => {
    const tables = handlerTables();
    assert.ok(tables.length >= 5, `found ${tables.length} handler tables`);
    assert.deepEqual(handlerProblems(tables.map((table) => table.ids)), []);
  });

  it('finds a command without a handler, one handled twice, and a handler of no command', () => {
    assert.deepEqual(handlerProblems([['a'], ['b']], ['a', 'b']), []);
    assert.deepEqual(handlerProblems([['a']], ['a', 'b']), ['b has no handler']);
    assert.deepEqual(handlerProblems([['a', 'b'], ['b']], ['a', 'b']), ['b has 2 handlers']);
    assert.deepEqual(handlerProblems([['a', 'b', 'c']], ['a', 'b']), ['c is handled but not declared in commandManifest.ts']);
  });

  it('names each command agentPlan.<its name>, its title key after it', () => {
    for (const [name, entry] of Object.entries(COMMANDS)) {
      assert.equal(entry.id, `agentPlan.${name[0]!.toLowerCase()}${name.slice(1)}`);
      assert.equal(titleKey(entry.id), `command.${name[0]!.toLowerCase()}${name.slice(1)}`);
    }
  });

  it('a command added to it is in the manifest, its menus, its keybinding and both languages\' strings after `npm run generate`, and a second run writes nothing', async function () {
    this.timeout(30_000);
    const { generate, staleFiles, DERIVED_FILES, SOURCES } = await generator();
    const tmp = copy.path;
    for (const file of [...SOURCES, ...DERIVED_FILES]) fs.cpSync(path.join(repoRoot, file), path.join(tmp, file), { recursive: true });
    const manifestFile = path.join(tmp, 'src', 'vscode', 'commands', 'commandManifest.ts');
    const text = fs.readFileSync(manifestFile, 'utf8');
    const entry = `  MadeUpCommand: {
    id: 'agentPlan.madeUpCommand',
    title: { en: 'Do the Made-Up Thing', zhCn: '做虚构的事' },
    icon: 'beaker',
    palette: 'agentPlan.hasPlan',
    viewTitle: [{ when: 'view == agentPlan.plan', group: '3_act@9' }],
    rowMenu: [{ when: 'view == agentPlan.sessions && viewItem =~ /^agentPlan\\\\.session/', group: '2_act@9' }],
    keybinding: { key: 'ctrl+alt+shift+m', mac: 'cmd+alt+shift+m' },
  },
} as const satisfies Record<string, CommandEntry>;`;
    const added = text.replace('} as const satisfies Record<string, CommandEntry>;', entry);
    assert.notEqual(added, text, 'the entry is added at the end of COMMANDS');
    fs.writeFileSync(manifestFile, added);
    assert.deepEqual((await staleFiles(tmp)).sort(), ['package.json', 'package.nls.json', 'package.nls.zh-cn.json']);
    assert.deepEqual((await generate(tmp)).sort(), ['package.json', 'package.nls.json', 'package.nls.zh-cn.json']);
    const read = (file: string) => JSON.parse(fs.readFileSync(path.join(tmp, file), 'utf8'));
    const contributes = read('package.json').contributes;
    const id = 'agentPlan.madeUpCommand';
    assert.deepEqual(contributes.commands.at(-1), { command: id, title: '%command.madeUpCommand%', category: '%category%', icon: '$(beaker)' });
    assert.deepEqual(contributes.menus['view/title'].at(-1), { command: id, when: 'view == agentPlan.plan', group: '3_act@9' });
    assert.deepEqual(contributes.menus['view/item/context'].at(-1), { command: id, when: 'view == agentPlan.sessions && viewItem =~ /^agentPlan\\.session/', group: '2_act@9' });
    assert.deepEqual(contributes.menus.commandPalette.at(-1), { command: id, when: 'agentPlan.hasPlan' });
    assert.deepEqual(contributes.keybindings.at(-1), { command: id, key: 'ctrl+alt+shift+m', mac: 'cmd+alt+shift+m' });
    assert.equal(read('package.nls.json')['command.madeUpCommand'], 'Do the Made-Up Thing');
    assert.equal(read('package.nls.zh-cn.json')['command.madeUpCommand'], '做虚构的事');
    assert.deepEqual(await generate(tmp), [], 'a second run writes nothing');
  });
});

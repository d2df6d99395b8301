// `npm run generate`: writes every file derived from the agents' descriptors
// (src/agents/<agent>/index.ts, listed by src/agents/registry.ts), so a descriptor is the one
// source of what is known about its agent, and from the command manifest
// (src/vscode/commands/commandManifest.ts), the one declaration of each command:
//   - package.json: the agents' settings (`agentPlan.sources.<key>.enabled` / `.folder`) and
//     their `enabled` switches in the settings Restricted Mode keeps to the user; the commands
//     (`contributes.commands`), their places in the menus (`contributes.menus`) and their keys
//     (`contributes.keybindings`);
//   - package.nls.json, package.nls.zh-cn.json: those settings' descriptions, the commands'
//     titles and their category;
//   - l10n/bundle.l10n.json: every runtime string of src/ (each `t('…')`) and each agent's name;
//     l10n/bundle.l10n.zh-cn.json: the translations of those still used, each agent's name as it is;
//   - src/core/generated/agentIds.ts: the ids the log accepts, the VS Code chat agents, names and icons;
//   - docs/agents.md, README.md, docs/log-format.md, docs/api.md: the agents'
//     tables (each agent's rows from its `about`) and lists (its folder of src/agents/ and its
//     test twin, test/agents/<agent>/), between `<!-- generated:<name> -->`
//     and `<!-- /generated -->` (prose stays hand-written), and docs/api.md's `type AgentId = …;` line;
//   - scripts/agents/recipes.mjs: the import of each agent's recording recipe (the recording.mjs
//     of its test twin, test/agents/<agent>/, gathered by the folder's name);
//   - scripts/agents/package.json: the packages the recipes record, at their pins (npm keeps the
//     lock file, package-lock.json: `npm install --package-lock-only` in that folder).
// The descriptors and the manifest are read by bundling them with esbuild and importing them,
// never by reading the TypeScript as text. Each file is rewritten only when its text changes; a second run
// changes nothing. `--check` writes nothing and exits 1 naming the stale files (the unit test
// test/unit/project/generated.unit.test.ts does the same). The build does not run this.
// Usage: node scripts/generate.mjs [--check] [root]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { runtimeStrings } from './lib/l10nStrings.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '..');

/**
 * The folders this reads, relative to the root: the agents' descriptors and the command manifest
 * (src/), the agents' test twins with their recording recipes (test/agents/<agent>/recording.mjs),
 * and what the recipes import (scripts/agents/).
 */
export const SOURCES = ['src', 'scripts/agents', 'test/agents'];

/** The files this writes, relative to the root. */
export const DERIVED_FILES = [
  'package.json',
  'package.nls.json',
  'package.nls.zh-cn.json',
  'l10n/bundle.l10n.json',
  'l10n/bundle.l10n.zh-cn.json',
  'src/core/generated/agentIds.ts',
  'docs/agents.md',
  'docs/log-format.md',
  'docs/api.md',
  'README.md',
  'scripts/agents/recipes.mjs',
  'scripts/agents/package.json',
];

const ID = /^[a-z][a-z0-9-]{0,63}$/;
const KEY = /^[a-z][A-Za-z0-9]{0,63}$/;
const NAME = /^[^'\\\n]{1,64}$/;
const ICON = /^[a-z0-9-]{1,64}$/;
const FOLDER = /^[a-z][A-Za-z0-9]{0,63}$/;
const PARTICIPANT = /^[A-Za-z0-9.-]{1,128}$/;

/** What the generated modules are while the descriptors are read (nothing they hold is needed then). */
const STUBS = {
  agentIds: 'export const AGENT_IDS = []; export const VSCODE_CHAT_AGENTS = {}; export const AGENT_LOOKS = {};',
  inputValidator: 'module.exports = function validate() { return false; };',
};

/**
 * The registry's agents, in its order, each with the folder of src/agents it is exported from.
 * The registry is bundled (its imports and all) and run; the generated ids module it may import
 * (and the tool's validator) are replaced by empty ones, so the descriptors never depend on what
 * is generated from them, and a fresh clone needs no build first.
 */
export async function loadAgents(root = repoRoot) {
  const agentsDir = path.join(root, 'src', 'agents');
  const folders = fs
    .readdirSync(agentsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(agentsDir, entry.name, 'index.ts')))
    .map((entry) => entry.name)
    .sort();
  const contents = [
    "export { AGENTS } from './src/agents/registry';",
    ...folders.map((folder, i) => `import * as folder${i} from './src/agents/${folder}';`),
    `export const folders = { ${folders.map((folder, i) => `${JSON.stringify(folder)}: folder${i}`).join(', ')} };`,
  ].join('\n');
  const stubGenerated = {
    name: 'stub-generated',
    setup(build) {
      build.onResolve({ filter: /[\\/]generated[\\/](agentIds|inputValidator)$/ }, (args) => ({ path: path.basename(args.path), namespace: 'stub' }));
      build.onLoad({ filter: /.*/, namespace: 'stub' }, (args) => ({ contents: STUBS[args.path], loader: 'js' }));
    },
  };
  const module = await importBundled(root, contents, 'agents', [stubGenerated]);
  return module.AGENTS.map((agent) => {
    const owners = folders.filter((folder) => Object.values(module.folders[folder]).includes(agent));
    if (owners.length !== 1) throw new Error(`generate: the agent ${agent.id} is exported by ${owners.length} folders of src/agents (${owners.join(', ')}), not one`);
    const twin = path.join(root, 'test', 'agents', owners[0]);
    const hasRecipe = fs.existsSync(path.join(twin, 'recording.mjs'));
    return checked({ ...agent, folder: owners[0], hasFolder: typeof agent.defaultFolder === 'function', participant: agent.vscodeChat?.participant, hasRecipe, hasTwin: fs.existsSync(twin) });
  });
}

/** The module `contents` (TypeScript, its imports relative to `root`) bundled with esbuild and imported. */
async function importBundled(root, contents, name, plugins = []) {
  const result = await esbuild.build({
    stdin: { contents, resolveDir: root, loader: 'ts', sourcefile: `${name}.generate.ts` },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    external: ['vscode'],
    packages: 'external',
    plugins,
    logLevel: 'silent',
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-plan-generate-'));
  try {
    const file = path.join(dir, `${name}.mjs`);
    fs.writeFileSync(file, result.outputFiles[0].text);
    return await import(pathToFileURL(file).href);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The commands of src/vscode/commands/commandManifest.ts, in its order, and their category. The module
 * imports nothing (the lint keeps it so), so it is read as it is.
 */
export async function loadCommands(root = repoRoot) {
  const module = await importBundled(root, "export { COMMANDS, COMMAND_CATEGORY, titleKey } from './src/vscode/commands/commandManifest';", 'commands');
  const commands = Object.entries(module.COMMANDS).map(([name, entry]) => checkedCommand({ ...entry, name, titleKey: module.titleKey(entry.id) }));
  const seen = new Set();
  for (const command of commands) {
    if (seen.has(command.id)) throw new Error(`generate: src/vscode/commands/commandManifest.ts: two commands have the id ${command.id}`);
    seen.add(command.id);
  }
  return { commands, category: module.COMMAND_CATEGORY };
}

const COMMAND_ID = /^agentPlan\.[a-z][A-Za-z0-9]{0,63}$/;
const GROUP = /^[A-Za-z0-9_]{1,64}@\d{1,3}$/;

function checkedCommand(command) {
  const fail = (what) => {
    throw new Error(`generate: src/vscode/commands/commandManifest.ts: ${command.name}: ${what}`);
  };
  if (!COMMAND_ID.test(command.id)) fail(`id ${JSON.stringify(command.id)} is not agentPlan.<camelCase>`);
  if (!command.title?.en || !command.title?.zhCn) fail('a title in English (en) and in Simplified Chinese (zhCn)');
  if (command.icon !== undefined && !ICON.test(command.icon)) fail(`icon ${JSON.stringify(command.icon)} is not a codicon id`);
  if (command.palette !== undefined && command.palette !== false && typeof command.palette !== 'string') fail('palette is a when clause or false');
  for (const place of [...(command.viewTitle ?? []), ...(command.rowMenu ?? [])]) {
    if (typeof place.when !== 'string' || place.when === '') fail('a menu place without its when clause');
    if (!GROUP.test(place.group)) fail(`menu group ${JSON.stringify(place.group)} is not <group>@<order>`);
  }
  if (command.keybinding !== undefined && typeof command.keybinding.key !== 'string') fail('a keybinding without its key');
  return command;
}

function checked(agent) {
  const fail = (what) => {
    throw new Error(`generate: src/agents/${agent.folder}/index.ts: ${what}`);
  };
  if (!ID.test(agent.id)) fail(`id ${JSON.stringify(agent.id)} is not lower-case words joined by "-"`);
  if (!KEY.test(agent.settingKey)) fail(`settingKey ${JSON.stringify(agent.settingKey)} is not one camelCase word`);
  if (!NAME.test(agent.name)) fail(`name ${JSON.stringify(agent.name)} is not a short name without quotes`);
  if (!ICON.test(agent.icon)) fail(`icon ${JSON.stringify(agent.icon)} is not a codicon id`);
  if (agent.participant !== undefined && !PARTICIPANT.test(agent.participant)) fail(`vscodeChat.participant ${JSON.stringify(agent.participant)} is not an extension id`);
  if (agent.about === undefined) fail('no `about` (what the manifest and the docs say of it)');
  if (agent.hasRecipe && !FOLDER.test(agent.folder)) fail(`its folder's name ${JSON.stringify(agent.folder)} is not one camelCase word (it names its recipe in scripts/agents/recipes.mjs)`);
  if (agent.hasFolder !== (agent.about.settings.folder !== undefined)) fail('about.settings.folder is set exactly when defaultFolder is');
  const { rows } = agent.about;
  if (rows === undefined) fail('no `about.rows` (its rows in the tables of docs/agents.md)');
  for (const [name, head] of Object.entries(ROW_TABLES)) {
    const list = Array.isArray(rows[name]) ? rows[name] : [rows[name]];
    if (list.length === 0) fail(`about.rows.${name} has no row`);
    for (const row of list) if (row.cells?.length !== head.length - 1) fail(`about.rows.${name}: a row of ${head.length - 1} cells (${head.slice(1).join(', ')})`);
  }
  return agent;
}

/** Checks the registry as a whole: unique ids, settings keys and names. */
function checkedList(agents) {
  for (const key of ['id', 'settingKey', 'name']) {
    const seen = new Set();
    for (const agent of agents) {
      if (seen.has(agent[key])) throw new Error(`generate: two agents have the ${key} ${JSON.stringify(agent[key])}`);
      seen.add(agent[key]);
    }
  }
  return agents;
}

// ---- the manifest and its strings ----

const settingId = (agent, which) => `agentPlan.sources.${agent.settingKey}.${which}`;
const nlsKey = (agent, which) => `configuration.sources.${agent.settingKey}.${which}`;
const isAgentSetting = (key) => /^agentPlan\.sources\.[^.]+\.(enabled|folder)$/.test(key);
const isAgentNls = (key) => /^configuration\.sources\.[^.]+\.(enabled|folder)$/.test(key);

/** `entries` in place of the keys `isOurs` picks: where the first of them was, else at the end. */
function withEntries(object, isOurs, entries) {
  const out = {};
  let placed = false;
  for (const [key, value] of Object.entries(object)) {
    if (!isOurs(key)) {
      out[key] = value;
      continue;
    }
    if (placed) continue;
    Object.assign(out, entries);
    placed = true;
  }
  if (!placed) Object.assign(out, entries);
  return out;
}

/** The same for a list of strings. */
function withItems(list, isOurs, items) {
  const at = list.findIndex(isOurs);
  const rest = list.filter((item) => !isOurs(item));
  const index = at < 0 ? rest.length : list.slice(0, at).filter((item) => !isOurs(item)).length;
  return [...rest.slice(0, index), ...items, ...rest.slice(index)];
}

const json = (value) => `${JSON.stringify(value, null, 2)}\n`;

const isCommandNls = (key) => key.startsWith('command.');

/**
 * The manifest's `commands`, `menus` and `keybindings`, each command's entries in the manifest's
 * order (VS Code orders a menu by group, order and title, not by its entries' order). Written
 * where `contributes` has them, else at its end.
 */
function commandContributions(contributes, commands) {
  const menus = { 'view/title': [], 'view/item/context': [], commandPalette: [] };
  const keybindings = [];
  for (const command of commands) {
    for (const place of command.viewTitle ?? []) menus['view/title'].push({ command: command.id, when: place.when, group: place.group });
    for (const place of command.rowMenu ?? []) menus['view/item/context'].push({ command: command.id, when: place.when, group: place.group });
    if (command.palette !== undefined) menus.commandPalette.push({ command: command.id, when: command.palette === false ? 'false' : command.palette });
    if (command.keybinding !== undefined) keybindings.push({ command: command.id, ...command.keybinding });
  }
  const out = {
    commands: commands.map((command) => ({
      command: command.id,
      title: `%${command.titleKey}%`,
      category: '%category%',
      ...(command.icon !== undefined ? { icon: `$(${command.icon})` } : {}),
      ...(command.enablement !== undefined ? { enablement: command.enablement } : {}),
    })),
    keybindings,
    menus: Object.fromEntries(Object.entries(menus).filter(([, entries]) => entries.length > 0)),
  };
  // In the order `contributes` has them (its other members stay where they are).
  return Object.fromEntries(Object.keys(out).sort((a, b) => order(a) - order(b)).map((key) => [key, out[key]]));
  function order(key) {
    const at = Object.keys(contributes).indexOf(key);
    return at < 0 ? Number.MAX_SAFE_INTEGER : at;
  }
}

function manifest(text, agents, { commands }) {
  const pkg = JSON.parse(text);
  Object.assign(pkg.contributes, commandContributions(pkg.contributes, commands));
  const settings = {};
  for (const agent of agents) {
    settings[settingId(agent, 'enabled')] = { type: 'boolean', default: true, description: `%${nlsKey(agent, 'enabled')}%` };
    if (agent.hasFolder) settings[settingId(agent, 'folder')] = { type: 'string', default: '', scope: 'machine', markdownDescription: `%${nlsKey(agent, 'folder')}%` };
  }
  const configuration = pkg.contributes.configuration;
  configuration.properties = withEntries(configuration.properties, isAgentSetting, settings);
  const untrusted = pkg.capabilities.untrustedWorkspaces;
  untrusted.restrictedConfigurations = withItems(untrusted.restrictedConfigurations, (id) => /^agentPlan\.sources\.[^.]+\.enabled$/.test(id), agents.map((agent) => settingId(agent, 'enabled')));
  return json(pkg);
}

/** A setting's description in one language: the agent's own text, or the generator's sentence. */
export function settingTexts(agent) {
  const { enabled, folder } = agent.about.settings;
  const texts = { en: {}, zhCn: {} };
  if ('en' in enabled) {
    texts.en.enabled = enabled.en;
    texts.zhCn.enabled = enabled.zhCn;
  } else {
    texts.en.enabled = `Show the plans (${enabled.planTools.join(', ')}) of ${agent.name} sessions that ran in this workspace${enabled.fromDatabase ? ', read from its database' : ''}.`;
    texts.zhCn.enabled = `显示在本工作区运行的 ${agent.name} 会话的计划（${enabled.planTools.join('、')}）${enabled.fromDatabase ? '，从其数据库读取' : ''}。`;
  }
  if (folder !== undefined) {
    const name = folder.name ?? agent.name;
    texts.en.folder = `${name}'s ${folder.data ? 'data ' : ''}folder, read only${folder.note ? ` (${folder.note.en})` : ''}. Empty: ${folder.empty.join(' or ')}.`;
    texts.zhCn.folder = `${name} 的${folder.data ? '数据' : ''}文件夹，只读${folder.note ? `（${folder.note.zhCn}）` : ''}。留空：${folder.empty.join(' 或 ')}。`;
  }
  return texts;
}

function nls(text, agents, { commands, category }, language) {
  const titles = { category: category[language] };
  for (const command of commands) titles[command.titleKey] = command.title[language];
  const own = withEntries(JSON.parse(text), (key) => key === 'category' || isCommandNls(key), titles);
  const strings = {};
  for (const agent of agents) {
    const texts = settingTexts(agent)[language];
    strings[nlsKey(agent, 'enabled')] = texts.enabled;
    if (texts.folder !== undefined) strings[nlsKey(agent, 'folder')] = texts.folder;
  }
  return json(withEntries(own, isAgentNls, strings));
}

/**
 * Each agent's name, as it is in both languages (a name is not translated). The names the
 * generated ids module held before (`written`) are the agents' too: an agent taken out of the
 * registry leaves no name behind.
 */
function l10nBundle(text, agents, _commands, { written }) {
  const names = new Set([...agents.map((agent) => agent.name), ...written.names]);
  return json(withEntries(JSON.parse(text), (key) => names.has(key), Object.fromEntries(agents.map((agent) => [agent.name, agent.name]))));
}

/** The English bundle: every runtime string of src/ (scripts/lib/l10nStrings.mjs) and each agent's name, as its own value, sorted. */
function englishBundle(_text, agents, _commands, { strings }) {
  const keys = [...new Set([...strings, ...agents.map((agent) => agent.name)])].sort();
  return json(Object.fromEntries(keys.map((key) => [key, key])));
}

/** The Chinese bundle: its translations of the strings still used (and each agent's name, kept as it is), in its own order. */
function chineseBundle(text, agents, commands, inputs) {
  const english = new Set(Object.keys(JSON.parse(englishBundle('', agents, commands, inputs))));
  const kept = Object.fromEntries(Object.entries(JSON.parse(text || '{}')).filter(([key]) => english.has(key)));
  return l10nBundle(json(kept), agents, commands, inputs);
}

/** The agents' names in the ids module as it is on disk (this generator wrote it). */
function writtenNames(root) {
  const file = path.join(root, 'src', 'core', 'generated', 'agentIds.ts');
  if (!fs.existsSync(file)) return [];
  return [...fs.readFileSync(file, 'utf8').matchAll(/^ {2}'[a-z0-9-]+': \{ name: '([^'\\\n]+)', icon: /gm)].map((match) => match[1]);
}

function agentIds(agents) {
  const chats = agents.filter((agent) => agent.participant !== undefined);
  return (
    '// Generated by scripts/generate.mjs (npm run generate) from the agent registry. Do not edit.\n' +
    `export const AGENT_IDS = [${agents.map((agent) => `'${agent.id}'`).join(', ')}] as const;\n\n` +
    "/** The agents whose sessions are VS Code chats (their descriptor's `vscodeChat`), with their chat participant's extension id. */\n" +
    `export const VSCODE_CHAT_AGENTS: Readonly<Record<string, string>> = { ${chats.map((agent) => `'${agent.id}': '${agent.participant}'`).join(', ')} };\n\n` +
    '/** How each agent is shown: its name in English (the l10n key) and its codicon. */\n' +
    'export const AGENT_LOOKS: Readonly<Record<(typeof AGENT_IDS)[number], { name: string; icon: string }>> = {\n' +
    agents.map((agent) => `  '${agent.id}': { name: '${agent.name}', icon: '${agent.icon}' },\n`).join('') +
    '};\n'
  );
}

// ---- the docs ----

/** `content` between `<!-- generated:<name> -->` and the next `<!-- /generated -->` of `text`. */
export function withRegion(text, file, name, content) {
  const start = `<!-- generated:${name} -->`;
  const end = '<!-- /generated -->';
  const from = text.indexOf(start);
  if (from < 0) throw new Error(`generate: ${file} has no ${start} … ${end}`);
  const to = text.indexOf(end, from + start.length);
  if (to < 0) throw new Error(`generate: ${file}: ${start} is not closed by ${end}`);
  return text.slice(0, from + start.length) + content + text.slice(to);
}

const tableRow = (cells) => `|${cells.map((cell) => (cell === '' ? ' ' : ` ${cell} `)).join('|')}|\n`;
const table = (head, rows) => `\n\n${tableRow(head)}|${head.map(() => '---').join('|')}|\n${rows.map(tableRow).join('')}\n`;
const code = (text) => `\`${text}\``;

function settingCell(agent) {
  return `${code(settingId(agent, 'enabled'))}${agent.hasFolder ? ' / `.folder`' : ''}`;
}

/** docs/agents.md's tables of each agent's `about.rows` (region `agents-<name>`), with their heads. */
const ROW_TABLES = {
  naming: ['agent', 'title', 'first request'],
  mapping: ['program', 'item text', 'not content', 'statuses'],
  waiting: ['agent', 'a waiting call', 'approval told apart'],
  ledger: ['agent', 'unit', 'input', 'output', 'cached', 'cost', 'calls'],
};

/**
 * The rows of one of ROW_TABLES: each agent's, in the registry's order; agents whose rows there
 * are the same share them, named together where the first of them is.
 */
function rowTable(agents, name) {
  const joiner = name === 'mapping' ? ' / ' : ', ';
  const groups = new Map();
  for (const agent of agents) {
    const rows = agent.about.rows[name];
    const key = JSON.stringify(rows);
    if (!groups.has(key)) groups.set(key, { rows: Array.isArray(rows) ? rows : [rows], names: [] });
    groups.get(key).names.push(agent.name);
  }
  return [...groups.values()].flatMap(({ rows, names }) => rows.map((row) => [row.label === undefined ? names.join(joiner) : `${names.join(joiner)} ${row.label}`, ...row.cells]));
}

function agentsPage(text, agents) {
  const file = 'docs/agents.md';
  let out = withRegion(text, file, 'agents-switch-on', table(['agent', 'tested', 'plan tool', 'what the user must switch on'], agents.map((a) => [a.about.docsName ?? a.name, a.about.tested, a.about.planTools, a.about.switchOn])));
  out = withRegion(out, file, 'agents-read', table(['agent', 'versions tested', 'what it reads', 'which sessions', 'one session is'], agents.map((a) => [a.about.reads.agent, a.about.tested, a.about.reads.files, a.about.reads.sessions, a.about.reads.session])));
  for (const [region, head] of Object.entries(ROW_TABLES)) {
    out = withRegion(out, file, `agents-${region}`, table(head, rowTable(agents, region)));
  }
  out = withRegion(
    out,
    file,
    'agents-settings',
    table(['setting', 'default', 'meaning'], agents.map((a) => [settingCell(a), a.hasFolder ? `\`true\` / empty = ${a.about.settings.folder.empty.join(' or ')}` : '`true`', a.about.settings.meaning])),
  );
  out = withRegion(
    out,
    file,
    'agent-folders',
    table(['agent', 'its code', 'its test twin'], agents.map((a) => [a.name, code(`src/agents/${a.folder}/`), a.hasTwin ? `${code(`test/agents/${a.folder}/`)}${a.hasRecipe ? ' (with its recording recipe)' : ''}` : ''])),
  );
  return out;
}

function readme(text, agents) {
  return withRegion(text, 'README.md', 'agents-table', table(['agent (tested)', 'what is read', 'what you must switch on'], agents.map((a) => [a.about.readme.agent, a.about.readme.reads, a.about.readme.switchOn])));
}

const idList = (agents) => agents.map((agent) => code(agent.id)).join(', ');

function logFormat(text, agents) {
  return withRegion(text, 'docs/log-format.md', 'agent-ids', idList(agents));
}

function api(text, agents) {
  const line = /^type AgentId = [^;\n]*;/m;
  if (!line.test(text)) throw new Error('generate: docs/api.md has no `type AgentId = …;` line');
  return text.replace(line, `type AgentId = ${agents.map((agent) => `'${agent.id}'`).join(' | ')};`);
}

// ---- the recording scripts ----

/** scripts/agents/recipes.mjs: the import of each agent's recording recipe (test/agents/<agent>/recording.mjs), by its folder's name, in the registry's order. */
function recipesModule(text, agents) {
  const recorded = agents.filter((agent) => agent.hasRecipe);
  return withRegion(
    text,
    'scripts/agents/recipes.mjs',
    'recipes',
    `\n${recorded.map((agent) => `import { recipe as ${agent.folder} } from '../../test/agents/${agent.folder}/recording.mjs';\n`).join('')}` +
      `const GATHERED = { ${recorded.map((agent) => agent.folder).join(', ')} };\n// `,
  );
}

/** The recording recipes of the agents that have one (test/agents/<agent>/recording.mjs under `root`), imported. */
async function loadRecipes(root, agents) {
  const recipes = [];
  for (const agent of agents.filter((a) => a.hasRecipe)) {
    const file = path.join(root, 'test', 'agents', agent.folder, 'recording.mjs');
    recipes.push({ folder: agent.folder, ...(await import(pathToFileURL(file).href)).recipe });
  }
  return recipes;
}

/** scripts/agents/package.json: its `dependencies` are the recipes' packages at their pins. */
function agentsManifest(text, _agents, _commands, { recipes }) {
  const pins = {};
  const pin = (recipe, name, spec) => {
    if (typeof spec !== 'string' || spec === '') throw new Error(`generate: test/agents/${recipe.folder}/recording.mjs: ${name} has no pin (its version)`);
    if (pins[name] !== undefined && pins[name] !== spec) throw new Error(`generate: ${name} is pinned twice, at ${pins[name]} and ${spec}`);
    pins[name] = spec;
  };
  for (const recipe of recipes) {
    pin(recipe, recipe.package, recipe.pin);
    for (const more of Object.values(recipe.morePackages ?? {})) pin(recipe, more.package, more.pin);
  }
  const manifest = JSON.parse(text);
  manifest.dependencies = Object.fromEntries(Object.keys(pins).sort().map((name) => [name, pins[name]]));
  return json(manifest);
}

// ---- all of it ----

const WRITERS = {
  'package.json': manifest,
  'package.nls.json': (text, agents, commands) => nls(text, agents, commands, 'en'),
  'package.nls.zh-cn.json': (text, agents, commands) => nls(text, agents, commands, 'zhCn'),
  'l10n/bundle.l10n.json': englishBundle,
  'l10n/bundle.l10n.zh-cn.json': chineseBundle,
  'src/core/generated/agentIds.ts': (_text, agents) => agentIds(agents),
  'docs/agents.md': agentsPage,
  'docs/log-format.md': logFormat,
  'docs/api.md': api,
  'README.md': readme,
  'scripts/agents/recipes.mjs': recipesModule,
  'scripts/agents/package.json': agentsManifest,
};

/** Every derived file's text as the descriptors and the command manifest under `root` make it: { relative path: text }. */
export async function derivedFiles(root = repoRoot) {
  const agents = checkedList(await loadAgents(root));
  const commands = await loadCommands(root);
  const inputs = { recipes: await loadRecipes(root, agents), written: { names: writtenNames(root) }, strings: runtimeStrings(root) };
  const out = {};
  for (const file of DERIVED_FILES) {
    const full = path.join(root, file);
    const text = fs.existsSync(full) ? fs.readFileSync(full, 'utf8') : '';
    out[file] = WRITERS[file](text, agents, commands, inputs);
  }
  return out;
}

/** The derived files whose text on disk is not what the descriptors make. */
export async function staleFiles(root = repoRoot) {
  const files = await derivedFiles(root);
  return Object.entries(files)
    .filter(([file, text]) => !fs.existsSync(path.join(root, file)) || fs.readFileSync(path.join(root, file), 'utf8') !== text)
    .map(([file]) => file);
}

/** Writes the derived files that changed; returns their paths. */
export async function generate(root = repoRoot) {
  const files = await derivedFiles(root);
  const written = [];
  for (const [file, text] of Object.entries(files)) {
    const full = path.join(root, file);
    if (fs.existsSync(full) && fs.readFileSync(full, 'utf8') === text) continue;
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, text);
    written.push(file);
  }
  return written;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const rootArg = args.find((arg) => !arg.startsWith('--'));
  const root = rootArg ? path.resolve(rootArg) : repoRoot;
  try {
    if (check) {
      const stale = await staleFiles(root);
      if (stale.length > 0) {
        process.stderr.write(`stale, run \`npm run generate\`: ${stale.join(', ')}\n`);
        process.exit(1);
      }
    } else {
      const written = await generate(root);
      process.stdout.write(written.length === 0 ? 'generate: every derived file is up to date\n' : `generate: wrote ${written.join(', ')}\n`);
    }
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

// The runtime strings of the extension: the first argument of every `vscode.l10n.t('…')` call,
// or of `t('…')` (the modules' `const t = vscode.l10n.t`, and the translator core's words take),
// in src/. The English bundle (l10n/bundle.l10n.json) is derived from them by `npm run generate`,
// so a string is written once, where it is used; the Chinese bundle is the translations.
import * as fs from 'node:fs';
import * as path from 'node:path';

const CALL = /(?:vscode\.l10n\.t|\bt)\('((?:[^'\\]|\\.)*)'/g;

function tsFiles(dir) {
  return fs
    .readdirSync(dir, { recursive: true })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(dir, file));
}

/** Every runtime string of src/ under `root` (src/webview has none: its texts come from the extension). */
export function runtimeStrings(root) {
  const used = new Set();
  for (const file of tsFiles(path.join(root, 'src'))) {
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(CALL)) used.add(match[1].replace(/\\'/g, "'").replace(/\\"/g, '"').replace(/\\\\/g, '\\'));
  }
  return used;
}

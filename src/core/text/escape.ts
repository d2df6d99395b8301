// Text from a model or another program (an item, a chat's title, a path or a tool's name from a
// transcript, a branch from git's HEAD) is data. Each sink it reaches reads some characters
// as more than text; this module holds one escaper per sink, so every caller shows the same
// words and none of them can become a link, a mention, an icon, a tag or a line of its own.
// Pure; each escaper has its own tests (test/unit/core/text/escape.unit.test.ts) and the hostile-input
// suite renders the results as their consumers do (test/reliability/hostile-text.reliability.test.ts).
//
// Sinks and their escapers:
// - notifications (showInformationMessage and the like): notificationText — VS Code turns
//   `[label](command:…)`, `(https://…)` and `(file:…)` into clickable links there;
// - status bar texts and quick pick labels: iconText — `$(name)` draws an icon there;
// - prompts typed into a chat: promptLine — one item, one line;
// - the Markdown that people paste into GitHub (Copy Plan as Markdown, Export Plan, the
//   pull request description): markdownText and markdownCode, file links through blobLink;
// - tree labels, descriptions and tooltips stay as they are: labels are plain text and the
//   tooltips are untrusted MarkdownStrings filled with appendText (VS Code escapes them).
//   They get plainText for its bound and its control characters only.

/** Longest text a one-line sink shows of one untrusted value (user-perceived characters). */
export const MAX_SHOWN = 1000;

const REPLACEMENT = '\uFFFD';
/** Invisible, and not a word character: a mention, a reference or an autolink needs its two sides touching. */
const BREAK = '\u200B';

/**
 * C0 and C1 control characters (but tab, which becomes a space) and the bidirectional
 * controls (embeddings, overrides, isolates and marks) that can make text read in another
 * order than it runs: each is shown as U+FFFD, so nothing is hidden and nothing reorders.
 */
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
const HAS_CONTROL = new RegExp(CONTROLS.source);

/** Cuts `text` to at most `max` user-perceived characters with an ellipsis; linear in `max`, not in the text's length. */
export function bounded(text: string, max: number = MAX_SHOWN): string {
  // A grapheme is rarely longer than a few code units: segment a window, never the whole text.
  const window = text.length > max * 8 ? text.slice(0, max * 8) : text;
  const graphemes: string[] = [];
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(window)) {
    graphemes.push(segment);
    if (graphemes.length > max) break;
  }
  if (graphemes.length <= max && window.length === text.length) return text;
  return graphemes.slice(0, Math.max(0, max - 1)).join('') + '…';
}

/** One line of plain text: line breaks folded to a space, control characters shown as U+FFFD, the length bounded. */
export function plainText(text: string, max: number = MAX_SHOWN): string {
  return bounded(text, max)
    .replace(/\s*[\r\n\u2028\u2029\u0085]+\s*/g, ' ')
    .replace(/\t/g, ' ')
    .replace(CONTROLS, REPLACEMENT);
}

/**
 * Text for a notification: no `[label](target)` can form (VS Code's notification link
 * pattern needs `](` side by side), one line, bounded.
 */
export function notificationText(text: string, max: number = MAX_SHOWN): string {
  return plainText(text, max).replace(/\]\(/g, `]${BREAK}(`);
}

/** Text for a status bar item or a quick pick's label: `$(name)` stays literal (VS Code's own escape). */
export function iconText(text: string, max: number = MAX_SHOWN): string {
  return plainText(text, max).replace(/\$\(/g, '\\$(');
}

/** One line of a prompt typed into a chat: an item can never fake the prompt's structure with a line of its own. */
export function promptLine(text: string, max: number = MAX_SHOWN): string {
  return plainText(text, max);
}

/**
 * What CommonMark or GitHub's Markdown read as markup in a line of a list item or a heading,
 * escaped with a backslash: always `\ ` * [ ] < > ~ $`; `_` unless inside a word (`snake_case`
 * is never emphasis); `&` only where it starts an entity; `#` only where it could open or
 * close a heading. The rest (`! | ( ) { }`) makes no markup there once `[` and `<` are escaped.
 */
const MARKDOWN_MARKUP = /[\\`*[\]<>~$]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])|&(?=#?[A-Za-z0-9]+;)|#(?=#*(?:\s|$))/g;
/** A list item's or a heading's text that some renderers read as a block of its own: `- x`, `+ x`, `1. x`, `= x`. */
const BLOCK_START = /^(?:[-+=]|\d{1,9}(?=[.)]))/;

/**
 * Inline Markdown that GitHub renders as exactly this text: no emphasis, link, image, tag,
 * comment, entity, math or strikethrough (each markup character backslash-escaped), and no
 * mention (`@user`, `@org/team`), issue reference (`#2`, `GH-2`, `owner/repo#2`, hence no
 * closing keyword) or autolink (`https://…`, `www.…`, e-mail addresses): each has an
 * invisible break where GitHub looks for the two sides touching. One line, bounded.
 */
export function markdownText(text: string, max: number = MAX_SHOWN): string {
  return plainText(text, max)
    .trim()
    .replace(MARKDOWN_MARKUP, (c) => `\\${c}`)
    .replace(BLOCK_START, (start) => (/\d/.test(start) ? `${start}\\` : `\\${start}`))
    .replace(/@(?=[A-Za-z0-9])/g, `@${BREAK}`)
    .replace(/#(?=[0-9])/g, `#${BREAK}`)
    .replace(/\b(GH)-(?=[0-9])/gi, `$1${BREAK}-`)
    .replace(/:\/\//g, `:${BREAK}//`)
    .replace(/\b(www)\./gi, `$1${BREAK}.`);
}

/** A code span that shows `text` literally whatever backticks it holds (CommonMark: a longer fence than any run inside). */
export function markdownCode(text: string, max: number = MAX_SHOWN): string {
  const line = plainText(text, max);
  const longest = Math.max(0, ...Array.from(line.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = line.startsWith('`') || line.endsWith('`') || (line.startsWith(' ') && line.endsWith(' ') && line.trim() !== '') ? ' ' : '';
  return `${fence}${pad}${line}${pad}${fence}`;
}

/**
 * A repository-relative path made canonical: `.` and empty segments gone, `..` taken back;
 * undefined when it leaves the repository (`docs/../../x`), is absolute or names no file.
 */
export function repositoryPath(path: string): string | undefined {
  const slashed = path.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[A-Za-z]:\//.test(slashed) || HAS_CONTROL.test(slashed) || /[\r\n]/.test(slashed)) return undefined;
  const kept: string[] = [];
  for (const segment of slashed.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (kept.length === 0) return undefined;
      kept.pop();
      continue;
    }
    kept.push(segment);
  }
  return kept.length === 0 ? undefined : kept.join('/');
}

/** A file's address under a repository's blob base (`https://github.com/o/r/blob/main/`), or undefined when the path leaves it. */
export function blobLink(base: string, path: string): string | undefined {
  const inside = repositoryPath(path);
  return inside === undefined ? undefined : base + inside.split('/').map(encodeURIComponent).join('/');
}

/**
 * Whether a branch name is one git itself accepts (git check-ref-format's rules): no `..`,
 * no control characters, space, `~ ^ : ? * [ \`, no `@{`, no segment starting with `.` or
 * ending with `.lock`, not starting with `-` or `/`, no `//`, not ending with `/` or `.`.
 */
export function isBranchName(name: string): boolean {
  if (name === '' || name === '@' || name.length > 255) return false;
  if (/[\u0000-\u0020\u007F~^:?*[\\]|\.\.|@\{|\/\/|^[-/]|[/.]$/.test(name)) return false;
  return name.split('/').every((segment) => segment !== '' && !segment.startsWith('.') && !segment.endsWith('.lock'));
}

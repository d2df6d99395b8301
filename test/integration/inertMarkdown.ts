// Markdown rendered as GitHub renders it (GFM, by marked), then read the way GitHub reads the
// result: the mentions, issue references and closing keywords it would link in prose. Shared
// by the hostile-text tests of the reliability level and of the extension host.
import * as assert from 'node:assert/strict';
import { marked } from 'marked';

/** GitHub: a mention, an issue reference (`#2`, `o/r#2`, `GH-2`), a closing keyword with an issue URL. */
const MENTION = /(?:^|[^\w`])@[A-Za-z0-9][A-Za-z0-9-]*(?:\/[A-Za-z0-9][\w-]*)?/;
const REFERENCE = /(?:^|[^\w])(?:[\w.-]+\/[\w.-]+)?#\d+|\bGH-\d+/i;
const CLOSING_URL = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s+https?:\/\/github\.com\//i;
/** The only tags the exports make themselves. */
const OUR_TAGS = new Set(['ul', 'li', 'p', 'h1', 'h2', 'h3', 'input', 'del', 'em', 'code', 'a', 'strong']);
// eslint-disable-next-line no-control-regex
export const CONTROL_OR_BIDI = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

/** The text of rendered HTML, tags dropped and entities read. */
export function htmlText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

export function renderGfm(markdown: string): string {
  return marked.parse(markdown, { gfm: true, async: false });
}

/**
 * Checks that nothing but the export's own structure is live once GitHub renders `markdown`
 * (links only to `allowedLinks`); returns the text a reader sees, invisible breaks removed.
 */
export function assertInert(markdown: string, allowedLinks: readonly string[] = []): string {
  const html = renderGfm(markdown);
  assert.ok(!html.includes('<!--'), 'no HTML comment');
  for (const [, name] of html.matchAll(/<\/?([A-Za-z][A-Za-z0-9-]*)/g)) assert.ok(OUR_TAGS.has(name!.toLowerCase()), `a <${name}> tag came from the text:\n${html.slice(0, 2000)}`);
  for (const [, href] of html.matchAll(/<a [^>]*href="([^"]*)"/g)) assert.ok(allowedLinks.includes(htmlText(href!)), `a live link to ${href}`);
  assert.ok(!/<img/i.test(html), 'no image');
  // GitHub finds mentions and references in prose, never inside code.
  const prose = htmlText(html.replace(/<code>[\s\S]*?<\/code>/g, ''));
  assert.doesNotMatch(prose, MENTION, 'no mention');
  assert.doesNotMatch(prose, REFERENCE, 'no issue reference');
  assert.doesNotMatch(prose, CLOSING_URL, 'no closing keyword');
  const text = htmlText(html);
  assert.doesNotMatch(text, CONTROL_OR_BIDI, 'no control or bidirectional character');
  return text.replace(/\u200B/g, '');
}

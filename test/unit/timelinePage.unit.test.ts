// The Plan Timeline's page as it ships: small, self-contained, and served under a strict CSP.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.join(__dirname, '..', '..');

describe('the Plan Timeline page', () => {
  it('is one minified esbuild bundle of at most 150 KB that loads nothing remote', () => {
    const file = path.join(root, 'dist', 'timeline.js');
    assert.ok(fs.existsSync(file), 'dist/timeline.js is built (npm run build)');
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(text.length <= 150 * 1024, `${text.length} bytes`);
    assert.ok(text.split('\n').length <= 3, 'minified');
    // The SVG namespace is a name, not a resource; nothing else may point off the machine.
    const urls = [...text.matchAll(/https?:\/\/[^\s"'`)]+/g)].map((m) => m[0]).filter((url) => url !== 'http://www.w3.org/2000/svg');
    assert.deepEqual(urls, []);
    assert.doesNotMatch(text, /\beval\(|new Function\(|innerHTML\s*=/);
  });

  it('is served with a nonce CSP: no inline script or style, no remote source, no inline handler', () => {
    const source = fs.readFileSync(path.join(root, 'src', 'vscode', 'timelinePanel.ts'), 'utf8');
    const csp = /const csp = \[(.*)\]\.join/.exec(source)?.[1] ?? '';
    assert.match(csp, /`default-src 'none'`/);
    assert.match(csp, /`script-src 'nonce-\$\{nonce\}'`/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
    const html = /return `<!DOCTYPE html>([\s\S]*?)<\/html>`/.exec(source)?.[1] ?? '';
    assert.ok(html.length > 0);
    assert.doesNotMatch(html, /\son[a-z]+=|style="/);
    assert.equal([...html.matchAll(/<script /g)].length, [...html.matchAll(/<script nonce="\$\{nonce\}" src=/g)].length);
  });
});

// The Plan Timeline's page as it is served: under a strict CSP (its bundle: test/build/package.build.test.ts).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.join(__dirname, '..', '..', '..', '..');

describe('the Plan Timeline page', () => {
  it('is served with a nonce CSP: no inline script or style, no remote source, no inline handler', () => {
    const source = fs.readFileSync(path.join(root, 'src', 'vscode', 'timeline', 'timelinePanel.ts'), 'utf8');
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

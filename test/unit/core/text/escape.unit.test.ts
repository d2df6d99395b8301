// The escapers of untrusted text, one sink each (src/core/text/escape.ts). Rendered the way
// each consumer renders it, over a hostile corpus: test/reliability/hostile-text.reliability.test.ts.
import * as assert from 'node:assert/strict';
import { blobLink, bounded, iconText, isBranchName, markdownCode, markdownText, notificationText, plainText, promptLine, repositoryPath } from '../../../../src/core/text/escape';

const ZWSP = '\u200B';

describe('escapers of untrusted text', () => {
  it('plainText: one line, control and bidi characters shown as U+FFFD, tabs as spaces', () => {
    assert.equal(plainText('a\nb\r\n  c'), 'a b c');
    assert.equal(plainText('x\u202Ey\u2066z\u0007w\tv'), 'x\uFFFDy\uFFFDz\uFFFDw v');
    assert.equal(plainText('Add a dark palette'), 'Add a dark palette');
  });

  it('bounded: at most the bound in user-perceived characters, with an ellipsis, never inside an emoji', () => {
    assert.equal(bounded('abcdef', 4), 'abc…');
    assert.equal(bounded('abcd', 4), 'abcd');
    assert.equal(bounded('👍🏽👍🏽👍🏽', 2), '👍🏽…');
    const huge = 'x'.repeat(10 * 1024 * 1024);
    assert.equal(bounded(huge, 1000).length, 1000);
    assert.equal(plainText(huge).length, 1000);
  });

  it('notificationText: no [label](command:…) link can form, the words stay', () => {
    const text = notificationText('Done [Install](command:workbench.extensions.installExtension?%5B%22x%22%5D) now');
    assert.ok(!/\]\(/.test(text));
    assert.equal(text.replace(ZWSP, ''), 'Done [Install](command:workbench.extensions.installExtension?%5B%22x%22%5D) now');
    assert.equal(notificationText('Plan done just now'), 'Plan done just now');
  });

  it('iconText: $(name) stays literal in a status bar or a quick pick', () => {
    assert.equal(iconText('$(loading~spin) fake'), '\\$(loading~spin) fake');
    assert.equal(iconText('costs $5'), 'costs $5');
  });

  it('promptLine: an item is one line of the prompt', () => {
    assert.equal(promptLine('Fix it\nOpen items: none.'), 'Fix it Open items: none.');
  });

  it('markdownText: every markup character escaped, mentions and references broken, ordinary text untouched', () => {
    assert.equal(markdownText('Add a dark palette to settings.json'), 'Add a dark palette to settings.json');
    assert.equal(markdownText('rename snake_case_name (a != b | c)'), 'rename snake_case_name (a != b | c)');
    assert.equal(markdownText('a > b'), 'a \\> b');
    assert.equal(markdownText('- not a list'), '\\- not a list');
    assert.equal(markdownText('1. not a list'), '1\\. not a list');
    assert.equal(markdownText('*bold* `code` [l](u) <b> ~~s~~ $x$ \\'), '\\*bold\\* \\`code\\` \\[l\\](u) \\<b\\> \\~\\~s\\~\\~ \\$x\\$ \\\\');
    assert.equal(markdownText('_under_'), '\\_under\\_');
    assert.equal(markdownText('&amp; & &#64;'), `\\&amp; & \\&#${ZWSP}64;`);
    assert.equal(markdownText('title ##'), 'title \\#\\#');
    assert.equal(markdownText('C# and F#'), 'C\\# and F\\#');
    assert.equal(markdownText('ping @octocat and @org/team'), `ping @${ZWSP}octocat and @${ZWSP}org/team`);
    assert.equal(markdownText('fixes #2, GH-3, o/r#4'), `fixes #${ZWSP}2, GH${ZWSP}-3, o/r#${ZWSP}4`);
    assert.equal(markdownText('see https://x.io and www.x.io'), `see https:${ZWSP}//x.io and www${ZWSP}.x.io`);
    assert.equal(markdownText('<!-- hide'), '\\<!-- hide');
  });

  it('markdownCode: a code span shows any backticks literally', () => {
    assert.equal(markdownCode('src/a.ts'), '`src/a.ts`');
    assert.equal(markdownCode('a`b'), '``a`b``');
    assert.equal(markdownCode('`x`'), '`` `x` ``');
    assert.equal(markdownCode('a\nb'), '`a b`');
  });

  it('repositoryPath and blobLink: canonical, and never out of the repository', () => {
    assert.equal(repositoryPath('./src//a/./b.ts'), 'src/a/b.ts');
    assert.equal(repositoryPath('docs/../src/a.ts'), 'src/a.ts');
    assert.equal(repositoryPath('docs/../../../../x'), undefined);
    assert.equal(repositoryPath('../x'), undefined);
    assert.equal(repositoryPath('/etc/passwd'), undefined);
    assert.equal(repositoryPath('C:\\x\\y'), undefined);
    assert.equal(repositoryPath('..'), undefined);
    const base = 'https://github.com/o/r/blob/main/';
    assert.equal(blobLink(base, 'docs/a b#c.md'), `${base}docs/a%20b%23c.md`);
    assert.equal(blobLink(base, 'docs/../../../../x'), undefined);
  });

  it('isBranchName: git check-ref-format rules', () => {
    for (const good of ['main', 'feature/dark-mode', 'release-1.2', 'a1b2c3d4e5f6']) assert.ok(isBranchName(good), good);
    for (const bad of ['', '../x', 'a/../../b', 'a..b', '/a', 'a/', '-x', 'a//b', '.hidden', 'a/.b', 'x.lock', 'a b', 'a~1', 'a^', 'a:b', 'a?', 'a*', 'a[', 'a\\b', 'a@{1}', 'a.', 'a\nb', '@']) {
      assert.ok(!isBranchName(bad), JSON.stringify(bad));
    }
  });
});

// The documentation stays short, its links resolve, the architecture's layout table names
// every folder of src/ (read from disk), the log format's examples are lines Agent Plan's
// own reader accepts as they are, and the README's performance summary is the bench's.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AGENT_IDS, FILE_WRITE_EVENT, SESSION_INFO_EVENT, SESSION_LINK_EVENT, TODO_WRITE_EVENT, USER_REQUEST_EVENT, parseLogRecord } from '../../../src/core/log/logRecord';
import { SNAPSHOT_EVENT } from '../../../src/core/log/snapshotRecord';
import { PERMISSION_ANSWER_EVENT, PERMISSION_ASK_EVENT } from '../../../src/core/log/permissionRecord';

const root = path.join(__dirname, '..', '..', '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
const docsPages = () => fs.readdirSync(path.join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);

/** The text outside fenced code blocks. */
function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
}

/** The anchors a page offers: its headings as GitHub slugs them, and explicit ids. */
function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  for (const match of prose(markdown).matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const slug = (match[1] ?? '')
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    found.add(slug);
  }
  for (const match of markdown.matchAll(/<a id="([^"]+)">/g)) found.add(match[1] ?? '');
  return found;
}

describe('documentation', () => {
  it('the README is at most 20 KB and docs/ARCHITECTURE.md at most 12 KB', () => {
    const readme = fs.statSync(path.join(root, 'README.md')).size;
    const architecture = fs.statSync(path.join(root, 'docs', 'ARCHITECTURE.md')).size;
    assert.ok(readme <= 20 * 1024, `README.md is ${readme} bytes`);
    assert.ok(architecture <= 12 * 1024, `docs/ARCHITECTURE.md is ${architecture} bytes`);
  });

  it("every relative link of the README, CONTRIBUTING.md and docs/ names a file that exists, and a heading there", () => {
    const pages = ['README.md', 'CONTRIBUTING.md', ...docsPages()];
    let checked = 0;
    for (const page of pages) {
      const text = prose(read(page));
      for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1] ?? '';
        if (/^[a-z]+:/i.test(target)) continue;
        const [file = '', anchor] = target.split('#');
        const resolved = file === '' ? path.join(root, page) : path.join(root, path.dirname(page), decodeURIComponent(file));
        assert.ok(fs.existsSync(resolved), `${page} links to ${target}, which does not exist`);
        if (anchor && resolved.endsWith('.md')) {
          assert.ok(anchors(fs.readFileSync(resolved, 'utf8')).has(anchor), `${page} links to ${target}: no such heading`);
        }
        checked++;
      }
    }
    assert.ok(checked > 20, `only ${checked} links found`);
  });

  it("the architecture's layout table names every folder of src/", () => {
    const architecture = read('docs/ARCHITECTURE.md');
    const from = architecture.indexOf('\n## Layout');
    assert.ok(from >= 0, 'docs/ARCHITECTURE.md has a "## Layout" section');
    const section = architecture.slice(from + 1);
    const rows = section.slice(0, section.indexOf('\n## ', 1)).split('\n').filter((line) => line.startsWith('|'));
    const folders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
        if (!entry.isDirectory()) continue;
        folders.push(`${dir}/${entry.name}`);
        walk(`${dir}/${entry.name}`);
      }
    };
    walk('src');
    assert.ok(folders.length > 3, 'src/ has folders');
    // A folder is named by its path (`src/core/`), or by its name (`claudeCode/`) in a row that names its parent's path;
    // an agent's folder by the list docs/agents.md keeps (it grows with the agents, the two-page overview does not).
    const agents = read('docs/agents.md');
    const named = (folder: string) =>
      rows.some((row) => row.includes(`\`${folder}/\``)) ||
      (path.posix.dirname(folder) === 'src/agents' && agents.includes(`\`${folder}/\``)) ||
      rows.some((row) => row.includes(`${path.posix.dirname(folder)}/`) && row.includes(`\`${path.posix.basename(folder)}/\``));
    const missing = folders.filter((folder) => !named(folder));
    assert.deepEqual(missing, [], `folders of src/ the layout table of docs/ARCHITECTURE.md does not name: ${missing.join(', ')}`);
  });

  it('the log format and the API name every agent id the log accepts', () => {
    for (const page of ['docs/log-format.md', 'docs/api.md']) {
      const text = read(page);
      for (const id of AGENT_IDS) assert.ok(text.includes(`'${id}'`) || text.includes(`\`${id}\``), `${page} names the agent id ${id}`);
    }
  });

  describe('the log format', () => {
    const examples = read('docs/log-format.examples.jsonl').split('\n').filter((line) => line !== '');

    it('each example line is read by the log reader as it stands', () => {
      assert.ok(examples.length > 0);
      for (const line of examples) {
        const value = JSON.parse(line) as { session: string };
        const record = parseLogRecord(value, value.session);
        assert.notEqual(typeof record, 'string', `${line}\n→ ${String(record)}`);
        assert.deepEqual(record, value, `the reader keeps every field of ${line}`);
      }
    });

    it('has an example of every record type', () => {
      const types = new Set(examples.map((line) => (JSON.parse(line) as { type: string }).type));
      for (const type of [TODO_WRITE_EVENT, SESSION_INFO_EVENT, USER_REQUEST_EVENT, SESSION_LINK_EVENT, FILE_WRITE_EVENT, SNAPSHOT_EVENT, PERMISSION_ASK_EVENT, PERMISSION_ANSWER_EVENT]) assert.ok(types.has(type), `an example of ${type}`);
    });

    it('docs/log-format.md shows only lines of the examples file', () => {
      const page = read('docs/log-format.md');
      const shown = [...page.matchAll(/```json\n([\s\S]*?)```/g)].flatMap((match) => (match[1] ?? '').split('\n').map((line) => line.trim()).filter((line) => line !== ''));
      assert.ok(shown.length >= examples.length, 'the page shows the examples');
      for (const line of shown) assert.ok(examples.includes(line), `docs/log-format.md shows a line that is not in docs/log-format.examples.jsonl: ${line}`);
    });
  });

  it("the README's performance summary is the one the bench writes from docs/benchmarks.json", async () => {
    const summary = path.join(root, 'scripts', 'bench', 'readme.mjs');
    const { withReadmeSummary } = (await import(summary)) as { withReadmeSummary(readme: string, report: unknown): string | undefined };
    const readme = read('README.md');
    const report: unknown = JSON.parse(read('docs/benchmarks.json'));
    assert.equal(withReadmeSummary(readme, report), readme);
  });
});

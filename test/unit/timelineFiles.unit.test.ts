// The files each item changed: what each agent's record of a tool call says it wrote, and
// the item a write belongs to by the timeline's lanes.
import * as assert from 'node:assert/strict';
import { planEvent } from '../../src/core/logRecord';
import type { PlanItem } from '../../src/core/plan';
import { buildTimeline } from '../../src/core/timeline';
import { attributeFiles } from '../../src/core/timelineFiles';
import { filesWritten, patchFiles } from '../../src/sources/fileWrites';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { recordedLines, recording } from './agentRecordings';

const T0 = Date.UTC(2026, 11, 3, 9, 0, 0);
const SOURCE = { agent: 'codex' as const, tool: 'update_plan', session: 's', call: 'c' };
const version = (seconds: number, todos: PlanItem[]) => ({ record: planEvent('k', new Date(T0 + seconds * 1000).toISOString(), todos, SOURCE) });
const at = (seconds: number) => T0 + seconds * 1000;

describe('files an agent wrote, from its own record', () => {
  it('Claude Code: Edit, Write, MultiEdit and NotebookEdit tool_use blocks; not Read or TodoWrite', () => {
    const line = {
      type: 'assistant',
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Fixing it.' },
          { type: 'tool_use', id: 't1', name: 'Edit', input: { file_path: '/w/src/parser.ts', old_string: 'a', new_string: 'b' } },
          { type: 'tool_use', id: 't2', name: 'Write', input: { file_path: '/w/test/parser.test.ts', content: '' } },
          { type: 'tool_use', id: 't3', name: 'MultiEdit', input: { file_path: '/w/README.md', edits: [] } },
          { type: 'tool_use', id: 't4', name: 'NotebookEdit', input: { notebook_path: '/w/a.ipynb', new_source: '' } },
          { type: 'tool_use', id: 't5', name: 'Read', input: { file_path: '/w/src/other.ts' } },
          { type: 'tool_use', id: 't6', name: 'TodoWrite', input: { todos: [] } },
        ],
      },
    };
    assert.deepEqual(filesWritten('claude-code', line), [
      { path: '/w/src/parser.ts', call: 't1' },
      { path: '/w/test/parser.test.ts', call: 't2' },
      { path: '/w/README.md', call: 't3' },
      { path: '/w/a.ipynb', call: 't4' },
    ]);
    assert.deepEqual(filesWritten('claude-code', { type: 'user', message: line.message }), []);
  });

  it('Codex: the file headers of an apply_patch call, as a function call or a custom tool call', () => {
    const patch = '*** Begin Patch\n*** Update File: src/parser.ts\n@@\n-a\n+b\n*** Add File: test/parser.test.ts\n+x\n*** Update File: src/old.ts\n*** Move to: src/new.ts\n*** End Patch\n';
    assert.deepEqual(patchFiles(patch), ['src/parser.ts', 'test/parser.test.ts', 'src/old.ts', 'src/new.ts']);
    const call = { type: 'response_item', payload: { type: 'function_call', name: 'apply_patch', arguments: JSON.stringify({ input: patch }), call_id: 'call_1' } };
    assert.deepEqual(filesWritten('codex', call).map((w) => [w.path, w.call]), [
      ['src/parser.ts', 'call_1'],
      ['test/parser.test.ts', 'call_1'],
      ['src/old.ts', 'call_1'],
      ['src/new.ts', 'call_1'],
    ]);
    const custom = { type: 'response_item', payload: { type: 'custom_tool_call', name: 'apply_patch', input: patch, call_id: 'call_2' } };
    assert.equal(filesWritten('codex', custom).length, 4);
    assert.deepEqual(filesWritten('codex', { type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"ls"}' } }), []);
    assert.deepEqual(filesWritten('codex', { type: 'response_item', payload: { type: 'function_call', name: 'apply_patch', arguments: 'not json' } }), []);
  });

  it('Gemini CLI: successful write_file and replace calls only', () => {
    const line = {
      type: 'gemini',
      toolCalls: [
        { id: 'w1', name: 'write_file', args: { file_path: 'src/parser.ts', content: '' }, status: 'success' },
        { id: 'r1', name: 'replace', args: { file_path: 'src/lexer.ts', old_string: 'a', new_string: 'b' }, status: 'success' },
        { id: 'r2', name: 'replace', args: { file_path: 'src/failed.ts' }, status: 'error' },
        { id: 'f1', name: 'read_file', args: { file_path: 'src/read.ts' }, status: 'success' },
      ],
    };
    assert.deepEqual(filesWritten('gemini-cli', line), [
      { path: 'src/parser.ts', call: 'w1' },
      { path: 'src/lexer.ts', call: 'r1' },
    ]);
  });

  it('Copilot: the edit groups VS Code records in a response, each file once', () => {
    const uri = (p: string) => ({ $mid: 1, fsPath: p, external: `file://${p}`, path: p, scheme: 'file' });
    const line = {
      kind: 2,
      k: ['requests', 0, 'response'],
      v: [
        { kind: 'toolInvocationSerialized', toolId: 'copilot_replaceString' },
        { kind: 'textEditGroup', uri: uri('/w/src/theme.ts'), edits: [[{ text: 'x', range: {} }]], done: true },
        { kind: 'textEditGroup', uri: uri('/w/src/theme.ts'), edits: [], done: true },
        { kind: 'textEditGroup', uri: uri('/w/README.md'), edits: [], done: true },
      ],
    };
    assert.deepEqual(filesWritten('copilot', line), [{ path: '/w/src/theme.ts' }, { path: '/w/README.md' }]);
    assert.deepEqual(filesWritten('copilot', null), []);
  });
});

describe('files written, over the recordings of the real programs', () => {
  it('names no file where the agents only read, ran commands and wrote plans (every recorded run but the edits)', () => {
    const agents = { claude: 'claude-code', codex: 'codex', gemini: 'gemini-cli' } as const;
    let lines = 0;
    for (const [folder, agent] of Object.entries(agents)) {
      for (const scenario of fs.readdirSync(path.join(__dirname, '..', 'fixtures', 'agents', folder))) {
        if (scenario === 'edits' || !fs.statSync(path.join(__dirname, '..', 'fixtures', 'agents', folder, scenario)).isDirectory()) continue;
        const rec = recording(folder as keyof typeof agents, scenario);
        if (rec.sessionFiles.length !== 1) continue;
        for (const line of recordedLines(rec)) {
          lines++;
          assert.deepEqual(filesWritten(agent, JSON.parse(line)), [], `${folder}/${scenario}: ${line.slice(0, 120)}`);
        }
      }
    }
    const chats = path.join(__dirname, '..', 'fixtures', 'copilot-chats');
    for (const name of fs.readdirSync(chats).filter((n) => n.endsWith('.jsonl') && n !== 'edits.jsonl')) {
      for (const line of fs.readFileSync(path.join(chats, name), 'utf8').split('\n').filter((l) => l !== '')) {
        lines++;
        assert.deepEqual(filesWritten('copilot', JSON.parse(line)), [], name);
      }
    }
    assert.ok(lines > 200, `${lines} lines`);
  });

  it('Copilot: the recorded chat with edits names each edited file, as VS Code 1.139 records the groups', () => {
    const text = fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'copilot-chats', 'edits.jsonl'), 'utf8');
    const named = text
      .split('\n')
      .filter((l) => l !== '')
      .flatMap((line) => filesWritten('copilot', JSON.parse(line)).map((write) => write.path));
    assert.deepEqual(named, ['/WORKSPACE/notes.md', '/WORKSPACE/README.md', '/WORKSPACE/README.md', '/WORKSPACE/docs/CHANGES.md', '/WORKSPACE/README.md']);
  });
});

describe('files written, over the recorded edits of the real programs', () => {
  it('names the file of each edit call, with the call id, and nothing on any other line', () => {
    const cases = [
      ['claude', 'claude-code', ['src/tokens.ts', 'src/parser.ts', 'src/parser.ts']],
      ['codex', 'codex', ['src/tokens.ts', 'src/parser.ts']],
      ['gemini', 'gemini-cli', ['src/tokens.ts', 'src/parser.ts']],
    ] as const;
    for (const [folder, agent, files] of cases) {
      const rec = recording(folder, 'edits');
      // Gemini writes a message again once its calls ran: a call is named on each copy.
      const found = new Map<string, string>();
      for (const line of recordedLines(rec)) for (const write of filesWritten(agent, JSON.parse(line))) found.set(write.call ?? '', write.path);
      assert.ok(![...found.keys()].includes(''), `${folder}: every write has its call id`);
      const relative = [...found.values()].map((file) => (file.startsWith(`${rec.workspace}/`) ? file.slice(rec.workspace.length + 1) : file));
      assert.deepEqual(relative, files, folder);
    }
  });
});

describe('the item each file belongs to', () => {
  const w = (content: string): PlanItem => ({ content, status: 'in_progress' });
  const p = (content: string): PlanItem => ({ content, status: 'pending' });
  const d = (content: string): PlanItem => ({ content, status: 'completed' });
  const timeline = buildTimeline([
    version(0, [p('Read'), p('Fix'), p('Test')]),
    version(10, [w('Read'), p('Fix'), p('Test')]),
    version(20, [d('Read'), w('Fix'), w('Test')]),
    version(30, [d('Read'), d('Fix'), w('Test')]),
    version(40, [d('Read'), d('Fix'), d('Test')]),
  ]);

  it('one item in progress: its own; several: each, marked shared; none: the session', () => {
    const files = attributeFiles(timeline, [
      { time: at(5), path: 'notes.md' },
      { time: at(12), path: 'src/a.ts' },
      { time: at(25), path: 'src/b.ts' },
      { time: at(35), path: 'test/b.test.ts' },
      { time: at(36), path: 'src/b.ts' },
      { time: at(40), path: 'CHANGELOG.md' },
    ]);
    assert.deepEqual(files.items.get('Read'), [{ path: 'src/a.ts', shared: false }]);
    assert.deepEqual(files.items.get('Fix'), [{ path: 'src/b.ts', shared: true }]);
    assert.deepEqual(files.items.get('Test'), [
      { path: 'src/b.ts', shared: true },
      { path: 'test/b.test.ts', shared: false },
    ]);
    // Before any item started, and at the instant the last one was done: the session's.
    assert.deepEqual(files.session, ['notes.md', 'CHANGELOG.md']);
  });
});

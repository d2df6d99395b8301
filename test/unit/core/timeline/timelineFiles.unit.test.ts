// The files each item changed: what each agent's record of a tool call says it wrote, and
// the lane each file/write line gives them to (the items it names as in progress then).
import * as assert from 'node:assert/strict';
import { fileWriteRecord, planEvent } from '../../../../src/core/log/logRecord';
import type { PlanItem } from '../../../../src/core/plan/plan';
import { formatOnly } from '../../../../src/core/plan/present';
import { SessionLog } from '../../../../src/core/log/sessionLog';
import { buildTimeline, type TimelineLine } from '../../../../src/core/timeline/timeline';
import { collectFiles } from '../../../../src/core/timeline/timelineFiles';
import { readTimelinePage } from '../../../../src/core/timeline/timelineRead';
import { fileParts, timelineViewModel } from '../../../../src/core/timeline/timelineView';
import { nodeFileSystem } from '../../../../src/node/nodeFileSystem';
import { patchFiles } from '../../../../src/agents/fileWrites';
import { filesWritten } from '../../agentStart';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { recordedLines, recording, recordingsOf } from '../../agentRecordings';
import { useTempDir } from '../../../lib/temp';

const T0 = Date.UTC(2026, 11, 3, 9, 0, 0);
const SOURCE = { agent: 'codex' as const, tool: 'update_plan', session: 's', call: 'c' };
const iso = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();
const version = (seconds: number, todos: PlanItem[]): TimelineLine => ({ record: planEvent('k', iso(seconds), todos, SOURCE) });
const at = (seconds: number) => T0 + seconds * 1000;
let calls = 0;
/** A file/write line: the files one call wrote, and the items it names as in progress. */
const write = (seconds: number, files: string[], items: string[]): TimelineLine => ({
  record: fileWriteRecord('k', iso(seconds), { agent: 'codex', session: 's', call: `call-${++calls}` }, files, items),
});

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
  it('names no file where the agents only read, ran commands and wrote plans (every recorded run but those that edit: edits, mcp)', () => {
    const agents = { 'claude-code': 'claude-code', codex: 'codex', 'gemini-cli': 'gemini-cli' } as const;
    let lines = 0;
    for (const [folder, agent] of Object.entries(agents)) {
      const recordings = recordingsOf(folder as keyof typeof agents);
      for (const scenario of fs.readdirSync(recordings)) {
        if (scenario === 'edits' || scenario === 'mcp' || !fs.statSync(path.join(recordings, scenario)).isDirectory()) continue;
        const rec = recording(folder as keyof typeof agents, scenario);
        if (rec.sessionFiles.length !== 1) continue;
        for (const line of recordedLines(rec)) {
          lines++;
          assert.deepEqual(filesWritten(agent, JSON.parse(line)), [], `${folder}/${scenario}: ${line.slice(0, 120)}`);
        }
      }
    }
    const chats = path.join(__dirname, '..', '..', '..', 'agents', 'copilotChat', 'recordings');
    for (const name of fs.readdirSync(chats).filter((n) => n.endsWith('.jsonl') && n !== 'edits.jsonl')) {
      for (const line of fs.readFileSync(path.join(chats, name), 'utf8').split('\n').filter((l) => l !== '')) {
        lines++;
        assert.deepEqual(filesWritten('copilot', JSON.parse(line)), [], name);
      }
    }
    assert.ok(lines > 200, `${lines} lines`);
  });

  it('Copilot: the recorded chat with edits names each edited file, as VS Code 1.139 records the groups', () => {
    const text = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'agents', 'copilotChat', 'recordings', 'edits.jsonl'), 'utf8');
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
      ['claude-code', 'claude-code', ['src/tokens.ts', 'src/parser.ts', 'src/parser.ts']],
      ['codex', 'codex', ['src/tokens.ts', 'src/parser.ts']],
      ['gemini-cli', 'gemini-cli', ['src/tokens.ts', 'src/parser.ts']],
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

describe('the files each lane changed, from file/write lines', () => {
  const w = (content: string): PlanItem => ({ content, status: 'in_progress' });
  const p = (content: string): PlanItem => ({ content, status: 'pending' });
  const d = (content: string): PlanItem => ({ content, status: 'completed' });

  it('one item named: its lane’s; two: each lane’s, marked shared; none: the session’s', () => {
    const timeline = buildTimeline([
      version(0, [p('Read'), p('Fix'), p('Test')]),
      write(5, ['notes.md'], []),
      version(10, [w('Read'), p('Fix'), p('Test')]),
      write(12, ['src/a.ts'], ['Read']),
      version(20, [d('Read'), w('Fix'), w('Test')]),
      write(25, ['src/b.ts'], ['Fix', 'Test']),
      version(30, [d('Read'), d('Fix'), w('Test')]),
      write(35, ['/w/test/b.test.ts'], ['Test']),
      version(40, [d('Read'), d('Fix'), d('Test')]),
      write(41, ['CHANGELOG.md'], []),
    ]);
    const [read, fix, test] = timeline.lanes;
    assert.deepEqual(read?.files, [{ path: 'src/a.ts', shared: false }]);
    assert.deepEqual(fix?.files, [{ path: 'src/b.ts', shared: true }]);
    assert.deepEqual(test?.files, [
      { path: 'src/b.ts', shared: true },
      { path: '/w/test/b.test.ts', shared: false },
    ]);
    assert.deepEqual(read?.writes, [at(12)]);
    assert.deepEqual(test?.writes, [at(25), at(35)]);
    assert.deepEqual(timeline.sessionFiles, { files: [{ path: 'notes.md', shared: false }, { path: 'CHANGELOG.md', shared: false }], writes: [at(5), at(41)] });
    // The line's own attribution is taken as written, whatever the versions around it say.
    assert.equal(timeline.start, at(0));
    assert.equal(timeline.end, at(41));
  });

  it('lists each file once, in the order first written; a later shared write marks it shared', () => {
    const files = collectFiles(
      [
        write(1, ['b.ts', 'a.ts'], ['Fix']),
        write(2, ['a.ts', 'c.ts'], ['Fix']),
        write(3, ['b.ts'], ['Fix', 'Test', 'Fix']),
        write(4, ['a.ts'], []),
        write(5, ['a.ts'], []),
      ].map((line) => line.record as ReturnType<typeof fileWriteRecord>),
    );
    assert.deepEqual(files.items.get('Fix')?.files, [
      { path: 'b.ts', shared: true },
      { path: 'a.ts', shared: false },
      { path: 'c.ts', shared: false },
    ]);
    assert.deepEqual(files.items.get('Fix')?.writes, [at(1), at(2), at(3)], 'an item named twice in one line is one write');
    assert.deepEqual(files.items.get('Test')?.files, [{ path: 'b.ts', shared: true }]);
    assert.deepEqual(files.session.files, [{ path: 'a.ts', shared: false }]);
    assert.deepEqual(files.session.writes, [at(4), at(5)]);
  });

  it('a reworded item’s lane and a dropped item’s lane keep the files written under their old text', () => {
    const timeline = buildTimeline([
      version(0, [w('Fix the parser'), w('Update docs')]),
      write(5, ['src/parser.ts'], ['Fix the parser']),
      write(6, ['README.md'], ['Update docs']),
      // Reworded (same place, same status, new text), and the docs item dropped while open.
      version(10, [w('Fix the parser and the lexer')]),
      write(15, ['src/lexer.ts'], ['Fix the parser and the lexer']),
    ]);
    const byName = new Map(timeline.lanes.map((lane) => [lane.content, lane]));
    assert.equal(byName.get('Fix the parser')?.rewordedTo, 'Fix the parser and the lexer');
    assert.deepEqual(byName.get('Fix the parser')?.files, [{ path: 'src/parser.ts', shared: false }]);
    assert.deepEqual(byName.get('Fix the parser and the lexer')?.files, [{ path: 'src/lexer.ts', shared: false }]);
    assert.equal(byName.get('Update docs')?.dropped, true);
    assert.deepEqual(byName.get('Update docs')?.files, [{ path: 'README.md', shared: false }]);
  });

  it('a lane without writes has no files; an item no version read names gets no lane', () => {
    const timeline = buildTimeline([version(0, [w('Fix')]), write(1, ['x.ts'], ['Something older'])]);
    assert.deepEqual(timeline.lanes.map((lane) => [lane.content, lane.files]), [['Fix', []]]);
    assert.deepEqual(timeline.sessionFiles.files, []);
  });

  it('the view gives each lane its files (name, folder, shared, an accessible name) and the session’s', () => {
    const timeline = buildTimeline([
      version(0, [w('Fix'), w('Test')]),
      write(1, ['src/core/a.ts'], ['Fix']),
      write(2, ['C:\\w\\b.ts', 'top.md'], ['Fix', 'Test']),
      write(3, ['notes.md'], []),
    ]);
    const view = timelineViewModel('k'.repeat(32), timeline, 'title', false, formatOnly, String, () => '');
    assert.equal(view.session, 'k'.repeat(32));
    const fix = view.lanes[0]!;
    assert.equal(fix.filesText, '3 files');
    assert.match(fix.label, /, 3 files$/);
    assert.deepEqual(
      fix.files.map((f) => [f.name, f.folder, f.shared, f.label]),
      [
        ['a.ts', 'src/core', false, 'Open a.ts in src/core'],
        ['b.ts', 'C:\\w', true, 'Open b.ts in C:\\w, shared with another item'],
        ['top.md', '', true, 'Open top.md, shared with another item'],
      ],
    );
    assert.equal(view.lanes[1]!.filesText, '2 files');
    assert.deepEqual(view.sessionFiles.map((f) => f.path), ['notes.md']);
    assert.deepEqual(view.sessionWrites, [at(3)]);
    assert.deepEqual(fileParts('/abs/x.ts'), { name: 'x.ts', folder: '/abs' });
    assert.deepEqual(fileParts('/x.ts'), { name: 'x.ts', folder: '/' });
  });
});

describe('file/write lines read a page at a time', () => {
  const tmp = useTempDir();

  it('come with the versions of their page; one older than the page’s oldest version comes with the older page', async () => {
    const log = new SessionLog(tmp.path, nodeFileSystem);
    const key = 'ab'.repeat(16);
    const src = { agent: 'claude-code' as const, session: 's' };
    await log.append(key, [{ content: 'One', status: 'in_progress' }]);
    await log.appendWrite(key, { ...src, call: '1' }, ['one.ts'], ['One']);
    await log.append(key, [{ content: 'One', status: 'completed' }, { content: 'Two', status: 'in_progress' }]);
    await log.appendWrite(key, { ...src, call: '2' }, ['two.ts', 'one.ts'], ['Two']);
    const newest = await readTimelinePage(log, key, 1);
    assert.equal(newest.more, true);
    assert.deepEqual(newest.lines.map((l) => l.record.type), ['todo/write', 'file/write']);
    const older = await readTimelinePage(log, key, 1, newest.before);
    assert.deepEqual(older.lines.map((l) => l.record.type), ['todo/write', 'file/write']);
    const timeline = buildTimeline([...older.lines, ...newest.lines]);
    assert.deepEqual(timeline.lanes.map((lane) => [lane.content, lane.files.map((f) => f.path)]), [
      ['One', ['one.ts']],
      ['Two', ['two.ts', 'one.ts']],
    ]);
  });
});

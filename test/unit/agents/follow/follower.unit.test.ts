// The incremental follower over real files in a temp folder: new bytes only, partial
// lines, restart from the saved cursor, truncation, replacement, deletion, missing folders.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import {
  Follower,
  cursorFileName,
  nodeFollowedFileReader,
  type FollowedFileReader,
  type FollowerOptions,
  type SessionFileLocator,
} from '../../../../src/agents/follow/follower';
import { lookAt } from '../../../../src/agents/follow/followedFiles';
import { MAX_FOREIGN_LINE_BYTES } from '../../../../src/core/log/lineScan';
import { claudeCodeLocator } from '../../../../src/agents/claudeCode/locator';
import { jsonlFilesIn } from '../../../../src/agents/follow/jsonlFiles';
import { createClaudeCodeParser } from '../../../../src/agents/claudeCode';
import type { ForeignPlan, ParseOutput, SessionParser, UnknownShape } from '../../../../src/core/foreign';
import { recording } from '../../agentRecordings';
import { MemorySink } from '../../helpers';
import { useTempDir } from '../../../lib/temp';
import { sleep, waitFor } from '../../../lib/wait';

/** A tiny line format for these tests: {"call":"c1","items":["a","b"]} per line. */
function lineParser(state?: unknown): SessionParser {
  let lines = (state as { lines?: number } | undefined)?.lines ?? 0;
  return {
    push(batch: readonly string[]): ParseOutput {
      const plans: ForeignPlan[] = [];
      const unknown: UnknownShape[] = [];
      for (const text of batch) {
        lines++;
        if (text.trim() === '') continue;
        try {
          const value = JSON.parse(text) as { call: string; items: string[] };
          plans.push({
            source: { agent: 'codex', tool: 'update_plan', session: 's', call: value.call },
            items: value.items.map((content) => ({ content, status: 'pending' })),
          });
        } catch {
          unknown.push({ line: lines, detail: 'not JSON' });
        }
      }
      return { plans, unknown, info: { agent: 'codex', session: 's', title: `lines ${lines}` } };
    },
    state: () => ({ lines }),
  };
}

/** A MemorySink whose next imports can fail as a full disk does. */
class RecordingSink extends MemorySink {
  failNext = 0;
  override importPlans(plans: readonly ForeignPlan[]): Promise<void> {
    if (this.failNext > 0) {
      this.failNext--;
      return Promise.reject(new Error('ENOSPC: no space left on device'));
    }
    return super.importPlans(plans);
  }
  calls(): string[] {
    return this.plans.map((plan) => plan.source.call);
  }
}

class CountingReader implements FollowedFileReader {
  bytesRead = 0;
  opens = 0;
  looks = 0;
  look(file: string) {
    this.looks++;
    return lookAt(file);
  }
  async open(file: string) {
    this.opens++;
    const opened = await nodeFollowedFileReader.open(file);
    if (!opened) return undefined;
    return {
      identity: opened.identity,
      size: opened.size,
      modifiedMs: opened.modifiedMs,
      read: async (start: number, length: number) => {
        const bytes = await opened.read(start, length);
        this.bytesRead += bytes.length;
        return bytes;
      },
      close: () => opened.close(),
    };
  }
}

function folderLocator(folder: string): SessionFileLocator {
  return { list: () => jsonlFilesIn(folder), watchFolders: () => [folder] };
}

function line(call: string, ...items: string[]): string {
  return JSON.stringify({ call, items }) + '\n';
}

describe('follower: incremental reading', () => {
  const tmp = useTempDir();
  const followers: Follower[] = [];
  afterEach(() => {
    for (const follower of followers.splice(0)) follower.dispose();
  });

  function setup(extra: Partial<FollowerOptions> = {}) {
    const folder = path.join(tmp.path, 'agent', 'sessions');
    const cursorDir = path.join(tmp.path, 'storage', 'cursors');
    const sink = new RecordingSink();
    const reader = new CountingReader();
    const unknown: { file: string; shape: UnknownShape }[] = [];
    const errors: unknown[] = [];
    const make = (more: Partial<FollowerOptions> = {}) => {
      const follower = new Follower({
        locator: folderLocator(folder),
        createParser: (_file, state) => lineParser(state),
        parserVersion: 'test/1',
        sink,
        cursorDir,
        reader,
        pollMs: 0,
        onUnknownShape: (file, shape) => unknown.push({ file, shape }),
        onError: (error) => errors.push(error),
        ...extra,
        ...more,
      });
      followers.push(follower);
      return follower;
    };
    return { folder, cursorDir, sink, reader, unknown, errors, make };
  }

  it('hands each appended line once, reading only the bytes appended since', async () => {
    const { folder, sink, reader, make, errors } = setup();
    await fsp.mkdir(folder, { recursive: true });
    const file = path.join(folder, 'one.jsonl');
    const first = line('c1', 'a') + line('c2', 'a', 'b');
    await fsp.writeFile(file, first);
    const follower = make();
    await follower.refresh();
    assert.deepEqual(sink.calls(), ['c1', 'c2']);
    assert.deepEqual(sink.plans[1]?.items, [
      { content: 'a', status: 'pending' },
      { content: 'b', status: 'pending' },
    ]);
    assert.equal(reader.bytesRead, Buffer.byteLength(first));

    const more = line('c3', 'x');
    await fsp.appendFile(file, more);
    await follower.refresh();
    assert.deepEqual(sink.calls(), ['c1', 'c2', 'c3']);
    assert.equal(reader.bytesRead, Buffer.byteLength(first + more));

    await follower.refresh();
    assert.deepEqual(sink.calls(), ['c1', 'c2', 'c3'], 'nothing new, nothing handed');
    assert.equal(reader.bytesRead, Buffer.byteLength(first + more));
    assert.deepEqual(errors, []);
  });

  it('holds a partial last line until its newline arrives, without reading it twice', async () => {
    const { folder, sink, reader, make } = setup();
    await fsp.mkdir(folder, { recursive: true });
    const file = path.join(folder, 'one.jsonl');
    const whole = line('c1', 'ü, multi-byte', 'b');
    const cut = 9;
    await fsp.writeFile(file, whole.slice(0, cut));
    const follower = make();
    await follower.refresh();
    assert.deepEqual(sink.calls(), []);
    await fsp.appendFile(file, whole.slice(cut));
    await follower.refresh();
    assert.deepEqual(sink.calls(), ['c1']);
    assert.equal(sink.plans[0]?.items[0]?.content, 'ü, multi-byte');
    assert.equal(reader.bytesRead, Buffer.byteLength(whole));
  });

  it('follows a long line in linear work: its held chunks are joined once, not on every chunk', async () => {
    const { folder, sink, make } = setup();
    await fsp.mkdir(folder, { recursive: true });
    const file = path.join(folder, 'one.jsonl');
    // A 20 MiB line (read in 1 MiB chunks) between two short ones; a multi-byte character on a chunk border.
    const long = line('long', 'é' + 'x'.repeat(20 * 1024 * 1024 - 2) + 'ü');
    await fsp.writeFile(file, line('c1', 'a') + long + line('c2', 'b'));
    // Every byte Buffer.concat copies while following: a copy of the held line per chunk would be ~210 MiB.
    let copied = 0;
    const concat = Buffer.concat;
    Buffer.concat = ((list: readonly Uint8Array[], length?: number) => {
      const joined = concat(list, length);
      copied += joined.length;
      return joined;
    }) as typeof Buffer.concat;
    try {
      await make().refresh();
    } finally {
      Buffer.concat = concat;
    }
    assert.deepEqual(sink.calls(), ['c1', 'long', 'c2']);
    assert.equal(sink.plans[1]?.items[0]?.content.length, 20 * 1024 * 1024 - 2 + 2);
    assert.ok(copied <= Buffer.byteLength(long), `copied ${copied} bytes to follow a line of ${Buffer.byteLength(long)}`);
  });

  it('passes over a line longer than the bound without holding it, reports it once, and goes on', async () => {
    const { folder, sink, make, unknown, cursorDir } = setup();
    await fsp.mkdir(folder, { recursive: true });
    const file = path.join(folder, 'one.jsonl');
    const handle = await fsp.open(file, 'w');
    await handle.write(line('c1', 'a'));
    const mib = Buffer.alloc(1024 * 1024, 0x78);
    for (let i = 0; i <= MAX_FOREIGN_LINE_BYTES / mib.length; i++) await handle.write(mib);
    await handle.write('\n' + line('c2', 'b'));
    await handle.close();
    const follower = make();
    await follower.refresh();
    await follower.refresh();
    assert.deepEqual(sink.calls(), ['c1', 'c2']);
    assert.deepEqual(unknown.map((u) => u.shape), [{ line: 2, detail: `line longer than ${MAX_FOREIGN_LINE_BYTES} bytes` }]);
    const cursor = JSON.parse(await fsp.readFile(path.join(cursorDir, cursorFileName(file)), 'utf8')) as { offset: number; lines: number };
    assert.deepEqual([cursor.offset, cursor.lines], [(await fsp.stat(file)).size, 3]);
  });

  it('resumes after a restart from the saved cursor: only new bytes are read', async () => {
    const { folder, cursorDir, sink, reader, make } = setup();
    await fsp.mkdir(folder, { recursive: true });
    const file = path.join(folder, 'one.jsonl');
    const first = line('c1', 'a') + line('c2', 'b');
    await fsp.writeFile(file, first);
    const before = make();
    await before.refresh();
    before.dispose();

    const later = line('c3', 'c') + line('c4', 'd');
    await fsp.appendFile(file, later);
    reader.bytesRead = 0;
    const after = make();
    await after.refresh();
    assert.deepEqual(sink.calls(), ['c1', 'c2', 'c3', 'c4']);
    assert.equal(reader.bytesRead, Buffer.byteLength(later));
    // The parser resumed from its saved state too: it counts lines across the restart.
    assert.equal(sink.infos.at(-1)?.title, 'lines 4');

    const names = await fsp.readdir(cursorDir);
    assert.deepEqual(names, [cursorFileName(file)]);
    assert.match(names[0] ?? '', /^[0-9a-f]{32}\.json$/, 'named by a hash, never by the raw path');
  });

  it('reads a file again from the start after another parser version wrote its cursor', async () => {
    const { folder, sink, reader, make } = setup();
    await fsp.mkdir(folder, { recursive: true });
    const text = line('c1', 'a');
    await fsp.writeFile(path.join(folder, 'one.jsonl'), text);
    const first = make();
    await first.refresh();
    first.dispose();
    const second = make({ parserVersion: 'test/2' });
    await second.refresh();
    assert.deepEqual(sink.calls(), ['c1', 'c1']);
    assert.equal(reader.bytesRead, 2 * Buffer.byteLength(text));
  });

  it('starts over when the file is truncated', async () => {
    const { folder, sink, make } = setup();
    await fsp.mkdir(folder, { recursive: true });
    const file = path.join(folder, 'one.jsonl');
    await fsp.writeFile(file, line('c1', 'a') + line('c2', 'b'));
    const follower = make();
    await follower.refresh();
    await fsp.truncate(file, 0);
    await fsp.appendFile(file, line('n1', 'new'));
    await follower.refresh();
    assert.deepEqual(sink.calls(), ['c1', 'c2', 'n1']);
    assert.equal(sink.infos.at(-1)?.title, 'lines 1', 'a fresh parser for the new content');
  });

  it('starts over when the file is replaced by another one (new inode), even if longer', async () => {
    const { folder, sink, make } = setup();
    await fsp.mkdir(folder, { recursive: true });
    const file = path.join(folder, 'one.jsonl');
    await fsp.writeFile(file, line('c1', 'a'));
    const follower = make();
    await follower.refresh();
    const replacement = path.join(folder, 'one.tmp');
    await fsp.writeFile(replacement, line('r1', 'x') + line('r2', 'y') + line('r3', 'z'));
    await fsp.rename(replacement, file);
    await follower.refresh();
    assert.deepEqual(sink.calls(), ['c1', 'r1', 'r2', 'r3']);
  });

  it('survives a file disappearing, forgets its cursor, and reads it anew if it comes back', async () => {
    const { folder, cursorDir, sink, make, errors } = setup();
    await fsp.mkdir(folder, { recursive: true });
    const file = path.join(folder, 'one.jsonl');
    await fsp.writeFile(file, line('c1', 'a'));
    const follower = make();
    await follower.refresh();
    assert.deepEqual(follower.followedFiles(), [file]);
    await fsp.rm(file);
    await follower.refresh();
    assert.deepEqual(follower.followedFiles(), []);
    assert.deepEqual(await fsp.readdir(cursorDir), []);
    await fsp.writeFile(file, line('c1', 'a'));
    await follower.refresh();
    assert.deepEqual(sink.calls(), ['c1', 'c1'], 'handed again; the sink recognizes it');
    assert.deepEqual(errors, []);
  });

  it('costs nothing while the folder is missing and notices it once it is created (watching a parent)', async () => {
    const { folder, sink, make, errors } = setup();
    const follower = make();
    follower.start();
    await follower.refresh();
    assert.deepEqual(sink.calls(), []);
    assert.deepEqual(errors, []);
    // No refresh from here on: only the watch on the nearest existing parent can bring it in.
    await fsp.mkdir(folder, { recursive: true });
    await fsp.writeFile(path.join(folder, 'late.jsonl'), line('c1', 'a'));
    await waitFor(() => sink.calls().length === 1, 'the new file is read', 10_000, 20);
    await fsp.appendFile(path.join(folder, 'late.jsonl'), line('c2', 'b'));
    await waitFor(() => sink.calls().length === 2, 'the append is read', 10_000, 20);
    assert.deepEqual(sink.calls(), ['c1', 'c2']);
  });

  it('does not miss a file written while a scan was listing (the folder appeared meanwhile)', async () => {
    const { folder, sink, make } = setup();
    let created = false;
    // The agent creates its folder and writes its file just after the listing looked.
    const racing: SessionFileLocator = {
      list: async () => {
        const found = await jsonlFilesIn(folder);
        if (!created) {
          created = true;
          await fsp.mkdir(folder, { recursive: true });
          await fsp.writeFile(path.join(folder, 'raced.jsonl'), line('c1', 'a'));
        }
        return found;
      },
      watchFolders: () => [folder],
    };
    const follower = make({ locator: racing });
    await follower.refresh();
    assert.deepEqual(sink.calls(), ['c1']);
  });

  it('finds appends through the slow poll when watching does not report them', async () => {
    const { folder, sink, make } = setup();
    await fsp.mkdir(folder, { recursive: true });
    const file = path.join(folder, 'one.jsonl');
    await fsp.writeFile(file, line('c1', 'a'));
    // A locator that names no folder to watch, on a file system said to drop events: only the poll can find the append.
    const follower = make({ locator: { list: () => jsonlFilesIn(folder), watchFolders: () => [] }, pollMs: 50, pollReason: 'events do not arrive here' });
    follower.start();
    await waitFor(() => sink.calls().length === 1, 'the first line is read', 10_000, 20);
    await fsp.appendFile(file, line('c2', 'b'));
    await waitFor(() => sink.calls().length === 2, 'the poll reads the append', 10_000, 20);
  });

  it('idle is idle while events arrive: no file is opened or stat-ed on a timer, and an append still shows', async () => {
    const { folder, sink, reader, make } = setup();
    await fsp.mkdir(folder, { recursive: true });
    const file = path.join(folder, 'one.jsonl');
    await fsp.writeFile(file, line('c1', 'a'));
    const follower = make({ pollMs: 20 });
    follower.start();
    await waitFor(() => sink.calls().length === 1, 'the first line is read', 10_000, 20);
    await sleep(100);
    const before = { opens: reader.opens, looks: reader.looks };
    // Twenty-five intervals of the old slow poll, with nothing happening.
    await sleep(500);
    assert.deepEqual({ opens: reader.opens, looks: reader.looks }, before, 'nothing touched while idle');
    await fsp.appendFile(file, line('c2', 'b'));
    await waitFor(() => sink.calls().length === 2, 'the watch event reads the append', 10_000, 20);
  });

  it('a scan of the whole folder opens only the files whose size or time changed; Refresh opens them all', async () => {
    const { folder, sink, reader, make } = setup();
    await fsp.mkdir(folder, { recursive: true });
    for (const name of ['a', 'b', 'c']) await fsp.writeFile(path.join(folder, `${name}.jsonl`), line(`${name}1`, name));
    const follower = make();
    await follower.refresh();
    assert.equal(reader.opens, 3);
    await fsp.appendFile(path.join(folder, 'b.jsonl'), line('b2', 'b'));
    // A change that names no file (as an event without a name does): one stat each, one open.
    follower.start();
    await waitFor(() => sink.calls().includes('b2'), 'the append is read', 10_000, 20);
    assert.equal(reader.opens, 4, 'only the changed file was opened');
    assert.ok(reader.looks >= 2, 'the unchanged files were looked at with a stat');
    await follower.refresh();
    assert.equal(reader.opens, 7, 'Refresh opens every file');
  });

  it('where events do not arrive, the poll backs off while nothing changes and speeds up after a change', async () => {
    const { folder, sink, reader, make } = setup();
    await fsp.mkdir(folder, { recursive: true });
    const file = path.join(folder, 'one.jsonl');
    await fsp.writeFile(file, line('c1', 'a'));
    const polling: string[] = [];
    const follower = make({ pollMs: 20, maxPollMs: 160, throttleMs: 5, pollReason: 'a test file system', onPolling: (reason) => polling.push(reason) });
    follower.start();
    await waitFor(() => sink.calls().length === 1, 'the first line is read', 10_000, 20);
    assert.equal(polling.length, 1);
    assert.match(polling[0] ?? '', /^polling every 0\.02 s, backing off to 0\.16 s while nothing changes: a test file system$/);
    // Quiet: 20, 40, 80, 160, 160 … ms apart, so far fewer polls than 1 s / 20 ms.
    const start = reader.looks;
    await sleep(1000);
    const quiet = reader.looks - start;
    assert.ok(quiet >= 3 && quiet <= 12, `${quiet} polls in a quiet second`);
    await fsp.appendFile(file, line('c2', 'b'));
    await waitFor(() => sink.calls().length === 2, 'the poll reads the append', 2000, 20);
  });

  it('keeps the cursor where it was when the sink fails, and delivers on the next scan', async () => {
    const { folder, cursorDir, sink, make, errors } = setup();
    await fsp.mkdir(folder, { recursive: true });
    const file = path.join(folder, 'one.jsonl');
    await fsp.writeFile(file, line('c1', 'a'));
    const follower = make();
    await follower.refresh();
    await fsp.appendFile(file, line('c2', 'b'));
    sink.failNext = 1;
    await follower.refresh();
    assert.equal(errors.length, 1);
    assert.deepEqual(sink.calls(), ['c1']);
    const saved = JSON.parse(await fsp.readFile(path.join(cursorDir, cursorFileName(file)), 'utf8')) as { offset: number };
    assert.equal(saved.offset, Buffer.byteLength(line('c1', 'a')), 'the cursor did not pass the undelivered line');
    await follower.refresh();
    assert.deepEqual(sink.calls(), ['c1', 'c2']);
  });

  it('reports a sink failure once while it repeats (a busy session lock), delivers when it ends, and reports the next one again', async () => {
    const { folder, sink, make, errors } = setup();
    await fsp.mkdir(folder, { recursive: true });
    const file = path.join(folder, 'one.jsonl');
    await fsp.writeFile(file, line('c1', 'a'));
    const follower = make();
    sink.failNext = 3;
    for (let pass = 0; pass < 3; pass++) await follower.refresh();
    assert.equal(errors.length, 1, 'one report for three failed passes');
    assert.deepEqual(sink.calls(), []);
    await follower.refresh();
    assert.deepEqual(sink.calls(), ['c1']);
    await fsp.appendFile(file, line('c2', 'b'));
    sink.failNext = 1;
    await follower.refresh();
    assert.equal(errors.length, 2, 'a failure after a success is reported');
    await follower.refresh();
    assert.deepEqual(sink.calls(), ['c1', 'c2']);
  });

  it('reports a file it may not read once, not on every scan, and still reads the others', async () => {
    const { folder, sink, errors, make } = setup();
    await fsp.mkdir(folder, { recursive: true });
    const locked = path.join(folder, 'locked.jsonl');
    await fsp.writeFile(locked, line('l1', 'a'));
    await fsp.writeFile(path.join(folder, 'open.jsonl'), line('o1', 'b'));
    const denying: FollowedFileReader = {
      open: (file) =>
        file === locked
          ? Promise.reject(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' }))
          : nodeFollowedFileReader.open(file),
    };
    const follower = make({ reader: denying });
    await follower.refresh();
    await follower.refresh();
    await follower.refresh();
    assert.deepEqual(sink.calls(), ['o1']);
    assert.equal(errors.length, 1);
  });

  it('passes on what the parser did not recognize, with the file, and goes on', async () => {
    const { folder, sink, unknown, make } = setup();
    await fsp.mkdir(folder, { recursive: true });
    const file = path.join(folder, 'one.jsonl');
    await fsp.writeFile(file, line('c1', 'a') + 'not json\n' + line('c2', 'b'));
    const follower = make();
    await follower.refresh();
    assert.deepEqual(sink.calls(), ['c1', 'c2']);
    assert.deepEqual(unknown, [{ file, shape: { line: 2, detail: 'not JSON' } }]);
  });

  it('hands session info only when it changed, also across a restart', async () => {
    const { folder, sink, make } = setup();
    await fsp.mkdir(folder, { recursive: true });
    const file = path.join(folder, 'one.jsonl');
    await fsp.writeFile(file, line('c1', 'a'));
    const first = make();
    await first.refresh();
    await first.refresh();
    first.dispose();
    await make().refresh();
    assert.deepEqual(
      sink.infos.map((info) => info.title),
      ['lines 1'],
    );
  });

  it('reads nothing and hands nothing after dispose', async () => {
    const { folder, sink, reader, make } = setup();
    await fsp.mkdir(folder, { recursive: true });
    const file = path.join(folder, 'one.jsonl');
    await fsp.writeFile(file, line('c1', 'a'));
    const follower = make({ pollMs: 20 });
    follower.start();
    await waitFor(() => sink.calls().length === 1, 'the first line is read', 10_000, 20);
    follower.dispose();
    const readBefore = reader.bytesRead;
    await fsp.appendFile(file, line('c2', 'b'));
    await follower.refresh();
    await sleep(100);
    assert.deepEqual(sink.calls(), ['c1']);
    assert.equal(reader.bytesRead, readBefore);
  });

  it('never writes into the followed folder', async () => {
    const { folder, make } = setup();
    await fsp.mkdir(folder, { recursive: true });
    await fsp.writeFile(path.join(folder, 'one.jsonl'), line('c1', 'a'));
    await make().refresh();
    assert.deepEqual(fs.readdirSync(folder), ['one.jsonl']);
  });

  it('follows a recorded Claude Code transcript written in bursts, across a restart, as if read at once', async () => {
    const rec = recording('claude-code', 'tasks');
    const source = rec.sessionFiles[0] ?? '';
    const bytes = await fsp.readFile(source);
    const expected = createClaudeCodeParser({ workspaceFolders: [rec.workspace] }).push(bytes.toString('utf8').split('\n').slice(0, -1)).plans;
    // The same relative layout under a scratch .claude: <claudeDir>/projects/<folder>/<session>.jsonl.
    const claudeDir = path.join(tmp.path, '.claude');
    const target = path.join(claudeDir, path.relative(rec.agentDir, source));
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const { sink, reader, make } = setup({
      locator: claudeCodeLocator(claudeDir, [rec.workspace]),
      createParser: (_file, state) => createClaudeCodeParser({ workspaceFolders: [rec.workspace] }, state),
    });
    // Cut points that split lines, and one multi-byte character, on purpose.
    const cuts = [0, 1000, 1001, 50_000, 123_457, 200_000, 310_000, bytes.length];
    let follower = make();
    for (let i = 1; i < cuts.length; i++) {
      await fsp.appendFile(target, bytes.subarray(cuts[i - 1], cuts[i]));
      if (i === 4) {
        follower.dispose();
        follower = make();
      }
      await follower.refresh();
    }
    assert.deepEqual(sink.plans, expected);
    assert.equal(expected.length, 8);
    // Every byte read once, plus at most the partial line that was pending at the restart.
    const held = bytes.subarray(0, cuts[3]).length - (bytes.subarray(0, cuts[3]).lastIndexOf(0x0a) + 1);
    assert.equal(reader.bytesRead, bytes.length + held);
  });
});

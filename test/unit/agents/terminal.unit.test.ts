// The three terminal-agent followers end to end over the recorded agent folders, read where
// they lie (read-only): each run's plans reach the sink once, and a restart hands nothing again.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultAgentFolders, startTerminalFollower } from '../agentStart';

type TerminalAgent = 'claude-code' | 'codex' | 'gemini-cli';
const TERMINAL_AGENTS: TerminalAgent[] = ['claude-code', 'codex', 'gemini-cli'];
import { recording, recordingsOf } from '../agentRecordings';
import { MemorySink } from '../helpers';
import { useTempDir } from '../../lib/temp';


function snapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else out.push(`${path.relative(dir, full)} ${fs.statSync(full).size} ${fs.statSync(full).mtimeMs}`);
    }
  };
  walk(dir);
  return out.sort();
}

const cases: [TerminalAgent, 'claude-code' | 'codex' | 'gemini-cli', string, number][] = [
  ['claude-code', 'claude-code', 'tasks', 8],
  ['claude-code', 'claude-code', 'todowrite', 2],
  ['claude-code', 'claude-code', 'no-plan', 0],
  ['codex', 'codex', 'update-plan', 2],
  ['codex', 'codex', 'no-plan', 0],
  ['gemini-cli', 'gemini-cli', 'write-todos', 2],
  ['gemini-cli', 'gemini-cli', 'no-plan', 0],
];

describe('terminal followers over the recorded agent folders', () => {
  const tmp = useTempDir();

  for (const [agent, folder, scenario, count] of cases) {
    it(`${folder}/${scenario}: ${count} plans once, the session's info, nothing again after a restart`, async () => {
      const rec = recording(folder, scenario);
      const before = snapshot(recordingsOf(folder));
      const sink = new MemorySink();
      const errors: unknown[] = [];
      const unknown: unknown[] = [];
      const start = () =>
        startTerminalFollower({
          agent,
          folder: rec.agentDir,
          workspaceFolders: [rec.workspace],
          storageDir: tmp.path,
          sink,
          pollMs: 0,
          onError: (error) => errors.push(error),
          onUnknownShape: (_file, shape) => unknown.push(shape),
        });
      const first = start();
      await first.refresh();
      first.dispose();
      assert.equal(sink.plans.length, count);
      assert.ok(sink.plans.every((plan) => plan.source.agent === agent));
      assert.deepEqual(sink.infos.map((info) => [info.agent, info.cwd]), [[agent, rec.workspace]]);
      const second = start();
      await second.refresh();
      second.dispose();
      assert.equal(sink.plans.length, count, 'a restart hands nothing twice');
      assert.equal(sink.infos.length, 1);
      assert.deepEqual(errors, []);
      assert.deepEqual(unknown, []);
      assert.deepEqual(snapshot(recordingsOf(folder)), before, 'nothing written into the agent folders');
    });
  }

  it('another workspace sees none of the recorded sessions', async () => {
    for (const [agent, folder, scenario] of cases) {
      const sink = new MemorySink();
      const follower = startTerminalFollower({
        agent, folder: recording(folder, scenario).agentDir, workspaceFolders: ['/tmp/not-recorded'],
        storageDir: tmp.path, sink, pollMs: 0,
      });
      await follower.refresh();
      follower.dispose();
      assert.deepEqual([sink.plans, sink.infos], [[], []], `${folder}/${scenario}`);
    }
  });

  it('default folders: ~/.claude, $CODEX_HOME or ~/.codex, ~/.gemini', () => {
    assert.deepEqual(defaultAgentFolders(TERMINAL_AGENTS, {}, '/home/u'), {
      'claude-code': '/home/u/.claude', codex: '/home/u/.codex', 'gemini-cli': '/home/u/.gemini',
    });
    assert.equal(defaultAgentFolders(TERMINAL_AGENTS, { CODEX_HOME: '/opt/codex' }, '/home/u')['codex'], '/opt/codex');
  });
});

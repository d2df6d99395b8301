// The real agents, run now, offline: each scenario once in a scratch HOME and
// workspace inside a network namespace with only loopback. Each must exit cleanly,
// write one session for the workspace holding exactly the scripted calls, and leave
// no process behind. Needs root (unshare -n); without it this file says it skipped.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cannotRunReason, endedAsPlanned, runScenario } from '../../scripts/agents/run.mjs';
import { SCENARIOS } from '../../scripts/agents/scenarios.mjs';
import { recordedCalls, recordedWorkspaces, scriptedCalls, sessionFiles } from './calls.mjs';

const reason = cannotRunReason();

if (reason) {
  console.log(`\n  SKIPPED: the real terminal agents were not run: ${reason}.\n`);
} else {
  describe('real agents, offline', function () {
    let root = '';
    before(() => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-plan-agents-test-'));
    });
    after(() => {
      fs.rmSync(root, { recursive: true, force: true });
    });

    it('the namespace they run in has no interface but loopback', () => {
      const out = spawnSync('unshare', ['-n', 'sh', '-c', 'ip link set lo up && ip -o link show'], { encoding: 'utf8' });
      assert.equal(out.status, 0, out.stderr);
      const names = out.stdout.trim().split('\n').map((l) => l.split(':')[1].trim());
      assert.deepEqual(names, ['lo']);
    });

    for (const scenario of SCENARIOS) {
      it(`${scenario.id}: writes one session of this workspace with the scripted calls`, async () => {
        const run = await runScenario(scenario.id, { root });
        assert.equal(run.result.timedOut, false);
        // Exit 0, or (a run left at its prompt) killed at its planned time with the planned signal.
        assert.ok(endedAsPlanned(scenario, run.result), `${JSON.stringify(run.result)}\n${fs.readFileSync(path.join(run.dirs.run, 'stderr.txt'), 'utf8').slice(-2000)}`);
        const sessions = sessionFiles(scenario.agent, run.dirs);
        assert.equal(sessions.length, 1, sessions.join(', '));
        assert.deepEqual(recordedCalls(scenario.agent, sessions[0]), scriptedCalls(scenario.script, run.dirs.workspace));
        assert.deepEqual(recordedWorkspaces(scenario.agent, sessions[0], run.dirs), [run.dirs.workspace]);
        assert.ok(run.result.requests > 0, 'the agent called the scripted model');
        // An interactive run waited for the agent's own prompt, and an approved call ran: the
        // model heard its result and answered the turn's end.
        const prompts = (scenario.tty?.keys ?? []).filter((key) => key.screen !== undefined);
        assert.deepEqual(run.result.promptSeen, prompts.map(() => true), `the prompt${prompts.map((key) => ` "${key.screen}"`).join()} on the agent's screen`);
        if (scenario.tty?.untilAnswered) assert.equal(run.result.lastTurnAnswered, true, 'the model answered the approved call\'s result');
        if (scenario.name === 'edits') {
          // The edit tools really wrote: the new file, and the parser changed to use it.
          assert.equal(fs.readFileSync(path.join(run.dirs.workspace, 'src', 'tokens.ts'), 'utf8'), 'export const SEPARATOR = /\\s+/;\n');
          assert.match(fs.readFileSync(path.join(run.dirs.workspace, 'src', 'parser.ts'), 'utf8'), /input\.split\(SEPARATOR\)/);
        }
        // Nothing of the run is still alive: no process has the run folder as its cwd.
        const left = fs.readdirSync('/proc').filter((pid) => /^\d+$/.test(pid)).filter((pid) => {
          try {
            return fs.readlinkSync(`/proc/${pid}/cwd`).startsWith(run.dirs.base);
          } catch {
            return false;
          }
        });
        assert.deepEqual(left, []);
      });
    }
  });
}

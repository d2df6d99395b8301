// The committed recordings agree with how they were made: every file meta.json lists
// is there at its size, the session file holds exactly the calls the script played,
// in order, and it names the workspace the agent ran in.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RECIPES, recordingsOf } from '../../scripts/agents/recipes.mjs';
import { resolveScript, SCENARIOS } from '../../scripts/agents/scenarios.mjs';
import { versionOf } from '../../scripts/agents/install.mjs';
import { recordedCalls, recordedWorkspaces, scriptedCalls, sessionFiles, subagentFiles } from './calls.mjs';

describe('recorded agent sessions', () => {
  it('there is one recording per scenario, and no other', () => {
    // Each recipe's recordings (test/agents/<agent>/recordings/), one folder per scenario.
    const folders = Object.keys(RECIPES)
      .flatMap((agent) => fs.readdirSync(recordingsOf(agent)).map((s) => `${agent}/${s}`))
      .sort();
    assert.deepEqual(folders, SCENARIOS.map((s) => s.id).sort());
  });

  for (const scenario of SCENARIOS) {
    describe(scenario.id, () => {
      const dir = path.join(recordingsOf(scenario.agent), scenario.name);
      const meta = () => JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8'));
      const homes = () => ({ home: path.join(dir, 'home'), codexHome: path.join(dir, 'codex-home') });

      it("was made by the pinned version, with its scenario's script (its agent's scenarios.mjs)", () => {
        assert.equal(meta().version, versionOf(scenario));
        assert.deepEqual(meta().script, scenario.script);
      });

      it('has every file meta.json lists, at its size', () => {
        const files = meta().files;
        assert.ok(files.length > 0);
        for (const f of files) assert.equal(fs.statSync(path.join(dir, f.path)).size, f.bytes, f.path);
      });

      it('holds one session whose calls are the scripted calls, in order', () => {
        const sessions = sessionFiles(scenario.agent, homes());
        assert.equal(sessions.length, 1, sessions.join(', '));
        assert.deepEqual(recordedCalls(scenario.agent, sessions[0]), scriptedCalls(scenario.script, meta().workspace));
      });

      if (!Array.isArray(scenario.script)) {
        it("its subagent wrote its own transcript, with the subagent script's calls", () => {
          const [session] = sessionFiles(scenario.agent, homes());
          const subagents = subagentFiles(scenario.agent, session);
          assert.equal(subagents.length, 1, subagents.join(', '));
          assert.deepEqual(recordedCalls(scenario.agent, subagents[0]), resolveScript(scenario.script.subagent, meta().workspace).flatMap((turn) => turn.calls ?? []));
        });
      }

      it('names the workspace the agent ran in', () => {
        const [session] = sessionFiles(scenario.agent, homes());
        assert.deepEqual(recordedWorkspaces(scenario.agent, session, homes()), [meta().workspace]);
      });
    });
  }
});

// Runs last in the main phase: records every session's plan, as the logs on disk
// hold it, for the restart phase to find again.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { api, logFiles, runDir } from './helpers';

describe('before the restart', () => {
  it('the API lists exactly the sessions whose logs are on disk, with their last lines', async () => {
    const plan = await api();
    const sessions = plan.listSessions();
    const files = logFiles(plan.logFolder);
    assert.ok(sessions.length >= 2, 'earlier tests left sessions');
    assert.deepEqual(sessions.map((s) => `${s.session}.jsonl`).sort(), files);
    for (const snapshot of sessions) {
      const lines = fs.readFileSync(plan.logFile(snapshot.session), 'utf8').trimEnd().split('\n');
      assert.deepEqual(JSON.parse(lines[lines.length - 1]!).todos, snapshot.todos);
    }
    // With every version count, so the restart phase can tell that no source imported anything twice.
    const expected = await Promise.all(sessions.map(async ({ session, todos }) => ({ session, todos, versions: (await plan.getHistory(session)).length })));
    fs.writeFileSync(path.join(runDir(), 'expected-after-restart.json'), JSON.stringify(expected));
  });
});

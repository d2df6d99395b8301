// Runs last in the main phase: records every session's plan, as the logs on disk
// hold it, for the restart phase to find again.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { api, logFiles, planLines, runDir } from './helpers';

describe('before the restart', () => {
  it('the API lists exactly the sessions whose logs are on disk, with their last lines', async () => {
    const plan = await api();
    const sessions = plan.listSessions();
    const files = logFiles(plan.logFolder);
    assert.ok(sessions.length >= 2, 'earlier tests left sessions');
    assert.deepEqual(sessions.map((s) => `${s.session}.jsonl`).sort(), files);
    for (const snapshot of sessions) {
      // The current plan is the last plan line that no later todo_write superseded (session/info lines are not plans).
      const current = planLines(plan.logFile(snapshot.session))
        .map((line) => JSON.parse(line) as { todos: unknown; source?: { superseded?: boolean } })
        .filter((event) => event.source?.superseded !== true);
      assert.deepEqual(current[current.length - 1]?.todos, snapshot.todos);
    }
    // With every version count, so the restart phase can tell that no source imported anything twice.
    const expected = await Promise.all(sessions.map(async ({ session, todos }) => ({ session, todos, versions: (await plan.getHistory(session)).length })));
    fs.writeFileSync(path.join(runDir(), 'expected-after-restart.json'), JSON.stringify(expected));
  });
});

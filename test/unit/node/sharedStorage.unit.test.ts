// Every window of a workspace keeps its logs in the workspace's own storage folder, also
// the second one, which VS Code gives a `<id>-1` folder.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sharedWorkspaceStorage } from '../../../src/node/sharedStorage';
import { useTempDir } from '../../lib/temp';

describe('shared workspace storage', () => {
  const tmp = useTempDir();

  it("a second host's <id>-n folder is moved to the workspace's own <id> folder", () => {
    fs.mkdirSync(path.join(tmp.path, '-40af47c6'));
    const own = path.join(tmp.path, '-40af47c6', 'agent-plan.agent-plan');
    assert.equal(sharedWorkspaceStorage(path.join(tmp.path, '-40af47c6-1', 'agent-plan.agent-plan')), own);
    assert.equal(sharedWorkspaceStorage(path.join(tmp.path, '-40af47c6-9', 'agent-plan.agent-plan')), own);
    assert.equal(sharedWorkspaceStorage(own), own);
  });

  it('anything else stays as VS Code gave it: no such sibling, a two-digit suffix, a file, a plain hash', () => {
    for (const folder of ['abc123-1', '-40af47c6-10', 'a1b2c3d4e5f6']) {
      const given = path.join(tmp.path, folder, 'agent-plan.agent-plan');
      assert.equal(sharedWorkspaceStorage(given), given);
    }
    fs.writeFileSync(path.join(tmp.path, 'file'), '');
    const beside = path.join(tmp.path, 'file-1', 'agent-plan.agent-plan');
    assert.equal(sharedWorkspaceStorage(beside), beside);
  });
});

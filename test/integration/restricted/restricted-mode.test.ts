// Restricted Mode: a window on a folder that is not trusted (workspace trust on, never
// granted). The repository's own `.vscode/settings.json` names an extra folder; Agent Plan
// must not follow it, while the same folder named in the user's settings is followed. Both
// are checked with a real Claude Code transcript (a recording, test/agents/claudeCode/recordings/)
// placed for that folder, and a control transcript for the workspace folder itself.
import * as assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, runDir } from '../helpers';
import { waitFor } from '../../lib/wait';

const RECORDING = path.resolve(__dirname, '..', '..', '..', '..', 'test', 'agents', 'claudeCode', 'recordings', 'todowrite');

/** A copy of the recorded Claude Code session, as if it had run in `folder`; its session key. */
function placeTranscript(folder: string): string {
  const meta = JSON.parse(fs.readFileSync(path.join(RECORDING, 'meta.json'), 'utf8')) as { workspace: string };
  const projects = path.join(RECORDING, 'home', '.claude', 'projects');
  const [project] = fs.readdirSync(projects);
  const [file] = fs.readdirSync(path.join(projects, project!));
  const recordedId = path.basename(file!, '.jsonl');
  const id = randomUUID();
  const text = fs.readFileSync(path.join(projects, project!, file!), 'utf8').split(meta.workspace).join(folder).split(recordedId).join(id);
  const target = path.join(os.homedir(), '.claude', 'projects', folder.replace(/[^a-zA-Z0-9]/g, '-'));
  fs.mkdirSync(target, { recursive: true });
  fs.writeFileSync(path.join(target, `${id}.jsonl`), text);
  return createHash('sha256').update(`claude-code:${id}`, 'utf8').digest('hex').slice(0, 32);
}

describe('Restricted Mode', function () {
  this.timeout(120_000);
  const settingsFile = (): string => path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.vscode', 'settings.json');

  after(async () => {
    await vscode.workspace.getConfiguration().update('agentPlan.extraFolders', undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(settingsFile(), { force: true });
  });

  it('the window is in Restricted Mode', () => {
    assert.equal(vscode.workspace.isTrusted, false);
  });

  it('extraFolders in the workspace settings is not followed; the same folder in the user settings is', async () => {
    const plan = await api();
    const workspace = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const extra = path.join(runDir(), 'restricted-extra');
    fs.mkdirSync(extra, { recursive: true });
    const inExtra = placeTranscript(extra);
    const inWorkspace = placeTranscript(workspace);
    fs.mkdirSync(path.dirname(settingsFile()), { recursive: true });
    // With a setting that is not restricted beside it: once that one is read, VS Code has read the file.
    fs.writeFileSync(settingsFile(), JSON.stringify({ 'agentPlan.extraFolders': [extra], 'agentPlan.health.waitSeconds': 31 }, null, 2));
    await waitFor(() => vscode.workspace.getConfiguration().inspect('agentPlan.health.waitSeconds')?.workspaceValue === 31, 'the workspace settings read');
    assert.notDeepEqual(vscode.workspace.getConfiguration().get('agentPlan.extraFolders'), [extra], 'VS Code does not apply a restricted setting of the workspace');
    // Refresh resolves once every follower has read its files: the control shows it read them.
    await vscode.commands.executeCommand('agentPlan.refresh');
    await waitFor(() => plan.listSessions().some((s) => s.session === inWorkspace), 'the workspace folder’s session (the control)', 30_000);
    await vscode.commands.executeCommand('agentPlan.refresh');
    assert.ok(!plan.listSessions().some((s) => s.session === inExtra), 'the session of the folder named by the workspace settings is not followed');
    // The user's own setting counts in Restricted Mode.
    await vscode.workspace.getConfiguration().update('agentPlan.extraFolders', [extra], vscode.ConfigurationTarget.Global);
    await waitFor(() => plan.listSessions().some((s) => s.session === inExtra), 'the extra folder’s session, named in the user settings', 30_000);
  });
});

// The Plan Timeline after the window reloads: the panels open before come back, on the
// same session, drawn again from the log; one whose session was deleted says so.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, bridge, runDir } from '../helpers';
import { waitFor } from '../../lib/wait';

const frameAttribute = (selector: string, name: string) => bridge<Array<string | null>>({ op: 'frameAttributes', selector, name });

describe('the Plan Timeline after a reload', () => {
  it('comes back on the session it showed, with its lanes and files; a session deleted since shows a message', async () => {
    const { key, gone } = JSON.parse(fs.readFileSync(path.join(runDir(), 'timeline-before-restart.json'), 'utf8')) as { key: string; gone: string };
    const plan = await api();
    assert.ok(plan.listSessions().some((s) => s.session === key));
    assert.ok(!fs.existsSync(path.join(plan.logFolder, `${gone}.jsonl`)));
    const timelines = () =>
      vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('agentPlan.timeline'));
    await waitFor(() => timelines().length === 2, 'two timeline tabs restored', 20_000);
    const files = await waitFor(async () => {
      const found = await frameAttribute('[data-file]', 'data-file');
      return found.length > 0 ? found : undefined;
    }, 'the restored timeline drawn with its files', 20_000);
    assert.deepEqual(files, ['timeline-restored/panel.ts']);
    assert.deepEqual(await frameAttribute('[data-file]', 'data-owner'), ['Restore the panel']);
    const lanes = await frameAttribute('[data-lane]', 'data-lane');
    assert.deepEqual(lanes, ['Restore the panel', 'Check the state']);
    await waitFor(() => timelines().some((tab) => /^Timeline: Restore the panel$/.test(tab.label)), 'the restored panel’s title');
    const message = await waitFor(async () => {
      const found = await frameAttribute('[data-gone]', 'role');
      return found.length > 0 ? found : undefined;
    }, 'the message of the panel whose session is gone', 20_000);
    assert.deepEqual(message, ['status']);
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { api, runDir } from '../helpers';

describe('after the extension host restarts', () => {
  it('shows every session\'s last plan again', async () => {
    const file = path.join(runDir(), 'expected-after-restart.json');
    const expected = JSON.parse(fs.readFileSync(file, 'utf8')) as Array<{ session: string; todos: unknown[] }>;
    assert.ok(expected.length >= 2, 'the first run left at least two sessions');
    const plan = await api();
    const actual = plan.listSessions().map(({ session, todos }) => ({ session, todos }));
    assert.deepEqual(
      [...actual].sort((a, b) => a.session.localeCompare(b.session)),
      [...expected].sort((a, b) => a.session.localeCompare(b.session)),
    );
    assert.equal(plan.getViewState().session, expected[0]?.session, 'the view follows the session that wrote last');
  });
});

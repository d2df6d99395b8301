// A todo_write input is validated once on its way in: the list validateTodoInput returns is
// appended as it is; any other list given to the log is checked as todo_write's input is.
import * as assert from 'node:assert/strict';
import { isValidated, validateTodoInput } from '../../../../src/core/plan/validate';
import { SessionLog } from '../../../../src/core/log/sessionLog';
import { nodeFileSystem } from '../../../../src/node/nodeFileSystem';
import { useTempDir } from '../../../lib/temp';

const KEY = 'a'.repeat(32);

describe('todo_write: validated once on its way in', () => {
  const tmp = useTempDir();

  it('the list validateTodoInput returns is known as validated; a copy of it, or any other list, is not', () => {
    const result = validateTodoInput({ todos: [{ content: ' Ship ', status: 'pending' }] });
    assert.ok(result.ok);
    assert.equal(isValidated(result.todos), true);
    assert.equal(isValidated([...result.todos]), false);
    assert.equal(isValidated([{ content: 'Ship', status: 'pending' }]), false);
  });

  it('the log appends a validated list as validated (trimmed once), and still rejects a raw list in a wrong shape', async () => {
    const log = new SessionLog(tmp.path, nodeFileSystem);
    const result = validateTodoInput({ todos: [{ content: '  Plan  ', status: 'in_progress' }] });
    assert.ok(result.ok);
    const event = await log.append(KEY, result.todos);
    assert.deepEqual(event.todos, [{ content: 'Plan', status: 'in_progress' }]);
    await assert.rejects(log.append(KEY, [{ content: '', status: 'pending' }]), TypeError);
  });
});

import * as assert from 'node:assert/strict';
import {
  EMPTY_CONTENT_TEXT,
  NO_SESSION_TEXT,
  countTodos,
  duplicateContentText,
  saveFailedText,
  successText,
  type Todo,
} from '../../../../src/core/plan/plan';

describe('plan: the model-facing contract strings', () => {
  it('success text', () => {
    assert.equal(
      successText({ pending: 3, inProgress: 2, completed: 1 }),
      'Updated todo list: 3 pending, 2 in progress, 1 completed.',
    );
  });

  it('success text for an empty list', () => {
    assert.equal(successText(countTodos([])), 'Updated todo list: 0 pending, 0 in progress, 0 completed.');
  });

  it('empty content', () => {
    assert.equal(EMPTY_CONTENT_TEXT, 'Error: invalid todo: `content` must be a non-empty string');
  });

  it('duplicate content', () => {
    assert.equal(duplicateContentText('Write tests'), 'Error: invalid todos: duplicate content "Write tests"');
  });

  it('no owning session', () => {
    assert.equal(NO_SESSION_TEXT, 'Error: todo_write requires an owning agent session');
  });

  it('save failed', () => {
    assert.equal(saveFailedText('no space left on device'), 'Error: could not save the todo list: no space left on device');
  });
});

describe('plan: countTodos', () => {
  it('counts each status', () => {
    const todos: Todo[] = [
      { content: 'a', status: 'pending' },
      { content: 'b', status: 'in_progress' },
      { content: 'c', status: 'in_progress' },
      { content: 'd', status: 'completed' },
      { content: 'e', status: 'completed' },
      { content: 'f', status: 'completed' },
    ];
    assert.deepEqual(countTodos(todos), { pending: 1, inProgress: 2, completed: 3 });
  });

  it('counts nothing in an empty list', () => {
    assert.deepEqual(countTodos([]), { pending: 0, inProgress: 0, completed: 0 });
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';

const store = new Map();
globalThis.localStorage = {
  getItem: (key) => (store.has(key) ? store.get(key) : null),
  setItem: (key, value) => store.set(key, String(value)),
};
const { load, save } = await import('../src/storage.js');

test('returns the fallback for a missing key', () => {
  assert.deepEqual(load('missing', []), []);
});

test('round-trips a value', () => {
  save('cups', [{ bean: 'Kenya AA', rating: 5 }]);
  assert.deepEqual(load('cups', []), [{ bean: 'Kenya AA', rating: 5 }]);
});

// A small wrapper around localStorage: JSON values under one prefix.
const PREFIX = 'brewlog:';

export function load(key, fallback) {
  try {
    const raw = globalThis.localStorage?.getItem(PREFIX + key);
    return raw === null || raw === undefined ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

export function save(key, value) {
  globalThis.localStorage?.setItem(PREFIX + key, JSON.stringify(value));
}

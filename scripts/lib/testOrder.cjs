// The order tests run in: every level's files are shuffled by one seed, so a test that leans
// on another file's leftovers shows up, and a failing order can be replayed. The seed comes
// from AGENT_PLAN_TEST_SEED, else one is drawn and put there, so that the levels a run starts
// (each a child process) share it. CommonJS: mocha's configuration files load it too.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

/** The run's seed (a 32-bit number), drawn once and kept in the environment. */
function testSeed() {
  const given = process.env.AGENT_PLAN_TEST_SEED;
  const parsed = given !== undefined && /^\d+$/.test(given.trim()) ? Number(given.trim()) % 2 ** 32 : undefined;
  const seed = parsed ?? Math.floor(Math.random() * 2 ** 32);
  process.env.AGENT_PLAN_TEST_SEED = String(seed);
  return seed;
}

/** A small deterministic generator (mulberry32): the same seed, the same order on every machine. */
function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** `items` in the seed's order (Fisher–Yates over a sorted copy, so the input's order does not matter). */
function shuffled(items, seed) {
  const out = [...items].sort();
  const random = generator(seed);
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** The files below `dirs` (one folder or several, relative to the repository) whose names end with `suffix`, in the seed's order. */
function filesInOrder(root, dirs, suffix, seed) {
  const files = [dirs].flat().flatMap((dir) =>
    fs
      .readdirSync(path.join(root, dir), { recursive: true })
      .map((name) => String(name))
      .filter((name) => name.endsWith(suffix))
      .map((name) => path.join(dir, name).split(path.sep).join('/')),
  );
  return shuffled(files, seed);
}

module.exports = { testSeed, shuffled, filesInOrder };

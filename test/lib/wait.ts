// The tests' one way to wait: for a time (`sleep`) or for a condition (`waitFor`). Every level
// imports it: the unit, build and reliability tests and the bench in plain Node, and the
// integration tests inside the extension host (esbuild.mjs compiles test/lib/ beside
// test/integration/), so it imports neither `vscode` nor mocha.

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Calls `probe` every `everyMs` until it returns something other than `undefined` or `false`,
 * and returns that (a condition's `true`, or the value found); once `timeoutMs` has passed,
 * throws `timed out waiting for <what>`. `what` may be a function, called only then, to say
 * what it found instead.
 */
export async function waitFor<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  what: string | (() => string),
  timeoutMs = 10_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await sleep(everyMs);
  }
}

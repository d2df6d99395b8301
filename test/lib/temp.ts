// The tests' one temp-folder helper, for the unit, build and reliability levels (the integration
// tests' folders are the run's, made by scripts/lib/workbench.mjs). It registers mocha hooks when
// called, never when imported.
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';

export interface TempDir {
  /** The folder: set in the hooks `useTempDir` registers, so read it in a test or a later hook. */
  readonly path: string;
}

/**
 * A fresh, empty folder under the OS temp dir (`agent-plan-<label>-XXXXXX`, `unit` unless told)
 * for each test of the suite this is called in, made before the test and removed after it (its
 * own mode restored first, so a test may leave it read-only); `{ per: 'suite' }`: one folder for
 * all the suite's tests, made before the first and removed after the last. Call it inside a
 * `describe`: at a file's top level, per test, its hooks would run around every test of the run.
 * A suite's hooks run in the order they were registered, so a hook that must run before the
 * folder goes (stopping a process that writes there) is registered before `useTempDir` is called.
 */
export function useTempDir(label = 'unit', options: { per?: 'test' | 'suite' } = {}): TempDir {
  const holder = { path: '' };
  const [make, remove] = options.per === 'suite' ? [before, after] : [beforeEach, afterEach];
  make(async () => {
    holder.path = await fs.mkdtemp(path.join(os.tmpdir(), `agent-plan-${label}-`));
  });
  remove(async () => {
    if (holder.path === '') return;
    await fs.chmod(holder.path, 0o700).catch(() => undefined);
    await fs.rm(holder.path, { recursive: true, force: true, maxRetries: 3 });
  });
  return holder;
}

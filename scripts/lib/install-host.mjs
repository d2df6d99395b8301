// Installs the pinned VS Code host into the cache when it is not there yet (scripts/lib/host.mjs),
// so every test level that needs its Node (node:sqlite, for the SQLite-backed agents) finds it,
// on a new machine as on one with a warm cache.
import { ensureHost } from './host.mjs';

await ensureHost({ cjkFont: false });

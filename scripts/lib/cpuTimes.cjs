// How busy the machine's cores were over a stretch of time (Linux: /proc/stat), for the run's
// summary (scripts/test.mjs) and the reliability suite's figures. Plain CommonJS, Node built-ins
// only: it runs before the npm dependencies exist, and from the TypeScript tests through require.
'use strict';
const fs = require('node:fs');

/**
 * The machine's busy and total CPU time so far (in clock ticks), or undefined where /proc/stat
 * cannot be read. Idle and waiting on I/O are the idle time.
 * @returns {{ busy: number, total: number } | undefined}
 */
function cpuTimes() {
  try {
    const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
    const total = fields.reduce((sum, value) => sum + value, 0);
    return fields.every(Number.isFinite) ? { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The share of the CPU time between two readings of cpuTimes that was busy, in whole percent;
 * undefined where either is missing or no time passed.
 * @param {{ busy: number, total: number } | undefined} before
 * @param {{ busy: number, total: number } | undefined} after
 * @returns {number | undefined}
 */
function busyPercent(before, after) {
  return before && after && after.total > before.total ? Math.round((100 * (after.busy - before.busy)) / (after.total - before.total)) : undefined;
}

module.exports = { cpuTimes, busyPercent };

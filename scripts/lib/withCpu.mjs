// Runs `node <args…>` as its child and, once the child has ended, writes the CPU seconds it used
// with every descendant it waited for (Linux: this process's children's times, /proc/self/stat)
// to the file AGENT_PLAN_CPU_FILE names; exits as the child did. `npm test` (scripts/test.mjs)
// runs each level through it, for the run's table of wall and CPU seconds per level. Elsewhere
// it writes nothing. Node built-ins only: it runs before the npm dependencies exist.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';

const child = spawn(process.execPath, process.argv.slice(2), { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));

/** Clock ticks per second (`getconf CLK_TCK`, 100 on Linux). */
function ticksPerSecond() {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

child.on('exit', (code, signal) => {
  const file = process.env.AGENT_PLAN_CPU_FILE;
  try {
    if (file) {
      // After the command's name in parentheses: state is field 3, cutime and cstime fields 16 and 17 (proc(5)).
      const stat = fs.readFileSync('/proc/self/stat', 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[16 - 3]) + Number(fields[17 - 3]);
      if (Number.isFinite(ticks)) fs.writeFileSync(file, String(ticks / ticksPerSecond()));
    }
  } catch {
    // No /proc: the run says the wall time only.
  }
  process.exit(code ?? (signal ? 1 : 0));
});

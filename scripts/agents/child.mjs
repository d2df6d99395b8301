// Runs INSIDE the network namespace (only loopback): starts the scripted model
// server, runs one agent once against it, and writes what happened next to the run:
// requests.json (every request the server saw), stdout.txt, stderr.txt, result.json.
// Usage: node child.mjs <spec.json>   (spec = { scenario, dirs, timeoutMs, delayMs })
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { prepare, serverOf } from './environment.mjs';
import { recipeOf } from './recipes.mjs';
import { resolveScript } from './scenarios.mjs';

const spec = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const { scenario } = spec;
const { dirs } = spec;
// An agent that replaces its files whole on each update (Claude's task files, Cline's JSON
// files): a copy of the folder its recipe names (`snapshots`) as it is when each model request
// arrives keeps every state the files went through, in run/task-snapshots/<request number>/.
const tasksDir = recipeOf(scenario.agent).snapshots?.(scenario, dirs);
let requestNumber = 0;
function snapshotTasks() {
  requestNumber += 1;
  if (tasksDir === undefined || !fs.existsSync(tasksDir)) return;
  const target = path.join(dirs.run, 'task-snapshots', String(requestNumber).padStart(2, '0'));
  fs.cpSync(tasksDir, target, { recursive: true });
}
/** The script (its turns, played by the server), and its last turn: the answer that ends the turn. */
const scriptTurns = resolveScript(scenario.script, dirs.workspace);
const lastTurn = (Array.isArray(scriptTurns) ? scriptTurns : scriptTurns.main).at(-1);
/** Set once the server has answered the script's last turn. */
let lastTurnAnswered = false;
const server = await serverOf(scenario.agent)(scriptTurns, {
  maxRequests: 40,
  lifetimeMs: spec.timeoutMs + 10_000,
  delayMs: spec.delayMs ?? 0,
  onRequest: snapshotTasks,
  onAnswered: (request) => {
    if (request.played === lastTurn) lastTurnAnswered = true;
  },
  // The scenario's own server options (e.g. `textTurns`, for a model that answers in text).
  ...scenario.server,
});
// A recipe may prepare asynchronously (a scenario connected to Agent Plan's MCP server: scripts/agents/mcp.mjs).
const { command, args, env } = await prepare(scenario, dirs, server.url);

const started = Date.now();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Whether each key that waited for its prompt saw it on the screen. */
const promptSeen = [];
const PROMPT_SETTLE_MS = 1000;
const out = fs.openSync(path.join(dirs.run, 'stdout.txt'), 'w');
const err = fs.openSync(path.join(dirs.run, 'stderr.txt'), 'w');
// An interactive run (`scenario.tty`): the agent's own screen in a pseudo-terminal (util-linux
// `script`), its keys written to `script`'s stdin; `scenario.tty.keys` are typed once their
// moment comes ({afterRequests, screen, waitMs, text}), and the run ends after the last one (see
// typeKeys).
const quote = (word) => `'${String(word).split("'").join("'\\''")}'`;
// `scenario.tty.rows`/`cols` size the terminal first: some agents draw nothing (no prompt to
// answer) in the 0×0 terminal `script` opens.
const size = scenario.tty?.rows && scenario.tty?.cols ? `stty rows ${Number(scenario.tty.rows)} cols ${Number(scenario.tty.cols)} && exec ` : '';
const child = scenario.tty
  ? spawn('script', ['-qfc', size + [command, ...args].map(quote).join(' '), '/dev/null'], { cwd: dirs.workspace, env: { ...env, TERM: 'xterm-256color' }, stdio: ['pipe', out, err], detached: true })
  : spawn(command, args, { cwd: dirs.workspace, env, stdio: ['ignore', out, err], detached: true });
fs.closeSync(out);
fs.closeSync(err);
if (scenario.tty) void typeKeys(scenario.tty);
let timedOut = false;
const timer = setTimeout(() => {
  timedOut = true;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}, spec.timeoutMs);
/** The signal the run was ended with at its planned time (an interactive run), if any. */
let ended = null;
/** The processes under `script` when the run was ended (the agent and its helpers). */
let agentProcesses = [];
/** The processes below `pid` (children first found, then theirs), from /proc. */
function descendants(pid) {
  const parents = new Map();
  for (const entry of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      // /proc/<pid>/stat: "<pid> (<comm>) <state> <ppid> …"; comm may hold spaces and parentheses.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const found = [];
  for (let i = -1; i < found.length; i++) {
    const parent = i < 0 ? pid : found[i];
    for (const [child, ppid] of parents) if (ppid === parent) found.push(child);
  }
  return found;
}
/**
 * Whether the agent's last 64 KB of screen output hold `words`: the output read as it grows,
 * control sequences and white space taken out (a drawn space is often a cursor move), so that
 * words drawn in pieces or split between two reads are found.
 */
const screen = { read: 0, tail: '' };
function screenShows(words) {
  const file = path.join(dirs.run, 'stdout.txt');
  const size = fs.statSync(file).size;
  if (size > screen.read) {
    const fd = fs.openSync(file, 'r');
    const chunk = Buffer.alloc(size - screen.read);
    fs.readSync(fd, chunk, 0, chunk.length, screen.read);
    fs.closeSync(fd);
    screen.read = size;
    screen.tail = (screen.tail + chunk.toString('latin1')).slice(-65_536);
  }
  const text = Buffer.from(screen.tail.replace(/\x1b\[[0-9;?<>=!]*[ -/]*[@-~]/g, ''), 'latin1').toString('utf8');
  return text.replace(/\s+/g, '').includes(words.replace(/\s+/g, ''));
}
/** Resolves once `done()` holds or `ms` passed (the child's end counts as done); true when it held. */
async function until(done, ms) {
  for (const deadline = Date.now() + ms; ; await sleep(100)) {
    if (done()) return true;
    if (child.exitCode !== null || Date.now() > deadline) return false;
  }
}
/**
 * Types each key once the server has seen its requests and the screen shows `screen` (the
 * agent's own words for its prompt; `waitMs` at most, 15 s when not given) or, without
 * `screen`, `waitMs` more passed. With `tty.untilAnswered`, the run goes on until the server
 * has answered the script's last turn (the approved call ran and the model heard its result),
 * 30 s at most; then `tty.endMs` more. Then it ends the run: by default with SIGTERM to `script`'s group (the agent, in the terminal's own session,
 * then gets a hang-up and closes as it does when its terminal is closed); with
 * `scenario.tty.endSignal`, that signal goes to the agent and every process under `script` first,
 * so with SIGKILL the agent writes nothing more (no closing record), as when it is killed.
 */
async function typeKeys(tty) {
  for (const key of tty.keys ?? []) {
    while (server.requests.length < (key.afterRequests ?? 0) && child.exitCode === null) await sleep(100);
    if (key.screen !== undefined) {
      promptSeen.push(await until(() => screenShows(key.screen), key.waitMs ?? 15_000));
      // The agent's files, and its key handling, follow the frame that draws the prompt: a
      // second more, where no event of theirs can be seen from here.
      await sleep(PROMPT_SETTLE_MS);
    } else {
      await sleep(key.waitMs ?? 0);
    }
    if (key.text !== undefined && child.exitCode === null) child.stdin.write(key.text);
  }
  if (tty.untilAnswered) await until(() => lastTurnAnswered, 30_000);
  await sleep(tty.endMs ?? 0);
  if (child.exitCode !== null || child.signalCode !== null) return;
  ended = tty.endSignal ?? 'SIGTERM';
  agentProcesses = descendants(child.pid);
  if (tty.endSignal !== undefined) {
    // `script` is stopped first: it cannot see the agent die and exit 0 before the signal
    // meant for it arrives (a race a busy machine lost); a stopped process still dies of SIGKILL.
    try {
      process.kill(child.pid, 'SIGSTOP');
    } catch {
      // already gone
    }
    for (const pid of agentProcesses) {
      try {
        process.kill(pid, tty.endSignal);
      } catch {
        // gone meanwhile
      }
    }
  }
  try {
    process.kill(-child.pid, ended);
  } catch {
    // already gone
  }
}
/** True while `pid` runs (not gone, not a zombie waiting to be reaped). */
function alive(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
/** True when `pid`'s program lies in this run's own folders: a daemon the agent installed there (see below). */
function runDaemon(pid) {
  try {
    const exe = fs.readlinkSync(`/proc/${pid}/exe`);
    return [dirs.home, dirs.codexHome].some((dir) => dir && exe.startsWith(dir + path.sep));
  } catch {
    return false;
  }
}
/**
 * Waits (10 s at most) for the agent's processes to end as they were told; any still running is
 * killed. A daemon of the run's own is not waited for: it never ends by itself, and is stopped below.
 */
async function settle(pids) {
  const told = pids.filter((pid) => !runDaemon(pid));
  for (let waited = 0; waited < 10_000 && told.some(alive); waited += 100) await sleep(100);
  for (const pid of pids.filter(alive)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  for (let waited = 0; waited < 5_000 && pids.some(alive); waited += 100) await sleep(100);
}
const [code, signal] = await new Promise((resolve) => child.on('exit', (c, s) => resolve([c, s])));
clearTimeout(timer);
await settle(agentProcesses);
// Its helpers (if any) share its process group: none may outlive the run.
try {
  process.kill(-child.pid, 'SIGKILL');
} catch {
  // none left
}
// Interactive Codex starts a helper daemon of its own session (`codex app-server --managed-daemon`,
// installed under this run's Codex home) that leaves the process group: stopped here, by the
// ids of the processes whose program lies in this run's own folders.
const daemons = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number).filter(runDaemon);
for (const pid of daemons) {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone meanwhile
  }
}
for (let waited = 0; waited < 5_000 && daemons.some(alive); waited += 100) await sleep(100);
await server.close();
const result = { command: path.basename(command), args, code, signal, ended, timedOut, ms: Date.now() - started, requests: server.requests.length, promptSeen, lastTurnAnswered };
fs.writeFileSync(path.join(dirs.run, 'requests.json'), JSON.stringify(server.requests, null, 1) + '\n');
fs.writeFileSync(path.join(dirs.run, 'result.json'), JSON.stringify(result, null, 2) + '\n');
process.exit(0);

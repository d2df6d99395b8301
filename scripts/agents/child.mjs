// Runs INSIDE the network namespace (only loopback): starts the scripted model
// server, runs one agent once against it, and writes what happened next to the run:
// requests.json (every request the server saw), stdout.txt, stderr.txt, result.json.
// Usage: node child.mjs <spec.json>   (spec = { scenarioId, dirs, timeoutMs })
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { prepare, SERVERS } from './launch.mjs';
import { findScenario } from './scenarios.mjs';

const spec = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const scenario = findScenario(spec.scenarioId);
const { dirs } = spec;
const server = await SERVERS[scenario.agent](scenario.script, { maxRequests: 40, lifetimeMs: spec.timeoutMs + 10_000 });
const { command, args, env } = prepare(scenario, dirs, server.url);

const started = Date.now();
const out = fs.openSync(path.join(dirs.run, 'stdout.txt'), 'w');
const err = fs.openSync(path.join(dirs.run, 'stderr.txt'), 'w');
const child = spawn(command, args, { cwd: dirs.workspace, env, stdio: ['ignore', out, err], detached: true });
fs.closeSync(out);
fs.closeSync(err);
let timedOut = false;
const timer = setTimeout(() => {
  timedOut = true;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}, spec.timeoutMs);
const [code, signal] = await new Promise((resolve) => child.on('exit', (c, s) => resolve([c, s])));
clearTimeout(timer);
// Its helpers (if any) share its process group: none may outlive the run.
try {
  process.kill(-child.pid, 'SIGKILL');
} catch {
  // none left
}
await server.close();
const result = { command: path.basename(command), args, code, signal, timedOut, ms: Date.now() - started, requests: server.requests.length };
fs.writeFileSync(path.join(dirs.run, 'requests.json'), JSON.stringify(server.requests, null, 1) + '\n');
fs.writeFileSync(path.join(dirs.run, 'result.json'), JSON.stringify(result, null, 2) + '\n');
process.exit(0);

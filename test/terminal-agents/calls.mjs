// Reads back, from an agent's recorded files, the tool calls it made, in order, as
// { name, input } — just enough to check a recording against the script it played.
// (The product's parsers live in src/agents; this is the test's own short reading.)
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { resolveScript } from '../../scripts/agents/scenarios.mjs';
import { queryRows } from '../../scripts/agents/sqlite.mjs';

function jsonLines(file) {
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}

function filesUnder(dir, test) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && test(e.name))
    .map((e) => path.join(e.parentPath ?? e.path, e.name))
    .sort();
}

/** The session files of `agent` under a home folder (and CODEX_HOME for Codex). */
export function sessionFiles(agent, { home, codexHome }) {
  // A subagent's transcript (`<session>/subagents/agent-*.jsonl`) is not a session of its own here.
  if (agent === 'claude') return filesUnder(path.join(home, '.claude', 'projects'), (n) => n.endsWith('.jsonl') && !n.startsWith('agent-'));
  if (agent === 'copilot') return filesUnder(path.join(home, '.copilot', 'session-state'), (n) => n === 'events.jsonl');
  if (agent === 'codex') return filesUnder(path.join(codexHome, 'sessions'), (n) => n.endsWith('.jsonl'));
  // opencode and Kilo CLI: one database holds every session; the test reads its one session.
  if (agent === 'opencode' || agent === 'kilo') return filesUnder(path.join(home, '.local', 'share', agent), (n) => n === `${agent}.db`);
  if (agent === 'qwen') return filesUnder(path.join(home, '.qwen', 'projects'), (n) => n.endsWith('.jsonl'));
  // Cline 3.x: a session's messages file (a subagent's `agent_*.messages.json` is not a session here); 2.x: a task's ui_messages.json.
  if (agent === 'cline') {
    const data = path.join(home, '.cline', 'data');
    return [...filesUnder(path.join(data, 'sessions'), (n) => n.endsWith('.messages.json') && !n.startsWith('agent_')), ...filesUnder(path.join(data, 'tasks'), (n) => n === 'ui_messages.json')];
  }
  return filesUnder(path.join(home, '.gemini', 'tmp'), (n) => n.startsWith('session-') && n.endsWith('.jsonl'));
}

/** Tool calls of one session file, in order. */
export function recordedCalls(agent, file) {
  if (agent === 'opencode' || agent === 'kilo') {
    const { parts } = queryRows(file, { parts: 'SELECT data FROM part ORDER BY id' });
    return parts.map((p) => JSON.parse(p.data)).filter((d) => d.type === 'tool').map((d) => ({ name: d.tool, input: d.state.input }));
  }
  if (agent === 'cline') {
    // 2.x calls its tools in XML inside the model's text (its script's turns are text): no calls.
    if (path.basename(file) === 'ui_messages.json') return [];
    const { messages } = JSON.parse(fs.readFileSync(file, 'utf8'));
    return messages.filter((m) => m.role === 'assistant').flatMap((m) => m.content.filter((b) => b.type === 'tool_use').map((b) => ({ name: b.name, input: b.input })));
  }
  const lines = jsonLines(file);
  if (agent === 'copilot') {
    return lines.filter((l) => l.type === 'tool.execution_start').map((l) => ({ name: l.data.toolName, input: l.data.arguments }));
  }
  if (agent === 'qwen') {
    return lines
      .filter((l) => l.type === 'assistant' && Array.isArray(l.message?.parts))
      .flatMap((l) => l.message.parts.filter((p) => p.functionCall).map((p) => ({ name: p.functionCall.name, input: p.functionCall.args })));
  }
  if (agent === 'claude') {
    return lines
      .filter((l) => l.type === 'assistant' && Array.isArray(l.message?.content))
      .flatMap((l) => l.message.content.filter((b) => b.type === 'tool_use').map((b) => ({ name: b.name, input: b.input })));
  }
  if (agent === 'codex') {
    return lines
      .filter((l) => l.type === 'response_item' && (l.payload?.type === 'function_call' || l.payload?.type === 'custom_tool_call'))
      // A freeform tool's (apply_patch's) input is its text.
      .map((l) => ({ name: l.payload.name, input: l.payload.type === 'custom_tool_call' ? l.payload.input : JSON.parse(l.payload.arguments) }));
  }
  // Gemini writes a turn again (same id) once it has its tool calls: keep the last.
  const byId = new Map();
  for (const l of lines) if (typeof l.id === 'string') byId.set(l.id, l);
  return [...byId.values()].flatMap((r) => (r.toolCalls ?? []).map((c) => ({ name: c.name, input: c.args })));
}

/** The workspace each file says it belongs to (one entry per place it says so). */
export function recordedWorkspaces(agent, file, { home }) {
  if (agent === 'opencode' || agent === 'kilo') return queryRows(file, { s: 'SELECT directory FROM session' }).s.map((r) => r.directory);
  if (agent === 'cline') {
    if (path.basename(file) === 'ui_messages.json') {
      const history = JSON.parse(fs.readFileSync(path.join(home, '.cline', 'data', 'state', 'taskHistory.json'), 'utf8'));
      return history.filter((t) => t.id === path.basename(path.dirname(file))).map((t) => t.cwdOnTaskInitialization);
    }
    const manifest = JSON.parse(fs.readFileSync(file.replace(/\.messages\.json$/, '.json'), 'utf8'));
    return [manifest.cwd];
  }
  const lines = jsonLines(file);
  if (agent === 'copilot') {
    const yaml = fs.readFileSync(path.join(path.dirname(file), 'workspace.yaml'), 'utf8');
    const fromYaml = /^cwd: (.*)$/m.exec(yaml)?.[1];
    return [...new Set([...lines.filter((l) => l.type === 'session.start').map((l) => l.data.context.cwd), fromYaml])];
  }
  if (agent === 'qwen') return [...new Set(lines.filter((l) => typeof l.cwd === 'string').map((l) => l.cwd))];
  if (agent === 'claude') return [...new Set(lines.filter((l) => typeof l.cwd === 'string').map((l) => l.cwd))];
  if (agent === 'codex') return lines.filter((l) => l.type === 'session_meta').map((l) => l.payload.cwd);
  const projects = JSON.parse(fs.readFileSync(path.join(home, '.gemini', 'projects.json'), 'utf8')).projects;
  const short = path.basename(path.dirname(path.dirname(file)));
  const paths = Object.entries(projects).filter(([, name]) => name === short).map(([p]) => p);
  const hash = lines[0]?.projectHash;
  return paths.filter((p) => crypto.createHash('sha256').update(p).digest('hex') === hash);
}

/** The calls a scenario's script makes in `workspace`, flattened in order. */
export function scriptedCalls(script, workspace) {
  // A script with a subagent: the main session makes the main script's calls.
  const turns = Array.isArray(script) ? script : script.main;
  return resolveScript(turns, workspace).flatMap((turn) => turn.calls ?? []);
}

/** A Claude Code session's subagent transcripts (`<session>/subagents/agent-*.jsonl`). */
export function subagentFiles(sessionFile) {
  // Cline 3.x: `agent_<id>.messages.json` beside its parent's messages file.
  if (sessionFile.endsWith('.messages.json')) return filesUnder(path.dirname(sessionFile), (n) => n.startsWith('agent_') && n.endsWith('.messages.json'));
  return filesUnder(path.join(sessionFile.slice(0, -'.jsonl'.length), 'subagents'), (n) => n.startsWith('agent-') && n.endsWith('.jsonl'));
}

// Connect and Disconnect, as plans: `plan` (Connect) and `unplan` (Disconnect) read the agent's
// files and say exactly what each would become, writing nothing; `apply` writes a plan, after
// checking that no file changed since it was made. Agent Plan's record (connect.json) keeps what
// Connect added, so Disconnect puts back the original bytes of a file as Connect left it, or
// takes out only Agent Plan's entries from a file edited since. No vscode here.
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { AgentId } from '../../core/foreign';
import { ROOT_VARIABLES, rootsOf, type ConnectAgent, type JsonFile, type Place, type ServerLine, type TomlFile } from './connectAgents';
import { ConnectError } from './connectError';
import { addJsonEntries, removeJsonEntries, type JsonEntry, type JsonPath } from './jsonSettings';
import { readRecord, writeRecord, type AgentRecord, type FileRecord } from './connectRecord';
import { missingFolders, readSettingsFile, removeCreated, writeAtomically, type SettingsFile } from './settingsFile';
import { hasBlock, loadToml, parseToml, tomlAt, withBlock, withoutBlock } from './tomlBlock';
import { findOnPath } from './onPath';

export interface ConnectOptions extends Place, ServerLine {
  /** Agent Plan's record of what it connected (e.g. `<global storage>/connect.json`). */
  readonly statePath: string;
}

export interface DisconnectOptions extends Place {
  readonly statePath: string;
}

/** One file's change: its text before and after (undefined: no file). */
export interface FileChange {
  readonly path: string;
  readonly before: string | undefined;
  readonly after: string | undefined;
}

export type ConnectNoteCode =
  /** A setting the user had set already was left as it is (`detail`: the setting). */
  | 'kept-setting'
  /** The agent's pre-approval is a command-line flag only (`detail`: the flag). */
  | 'approval-flag'
  /** Disconnect: Agent Plan has no record of connecting this agent. */
  | 'not-connected'
  /** Connect: everything is there already. */
  | 'already-connected';

export interface ConnectNote {
  readonly code: ConnectNoteCode;
  readonly file?: string;
  readonly detail?: string;
}

interface PlannedWrite {
  readonly path: string;
  readonly real: string;
  readonly roots: readonly string[];
  readonly before: string | undefined;
  /** Undefined: the file goes (Disconnect of a file Connect created). */
  readonly after: string | undefined;
  /** Disconnect: the folders Connect made for it, removed when empty. */
  readonly madeFolders?: readonly string[];
}

export interface ConnectPlan {
  readonly agent: AgentId;
  readonly action: 'connect' | 'disconnect';
  /** The files that change, in the order of the agent's spec. */
  readonly files: readonly FileChange[];
  readonly notes: readonly ConnectNote[];
  readonly statePath: string;
  readonly writes: readonly PlannedWrite[];
  /** The agent's record once written (Connect), or undefined (Disconnect). */
  readonly record: AgentRecord | undefined;
}

/** The changes a plan made: what `apply` returns. */
export interface ConnectResult {
  readonly files: readonly FileChange[];
}

const sameEntry = (a: JsonEntry, b: JsonEntry) => a.kind === b.kind && isDeepStrictEqual(a.path, b.path) && (a.kind !== 'append' || isDeepStrictEqual(a.value, b.value));

/** The record's entries: the old ones, but those `added` again or `replaced` (by one of `added`), then the added ones. */
function mergeEntries(old: readonly JsonEntry[], added: readonly JsonEntry[], replaced: readonly JsonEntry[] = []): JsonEntry[] {
  return [...old.filter((entry) => ![...added, ...replaced].some((other) => sameEntry(entry, other))), ...added];
}

function mergeParents(old: readonly JsonPath[], made: readonly JsonPath[]): JsonPath[] {
  return [...old, ...made.filter((parent) => !old.some((known) => isDeepStrictEqual(known, parent)))];
}

function checkSupported(agent: ConnectAgent): void {
  if (agent.unsupported !== undefined) throw new ConnectError('unsupported', agent.name, agent.unsupported.en);
}

interface FilePlan {
  readonly after: string;
  readonly record: FileRecord | undefined;
  readonly notes: ConnectNote[];
}

function planJson(spec: JsonFile, file: SettingsFile, line: ServerLine, old: FileRecord | undefined): FilePlan {
  const entries = spec.entries(line);
  const result = addJsonEntries(file.text, entries, old?.entries ?? [], file.path);
  const notes = result.kept.map((kept): ConnectNote => ({ code: 'kept-setting', file: file.path, detail: `${kept.path.join('.')} = ${JSON.stringify(kept.value)}` }));
  if (result.added.length === 0) return { after: file.text ?? '', record: old, notes };
  return {
    after: result.text,
    notes,
    record: {
      path: file.path,
      real: file.real,
      before: old ? old.before : (file.text ?? null),
      after: result.text,
      madeFolders: old?.madeFolders ?? [],
      entries: mergeEntries(old?.entries ?? [], result.added, result.replaced),
      madeParents: mergeParents(old?.madeParents ?? [], result.madeParents),
    },
  };
}

function planToml(spec: TomlFile, file: SettingsFile, line: ServerLine, old: FileRecord | undefined, place: Place): FilePlan {
  const text = file.text;
  if (text !== undefined) parseToml(text, file.path);
  const previous = old?.block !== undefined && text !== undefined && hasBlock(text, old.block) ? old.block : undefined;
  const rest = previous !== undefined && text !== undefined ? withoutBlock(text, previous, file.path) : text;
  const { lines, kept, foreign } = spec.block(line, parseToml(rest ?? '', file.path), { path: file.path, real: file.real, place });
  if (foreign !== undefined) throw new ConnectError('foreign-entry', file.path, foreign);
  const notes = kept.map((setting): ConnectNote => ({ code: 'kept-setting', file: file.path, detail: setting }));
  if (lines === undefined) return { after: text ?? '', record: old, notes };
  const written = withBlock(text, previous, lines);
  const parsed = parseToml(written.text, file.path);
  if (line.mcp && tomlAt(parsed, ['mcp_servers', 'agentplan', 'command']) !== line.node) throw new ConnectError('not-toml', file.path, 'Agent Plan\'s block would not be read as written');
  if (written.text === text) return { after: text, record: old, notes };
  return {
    after: written.text,
    notes,
    record: { path: file.path, real: file.real, before: old ? old.before : (text ?? null), after: written.text, madeFolders: old?.madeFolders ?? [], block: written.block },
  };
}

/**
 * What Connect would write for `agent` (its spec, src/agents/<agent>/connect.ts): each of its files before → after, and notes. Nothing
 * is written. A second Connect adds to the first (what either chose stays) and changes nothing
 * that is already there.
 */
export async function plan(agent: ConnectAgent, options: ConnectOptions): Promise<ConnectPlan> {
  checkSupported(agent);
  await loadToml();
  const record = await readRecord(options.statePath);
  const previous = record.agents[agent.id];
  const line: ServerLine = {
    ...options,
    mcp: options.mcp || (previous?.mcp ?? false),
    planTools: (options.planTools ?? false) || (previous?.planTools ?? false),
    answers: agent.answersHook !== undefined && ((options.answers ?? false) || (previous?.answers ?? false)),
  };
  const roots = rootsOf(options, ROOT_VARIABLES);
  const files: FileChange[] = [];
  const writes: PlannedWrite[] = [];
  const records: FileRecord[] = [];
  const notes: ConnectNote[] = [];
  for (const spec of agent.files) {
    // A JSON file none of the chosen parts writes to is not read at all (one that only the MCP part writes, without it).
    if (spec.format === 'json' && spec.entries(line).length === 0) continue;
    const file = await readSettingsFile(spec.path(options), roots);
    const old = previous?.files.find((known) => known.path === file.path);
    const planned = spec.format === 'json' ? planJson(spec, file, line, old) : planToml(spec, file, line, old, options);
    notes.push(...planned.notes);
    if (planned.record !== undefined) records.push(planned.record);
    if (planned.after !== (file.text ?? '')) {
      files.push({ path: file.path, before: file.text, after: planned.after });
      writes.push({ path: file.path, real: file.real, roots, before: file.text, after: planned.after });
    }
  }
  // A file of an earlier Connect that the agent's spec now places elsewhere (an agent's variable changed), or that this Connect had nothing for, stays recorded for Disconnect.
  for (const known of previous?.files ?? []) if (!records.some((file) => file.path === known.path)) records.push(known);
  if (line.mcp && agent.approvalFlag !== undefined) notes.push({ code: 'approval-flag', detail: agent.approvalFlag });
  if (writes.length === 0) notes.push({ code: 'already-connected' });
  const agentRecord: AgentRecord = { connectedAt: new Date().toISOString(), mcp: line.mcp, planTools: line.planTools ?? false, answers: line.answers ?? false, files: records };
  return { agent: agent.id, action: 'connect', files, notes, statePath: options.statePath, writes, record: agentRecord };
}

function unplanFile(file: SettingsFile, known: FileRecord): { after: string | undefined; gone: boolean } {
  const text = file.text as string;
  const created = known.before === null;
  if (text === known.after) return { after: known.before ?? undefined, gone: created };
  if (known.block !== undefined) {
    const after = withoutBlock(text, known.block, file.path);
    return created && after.trim() === '' ? { after: undefined, gone: true } : { after, gone: false };
  }
  const removed = removeJsonEntries(text, known.entries ?? [], known.madeParents ?? [], file.path);
  return created && removed.empty ? { after: undefined, gone: true } : { after: removed.text, gone: false };
}

/**
 * What Disconnect would write for `agent`: each file Connect changed, put back. Nothing is
 * written. An agent Connect never wrote for is "not connected", not an error.
 */
export async function unplan(agent: ConnectAgent, options: DisconnectOptions): Promise<ConnectPlan> {
  await loadToml();
  const record = await readRecord(options.statePath);
  const previous = record.agents[agent.id];
  const base = { agent: agent.id, action: 'disconnect' as const, statePath: options.statePath, record: undefined };
  if (previous === undefined) return { ...base, files: [], writes: [], notes: [{ code: 'not-connected' }] };
  const roots = rootsOf(options, ROOT_VARIABLES);
  const files: FileChange[] = [];
  const writes: PlannedWrite[] = [];
  for (const known of previous.files) {
    const file = await readSettingsFile(known.path, roots);
    if (file.text === undefined) continue;
    const { after, gone } = unplanFile(file, known);
    if (after === file.text) continue;
    files.push({ path: file.path, before: file.text, after });
    writes.push({ path: file.path, real: file.real, roots, before: file.text, after, ...(gone ? { madeFolders: known.madeFolders } : {}) });
  }
  return { ...base, files, writes, notes: [] };
}

/** Writes `planned`: refused, with nothing written, when a file changed since the plan was made. */
export async function apply(planned: ConnectPlan): Promise<ConnectResult> {
  const now = await Promise.all(planned.writes.map((write) => readSettingsFile(write.path, write.roots)));
  now.forEach((file, index) => {
    const write = planned.writes[index] as PlannedWrite;
    if (file.text !== write.before || file.real !== write.real) throw new ConnectError('changed-since-preview', write.path);
  });
  const record = await readRecord(planned.statePath);
  const agents = { ...record.agents };
  if (planned.action === 'connect') {
    if (planned.writes.length === 0) return { files: [] };
    // The folders a new file needs are known before they are made: the record names them first,
    // so a Disconnect after a write that failed half way still finds everything.
    const made = new Map<string, string[]>();
    for (const write of planned.writes) if (write.before === undefined) made.set(write.path, await missingFolders(path.dirname(write.real)));
    const files = (planned.record as AgentRecord).files.map((file) => (made.has(file.path) && file.before === null ? { ...file, madeFolders: made.get(file.path) ?? [] } : file));
    agents[planned.agent] = { ...(planned.record as AgentRecord), files };
    await writeRecord(planned.statePath, { version: 1, agents });
    for (const write of planned.writes) await writeAtomically(write.real, write.after as string);
  } else {
    for (const write of planned.writes) {
      if (write.after === undefined) await removeCreated(write.real, write.madeFolders ?? []);
      else await writeAtomically(write.real, write.after);
    }
    delete agents[planned.agent];
    await writeRecord(planned.statePath, { version: 1, agents });
  }
  return { files: planned.files };
}

/** Those of `agents` that Agent Plan's record says are connected, in their order. */
export async function connectedAgents(statePath: string, agents: readonly ConnectAgent[]): Promise<ConnectAgent[]> {
  const record = await readRecord(statePath);
  return agents.filter((agent) => record.agents[agent.id] !== undefined);
}

export interface DetectedAgent {
  readonly agent: ConnectAgent;
  /** Its folder (or file) that exists, or its program on PATH. */
  readonly where: string;
  readonly how: 'folder' | 'path';
}

/** Those of `agents` installed here: their folder exists, or their program is on PATH. */
export async function detect(home: string, env: Place['env'], agents: readonly ConnectAgent[]): Promise<DetectedAgent[]> {
  const place: Place = { home, env };
  const found: DetectedAgent[] = [];
  for (const agent of agents) {
    let folder: string | undefined;
    for (const candidate of agent.folders(place)) {
      if (await fsp.stat(candidate).then(() => true, () => false)) {
        folder = candidate;
        break;
      }
    }
    if (folder !== undefined) {
      found.push({ agent, where: folder, how: 'folder' });
      continue;
    }
    const program = await findOnPath(agent.binary, env);
    if (program !== undefined) found.push({ agent, where: program, how: 'path' });
  }
  return found;
}

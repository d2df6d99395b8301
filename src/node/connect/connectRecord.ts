// Agent Plan's record of what Connect wrote (its connect.json, in Agent Plan's own storage): for
// each connected agent and file, the file's bytes before the first Connect and after the last
// one, the folders it made, and exactly the entries it added. Disconnect reads it to put each
// file back: the original bytes when the file is as Connect left it, else only Agent Plan's
// entries taken out.
import { isRecord } from '../../core/json';
import { ConnectError } from './connectError';
import type { JsonEntry, JsonPath } from './jsonSettings';
import { MAX_SETTINGS_BYTES, writeAtomically } from './settingsFile';
import { readRegularFileText } from '../regularFile';

export interface FileRecord {
  /** As the agent's spec names it. */
  readonly path: string;
  /** Where it was written (links resolved). */
  readonly real: string;
  /** Its text before the first Connect; null when there was no file. */
  readonly before: string | null;
  /** Its text as the last Connect left it. */
  readonly after: string;
  /** The folders Connect made for it, outermost first. */
  readonly madeFolders: readonly string[];
  /** JSON: the entries added, and the objects and arrays made on the way. */
  readonly entries?: readonly JsonEntry[];
  readonly madeParents?: readonly JsonPath[];
  /** TOML: Agent Plan's block, byte for byte. */
  readonly block?: string;
}

export interface AgentRecord {
  readonly connectedAt: string;
  readonly mcp: boolean;
  readonly planTools: boolean;
  /** The permission hook was chosen (absent in records written before Connect could add it). */
  readonly answers?: boolean;
  readonly files: readonly FileRecord[];
}

export interface ConnectRecord {
  readonly version: 1;
  readonly agents: Readonly<Record<string, AgentRecord>>;
}

export const EMPTY_RECORD: ConnectRecord = { version: 1, agents: {} };

const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

function isFileRecord(value: unknown): value is FileRecord {
  if (!isRecord(value)) return false;
  if (typeof value['path'] !== 'string' || typeof value['real'] !== 'string' || typeof value['after'] !== 'string') return false;
  if (value['before'] !== null && typeof value['before'] !== 'string') return false;
  if (!isStrings(value['madeFolders'])) return false;
  if (value['block'] !== undefined && typeof value['block'] !== 'string') return false;
  const entries = value['entries'];
  if (entries !== undefined && !(Array.isArray(entries) && entries.every((entry) => isRecord(entry) && ['own', 'append', 'switch'].includes(entry['kind'] as string) && isStrings(entry['path'])))) return false;
  const parents = value['madeParents'];
  return parents === undefined || (Array.isArray(parents) && parents.every(isStrings));
}

function isAgentRecord(value: unknown): value is AgentRecord {
  if (!isRecord(value)) return false;
  const { connectedAt, mcp: server, planTools, answers, files } = value;
  return typeof connectedAt === 'string' && typeof server === 'boolean' && typeof planTools === 'boolean' && (answers === undefined || typeof answers === 'boolean') && Array.isArray(files) && files.every(isFileRecord);
}

/** The record at `file`; empty when there is none, refused when it is damaged (nothing is guessed). */
export async function readRecord(file: string): Promise<ConnectRecord> {
  let text: string;
  try {
    text = await readRegularFileText(file, MAX_SETTINGS_BYTES * 4);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return EMPTY_RECORD;
    throw new ConnectError('bad-record', file, error instanceof Error ? error.message : String(error));
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ConnectError('bad-record', file, 'not JSON');
  }
  if (!isRecord(value) || value['version'] !== 1 || !isRecord(value['agents'])) throw new ConnectError('bad-record', file, 'not a version 1 record');
  const agents = value['agents'];
  for (const [id, agent] of Object.entries(agents)) if (!isAgentRecord(agent)) throw new ConnectError('bad-record', file, `its entry for ${id} is damaged`);
  return { version: 1, agents: agents as Record<string, AgentRecord> };
}

/** Writes the record (only its owner reads it: it holds copies of settings files). */
export async function writeRecord(file: string, record: ConnectRecord): Promise<void> {
  await writeAtomically(file, JSON.stringify(record, null, 1) + '\n', 0o600);
}

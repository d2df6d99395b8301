// What the terminal-agent tests share: whether the launcher could run the programs (and
// which versions), a scenario run through it (bridge op `runAgent`), and the sessions of an
// agent as the API lists them.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PlanSnapshot } from '../../src/extension';
import { api, bridge, runDir } from './helpers';
import { waitFor } from '../lib/wait';

/** What the launcher wrote before the tests: why the programs cannot run here, or their versions. */
export interface AgentsStatus {
  skipped?: string;
  versions?: Record<string, string>;
  /** The agents' HOME: the host's own (their settings files are there). */
  home?: string;
}

export interface AgentRun {
  code: number;
  timedOut: boolean;
  requests: number;
  files: Record<string, string[]>;
}

/** A plan as [content, status] pairs. */
export type Items = Array<[string, string]>;

export const agentsStatus = JSON.parse(fs.readFileSync(path.join(runDir(), 'agents.json'), 'utf8')) as AgentsStatus;

/** "claude 2.1.332, codex 0.171.0, …" for a suite's title. */
export const versionsText = (): string =>
  Object.entries(agentsStatus.versions ?? {})
    .map(([agent, version]) => `${agent} ${version}`)
    .join(', ');

/** How a scenario's terminal is driven instead of its own way: the keys typed (none: its prompt is left), and whether the run goes on until the model heard the call's result. */
export interface TtyOverride {
  keys: Array<{ afterRequests?: number; screen?: string; waitMs?: number; text?: string }>;
  untilAnswered?: boolean;
  endMs?: number;
}

/** How a test runs a scenario otherwise: its terminal, and whether what Connect wrote into the agent's settings stays (a recipe that writes them afresh keeps Agent Plan's part). */
export interface RunOptions {
  tty?: TtyOverride;
  connected?: boolean;
}

/** Starts a scenario through the launcher; resolves when it ends (a slow program may take `timeoutMs`). */
export function startAgent(scenario: string, delayMs = 0, timeoutMs?: number, options: RunOptions = {}): Promise<AgentRun> {
  return bridge<AgentRun>({ op: 'runAgent', scenario, delayMs, ...options }, timeoutMs);
}

/** Runs a scenario and checks it ended by itself, exit code 0. */
export async function runAgent(scenario: string, delayMs = 0, timeoutMs?: number): Promise<AgentRun> {
  const run = await startAgent(scenario, delayMs, timeoutMs);
  assert.equal(run.timedOut, false, `${scenario} timed out`);
  assert.equal(run.code, 0, `${scenario} exited ${run.code}`);
  return run;
}

export const itemsOf = (snapshot: PlanSnapshot | undefined): Items => (snapshot?.todos ?? []).map((t) => [t.content, t.status]);
export const sameItems = (a: Items, b: Items): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Sessions of `agent` the API lists now. */
export async function sessionsOf(agent: string): Promise<PlanSnapshot[]> {
  return (await api()).listSessions().filter((s) => s.source?.agent === agent);
}

/** Waits for a session of `agent` not in `known` to show `items`, and returns it. */
export async function newSessionShowing(agent: string, known: readonly string[], items: Items, timeoutMs = 30_000): Promise<PlanSnapshot> {
  let last: Items[] = [];
  return waitFor(
    async () => {
      const fresh = (await sessionsOf(agent)).filter((s) => !known.includes(s.session));
      last = fresh.map(itemsOf);
      return fresh.find((s) => sameItems(itemsOf(s), items));
    },
    () => `a new ${agent} session showing ${JSON.stringify(items)} (seen ${JSON.stringify(last)})`,
    timeoutMs,
  );
}

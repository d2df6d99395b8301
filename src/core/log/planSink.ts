// Where followers of other agents' files hand their plans: the log's import side.
// Idempotence is read from the log itself: a plan whose (agent, session, call) already has
// a line in its session's log is skipped. Each session's set of imported calls is built
// once, lazily, by one backward read of that log, and kept current by the log's one reader
// (which sees this sink's appends and anyone else's), so no call re-reads a history.
//
// Several processes may import into one log folder (two windows on one workspace). Each
// check-and-append is then one step across them: it holds the session's lock
// (sessionLock.ts), reads the file on past the reader's cursor, so another process's
// line is seen, and only then checks and appends. A call lands once, whoever saw it first.
// A lock another process keeps past the wait's bound fails the step before it writes
// anything (SessionLockBusyError): the import rejects and its caller tries again later.
import type { AgentId, ForeignPlan, ForeignSessionInfo, ForeignUsage, ForeignWrite, PlanSink } from '../foreign';
import type { Disposable } from '../emitter';
import { FileQueue } from './fileQueue';
import { boundForeignPlan } from './foreignBounds';
import {
  AGENT_IDS,
  isFileWrite,
  isInfoRecord,
  isPlanEvent,
  MAX_PARENT_LENGTH,
  parseForeignItems,
  parseSource,
  pathProblem,
  writeSourceProblem,
  type PlanRecord,
  type LogRecord,
  type SessionFacts,
  type SessionInfoRecord,
} from './logRecord';
import { isUsage, usageProblem } from './usageRecord';
import { snapshotProblem, type SnapshotFacts } from './snapshotRecord';
import { nextFacts, sameFacts } from './sessionFacts';
import { isVscodeChatAgent } from '../plan/participants';
import { copilotSessionKey, foreignSessionKey } from './sessionKey';
import type { SessionLocks } from './sessionLock';
import type { SessionLog } from './sessionLog';

/** The Agent Plan session a foreign session maps to. */
export function sessionKeyForForeign(agent: AgentId, session: string): string {
  return isVscodeChatAgent(agent) ? copilotSessionKey(session) : foreignSessionKey(agent, session);
}

interface SessionIndex {
  /**
   * `${agent}\n${session}\n${call}` of every foreign plan in the log, with its place in
   * the file (an ordinal: lines read backwards when the index was built count down from
   * -1, lines read on from the cursor count up from 1).
   */
  calls: Map<string, number>;
  /** The ordinal given to the next line read on from the cursor. */
  next: number;
  /** The ordinal of the newest foreign plan read. */
  lastPlan: number | undefined;
  /** When the newest of todo_write's own lines was saved (ms): a foreign call that had run before it is not the current plan. */
  ownNewest: number | undefined;
  /** The newest session/info line in the log. */
  info: SessionInfoRecord | undefined;
  /** The ordinal of the newest foreign plan before that info line. */
  infoAfter: number | undefined;
  /** The ordinal of the newest call this process handed in (imported, or found in the log). */
  handed: number | undefined;
  /** Resolves once the backward read is done. */
  ready: Promise<void>;
  /** The log holds a plan for this session (from any source). */
  planned: boolean;
  /** `${agent}\n${session}\n${call}` of every file/write line in the log. */
  writes: Set<string>;
  /** Plan versions (every todo/write line) of the session read so far. */
  versions: number;
  /** The in-progress item texts of the newest plan versions, by 1-based version number (bounded). */
  inProgress: Map<number, string[]>;
  /** The newest version's in-progress texts. */
  current: string[];
  /** The agent's own time (ms) of the kept versions that have one, by version number: a subagent's write is placed among them. */
  times: Map<number, number>;
  /**
   * Writes of a session with no plan yet: kept here (bounded), not written, so a run that
   * edits but never plans leaves no file; written as soon as the session's first plan is read.
   */
  pendingWrites: PendingWrite[];
  /**
   * While the backward read runs, versions the reader meets are held here with their byte
   * offsets: the backward read may have counted them already (another process appended them
   * before it reached the end), so only those past its newest line are counted after it.
   */
  held: Array<{ at: number | undefined; items: string[]; time: number | undefined }> | undefined;
  /**
   * The byte offset of the newest line the backward read counted: it may have read past the
   * reader's cursor (lines another process appended meanwhile), so the reader meets those
   * lines again later, and they are not counted twice.
   */
  countedUpTo: number | undefined;
  /**
   * Info about a session with no plan yet: kept here, not written, so a chat that never
   * plans leaves no file; written as soon as the session's first plan is read.
   */
  pending?: { source: { agent: AgentId; session: string }; facts: SessionFacts };
}

/**
 * A write (or response) on its way to a session's log. `parentKey`: the write is a subagent's,
 * and while the subagent's session has no plan it goes to this session instead. `subagent`: it
 * is on its way there, counted under that session's items in progress.
 */
interface PendingWrite {
  write: ForeignWrite | ForeignUsage;
  at: string | undefined;
  id: string;
  parentKey?: string;
  subagent?: true;
}

const callId = (agent: string, session: string, call: string): string => `${agent}\n${session}\n${call}`;
/** A model/usage line's key among the file/write keys (a response id never collides with a tool call's). */
const usageId = (agent: string, session: string, call: string): string => `${agent}\n${session}\nusage\n${call}`;

/** Plan versions whose in-progress items a session's index keeps, for writes a record puts after them. */
const KEPT_VERSIONS = 512;
/** Writes kept for a session that has no plan yet (the oldest go first past it). */
const MAX_PENDING_WRITES = 256;

/** The later of a time in ms and an ISO 8601 time (an unreadable one is none). */
function newer(ms: number | undefined, iso: string): number | undefined {
  const parsed = Date.parse(iso);
  if (Number.isNaN(parsed)) return ms;
  return ms === undefined || parsed > ms ? parsed : ms;
}

/** The texts of a version's items in progress, in plan order. */
const inProgressOf = (plan: PlanRecord): string[] => plan.todos.filter((todo) => todo.status === 'in_progress').map((todo) => todo.content);
/** A version's own time in the agent's record (ms), when it has one. */
const timeOf = (plan: PlanRecord): number | undefined => {
  const time = plan.at === undefined ? Number.NaN : Date.parse(plan.at);
  return Number.isNaN(time) ? undefined : time;
};

export interface LogPlanSinkOptions {
  /** Locks shared with the other processes that import into the same log folder; without them, one process only. */
  locks?: SessionLocks;
  /** This machine's clock, for the times turn facts carry. */
  now?: () => Date;
  /**
   * A plan over the bounds of foreignBounds.ts was cut (or refused): once per foreign session,
   * whatever its later plans hold. `detail` is a stable text.
   */
  onBounded?: (agent: AgentId, session: string, detail: string) => void;
}

export class LogPlanSink implements PlanSink, Disposable {
  private readonly indexes = new Map<string, SessionIndex>();
  /** One import or update at a time per Agent Plan session, so a check and its append stay together. */
  private readonly queue = new FileQueue();
  private readonly subscription: Disposable;
  private readonly locks: SessionLocks | undefined;
  private readonly now: () => Date;
  /**
   * Steps whose check found something to write but, made again under the lock, found it
   * written meanwhile (by another window): each one a repeat the lock kept out.
   */
  readonly stats = { settledUnderLock: 0 };
  /** What a dropped index held for its session's first plan, handed to the index built next. */
  private readonly waiting = new Map<string, Pick<SessionIndex, 'pending' | 'pendingWrites'>>();
  private readonly onBounded: LogPlanSinkOptions['onBounded'];
  /** Sessions whose over-size plan was reported. */
  private readonly boundedReported = new Set<string>();

  constructor(
    private readonly log: SessionLog,
    options: LogPlanSinkOptions = {},
  ) {
    this.locks = options.locks;
    this.now = options.now ?? (() => new Date());
    this.onBounded = options.onBounded;
    this.subscription = log.onDidRead((read) => {
      const index = this.indexes.get(read.session);
      if (!index) return;
      // A file deleted or cut short no longer holds what the index says, and a first look
      // (a sync) skips to the file's end: lines another process appended between the index's
      // backward read and that look were never noted. Either way the index is built again
      // when asked, keeping what waits for the session's first plan.
      if (read.gone || read.sync) {
        this.indexes.delete(read.session);
        if (index.pending || index.pendingWrites.length > 0) this.waiting.set(read.session, { pending: index.pending, pendingWrites: index.pendingWrites });
        return;
      }
      read.records.forEach((record, i) => this.note(read.session, index, record, read.offsets?.[i]));
    });
  }

  /**
   * Appends each plan not in the log yet, in the order given. A plan that is not in the
   * shape of src/core/foreign.ts (a follower's bug) rejects the call with a TypeError
   * before anything is written.
   */
  async importPlans(plans: readonly ForeignPlan[]): Promise<void> {
    const shaped = plans.map((plan, index) => {
      const source = parseSource(plan.source);
      if (typeof source === 'string') throw new TypeError(`importPlans: plan ${index + 1}: ${source}`);
      const items = parseForeignItems(plan.items);
      if (typeof items === 'string') throw new TypeError(`importPlans: plan ${index + 1}: ${items}`);
      const ranBy = plan.ranBy === undefined ? undefined : Date.parse(plan.ranBy);
      if (ranBy !== undefined && (typeof plan.ranBy !== 'string' || Number.isNaN(ranBy))) throw new TypeError(`importPlans: plan ${index + 1}: \`ranBy\` must be an ISO 8601 time`);
      return { plan, source, items, ranBy };
    });
    // Bounded before anything else looks at it: what the log holds, and what a re-read or
    // another window compares with, is the cut plan (the import key, its call id, is kept).
    const checked = shaped.flatMap(({ plan, source: given, items: all, ranBy }) => {
      const bounded = boundForeignPlan(all, given);
      const detail = 'refused' in bounded ? bounded.refused : bounded.cut;
      if (detail !== undefined) this.reportBounded(given.agent, given.session, detail);
      if ('refused' in bounded) return [];
      const { source, items } = bounded;
      const at = plan.at !== undefined && !Number.isNaN(Date.parse(plan.at)) ? plan.at : undefined;
      return [{ key: sessionKeyForForeign(source.agent, source.session), source, items, at, ranBy }];
    });
    const byKey = new Map<string, typeof checked>();
    for (const plan of checked) {
      const list = byKey.get(plan.key);
      if (list) list.push(plan);
      else byKey.set(plan.key, [plan]);
    }
    await Promise.all(
      [...byKey].map(([key, list]) =>
        this.step(key, (index) => {
          const ids = list.map((plan) => callId(plan.source.agent, plan.source.session, plan.source.call));
          const handed = (): void => {
            for (const id of ids) {
              const at = index.calls.get(id);
              if (at !== undefined && (index.handed === undefined || at > index.handed)) index.handed = at;
            }
          };
          if (ids.every((id) => index.calls.has(id))) {
            handed();
            return undefined;
          }
          return async () => {
            for (const [i, plan] of list.entries()) {
              const id = ids[i] as string;
              if (index.calls.has(id)) continue;
              // A todo_write saved after the call had run is the newer plan, though this snapshot is read only now.
              const late = plan.ranBy !== undefined && index.ownNewest !== undefined && index.ownNewest > plan.ranBy;
              await this.log.appendForeign(key, plan.items, late ? { ...plan.source, superseded: true } : plan.source, plan.at);
              // The reader noted the line with its place; if the read back failed, it is the newest.
              if (!index.calls.has(id)) index.calls.set(id, index.next++);
            }
            handed();
          };
        }),
      ),
    );
  }

  private reportBounded(agent: AgentId, session: string, detail: string): void {
    const key = `${agent}\n${session.slice(0, 2048)}`;
    if (this.boundedReported.has(key)) return;
    this.boundedReported.add(key);
    this.onBounded?.(agent, session, detail);
  }

  /** Appends a session/info line when the title, the newest turn or its participant changed; else writes nothing. */
  async updateSession(info: ForeignSessionInfo): Promise<void> {
    if (!AGENT_IDS.includes(info.agent) || typeof info.session !== 'string' || info.session === '') {
      throw new TypeError('updateSession: `agent` must be a known agent and `session` a non-empty string');
    }
    const key = sessionKeyForForeign(info.agent, info.session);
    await this.step(key, (index) => {
      const last = index.pending?.facts ?? index.info;
      // Turn facts keep the time first seen while they stay the same (sessionFacts.ts).
      const facts = nextFacts(last, info, this.now().toISOString());
      if (sameFacts(last, facts) || (last === undefined && Object.values(facts).every((fact) => fact === undefined))) return undefined;
      // Another window that read the foreign file further has written its facts after a
      // call this process has not reached: these are older, and must not overwrite them.
      if (index.handed !== undefined && index.infoAfter !== undefined && index.infoAfter > index.handed) return undefined;
      const source = { agent: info.agent, session: info.session };
      if (!index.planned) {
        index.pending = { source, facts };
        return undefined;
      }
      return async () => {
        index.pending = undefined;
        index.info = await this.log.appendInfo(key, source, facts);
      };
    });
  }

  /**
   * Appends a file/write line for each write not in the log yet, in the order given, with the
   * items in progress in the plan version the agent's record puts it after (`plansBefore`);
   * when the log does not hold that version (yet), the current plan's; with `itemsUnknown`, none
   * named and the line marked so (not known, never "none"). A subagent's write (`parent`) while
   * its session has no plan goes to its parent's log, marked `subagent`, with the items the
   * parent had in progress when it was made. A write not in the
   * shape of src/core/foreign.ts rejects the call with a TypeError before anything is written.
   */
  async importWrites(writes: readonly ForeignWrite[]): Promise<void> {
    const checked = writes.map((write, index) => {
      const { source } = write;
      const sourceProblem = writeSourceProblem(source);
      if (sourceProblem) throw new TypeError(`importWrites: write ${index + 1}: ${sourceProblem}`);
      if (!Array.isArray(write.files) || write.files.length === 0) throw new TypeError(`importWrites: write ${index + 1}: no files`);
      for (const file of write.files) {
        const problem = pathProblem(file);
        if (problem) throw new TypeError(`importWrites: write ${index + 1}: ${problem}`);
      }
      if (!Number.isInteger(write.plansBefore) || write.plansBefore < 0) throw new TypeError(`importWrites: write ${index + 1}: \`plansBefore\` must be an integer ≥ 0`);
      if (write.itemsUnknown !== undefined && typeof write.itemsUnknown !== 'boolean') throw new TypeError(`importWrites: write ${index + 1}: \`itemsUnknown\` must be a boolean`);
      const { parent } = write;
      if (parent !== undefined && (typeof parent !== 'string' || parent === '' || parent.length > MAX_PARENT_LENGTH || parent === source.session)) {
        throw new TypeError(`importWrites: write ${index + 1}: \`parent\` must be another session's id of 1 to ${MAX_PARENT_LENGTH} characters`);
      }
      const at = write.at !== undefined && !Number.isNaN(Date.parse(write.at)) ? write.at : undefined;
      const pending: PendingWrite = { write, at, id: callId(source.agent, source.session, source.call) };
      if (parent !== undefined) pending.parentKey = sessionKeyForForeign(source.agent, parent);
      return { key: sessionKeyForForeign(source.agent, source.session), ...pending };
    });
    const byKey = new Map<string, typeof checked>();
    for (const write of checked) byKey.set(write.key, [...(byKey.get(write.key) ?? []), write]);
    await Promise.all(
      [...byKey].map(async ([key, list]) => {
        const toParent = new Map<string, PendingWrite[]>();
        await this.step(key, (index) => this.writeStep(key, index, list, toParent));
        await Promise.all([...toParent].map(([parentKey, routed]) => this.step(parentKey, (index) => this.writeStep(parentKey, index, routed))));
      }),
    );
  }

  /**
   * Appends a `model/usage` line for each response whose (agent, session, call) is not in the
   * log yet, with the items in progress in the version its record puts it after: as importWrites.
   */
  async importUsage(usage: readonly ForeignUsage[]): Promise<void> {
    const checked = usage.map((entry, index) => {
      const { source } = entry;
      const problem = writeSourceProblem(source) ?? usageProblem(entry);
      if (problem) throw new TypeError(`importUsage: response ${index + 1}: ${problem}`);
      if (!Number.isInteger(entry.plansBefore) || entry.plansBefore < 0) throw new TypeError(`importUsage: response ${index + 1}: \`plansBefore\` must be an integer ≥ 0`);
      if (entry.itemsUnknown !== undefined && typeof entry.itemsUnknown !== 'boolean') throw new TypeError(`importUsage: response ${index + 1}: \`itemsUnknown\` must be a boolean`);
      const at = entry.at !== undefined && !Number.isNaN(Date.parse(entry.at)) ? entry.at : undefined;
      return { key: sessionKeyForForeign(source.agent, source.session), write: entry, at, id: usageId(source.agent, source.session, source.call) };
    });
    const byKey = new Map<string, typeof checked>();
    for (const entry of checked) byKey.set(entry.key, [...(byKey.get(entry.key) ?? []), entry]);
    await Promise.all([...byKey].map(([key, list]) => this.step(key, (index) => this.writeStep(key, index, list))));
  }

  /**
   * Appends a tree/snapshot line to a session's log in the same step as the imports (the
   * session's lock, after reading on what other windows appended), unless `present` then says
   * that one for the same moment is there: two windows that both saw a plan version write
   * one snapshot line. Resolves true when this call appended it.
   */
  async importSnapshot(key: string, facts: SnapshotFacts, present: () => boolean): Promise<boolean> {
    const problem = snapshotProblem(facts);
    if (problem) throw new TypeError(`importSnapshot: ${problem}`);
    let appended = false;
    await this.step(key, () =>
      present()
        ? undefined
        : async () => {
            await this.log.appendSnapshot(key, facts);
            appended = true;
          },
    );
    return appended;
  }

  /**
   * The append of the writes not in the log yet; none while the session has no plan (they wait
   * for it), but a subagent's writes, handed to `toParent` for its parent's log.
   */
  private writeStep(key: string, index: SessionIndex, list: readonly PendingWrite[], toParent?: Map<string, PendingWrite[]>): (() => Promise<void>) | undefined {
    const fresh = list.filter((write) => !index.writes.has(write.id));
    if (fresh.length === 0) return undefined;
    if (!index.planned) {
      for (const write of fresh) {
        if (toParent && write.parentKey !== undefined && write.subagent === undefined && 'files' in write.write) {
          const routed = toParent.get(write.parentKey) ?? [];
          if (!routed.some((known) => known.id === write.id)) routed.push({ write: write.write, at: write.at, id: write.id, subagent: true });
          toParent.set(write.parentKey, routed);
        } else if (!index.pendingWrites.some((known) => known.id === write.id)) index.pendingWrites.push(write);
      }
      index.pendingWrites.splice(0, Math.max(0, index.pendingWrites.length - MAX_PENDING_WRITES));
      return undefined;
    }
    return async () => {
      // Versions older than the index keeps (a catch-up over many plans hands them all before its writes), read back once.
      let older: Map<number, string[]> | undefined;
      for (const { write, at, id, subagent } of fresh) {
        if (index.writes.has(id)) continue;
        const n = write.plansBefore;
        if (subagent === undefined && write.itemsUnknown !== true && n > 0 && n <= index.versions && !index.inProgress.has(n)) older ??= await this.olderVersions(key, index.versions);
        // The agent's record does not tell the items in progress then: not known (null), never "none".
        // A subagent's count of plans is its own: the parent's items are found by the time of the write.
        const items = write.itemsUnknown === true ? null : subagent ? this.itemsAt(index, at) : n === 0 ? [] : (index.inProgress.get(n) ?? older?.get(n) ?? index.current);
        if ('files' in write) await this.log.appendWrite(key, write.source, write.files, items, at, subagent === true);
        else await this.log.appendUsage(key, write.source, write, items, at);
        index.writes.add(id);
      }
    };
  }

  /**
   * A subagent's write, at the agent's time `at`: the items in progress in the newest kept
   * version made by then (both times are the agent's own); the current plan's when the times
   * do not tell (a version without one, or none kept that early).
   */
  private itemsAt(index: SessionIndex, at: string | undefined): string[] {
    const written = at === undefined ? Number.NaN : Date.parse(at);
    if (Number.isNaN(written)) return index.current;
    for (let version = index.versions; index.inProgress.has(version); version--) {
      const made = index.times.get(version);
      if (made === undefined) break;
      if (made <= written) return index.inProgress.get(version) ?? index.current;
    }
    return index.current;
  }

  /** The in-progress texts of every plan version of the session, by 1-based version number, read backwards from the newest (`versions`). */
  private async olderVersions(key: string, versions: number): Promise<Map<number, string[]>> {
    const byVersion = new Map<number, string[]>();
    let version = versions;
    await this.log.readRecordsBackward(key, (record) => {
      if (isPlanEvent(record)) byVersion.set(version--, inProgressOf(record));
      return version < 1;
    });
    return byVersion;
  }

  /**
   * One check-and-append for a session, in this process's queue. `check` looks at the
   * index and returns the append to make, if any. Most checks find nothing to write and
   * take no lock; when one does, it is made again holding the session's lock, after
   * reading on what other processes appended, and only then is the append made.
   */
  private step(key: string, check: (index: SessionIndex) => (() => Promise<void>) | undefined): Promise<void> {
    return this.queue.run(key, async () => {
      // The reader first: it establishes the cursor before an index is built, so no line falls between them.
      await this.log.catchUp(key);
      if (!check(await this.index(key))) return;
      const locked = async (): Promise<void> => {
        await this.log.catchUp(key);
        const write = check(await this.index(key));
        if (write) await write();
        else this.stats.settledUnderLock++;
      };
      await (this.locks ? this.locks.run(key, locked) : locked());
    });
  }

  private async index(key: string): Promise<SessionIndex> {
    let index = this.indexes.get(key);
    if (!index) {
      const built: SessionIndex = {
        calls: new Map(),
        next: 1,
        lastPlan: undefined,
        ownNewest: undefined,
        info: undefined,
        infoAfter: undefined,
        handed: undefined,
        ready: Promise.resolve(),
        planned: false,
        writes: new Set(),
        versions: 0,
        inProgress: new Map(),
        current: [],
        times: new Map(),
        pendingWrites: [],
        held: [],
        countedUpTo: undefined,
      };
      const waiting = this.waiting.get(key);
      if (waiting) {
        this.waiting.delete(key);
        built.pendingWrites = waiting.pendingWrites;
        if (waiting.pending) built.pending = waiting.pending;
      }
      // In the map before the read starts, so lines the reader meets meanwhile are noted too.
      this.indexes.set(key, built);
      let newestInfo: SessionInfoRecord | undefined;
      let infoAfter: number | undefined;
      let newestPlan: number | undefined;
      let back = 0;
      // The newest versions' in-progress texts, newest first; numbered once the count is known.
      const newestFirst: string[][] = [];
      const newestFirstTimes: Array<number | undefined> = [];
      let versionsBack = 0;
      let newestAt: number | undefined;
      built.ready = this.log.readRecordsBackward(key, (record, at) => {
        newestAt ??= at;
        if (isFileWrite(record)) {
          built.writes.add(callId(record.source.agent, record.source.session, record.source.call));
        } else if (isUsage(record)) {
          built.writes.add(usageId(record.source.agent, record.source.session, record.source.call));
        } else if (isPlanEvent(record)) {
          versionsBack++;
          if (newestFirst.length < KEPT_VERSIONS) {
            newestFirst.push(inProgressOf(record));
            newestFirstTimes.push(timeOf(record));
          }
          built.planned = true;
          if (record.source) {
            const at = -++back;
            // Walking back, a repeated call ends at its first line.
            built.calls.set(callId(record.source.agent, record.source.session, record.source.call), at);
            newestPlan ??= at;
            if (newestInfo !== undefined) infoAfter ??= at;
          } else {
            built.ownNewest = newer(built.ownNewest, record.ts);
          }
        } else if (isInfoRecord(record)) {
          newestInfo ??= record;
        }
        return false;
      }).then(() => {
        built.versions = versionsBack;
        newestFirst.forEach((items, i) => built.inProgress.set(versionsBack - i, items));
        newestFirstTimes.forEach((time, i) => time !== undefined && built.times.set(versionsBack - i, time));
        if (newestFirst[0]) built.current = newestFirst[0];
        // Versions the reader met meanwhile: those the backward read did not reach come after it.
        const held = built.held ?? [];
        built.held = undefined;
        built.countedUpTo = newestAt;
        for (const version of held) this.countVersion(built, version.items, version.at, version.time);
        if (built.info === undefined) {
          built.info = newestInfo;
          built.infoAfter = infoAfter;
        }
        built.lastPlan ??= newestPlan;
      });
      index = built;
    }
    await index.ready;
    return index;
  }

  /** One more plan version of the session (at byte `at`), with the texts of its items in progress; none if the backward read counted it. */
  private countVersion(index: SessionIndex, items: string[], at: number | undefined, time: number | undefined): void {
    if (at !== undefined && index.countedUpTo !== undefined && at <= index.countedUpTo) return;
    index.current = items;
    index.inProgress.set(++index.versions, items);
    index.inProgress.delete(index.versions - KEPT_VERSIONS);
    if (time !== undefined) index.times.set(index.versions, time);
    index.times.delete(index.versions - KEPT_VERSIONS);
  }

  private note(key: string, index: SessionIndex, record: LogRecord, offset: number | undefined): void {
    if (isFileWrite(record)) {
      index.writes.add(callId(record.source.agent, record.source.session, record.source.call));
    } else if (isUsage(record)) {
      index.writes.add(usageId(record.source.agent, record.source.session, record.source.call));
    } else if (isPlanEvent(record)) {
      index.planned = true;
      if (index.held) index.held.push({ at: offset, items: inProgressOf(record), time: timeOf(record) });
      else this.countVersion(index, inProgressOf(record), offset, timeOf(record));
      if (record.source) {
        const id = callId(record.source.agent, record.source.session, record.source.call);
        const at = index.next++;
        if (!index.calls.has(id)) index.calls.set(id, at);
        index.lastPlan = at;
      } else {
        index.ownNewest = newer(index.ownNewest, record.ts);
      }
      if (index.pendingWrites.length > 0) {
        const waiting = index.pendingWrites.splice(0);
        void this.step(key, (current) => this.writeStep(key, current, waiting)).catch(() => {
          // Not saved (a write fault, a lock held past its bound): they wait for the session's next plan.
          for (const write of waiting) if (!index.pendingWrites.some((known) => known.id === write.id)) index.pendingWrites.push(write);
        });
      }
      const pending = index.pending;
      if (pending) {
        index.pending = undefined;
        void this.step(key, (current) =>
          // Another process may have written the same facts since.
          sameFacts(current.info, pending.facts)
            ? undefined
            : async () => {
                current.info = await this.log.appendInfo(key, pending.source, pending.facts);
              },
        ).catch(() => {
          // Not saved (a write fault): the next change of the session's info writes it again.
          index.pending ??= pending;
        });
      }
    } else if (isInfoRecord(record)) {
      index.info = record;
      index.infoAfter = index.lastPlan;
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.indexes.clear();
    this.waiting.clear();
  }
}

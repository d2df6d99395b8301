// Where followers of other agents' files hand their plans: the log's import side.
// Idempotence is read from the log itself: a plan whose (agent, session, call) already has
// a line in its session's log is skipped. Each session's set of imported calls is built
// once, lazily, by one backward read of that log, and kept current by the log's one reader
// (which sees this sink's appends and anyone else's), so no call re-reads a history.
import type { AgentId, ForeignPlan, ForeignSessionInfo, PlanSink } from '../sources/types';
import type { Disposable } from './emitter';
import { FileQueue } from './fileQueue';
import { AGENT_IDS, isPlanEvent, parseForeignItems, parseSource, type LogRecord, type SessionFacts, type SessionInfoRecord } from './logRecord';
import { nextFacts, sameFacts } from './sessionFacts';
import { copilotSessionKey, foreignSessionKey } from './sessionKey';
import type { SessionLog } from './sessionLog';

/** The Agent Plan session a foreign session maps to. */
export function sessionKeyForForeign(agent: AgentId, session: string): string {
  return agent === 'copilot' ? copilotSessionKey(session) : foreignSessionKey(agent, session);
}

interface SessionIndex {
  /** `${agent}\n${session}\n${call}` of every mirrored plan in the log. */
  calls: Set<string>;
  /** The newest session/info line in the log. */
  info: SessionInfoRecord | undefined;
  /** Resolves once the backward read is done. */
  ready: Promise<void>;
  /** The log holds a plan for this session (from any source). */
  planned: boolean;
  /**
   * Info about a session with no plan yet: kept here, not written, so a chat that never
   * plans leaves no file; written as soon as the session's first plan is read.
   */
  pending?: { source: { agent: AgentId; session: string }; facts: SessionFacts };
}

const callId = (agent: string, session: string, call: string): string => `${agent}\n${session}\n${call}`;

export class LogPlanSink implements PlanSink, Disposable {
  private readonly indexes = new Map<string, SessionIndex>();
  /** One import or update at a time per Agent Plan session, so a check and its append stay together. */
  private readonly queue = new FileQueue();
  private readonly subscription: Disposable;

  constructor(
    private readonly log: SessionLog,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.subscription = log.onDidRead((read) => {
      const index = this.indexes.get(read.session);
      if (!index) return;
      // A file deleted or cut short no longer holds what the index says: build it again when asked.
      if (read.gone || read.sync?.reset) {
        this.indexes.delete(read.session);
        return;
      }
      for (const record of read.records) this.note(read.session, index, record);
    });
  }

  /**
   * Appends each plan not in the log yet, in the order given. A plan that is not in the
   * shape of src/sources/types.ts (a follower's bug) rejects the call with a TypeError
   * before anything is written.
   */
  async importPlans(plans: readonly ForeignPlan[]): Promise<void> {
    const checked = plans.map((plan, index) => {
      const source = parseSource(plan.source);
      if (typeof source === 'string') throw new TypeError(`importPlans: plan ${index + 1}: ${source}`);
      const items = parseForeignItems(plan.items);
      if (typeof items === 'string') throw new TypeError(`importPlans: plan ${index + 1}: ${items}`);
      const at = plan.at !== undefined && !Number.isNaN(Date.parse(plan.at)) ? plan.at : undefined;
      return { key: sessionKeyForForeign(source.agent, source.session), source, items, at };
    });
    const byKey = new Map<string, typeof checked>();
    for (const plan of checked) {
      const list = byKey.get(plan.key);
      if (list) list.push(plan);
      else byKey.set(plan.key, [plan]);
    }
    await Promise.all(
      [...byKey].map(([key, list]) =>
        this.queue.run(key, async () => {
          const index = await this.index(key);
          for (const plan of list) {
            const id = callId(plan.source.agent, plan.source.session, plan.source.call);
            if (index.calls.has(id)) continue;
            await this.log.appendMirrored(key, plan.items, plan.source, plan.at);
            index.calls.add(id);
          }
        }),
      ),
    );
  }

  /** Appends a session/info line when the title, the newest turn or its participant changed; else writes nothing. */
  async updateSession(info: ForeignSessionInfo): Promise<void> {
    if (!AGENT_IDS.includes(info.agent) || typeof info.session !== 'string' || info.session === '') {
      throw new TypeError('updateSession: `agent` must be a known agent and `session` a non-empty string');
    }
    const key = sessionKeyForForeign(info.agent, info.session);
    await this.queue.run(key, async () => {
      const index = await this.index(key);
      const last = index.pending?.facts ?? index.info;
      const facts = nextFacts(last, info, this.now().toISOString());
      if (sameFacts(last, facts) || (last === undefined && Object.values(facts).every((fact) => fact === undefined))) return;
      const source = { agent: info.agent, session: info.session };
      if (!index.planned) {
        index.pending = { source, facts };
        return;
      }
      index.pending = undefined;
      index.info = await this.log.appendInfo(key, source, facts);
    });
  }

  private async index(key: string): Promise<SessionIndex> {
    let index = this.indexes.get(key);
    if (!index) {
      const built: SessionIndex = { calls: new Set(), info: undefined, ready: Promise.resolve(), planned: false };
      // In the map before the read starts, so lines the reader meets meanwhile are noted too.
      this.indexes.set(key, built);
      let newestInfo: SessionInfoRecord | undefined;
      built.ready = this.log.readRecordsBackward(key, (record) => {
        if (isPlanEvent(record)) {
          built.planned = true;
          if (record.source) built.calls.add(callId(record.source.agent, record.source.session, record.source.call));
        } else {
          newestInfo ??= record;
        }
        return false;
      }).then(() => {
        built.info ??= newestInfo;
      });
      index = built;
    }
    await index.ready;
    return index;
  }

  private note(key: string, index: SessionIndex, record: LogRecord): void {
    if (isPlanEvent(record)) {
      index.planned = true;
      if (record.source) index.calls.add(callId(record.source.agent, record.source.session, record.source.call));
      const pending = index.pending;
      if (pending) {
        index.pending = undefined;
        void this.queue.run(key, async () => {
          index.info = await this.log.appendInfo(key, pending.source, pending.facts);
        }).catch(() => {
          // Not saved (a write fault): the next change of the session's info writes it again.
          index.pending ??= pending;
        });
      }
    } else {
      index.info = record;
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.indexes.clear();
  }
}

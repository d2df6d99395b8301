// One session of a recording replayed through the real parser, the log's import side, the
// log, the health book and the Needs You queue, on a clock the test moves: the waiting tests
// of every agent use it.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { HealthSignal } from '../../src/core/derived/health';
import { HealthBook } from '../../src/core/derived/healthBook';
import { NeedsYouBook } from '../../src/core/derived/needsYouBook';
import { needsYouReason } from '../../src/core/derived/needsYouText';
import type { SessionParser } from '../../src/core/foreign';
import { LogPlanSink, sessionKeyForForeign } from '../../src/core/log/planSink';
import { SessionLog } from '../../src/core/log/sessionLog';
import { formatOnly } from '../../src/core/plan/present';
import { nodeFileSystem } from '../../src/node/nodeFileSystem';

export class Replay {
  readonly clock: { now: number };
  readonly book: HealthBook;
  /** The "Needs you" queue, kept from the same log and health book as the extension keeps it. */
  readonly needs: NeedsYouBook;
  private readonly sink: LogPlanSink;
  /** When the timer, set as the extension sets it, fires next. */
  private timer: number | undefined;
  key: string | undefined;

  private readonly everyLine: boolean;

  /** `everyLine`: each line of the recording must be read (none left unknown to the parser). */
  constructor(
    dir: string,
    private readonly parser: SessionParser,
    options: { start?: number; everyLine?: boolean } = {},
  ) {
    this.clock = { now: options.start ?? Date.UTC(2026, 11, 4, 9, 0, 0) };
    this.everyLine = options.everyLine ?? false;
    const date = () => new Date(this.clock.now);
    const log = new SessionLog(path.join(dir, 'sessions'), nodeFileSystem, { now: date });
    this.sink = new LogPlanSink(log, { now: date });
    this.book = new HealthBook(log, { now: () => this.clock.now });
    this.needs = new NeedsYouBook(log, this.book);
    // As the extension's one timer: set again only when the book says its next check moved.
    const schedule = () => (this.timer = this.book.nextCheck());
    this.book.onDidChange(schedule);
    this.book.onDidChangeNextCheck(schedule);
  }

  /** Feeds lines a second apart (far below the time rules). */
  async push(lines: readonly string[]): Promise<void> {
    for (const line of lines) {
      this.clock.now += 1000;
      const out = this.parser.push([line]);
      if (this.everyLine) assert.deepEqual(out.unknown, [], 'every line of the recording is read');
      if (out.plans.length > 0) await this.sink.importPlans(out.plans);
      if (out.info) {
        await this.sink.updateSession(out.info);
        this.key ??= sessionKeyForForeign(out.info.agent, out.info.session);
      }
    }
  }

  /** Time passes; the book looks again when its next check says (as the extension's one timer does). */
  wait(ms: number): void {
    this.clock.now += ms;
    if (this.timer !== undefined && this.timer <= this.clock.now) this.book.check();
  }

  signals(): HealthSignal[] {
    if (this.key === undefined) throw new Error('the recording named no session');
    return this.book.signals(this.key);
  }

  /** The session's waiting signals. */
  waits(): HealthSignal[] {
    return this.signals().filter((signal) => signal.kind === 'waiting');
  }

  /** Why the session is in the "Needs you" queue (its reason's words), or undefined when it is not there. */
  needsYou(): string | undefined {
    if (this.key === undefined) throw new Error('the recording named no session');
    const entry = this.needs.get(this.key);
    return entry ? needsYouReason(entry.signal, formatOnly) : undefined;
  }
}

// Every session's ledger, in step with the log (next to the files book): a session's past is
// read once, whole, the first time it is asked for; every line after is fed on, once.
import { LedgerBuilder } from './ledger';
import { isPlanEvent, type LogRecord } from '../log/logRecord';
import { SessionBook, type SessionState } from './sessionBook';
import type { SessionLog } from '../log/sessionLog';
import { isUsage } from '../log/usageRecord';

export class SessionLedger extends LedgerBuilder implements SessionState {
  feed(record: LogRecord): boolean {
    this.push(record);
    return isUsage(record) || isPlanEvent(record) || record.type === 'permission/ask';
  }
}

export class LedgerBook extends SessionBook<SessionLedger> {
  constructor(log: SessionLog) {
    super(
      log,
      () => new SessionLedger(),
      () => () => false,
    );
  }
}

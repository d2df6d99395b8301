// The signals the health book keeps for a session it holds as a summary (a short text of
// tuples) read back exactly as they were told, whatever their fields.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { HealthSignal } from '../../../../src/core/derived/health';
import { toldSignals, toldText } from '../../../../src/core/derived/healthBook';

const iso = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString());
const signal: fc.Arbitrary<HealthSignal> = fc.record(
  {
    kind: fc.constantFrom('stopped-open', 'stalled', 'dropped', 'reopened', 'reworded', 'done', 'request-open'),
    since: fc.oneof(iso, fc.string()),
    at: fc.nat(),
    how: fc.constantFrom('ended', 'cancelled', 'failed'),
    items: fc.array(fc.string(), { maxLength: 4 }),
    stall: fc.record({ reason: fc.constantFrom('calls', 'time', 'idle'), calls: fc.nat() }),
  },
  { requiredKeys: ['kind', 'since'] },
) as fc.Arbitrary<HealthSignal>;

describe('the health book\'s kept signals', () => {
  it('read back as told, in order, any field present or absent', () => {
    fc.assert(
      fc.property(fc.array(signal, { maxLength: 4 }), (signals) => {
        // fast-check's records have no prototype; the signals the book tells are plain data.
        assert.deepEqual(toldSignals(toldText(signals)), JSON.parse(JSON.stringify(signals)));
      }),
    );
  });

  it('a field this text does not name yet is kept too', () => {
    const signals = [{ kind: 'stalled', since: '2026-01-02T03:04:05.006Z', wait: { tool: 'Bash' } } as unknown as HealthSignal];
    assert.deepEqual(toldSignals(toldText(signals)), signals);
  });

  it('is shorter than the signals\' JSON', () => {
    const signals: HealthSignal[] = [{ kind: 'stalled', since: '2026-01-02T03:04:05.006Z', stall: { reason: 'idle', calls: 0 } }];
    assert.ok(toldText(signals).length < JSON.stringify(signals).length / 1.5, toldText(signals));
  });
});

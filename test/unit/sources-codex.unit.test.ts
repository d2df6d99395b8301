// Codex rollouts: update_plan calls (arguments as a JSON string) as whole lists.
import * as assert from 'node:assert/strict';
import { createCodexParser } from '../../src/sources/codex';

const THREAD = '019a0000-0000-7000-8000-000000000001';
const meta = JSON.stringify({ timestamp: '2026-12-02T10:00:00.000Z', type: 'session_meta', payload: { id: THREAD, cwd: '/work/ws', cli_version: '0.171.0' } });
function planCall(callId: string, args: unknown, raw = false): string {
  return JSON.stringify({
    timestamp: '2026-12-02T10:00:05.000Z', type: 'response_item',
    payload: { type: 'function_call', name: 'update_plan', arguments: raw ? args : JSON.stringify(args), call_id: callId },
  });
}

describe('codex parser', () => {
  it('maps update_plan steps, trimmed, explanation left out; session and cwd from session_meta', () => {
    const out = createCodexParser().push([
      meta,
      planCall('call_1', { explanation: 'Because', plan: [{ step: ' Inspect ', status: 'completed' }, { step: 'Fix', status: 'in_progress' }] }),
      JSON.stringify({ type: 'response_item', payload: { type: 'function_call_output', call_id: 'call_1', output: 'Plan updated' } }),
    ]);
    assert.deepEqual(out.plans, [{
      source: { agent: 'codex', tool: 'update_plan', session: THREAD, call: 'call_1' },
      items: [{ content: 'Inspect', status: 'completed' }, { content: 'Fix', status: 'in_progress' }],
      at: '2026-12-02T10:00:05.000Z',
    }]);
    assert.deepEqual(out.info, { agent: 'codex', session: THREAD, cwd: '/work/ws' });
    assert.deepEqual(out.unknown, []);
  });

  it('emits a call once, even when its line comes again', () => {
    const call = planCall('call_1', { plan: [] });
    const out = createCodexParser().push([meta, call, call]);
    assert.equal(out.plans.length, 1);
    assert.deepEqual(out.plans[0]?.items, []);
  });

  it('reports arguments that are not JSON, or an unknown status, once each', () => {
    const out = createCodexParser().push([
      meta,
      planCall('c1', '{not json', true),
      planCall('c2', '{also not', true),
      planCall('c3', { plan: [{ step: 'x', status: 'done' }] }),
      planCall('c4', { plan: [{ step: 'y', status: 'pending' }] }),
    ]);
    assert.deepEqual(out.unknown, [
      { line: 2, detail: 'update_plan arguments that are not JSON' },
      { line: 4, detail: 'update_plan status "done"' },
    ]);
    assert.deepEqual(out.plans.map((p) => p.source.call), ['c4']);
  });

  it('ignores other function calls and lines naming update_plan in text', () => {
    const out = createCodexParser().push([
      meta,
      JSON.stringify({ type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: '{"command":["update_plan"]}', call_id: 'x' } }),
      JSON.stringify({ type: 'event_msg', payload: { type: 'agent_message', message: 'calling update_plan' } }),
    ]);
    assert.deepEqual(out.plans, []);
    assert.deepEqual(out.unknown, []);
  });
});

// A scripted OpenAI Responses server (what Codex calls): POST /v1/responses,
// answered as an SSE stream of one response per script turn.
import { sendEvent, startModelServer, startSse, turnFor } from './sse.mjs';

function toolResults(body) {
  return (Array.isArray(body?.input) ? body.input : []).filter((item) => item.type === 'function_call_output' || item.type === 'custom_tool_call_output').length;
}

/** Starts the server; the script's turns are played in order of tool results seen. */
export function startResponsesServer(script, options = {}) {
  let serial = 0;
  return startModelServer({
    name: 'responses',
    ...options,
    handle(request, res) {
      const url = new URL(request.url, 'http://127.0.0.1');
      if (request.method !== 'POST' || url.pathname !== '/v1/responses') return false;
      serial += 1;
      const turn = turnFor(script, toolResults(request.body));
      request.played = turn;
      const responseId = `resp_scripted_${String(serial).padStart(3, '0')}`;
      startSse(res);
      sendEvent(res, { type: 'response.created', response: { id: responseId } }, 'response.created');
      const calls = turn.calls ?? [];
      calls.forEach((call, index) => {
        const call_id = `call_scripted_${String(serial).padStart(3, '0')}_${index}`;
        // A call whose input is text is a freeform (custom) tool's, as apply_patch is.
        const item = typeof call.input === 'string'
          ? { type: 'custom_tool_call', id: `ctc_scripted_${serial}_${index}`, call_id, name: call.name, input: call.input }
          // An MCP server's tool is called in its namespace (`mcp__<server>`), as Codex offers it.
          : { type: 'function_call', id: `fc_scripted_${serial}_${index}`, call_id, name: call.name, ...(call.namespace !== undefined ? { namespace: call.namespace } : {}), arguments: JSON.stringify(call.input) };
        const empty = item.type === 'function_call' ? { ...item, arguments: '' } : { ...item, input: '' };
        sendEvent(res, { type: 'response.output_item.added', output_index: index, item: empty }, 'response.output_item.added');
        sendEvent(res, { type: 'response.output_item.done', output_index: index, item }, 'response.output_item.done');
      });
      if (calls.length === 0) {
        const item = { type: 'message', role: 'assistant', id: `msg_scripted_${serial}`, content: [{ type: 'output_text', text: turn.text ?? 'Done.', annotations: [] }] };
        sendEvent(res, { type: 'response.output_item.added', output_index: 0, item: { ...item, content: [] } }, 'response.output_item.added');
        sendEvent(res, { type: 'response.output_text.delta', output_index: 0, content_index: 0, item_id: item.id, delta: turn.text ?? 'Done.' }, 'response.output_text.delta');
        sendEvent(res, { type: 'response.output_item.done', output_index: 0, item }, 'response.output_item.done');
      }
      const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 20, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 30 };
      sendEvent(res, { type: 'response.completed', response: { id: responseId, status: 'completed', usage } }, 'response.completed');
      res.end();
      return true;
    },
  });
}

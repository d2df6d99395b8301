// A scripted Anthropic Messages server (what Claude Code calls): POST /v1/messages,
// answered as an SSE stream of one assistant message per script turn.
import { sendEvent, startModelServer, startSse, turnFor } from './sse.mjs';

function toolResults(body) {
  let n = 0;
  for (const message of body?.messages ?? []) {
    if (message.role !== 'user' || !Array.isArray(message.content)) continue;
    n += message.content.filter((block) => block.type === 'tool_result').length;
  }
  return n;
}

function stream(res, model, turn, serial) {
  startSse(res);
  const id = `msg_scripted_${String(serial).padStart(3, '0')}`;
  const usage = { input_tokens: 10, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  sendEvent(res, { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage } }, 'message_start');
  const calls = turn.calls ?? [];
  if (calls.length === 0) {
    sendEvent(res, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start');
    sendEvent(res, { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: turn.text ?? 'Done.' } }, 'content_block_delta');
    sendEvent(res, { type: 'content_block_stop', index: 0 }, 'content_block_stop');
  }
  calls.forEach((call, index) => {
    const toolId = `toolu_scripted_${String(serial).padStart(3, '0')}_${index}`;
    sendEvent(res, { type: 'content_block_start', index, content_block: { type: 'tool_use', id: toolId, name: call.name, input: {} } }, 'content_block_start');
    sendEvent(res, { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.input) } }, 'content_block_delta');
    sendEvent(res, { type: 'content_block_stop', index }, 'content_block_stop');
  });
  sendEvent(res, { type: 'message_delta', delta: { stop_reason: calls.length ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 20 } }, 'message_delta');
  sendEvent(res, { type: 'message_stop' }, 'message_stop');
  res.end();
}

/** The text of a request's first user message. */
function firstUserText(body) {
  const first = (body?.messages ?? []).find((m) => m.role === 'user');
  if (!first) return '';
  return typeof first.content === 'string' ? first.content : (Array.isArray(first.content) ? first.content : []).map((b) => (b.type === 'text' ? b.text : '')).join('\n');
}

/**
 * A script is a list of turns, or `{ main, subagent, marker }` for a run with a subagent: a
 * conversation whose first user message holds `marker` (the prompt the main script hands the
 * subagent) plays `subagent`, every other one `main`.
 */
function scriptFor(script, body) {
  if (Array.isArray(script)) return script;
  return firstUserText(body).includes(script.marker) ? script.subagent : script.main;
}

/** Starts the server; the script's turns are played on requests that offer tools. */
export function startAnthropicServer(script, options = {}) {
  let serial = 0;
  return startModelServer({
    name: 'anthropic',
    ...options,
    handle(request, res) {
      const url = new URL(request.url, 'http://127.0.0.1');
      if (request.method !== 'POST' || url.pathname !== '/v1/messages') return false;
      serial += 1;
      const body = request.body ?? {};
      // Side requests (titles, summaries) carry no tools: they get a short text.
      const turn = Array.isArray(body.tools) && body.tools.length ? turnFor(scriptFor(script, body), toolResults(body)) : { text: 'Scripted session' };
      request.played = turn;
      if (body.stream === false) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: `msg_scripted_${serial}`, type: 'message', role: 'assistant', model: body.model, content: [{ type: 'text', text: turn.text ?? 'Done.' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } }));
        return true;
      }
      stream(res, body.model ?? 'claude-sonnet-4-6', turn, serial);
      return true;
    },
  });
}

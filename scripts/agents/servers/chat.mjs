// A scripted OpenAI Chat Completions server (what opencode, Kilo CLI and Qwen Code
// call through their OpenAI-compatible providers): POST /v1/chat/completions,
// streamed (SSE) or not, one model turn per script turn. A request that offers no
// tools (a session title, a summary) gets a short text and plays no turn.
import { startModelServer, turnFor } from './sse.mjs';

function toolResults(body) {
  return (Array.isArray(body?.messages) ? body.messages : []).filter((m) => m.role === 'tool').length;
}

/** Starts the server; the script's turns are played in order of tool results seen. */
export function startChatServer(script, options = {}) {
  let serial = 0;
  return startModelServer({
    name: 'chat',
    ...options,
    handle(request, res) {
      const url = new URL(request.url, 'http://127.0.0.1');
      if (request.method === 'GET' && url.pathname === '/v1/models') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'm', object: 'model', owned_by: 'scripted' }] }));
        return true;
      }
      if (request.method !== 'POST' || url.pathname !== '/v1/chat/completions') return false;
      serial += 1;
      const body = request.body ?? {};
      const offersTools = Array.isArray(body.tools) && body.tools.length > 0;
      const turn = offersTools ? turnFor(script, toolResults(body)) : { text: 'Fix the parser' };
      request.played = offersTools ? turn : { side: turn };
      const id = `chatcmpl-scripted-${String(serial).padStart(3, '0')}`;
      const created = Math.floor(Date.now() / 1000);
      const model = body.model ?? 'm';
      const calls = (turn.calls ?? []).map((call, index) => ({
        index,
        id: `call_scripted_${String(serial).padStart(3, '0')}_${index}`,
        type: 'function',
        function: { name: call.name, arguments: JSON.stringify(call.input) },
      }));
      const finish = calls.length ? 'tool_calls' : 'stop';
      const usage = { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 };
      const message = calls.length ? { role: 'assistant', content: null, tool_calls: calls.map(({ index: _i, ...c }) => c) } : { role: 'assistant', content: turn.text ?? 'Done.' };
      if (!body.stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: finish }], usage }));
        return true;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      const chunk = (delta, finishReason = null, extra = {}) =>
        res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`);
      if (calls.length) {
        chunk({ role: 'assistant', content: null });
        for (const call of calls) chunk({ tool_calls: [call] });
      } else {
        chunk({ role: 'assistant', content: '' });
        chunk({ content: turn.text ?? 'Done.' });
      }
      chunk({}, finish, { usage });
      res.write('data: [DONE]\n\n');
      res.end();
      return true;
    },
  });
}

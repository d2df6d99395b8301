// A scripted OpenAI Chat Completions server (what opencode, Kilo CLI and Qwen Code
// call through their OpenAI-compatible providers): POST /v1/chat/completions,
// streamed (SSE) or not, one model turn per script turn. A request that offers no
// tools (a session title, a summary) gets a short text and plays no turn; with `textTurns`
// (Cline 2.x, whose tool calls are XML in the model's text and whose requests offer no tools)
// such a request plays the turn after as many assistant messages as it carries.
import { startModelServer, turnFor } from './sse.mjs';

function toolResults(body) {
  return (Array.isArray(body?.messages) ? body.messages : []).filter((m) => m.role === 'tool').length;
}

/** The text of a request's first user message. */
function firstUserText(body) {
  const first = (Array.isArray(body?.messages) ? body.messages : []).find((m) => m.role === 'user');
  if (!first) return '';
  return typeof first.content === 'string' ? first.content : (Array.isArray(first.content) ? first.content : []).map((b) => (b.type === 'text' ? b.text : '')).join('\n');
}

/**
 * A script is a list of turns, or `{ main, subagent, marker }` for a run with a subagent: a
 * conversation whose first user message holds `marker` plays `subagent`, every other one `main`.
 */
function scriptFor(script, body) {
  if (Array.isArray(script)) return script;
  return firstUserText(body).includes(script.marker) ? script.subagent : script.main;
}

function assistantMessages(body) {
  return (Array.isArray(body?.messages) ? body.messages : []).filter((m) => m.role === 'assistant').length;
}

/** Starts the server; the script's turns are played in order of tool results seen. */
export function startChatServer(script, { textTurns = false, ...options } = {}) {
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
      const scripted = offersTools || textTurns;
      const turns = scriptFor(script, body);
      const turn = offersTools ? turnFor(turns, toolResults(body)) : textTurns ? (turns[assistantMessages(body)] ?? { text: 'Done.' }) : { text: 'Fix the parser' };
      request.played = scripted ? turn : { side: turn };
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

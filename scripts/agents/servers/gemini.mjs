// A scripted Gemini server (what Gemini CLI calls): POST
// /v1beta/models/<model>:streamGenerateContent?alt=sse, one model turn per script turn.
import { sendEvent, startModelServer, startSse, turnFor } from './sse.mjs';

function toolResults(body) {
  let n = 0;
  for (const content of body?.contents ?? []) {
    n += (content.parts ?? []).filter((part) => part.functionResponse).length;
  }
  return n;
}

/** Starts the server; the script's turns are played in order of tool results seen. */
export function startGeminiServer(script, options = {}) {
  return startModelServer({
    name: 'gemini',
    ...options,
    handle(request, res) {
      const url = new URL(request.url, 'http://127.0.0.1');
      const match = /^\/v1beta\/models\/([^/:]+):(streamGenerateContent|generateContent|countTokens)$/.exec(url.pathname);
      if (request.method !== 'POST' || !match) return false;
      const [, model, method] = match;
      const usageMetadata = { promptTokenCount: 10, candidatesTokenCount: 20, totalTokenCount: 30 };
      if (method === 'countTokens') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ totalTokens: 10 }));
        return true;
      }
      const turn = turnFor(script, toolResults(request.body));
      request.played = turn;
      const parts = turn.calls?.length
        ? turn.calls.map((call) => ({ functionCall: { name: call.name, args: call.input } }))
        : [{ text: turn.text ?? 'Done.' }];
      const chunk = { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata, modelVersion: model };
      if (method === 'generateContent') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(chunk));
        return true;
      }
      startSse(res);
      sendEvent(res, chunk);
      res.end();
      return true;
    },
  });
}

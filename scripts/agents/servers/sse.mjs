// What the three scripted model servers share: a loopback HTTP server bounded in
// requests and in time that records every request, an SSE writer, and the rule that
// picks the script's next turn from how many tool results the conversation holds
// (so retries and side requests never skip a turn). Node built-ins only.
import * as http from 'node:http';

/**
 * A script is a list of turns; each turn is `{ calls: [{ name, input }] }` (one model
 * message with those tool calls, in parallel when several) or `{ text }` (the answer).
 * Returns the turn to play when the conversation already carries `results` tool results.
 */
export function turnFor(script, results) {
  let seen = 0;
  for (const turn of script) {
    const calls = turn.calls?.length ?? 0;
    if (calls === 0) return turn;
    if (seen + calls > results) return turn;
    seen += calls;
  }
  return { text: 'Done.' };
}

/** Writes one server-sent event; `event` is optional (Gemini's stream has none). */
export function sendEvent(res, data, event) {
  if (event) res.write(`event: ${event}\n`);
  res.write(`data: ${JSON.stringify(data)}\n\n`);
}

export function startSse(res) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
}

function readBody(req, limit) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > limit) {
        reject(new Error(`request body over ${limit} bytes`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * Starts a scripted model server on 127.0.0.1. `handle(request, res)` answers one
 * request (`request` = { method, url, headers, body: parsed JSON or null }); it
 * returns false when it does not know the route (answered 404). Every request is
 * kept in `requests`; `onRequest(request)`, when given, runs before each answer,
 * `onAnswered(request)` once its answer has been sent whole, and each answer waits
 * `delayMs` first (so a watcher can see every step of a run).
 * After `maxRequests` requests or `lifetimeMs` the server refuses more and closes.
 */
export async function startModelServer({ name, handle, onRequest, onAnswered, delayMs = 0, maxRequests = 40, lifetimeMs = 180_000, bodyLimit = 16 * 1024 * 1024 }) {
  const requests = [];
  let closed = false;
  const shutdown = () => {
    closed = true;
    server.close();
    server.closeAllConnections?.();
  };
  const server = http.createServer(async (req, res) => {
    if (closed || requests.length >= maxRequests) {
      res.writeHead(429, { 'content-type': 'application/json', connection: 'close' });
      res.end(JSON.stringify({ error: { message: `${name}: over ${maxRequests} requests or past its time` } }));
      shutdown();
      return;
    }
    let raw = '';
    try {
      raw = await readBody(req, bodyLimit);
    } catch (error) {
      res.writeHead(413);
      res.end(String(error));
      return;
    }
    let body = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = null;
    }
    const request = { at: new Date().toISOString(), method: req.method, url: req.url, headers: req.headers, body, raw: body ? undefined : raw };
    requests.push(request);
    res.on('finish', () => onAnswered?.(request));
    try {
      await onRequest?.(request);
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      const known = await handle(request, res);
      if (known === false) {
        request.unknown = true;
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `${name}: no route for ${req.method} ${req.url}` } }));
      }
    } catch (error) {
      request.error = String(error?.stack ?? error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const timer = setTimeout(shutdown, lifetimeMs);
  timer.unref();
  const { port } = server.address();
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        clearTimeout(timer);
        closed = true;
        server.close(() => resolve());
        server.closeAllConnections?.();
      }),
  };
}

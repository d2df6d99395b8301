#!/usr/bin/env node
// A scripted language model behind an OpenAI-compatible Chat Completions API, for
// putting the real GitHub Copilot agent in the loop without a network: Copilot's
// bring-your-own-model vendor (`customendpoint`) is pointed at it, and it plays
// agent turns from a script while recording every request it receives.
//
// - Loopback only (127.0.0.1), a free port; bounded in requests and in lifetime,
//   after which it closes itself.
// - `POST /v1/chat/completions` (streamed as SSE when `stream: true`, else one JSON
//   body) and `GET /v1/models`; `/chat/completions` and `/models` work too.
// - The main agent request (the one that offers tools) is answered from the script;
//   any other request (chat titles, progress messages) is a side request and gets a
//   short text.
// - Every request is appended as one JSON line to the record file.
// - Every answer reports its usage: 20 completion tokens, 10 prompt tokens plus the step's index
//   in its turn (a side request: 10), so recorded figures are known.
//
// A script is `{ turns: [ { match?, steps: [step, …] }, … ], sideText?, sideReplies? }`
// (`sideReplies: [{ match, say }]` answers matching side requests, e.g. a chat's title). A turn
// answers one user request: the first turn whose `match` (a case-insensitive
// substring) occurs in the request's user text, else the next turn without `match`
// not played yet (once all are played, the last of them again). A turn with
// `stopOnToolError: true` ends, saying so, as soon as a call's result is Copilot's
// "ERROR while calling tool: …" (its later steps would tell of work not done). A step is `{ say?, calls?: [{ tool, arguments }], delayMs?, holdUntil? }`
// (`delayMs`: its answer waits that long; with `holdUntil: "<name>"`, only until a file
// `release-<name>` appears beside the record file, as a test writes it once it has seen what the wait was for)
// (`tool`/`arguments` directly on the step are one call). A step with calls ends
// with `finish_reason: "tool_calls"`; the next step is played when Copilot comes
// back with those calls' `role: "tool"` results. The last step should have no
// calls: its `say` ends the turn.
//
// An argument string may hold `${workspaceFolder}`: it becomes the first folder the request's
// `<workspace_info>` names (Copilot's edit tools want absolute paths, and a run's workspace
// is a fresh folder each time).
//
// The server keeps no conversation state: the tool-call ids it hands out encode
// which turn and step they belong to, and every request carries them back.
//
// Standalone: node test/scripted-model/modelServer.mjs --script s.json --record r.jsonl
//   [--max-requests 400] [--lifetime-s 900] [--model scripted-agent]
// prints one JSON line `{"port":…,"url":…,"chatUrl":…}` and runs until its bounds
// or SIGINT/SIGTERM. From code: `const server = await startModelServer({ script,
// recordFile }); … await server.close();`.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

export const MODEL_ID = 'scripted-agent';
export const MODEL_NAME = 'Scripted Agent';
export const VENDOR = 'customendpoint';
const MAX_BODY_BYTES = 16 * 1024 * 1024;
const DEFAULT_SIDE_TEXT = 'Scripted plan';
const ID_PATTERN = /^call_ap([0-9a-f]{6})t(\d+)s(\d+)c(\d+)$/;
/** How Copilot Chat 0.67 begins the result of a tool call that threw. */
const TOOL_ERROR = 'ERROR while calling tool:';

/** The `User/chatLanguageModels.json` content that points Copilot at a server on `port`. */
export function chatLanguageModels(port, { modelId = MODEL_ID, modelName = MODEL_NAME } = {}) {
  return [
    {
      vendor: VENDOR,
      name: 'Agent Plan scripted',
      apiType: 'chat-completions',
      models: [
        {
          id: modelId,
          name: modelName,
          url: `http://127.0.0.1:${port}/v1/chat/completions`,
          toolCalling: true,
          vision: false,
          maxInputTokens: 128000,
          maxOutputTokens: 4096,
        },
      ],
    },
  ];
}

/** Reads every record a server wrote (one JSON object per line). */
export function readRecords(recordFile) {
  let text;
  try {
    text = readFileSync(recordFile, 'utf8');
  } catch (error) {
    if (error && error.code === 'ENOENT') return [];
    throw error;
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (part && typeof part.text === 'string' ? part.text : '')).join('');
}

function validateScript(script) {
  if (!script || typeof script !== 'object' || !Array.isArray(script.turns)) {
    throw new Error('model server: a script is an object with a "turns" array');
  }
  script.turns.forEach((turn, t) => {
    if (!turn || !Array.isArray(turn.steps) || turn.steps.length === 0) {
      throw new Error(`model server: turn ${t} needs a non-empty "steps" array`);
    }
    turn.steps.forEach((step, s) => {
      for (const call of callsOf(step)) {
        if (typeof call.tool !== 'string' || call.tool === '') {
          throw new Error(`model server: turn ${t} step ${s}: every call needs a "tool" name`);
        }
      }
    });
  });
  return script;
}

function callsOf(step) {
  if (Array.isArray(step.calls)) return step.calls;
  if (typeof step.tool === 'string') return [{ tool: step.tool, arguments: step.arguments }];
  return [];
}

/**
 * Is this Copilot's main agent request (as opposed to a title, progress or summary
 * request)? Copilot 0.67 sends every request to a bring-your-own model with the same
 * headers (`openai-intent: conversation-other`); what sets the agent request apart
 * is that it offers tools. Side requests offer none.
 */
export function isAgentRequest(body) {
  return Array.isArray(body.tools) && body.tools.length > 0;
}

/**
 * The short answer to a side request: the first `sideReplies` entry whose `match`
 * occurs in the request (a chat title request quotes the user's request), else
 * `sideText` (its `{n}` the side request's number). Progress-message requests want a JSON array of strings.
 */
let sideRequests = 0;

function sideAnswer(body, script) {
  const asked = (Array.isArray(body.messages) ? body.messages : []).map((message) => textOf(message.content)).join('\n');
  const lower = asked.toLowerCase();
  const special = (Array.isArray(script.sideReplies) ? script.sideReplies : []).find(
    (entry) => entry && typeof entry.match === 'string' && typeof entry.say === 'string' && lower.includes(entry.match.toLowerCase()),
  );
  // `{n}` in sideText numbers the side requests, so that each chat's title differs from the others'.
  const text = special ? special.say : typeof script.sideText === 'string' ? script.sideText.replace('{n}', String(++sideRequests)) : DEFAULT_SIDE_TEXT;
  return /JSON array of strings/i.test(asked) ? JSON.stringify([text]) : text;
}

/**
 * Where the conversation in `messages` stands: the server-issued calls of the
 * current turn, or none when a new user request starts a turn.
 */
function locate(messages) {
  let lastIssued;
  let lastIssuedIndex = -1;
  let lastUserIndex = -1;
  messages.forEach((message, index) => {
    if (message.role === 'user') lastUserIndex = index;
    if (message.role !== 'assistant' || !Array.isArray(message.tool_calls)) return;
    for (const call of message.tool_calls) {
      const match = ID_PATTERN.exec(String(call && call.id));
      if (match) {
        lastIssued = { nonce: match[1], turn: Number(match[2]), step: Number(match[3]) };
        lastIssuedIndex = index;
      }
    }
  });
  const userText = messages
    .slice(lastUserIndex >= 0 ? lastUserIndex : 0)
    .filter((message) => message.role === 'user')
    .map((message) => textOf(message.content))
    .join('\n');
  // A user message after our last call means a new request; otherwise we are inside a turn.
  if (lastIssued === undefined || lastUserIndex > lastIssuedIndex) return { userText, current: undefined };
  const results = messages
    .slice(lastIssuedIndex + 1)
    .filter((message) => message.role === 'tool')
    .map((message) => ({ id: message.tool_call_id, text: textOf(message.content) }));
  return { userText, current: lastIssued, results };
}

/** The first workspace folder Copilot names in the request ("…with the following folders:\n- <path>"). */
export function workspaceFolderOf(messages) {
  for (const message of messages) {
    const match = /with the following folders:\s*\n- (.+?)\s*\n/.exec(textOf(message.content));
    if (match) return match[1];
  }
  return undefined;
}

/** A call's arguments as JSON, with `${workspaceFolder}` filled in when the request names one. */
function argumentsJson(args, folder) {
  const json = typeof args === 'string' ? args : JSON.stringify(args ?? {});
  if (folder === undefined) return json;
  // The folder goes in as JSON string content (escaped), inside the string that holds the placeholder.
  return json.split('${workspaceFolder}').join(JSON.stringify(folder).slice(1, -1));
}

function sse(response, chunk) {
  response.write(`data: ${JSON.stringify(chunk)}\n\n`);
}

/**
 * Starts a server. Options: `script` (object, or a path to a JSON file),
 * `recordFile` (JSON lines; omitted = not recorded), `maxRequests` (400),
 * `lifetimeMs` (15 min), `modelId`, `log` (a function for one-line notes).
 * Resolves to `{ port, url, chatUrl, records(), close(), closed }`.
 */
export async function startModelServer(options = {}) {
  const script = validateScript(
    typeof options.script === 'string' ? JSON.parse(readFileSync(options.script, 'utf8')) : (options.script ?? { turns: [] }),
  );
  const recordFile = options.recordFile;
  const maxRequests = options.maxRequests ?? 400;
  const lifetimeMs = options.lifetimeMs ?? 15 * 60 * 1000;
  const modelId = options.modelId ?? MODEL_ID;
  const log = options.log ?? (() => {});
  const nonce = randomBytes(3).toString('hex');
  /** Turn index per normalized user text, so a retried request replays the same turn. */
  const startedTurns = new Map();
  let nextUnmatched = 0;
  let seq = 0;
  let closing = false;

  function record(entry) {
    if (!recordFile) return;
    appendFileSync(recordFile, `${JSON.stringify(entry)}\n`);
  }

  function pickTurn(userText) {
    const key = userText.trim();
    if (startedTurns.has(key)) return startedTurns.get(key);
    const lower = key.toLowerCase();
    let index = script.turns.findIndex((turn) => typeof turn.match === 'string' && lower.includes(turn.match.toLowerCase()));
    if (index < 0) {
      while (nextUnmatched < script.turns.length && typeof script.turns[nextUnmatched].match === 'string') nextUnmatched++;
      if (nextUnmatched < script.turns.length) index = nextUnmatched++;
      // Every turn without `match` played: the last of them answers any further request.
      else index = script.turns.findLastIndex((turn) => typeof turn.match !== 'string');
    }
    if (index >= 0) startedTurns.set(key, index);
    return index;
  }

  /** Decides the answer to an agent request: `{ turn, step, say, calls, note }`. */
  function plan(body) {
    const messages = Array.isArray(body.messages) ? body.messages : [];
    const offered = new Set((Array.isArray(body.tools) ? body.tools : []).map((tool) => tool && tool.function && tool.function.name));
    const where = locate(messages);
    let turn;
    let step;
    if (where.current && where.current.nonce === nonce) {
      turn = where.current.turn;
      step = where.current.step + 1;
    } else if (where.current) {
      // Calls handed out by an earlier server (another run): treat this as a new request.
      turn = pickTurn(where.userText);
      step = 0;
    } else {
      turn = pickTurn(where.userText);
      step = 0;
    }
    const steps = turn >= 0 ? script.turns[turn].steps : undefined;
    if (!steps) return { turn, step, say: 'The scripted model has no turn for this request.', calls: [], note: 'no-turn' };
    // A turn that claims its calls' effects stops at a failed call rather than tell of work not done.
    const failed = script.turns[turn].stopOnToolError === true && step > 0 ? (where.results ?? []).find((result) => result.text.startsWith(TOOL_ERROR)) : undefined;
    if (failed) {
      const reason = failed.text.slice(TOOL_ERROR.length).split('\n')[0].trim();
      return { turn, step, say: `A tool call failed (${reason}), so I'll stop here: the steps after it were not done.`, calls: [], note: 'tool-failed' };
    }
    if (step >= steps.length) return { turn, step, say: 'The scripted model has nothing more to say.', calls: [], note: 'script-ended' };
    const chosen = steps[step];
    const calls = callsOf(chosen);
    const missing = calls.map((call) => call.tool).filter((name) => !offered.has(name));
    if (missing.length > 0) {
      return { turn, step, say: `The scripted model wanted to call ${missing.join(', ')}, which this request does not offer.`, calls: [], note: 'tool-not-offered', missing };
    }
    return {
      turn,
      step,
      say: typeof chosen.say === 'string' ? chosen.say : '',
      calls: calls.map((call, index) => ({
        id: `call_ap${nonce}t${turn}s${step}c${index}`,
        name: call.tool,
        arguments: argumentsJson(call.arguments, workspaceFolderOf(messages)),
      })),
      delayMs: typeof chosen.delayMs === 'number' ? chosen.delayMs : 0,
      holdUntil: typeof chosen.holdUntil === 'string' ? chosen.holdUntil : undefined,
      results: where.results,
    };
  }

  // Every answer reports known usage, so the figures a recording holds can be checked: 20
  // completion tokens, and 10 prompt tokens plus the step's index in its turn (a side request: 10),
  // so a figure tells which model call of a request it came from.
  function answer(response, body, say, calls, step = 0) {
    const usage = { prompt_tokens: 10 + step, completion_tokens: 20, total_tokens: 30 + step };
    const id = `chatcmpl-${nonce}-${seq}`;
    const created = Math.floor(Date.now() / 1000);
    const finish = calls.length > 0 ? 'tool_calls' : 'stop';
    if (body.stream !== true) {
      const message = { role: 'assistant', content: say === '' ? null : say };
      if (calls.length > 0) {
        message.tool_calls = calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }));
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ id, object: 'chat.completion', created, model: modelId, choices: [{ index: 0, message, finish_reason: finish }], usage }));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'close' });
    const base = { id, object: 'chat.completion.chunk', created, model: modelId };
    sse(response, { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
    // The text in a few pieces, the way a model streams it.
    const pieces = say.match(/\S+\s*|\s+/g) ?? [];
    for (let i = 0; i < pieces.length; i += 8) {
      sse(response, { ...base, choices: [{ index: 0, delta: { content: pieces.slice(i, i + 8).join('') }, finish_reason: null }] });
    }
    calls.forEach((call, index) => {
      sse(response, { ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }] }, finish_reason: null }] });
    });
    sse(response, { ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }], usage });
    response.end('data: [DONE]\n\n');
  }

  const server = createServer((request, response) => {
    if (closing) {
      response.writeHead(503, { 'content-type': 'application/json', connection: 'close' });
      response.end(JSON.stringify({ error: { message: 'the scripted model server is closing' } }));
      return;
    }
    seq += 1;
    const number = seq;
    if (number >= maxRequests) setImmediate(() => void close('max requests'));
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.replace(/\/+$/, '');
    const headers = { ...request.headers };
    delete headers.authorization;
    if (request.method === 'GET' && (path === '/v1/models' || path === '/models')) {
      record({ seq: number, time: new Date().toISOString(), method: 'GET', path, kind: 'models' });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ object: 'list', data: [{ id: modelId, object: 'model', created: 0, owned_by: 'agent-plan' }] }));
      return;
    }
    if (request.method !== 'POST' || (path !== '/v1/chat/completions' && path !== '/chat/completions')) {
      record({ seq: number, time: new Date().toISOString(), method: request.method, path, kind: 'unknown' });
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `not found: ${request.method} ${path}` } }));
      return;
    }
    const chunks = [];
    let size = 0;
    request.on('data', (chunk) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => {
      if (size > MAX_BODY_BYTES) {
        response.writeHead(413, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: 'request body too large' } }));
        return;
      }
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        record({ seq: number, time: new Date().toISOString(), method: 'POST', path, kind: 'bad-json', size });
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: 'the body is not JSON' } }));
        return;
      }
      const time = new Date().toISOString();
      if (!isAgentRequest(body)) {
        const say = sideAnswer(body, script);
        record({ seq: number, time, method: 'POST', path, kind: 'side', headers, body, reply: { say } });
        answer(response, body, say, []);
        return;
      }
      const decision = plan(body);
      const reply = { turn: decision.turn, step: decision.step, say: decision.say, calls: decision.calls };
      if (decision.note) reply.note = decision.note;
      if (decision.missing) reply.missing = decision.missing;
      record({ seq: number, time, method: 'POST', path, kind: 'agent', headers, body, reply });
      log(`agent request ${number}: turn ${decision.turn} step ${decision.step}${decision.note ? ` (${decision.note})` : ''}`);
      const send = () => answer(response, body, decision.say, decision.calls, decision.step);
      if (decision.delayMs > 0 && decision.holdUntil !== undefined && recordFile) {
        const release = join(dirname(recordFile), `release-${decision.holdUntil}`);
        const deadline = Date.now() + decision.delayMs;
        const look = () => (existsSync(release) || Date.now() >= deadline ? send() : setTimeout(look, 100));
        look();
      } else if (decision.delayMs > 0) setTimeout(send, decision.delayMs);
      else send();
    });
  });

  let resolveClosed;
  const closed = new Promise((resolve) => (resolveClosed = resolve));
  const lifetime = setTimeout(() => void close('lifetime'), lifetimeMs);

  function close(reason = 'closed') {
    if (!closing) {
      closing = true;
      clearTimeout(lifetime);
      log(`model server closing (${reason}) after ${seq} requests`);
      server.close(() => resolveClosed(reason));
      server.closeIdleConnections?.();
      // Streams in flight get a moment to finish, then everything goes.
      setTimeout(() => server.closeAllConnections?.(), 500).unref();
    }
    return closed;
  }

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address();
  return {
    port,
    url: `http://127.0.0.1:${port}/v1`,
    chatUrl: `http://127.0.0.1:${port}/v1/chat/completions`,
    records: () => (recordFile ? readRecords(recordFile) : []),
    close,
    closed,
  };
}

function parseArgs(argv) {
  const options = {};
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    const need = () => {
      if (value === undefined) throw new Error(`${flag} needs a value`);
      i++;
      return value;
    };
    if (flag === '--script') options.script = need();
    else if (flag === '--record') options.recordFile = need();
    else if (flag === '--max-requests') options.maxRequests = Number(need());
    else if (flag === '--lifetime-s') options.lifetimeMs = Number(need()) * 1000;
    else if (flag === '--model') options.modelId = need();
    else throw new Error(`unknown option ${flag}`);
  }
  for (const [name, value] of Object.entries(options)) {
    if (typeof value === 'number' && !(value > 0)) throw new Error(`--${name} must be a positive number`);
  }
  return options;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error.message}\nusage: node test/scripted-model/modelServer.mjs --script s.json --record r.jsonl [--max-requests N] [--lifetime-s S] [--model ID]\n`);
    process.exit(2);
  }
  const server = await startModelServer({ ...options, log: (line) => process.stderr.write(`${line}\n`) });
  process.stdout.write(`${JSON.stringify({ port: server.port, url: server.url, chatUrl: server.chatUrl })}\n`);
  const stop = () => void server.close('signal');
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await server.closed;
}

// The scripted model servers, over real HTTP on loopback: each speaks its wire format,
// plays the script by how many tool results the conversation holds, records every
// request, and stops after its bound in requests or in time.
import * as assert from 'node:assert/strict';
import { startAnthropicServer } from '../../scripts/agents/servers/anthropic.mjs';
import { startGeminiServer } from '../../scripts/agents/servers/gemini.mjs';
import { startResponsesServer } from '../../scripts/agents/servers/openai.mjs';
import { turnFor } from '../../scripts/agents/servers/sse.mjs';

const script = [
  { calls: [{ name: 'first', input: { n: 1 } }] },
  { calls: [{ name: 'a', input: { n: 2 } }, { name: 'b', input: { n: 3 } }] },
  { text: 'The end.' },
];

async function post(url, body) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/** The `data:` payloads of an SSE body, parsed, with their `event:` names. */
function events(text) {
  return text.split('\n\n').filter((b) => b.trim()).map((block) => {
    const event = /^event: (.*)$/m.exec(block)?.[1];
    const data = JSON.parse(/^data: (.*)$/m.exec(block)[1]);
    return { event, data };
  });
}

const servers = [];
async function start(factory, options) {
  const server = await factory(script, options);
  servers.push(server);
  return server;
}

describe('scripted model servers', () => {
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it('pick the turn from the number of tool results, parallel calls counted each', () => {
    assert.equal(turnFor(script, 0), script[0]);
    assert.equal(turnFor(script, 1), script[1]);
    assert.equal(turnFor(script, 2), script[1], 'one of two parallel results still waits for the other');
    assert.equal(turnFor(script, 3), script[2]);
    assert.deepEqual(turnFor([{ calls: [{ name: 'x', input: {} }] }], 5), { text: 'Done.' });
  });

  it('Anthropic Messages: streams tool_use blocks, then text; plays side requests without tools a text', async () => {
    const server = await start(startAnthropicServer);
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const tools = [{ name: 'first' }];
    const first = await post(`${server.url}/v1/messages?beta=true`, { model: 'm', stream: true, tools, messages: [{ role: 'user', content: 'go' }] });
    assert.equal(first.status, 200);
    assert.match(first.type, /text\/event-stream/);
    const e1 = events(first.text);
    assert.deepEqual(e1.map((e) => e.event), ['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    assert.deepEqual(e1.map((e) => e.data.type), e1.map((e) => e.event));
    assert.equal(e1[1].data.content_block.name, 'first');
    assert.deepEqual(JSON.parse(e1[2].data.delta.partial_json), { n: 1 });
    assert.equal(e1[4].data.delta.stop_reason, 'tool_use');

    const results = [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'x', content: 'ok' }] }];
    const second = events((await post(`${server.url}/v1/messages`, { stream: true, tools, messages: results })).text);
    assert.deepEqual(second.filter((e) => e.event === 'content_block_start').map((e) => [e.data.index, e.data.content_block.name]), [[0, 'a'], [1, 'b']]);

    const side = events((await post(`${server.url}/v1/messages`, { stream: true, messages: results })).text);
    assert.equal(side[1].data.content_block.type, 'text');
    assert.equal(side[4].data.delta.stop_reason, 'end_turn');

    assert.equal((await post(`${server.url}/v1/other`, {})).status, 404);
    assert.deepEqual(server.requests.map((r) => [r.method, r.url]), [
      ['POST', '/v1/messages?beta=true'], ['POST', '/v1/messages'], ['POST', '/v1/messages'], ['POST', '/v1/other'],
    ]);
    assert.deepEqual(server.requests[0].body.messages, [{ role: 'user', content: 'go' }]);
  });

  it('OpenAI Responses: function_call items with JSON-string arguments, then a message', async () => {
    const server = await start(startResponsesServer);
    const e1 = events((await post(`${server.url}/v1/responses`, { input: [] })).text);
    assert.equal(e1[0].event, 'response.created');
    assert.equal(e1.at(-1).event, 'response.completed');
    const done = e1.filter((e) => e.event === 'response.output_item.done').map((e) => e.data.item);
    assert.deepEqual(done.map((i) => [i.type, i.name, JSON.parse(i.arguments)]), [['function_call', 'first', { n: 1 }]]);
    assert.ok(done[0].call_id);
    const outputs = [1, 2, 3].map((n) => ({ type: 'function_call_output', call_id: `c${n}`, output: 'ok' }));
    const last = events((await post(`${server.url}/v1/responses`, { input: outputs })).text);
    const item = last.find((e) => e.event === 'response.output_item.done').data.item;
    assert.equal(item.type, 'message');
    assert.equal(item.content[0].text, 'The end.');
  });

  it('OpenAI Responses: a call whose input is text is a custom_tool_call (apply_patch), and its output counts as a result', async () => {
    const patch = '*** Begin Patch\n*** Add File: a.ts\n+x\n*** End Patch\n';
    const server = await startResponsesServer([{ calls: [{ name: 'apply_patch', input: patch }] }, { text: 'Patched.' }]);
    servers.push(server);
    const first = events((await post(`${server.url}/v1/responses`, { input: [] })).text);
    const added = first.find((e) => e.event === 'response.output_item.added').data.item;
    const done = first.find((e) => e.event === 'response.output_item.done').data.item;
    assert.deepEqual([added.type, added.input], ['custom_tool_call', '']);
    assert.deepEqual([done.type, done.name, done.input], ['custom_tool_call', 'apply_patch', patch]);
    assert.ok(done.call_id);
    const next = events((await post(`${server.url}/v1/responses`, { input: [{ type: 'custom_tool_call_output', call_id: done.call_id, output: 'Success.' }] })).text);
    assert.equal(next.find((e) => e.event === 'response.output_item.done').data.item.content[0].text, 'Patched.');
  });

  it('Gemini streamGenerateContent: functionCall parts, then text', async () => {
    const server = await start(startGeminiServer);
    const url = `${server.url}/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse`;
    const e1 = events((await post(url, { contents: [{ role: 'user', parts: [{ text: 'go' }] }] })).text);
    assert.equal(e1.length, 1);
    assert.equal(e1[0].event, undefined);
    assert.deepEqual(e1[0].data.candidates[0].content.parts, [{ functionCall: { name: 'first', args: { n: 1 } } }]);
    const contents = [{ role: 'user', parts: [{ functionResponse: { name: 'first', response: {} } }] }];
    const e2 = events((await post(url, { contents })).text);
    assert.deepEqual(e2[0].data.candidates[0].content.parts.map((p) => p.functionCall.name), ['a', 'b']);
    assert.equal((await post(`${server.url}/v1beta/models/m:unknownMethod`, {})).status, 404);
  });

  it('answer no more than maxRequests requests, then close', async () => {
    const server = await start(startGeminiServer, { maxRequests: 2 });
    const url = `${server.url}/v1beta/models/m:streamGenerateContent?alt=sse`;
    assert.equal((await post(url, {})).status, 200);
    assert.equal((await post(url, {})).status, 200);
    assert.equal((await post(url, {})).status, 429);
    await assert.rejects(post(url, {}));
    assert.equal(server.requests.length, 2);
  });

  it('close after lifetimeMs', async () => {
    const server = await start(startResponsesServer, { lifetimeMs: 150 });
    assert.equal((await post(`${server.url}/v1/responses`, { input: [] })).status, 200);
    await new Promise((r) => setTimeout(r, 300));
    await assert.rejects(post(`${server.url}/v1/responses`, { input: [] }));
  });
});

// The scripted model server the real-agent tests and `npm start` put behind Copilot
// (test/scripted-model/modelServer.mjs), over real HTTP on 127.0.0.1: the OpenAI-compatible
// stream, turns played step by step from the tool results that come back, side
// requests told apart, every request recorded, and its bounds.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { useTempDir } from '../../lib/temp';

interface Server {
  port: number;
  chatUrl: string;
  records(): Array<{ kind: string; reply?: { turn: number; step: number; say: string; calls: Array<{ id: string; name: string }>; note?: string } }>;
  close(): Promise<string>;
  closed: Promise<string>;
}
interface ServerModule {
  startModelServer(options: Record<string, unknown>): Promise<Server>;
}

const modulePath = path.resolve(__dirname, '..', '..', 'scripted-model', 'modelServer.mjs');
const load = (): Promise<ServerModule> => import(modulePath) as Promise<ServerModule>;

const SCRIPT = {
  sideText: 'A title',
  sideReplies: [{ match: 'second', say: 'Second title' }],
  turns: [
    {
      match: '[first]',
      steps: [
        { say: 'Planning.', tool: 'todo_write', arguments: { todos: [{ content: 'A', status: 'pending' }] } },
        { say: 'Done.' },
      ],
    },
    { match: '[missing]', steps: [{ tool: 'manage_todo_list', arguments: { todoList: [] } }, { say: 'never' }] },
  ],
};
const TOOLS = [{ type: 'function', function: { name: 'todo_write', description: 'd', parameters: { type: 'object' } } }];

interface Chunk {
  choices: Array<{ delta: { content?: string; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }> }; finish_reason: string | null }>;
}

async function post(server: Server, body: unknown): Promise<{ text: string; calls: Array<{ id: string; name: string; arguments: string }>; finish: string | null | undefined }> {
  const response = await fetch(server.chatUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /text\/event-stream/);
  const lines = (await response.text()).split('\n').filter((line) => line.startsWith('data: '));
  assert.equal(lines.at(-1), 'data: [DONE]');
  const chunks = lines.slice(0, -1).map((line) => JSON.parse(line.slice(6)) as Chunk);
  const choices = chunks.flatMap((chunk) => chunk.choices);
  return {
    text: choices.map((choice) => choice.delta.content ?? '').join(''),
    calls: choices.flatMap((choice) => choice.delta.tool_calls ?? []).map((call) => ({ id: call.id, name: call.function.name, arguments: call.function.arguments })),
    finish: choices.at(-1)?.finish_reason,
  };
}

describe('the scripted model server', () => {
  const tmp = useTempDir('model-server');

  it('plays a turn: a streamed tool call, then the final text once the tool result comes back; all recorded', async () => {
    const { startModelServer } = await load();
    const server = await startModelServer({ script: SCRIPT, recordFile: path.join(tmp.path, 'r.jsonl') });
    try {
      const models = (await (await fetch(`http://127.0.0.1:${server.port}/v1/models`)).json()) as { data: Array<{ id: string }> };
      assert.deepEqual(models.data.map((model) => model.id), ['scripted-agent']);

      const user = { role: 'user', content: '<userRequest>[first] please</userRequest>' };
      const first = await post(server, { stream: true, tools: TOOLS, messages: [user] });
      assert.equal(first.text, 'Planning.');
      assert.equal(first.finish, 'tool_calls');
      assert.equal(first.calls.length, 1);
      assert.equal(first.calls[0]!.name, 'todo_write');
      assert.deepEqual(JSON.parse(first.calls[0]!.arguments), { todos: [{ content: 'A', status: 'pending' }] });

      const id = first.calls[0]!.id;
      const second = await post(server, {
        stream: true,
        tools: TOOLS,
        messages: [user, { role: 'assistant', content: 'Planning.', tool_calls: [{ id, type: 'function', function: { name: 'todo_write', arguments: '{}' } }] }, { role: 'tool', tool_call_id: id, content: 'Updated todo list: 1 pending, 0 in progress, 0 completed.' }],
      });
      assert.equal(second.text, 'Done.');
      assert.equal(second.finish, 'stop');
      assert.deepEqual(second.calls, []);

      const side = await post(server, { stream: true, messages: [{ role: 'user', content: 'Please write a brief title for: the second one' }] });
      assert.equal(side.text, 'Second title');
      const progress = await post(server, { stream: true, messages: [{ role: 'user', content: 'Return only a JSON array of strings, no other text.' }] });
      assert.deepEqual(JSON.parse(progress.text), ['A title']);

      assert.deepEqual(
        server.records().map((record) => [record.kind, record.reply?.turn, record.reply?.step]),
        [['models', undefined, undefined], ['agent', 0, 0], ['agent', 0, 1], ['side', undefined, undefined], ['side', undefined, undefined]],
      );
    } finally {
      await server.close();
    }
  });

  it('says so, and calls nothing, when the script wants a tool the request does not offer', async () => {
    const { startModelServer } = await load();
    const server = await startModelServer({ script: SCRIPT, recordFile: path.join(tmp.path, 'r.jsonl') });
    try {
      const answer = await post(server, { stream: true, tools: TOOLS, messages: [{ role: 'user', content: '[missing]' }] });
      assert.deepEqual(answer.calls, []);
      assert.match(answer.text, /manage_todo_list/);
      assert.equal(server.records()[0]?.reply?.note, 'tool-not-offered');
    } finally {
      await server.close();
    }
  });

  it('fills ${workspaceFolder} in call arguments from the request, and a stopOnToolError turn stops at a failed call', async () => {
    const { startModelServer } = await load();
    const EDIT = [{ type: 'function', function: { name: 'create_file', description: 'd', parameters: { type: 'object' } } }];
    const script = {
      turns: [
        {
          match: '[edit]',
          stopOnToolError: true,
          steps: [{ say: 'Writing.', tool: 'create_file', arguments: { filePath: '${workspaceFolder}/a "b".md', content: 'x' } }, { say: 'Wrote it.' }],
        },
      ],
    };
    const server = await startModelServer({ script, recordFile: path.join(tmp.path, 'r.jsonl') });
    try {
      const user = { role: 'user', content: '<workspace_info>\nI am working in a workspace with the following folders:\n- /tmp/run x/workspace \nI am working in a workspace that has the following structure:\n</workspace_info>\n<userRequest>[edit]</userRequest>' };
      const first = await post(server, { stream: true, tools: EDIT, messages: [user] });
      assert.deepEqual(JSON.parse(first.calls[0]!.arguments), { filePath: '/tmp/run x/workspace/a "b".md', content: 'x' });
      const id = first.calls[0]!.id;
      const asked = (result: string) =>
        post(server, { stream: true, tools: EDIT, messages: [user, { role: 'assistant', content: '', tool_calls: [{ id, type: 'function', function: { name: 'create_file', arguments: '{}' } }] }, { role: 'tool', tool_call_id: id, content: result }] });
      assert.equal((await asked('The following files were successfully edited: a.md')).text, 'Wrote it.');
      const failed = await asked('ERROR while calling tool: File already exists. You must use an edit tool to modify it.\nPlease check your input and try again.');
      assert.equal(failed.text, "A tool call failed (File already exists. You must use an edit tool to modify it.), so I'll stop here: the steps after it were not done.");
      assert.deepEqual(failed.calls, []);
      assert.equal(server.records().at(-1)?.reply?.note, 'tool-failed');
    } finally {
      await server.close();
    }
  });

  it('listens on 127.0.0.1 only and closes itself after its request limit and its lifetime', async () => {
    const { startModelServer } = await load();
    const limited = await startModelServer({ script: SCRIPT, maxRequests: 2 });
    assert.match(limited.chatUrl, /^http:\/\/127\.0\.0\.1:\d+\//);
    await fetch(`http://127.0.0.1:${limited.port}/v1/models`);
    await fetch(`http://127.0.0.1:${limited.port}/v1/models`);
    assert.equal(await limited.closed, 'max requests');
    await assert.rejects(fetch(`http://127.0.0.1:${limited.port}/v1/models`));

    const shortLived = await startModelServer({ script: SCRIPT, lifetimeMs: 100 });
    assert.equal(await shortLived.closed, 'lifetime');
  });

  it('rejects a script without turns with a clear error', async () => {
    const { startModelServer } = await load();
    await assert.rejects(startModelServer({ script: { steps: [] } }), /a script is an object with a "turns" array/);
  });

  it('numbers the side answers where sideText says {n}: each chat gets a title of its own', async () => {
    const { startModelServer } = await load();
    const server = await startModelServer({ script: { ...SCRIPT, sideText: 'Run {n}', sideReplies: [] }, recordFile: path.join(tmp.path, 'r.jsonl') });
    try {
      const ask = async (what: string) => (await post(server, { stream: true, messages: [{ role: 'user', content: `Please write a brief title for: ${what}` }] })).text;
      const [first, second] = [await ask('one'), await ask('two')];
      assert.match(first, /^Run \d+$/);
      assert.equal(second, `Run ${Number(first.slice(4)) + 1}`);
    } finally {
      await server.close();
    }
  });
});

// What todo_write costs inside the real Copilot agent request: reads the requests the
// scripted model recorded (an integration run's model/requests.jsonl, or a file
// given on the command line) and reports, with o200k_base (js-tiktoken), the size of
// our tool entry as Copilot sends it, of Copilot's own manage_todo_list entry in
// the same request, their share of the whole request, and our result texts exactly
// as the model received them in `role: "tool"` messages.
//
//   node scripts/bench/copilotRequest.mjs [requests.jsonl] [--json out.json]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { getEncoding } from 'js-tiktoken';

function latestRecordFile() {
  const root = process.env.AGENT_PLAN_RUNS ?? path.join(os.tmpdir(), 'agent-plan-runs');
  const candidates = (fs.existsSync(root) ? fs.readdirSync(root) : [])
    .filter((name) => name.startsWith('integration-'))
    .map((name) => path.join(root, name, 'model', 'requests.jsonl'))
    .filter((file) => fs.existsSync(file))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  return candidates[0];
}

const textOf = (content) => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((part) => part?.text ?? '').join('') : '');

/** The measurements for one recorded run: `{ copilot, request, todoWrite, manageTodoList, results }`. */
export function measure(records) {
  const o200k = getEncoding('o200k_base');
  const size = (text) => ({ chars: text.length, tokens: o200k.encode(text).length });
  const agent = records.filter((record) => record.kind === 'agent' && Array.isArray(record.body?.tools));
  const first = agent.find((record) => record.body.tools.some((tool) => tool.function?.name === 'todo_write'));
  if (!first) throw new Error('no recorded agent request offers todo_write');
  const entry = (name) => {
    const tool = first.body.tools.find((candidate) => candidate.function?.name === name);
    return tool ? JSON.stringify(tool) : undefined;
  };
  const whole = size(JSON.stringify(first.body));
  const tools = size(JSON.stringify(first.body.tools));
  const share = (part) => ({ ...part, ofRequest: part.tokens / whole.tokens, ofTools: part.tokens / tools.tokens });
  const ours = entry('todo_write');
  const builtin = entry('manage_todo_list');
  // Our result texts as received: every role "tool" message answering a todo_write call.
  const calls = new Map();
  const results = new Map();
  for (const record of agent) {
    for (const message of record.body.messages ?? []) {
      for (const call of message.tool_calls ?? []) calls.set(call.id, call.function?.name);
      if (message.role === 'tool' && calls.get(message.tool_call_id) === 'todo_write') {
        const text = textOf(message.content);
        results.set(text, { text, ...size(text) });
      }
    }
  }
  return {
    copilot: first.headers?.['user-agent'],
    request: { ...whole, tools: first.body.tools.length, toolsBlock: tools },
    todoWrite: share(size(ours)),
    manageTodoList: builtin ? share(size(builtin)) : undefined,
    results: [...results.values()],
  };
}

const pct = (x) => `${(x * 100).toFixed(1)} %`;
const n = (x) => x.toLocaleString('en-US');

export function markdown(m) {
  const lines = [
    `Measured in the request ${m.copilot ?? 'Copilot'} sends in agent mode (${m.request.tools} tools offered), o200k_base:`,
    '',
    '| part of the request | characters | tokens | share of the request | share of the tools block |',
    '|---|---:|---:|---:|---:|',
    `| \`todo_write\` entry (ours) | ${n(m.todoWrite.chars)} | ${n(m.todoWrite.tokens)} | ${pct(m.todoWrite.ofRequest)} | ${pct(m.todoWrite.ofTools)} |`,
  ];
  if (m.manageTodoList) {
    lines.push(`| \`manage_todo_list\` entry (Copilot's) | ${n(m.manageTodoList.chars)} | ${n(m.manageTodoList.tokens)} | ${pct(m.manageTodoList.ofRequest)} | ${pct(m.manageTodoList.ofTools)} |`);
  }
  lines.push(`| all ${m.request.tools} tool entries | ${n(m.request.toolsBlock.chars)} | ${n(m.request.toolsBlock.tokens)} | ${pct(m.request.toolsBlock.tokens / m.request.tokens)} | 100 % |`);
  lines.push(`| the whole request body | ${n(m.request.chars)} | ${n(m.request.tokens)} | 100 % | |`);
  lines.push('', 'Our result texts as the model received them (`role: "tool"`):', '', '| text | characters | tokens |', '|---|---:|---:|');
  for (const result of m.results) lines.push(`| \`${result.text}\` | ${result.chars} | ${result.tokens} |`);
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const jsonAt = args.indexOf('--json');
  const jsonOut = jsonAt >= 0 ? args.splice(jsonAt, 2)[1] : undefined;
  const file = args[0] ?? latestRecordFile();
  if (!file) {
    console.error('no recorded requests: run `AGENT_PLAN_TEST_GREP="real Copilot agent" npm run test:integration` first, or pass a requests.jsonl');
    process.exit(1);
  }
  const records = fs.readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line));
  const measured = measure(records);
  if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify({ source: file, ...measured }, null, 2) + '\n');
  console.log(`from ${file}\n`);
  console.log(markdown(measured));
}

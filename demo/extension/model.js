// The scripted, offline language model behind @demo. It is a real
// LanguageModelChatProvider: on every request it reads the conversation it is
// given (the user's request, its own earlier tool calls, the tool results) and
// decides the next turn from that alone — it keeps no state between requests.
// A turn is a little streamed text, then either a `todo_write` tool call with
// the next WHOLE list, or (when the script is done, or a tool call failed) just
// the closing text, which ends the participant's loop.
'use strict';
const vscode = require('vscode');
const { scriptFor, taskName } = require('./scripts');

const VENDOR = 'agent-plan-demo';
const TOOL = 'todo_write';
const SUCCESS = 'Updated todo list:';

const MODEL = {
  id: 'agent-plan-demo-scripted',
  name: 'Agent Plan demo (scripted)',
  family: 'agent-plan-demo',
  version: '1.0.0',
  tooltip: 'A scripted, offline model for the Agent Plan demo. It only knows how to plan with todo_write.',
  detail: 'offline',
  maxInputTokens: 200000,
  maxOutputTokens: 8192,
  isUserSelectable: true,
  capabilities: { toolCalling: true },
};

const USER = vscode.LanguageModelChatMessageRole.User;

function isTextPart(part) {
  return part instanceof vscode.LanguageModelTextPart || (part && typeof part.value === 'string' && !('callId' in part));
}
function isToolCall(part) {
  return part instanceof vscode.LanguageModelToolCallPart || (part && typeof part.callId === 'string' && typeof part.name === 'string' && 'input' in part);
}
function isToolResult(part) {
  return part instanceof vscode.LanguageModelToolResultPart || (part && typeof part.callId === 'string' && Array.isArray(part.content));
}
function textOf(parts) {
  return (parts || []).map((part) => (isTextPart(part) ? part.value : '')).join('');
}

/** What the model "reads" in a conversation: the request, its tool calls and their results. */
function readConversation(messages) {
  let request;
  const calls = new Map();
  const results = [];
  for (const message of messages) {
    const content = Array.isArray(message.content) ? message.content : [];
    if (request === undefined && message.role === USER) {
      const text = textOf(content).trim();
      if (text) request = text;
    }
    for (const part of content) {
      if (isToolCall(part)) calls.set(part.callId, { name: part.name, input: part.input });
      else if (isToolResult(part)) results.push({ callId: part.callId, name: calls.get(part.callId)?.name, text: textOf(part.content) });
    }
  }
  return { request: request ?? '', results };
}

/** Decides the next turn: `{ say, todos? }`. */
function nextTurn(messages, tools) {
  const { request, results } = readConversation(messages);
  if (!taskName(request)) {
    return { say: 'Ask me for a task, for example `@demo add a dark mode toggle`, and watch the Agent Plan sidebar.' };
  }
  if (!tools.some((tool) => tool.name === TOOL)) {
    return { say: 'I plan my work with the `todo_write` tool, but it is not available here. Is the Agent Plan extension installed and enabled?' };
  }
  const last = results[results.length - 1];
  if (last && !last.text.startsWith(SUCCESS)) {
    return { say: `\`todo_write\` answered: "${last.text}". I'll stop here rather than guess.` };
  }
  const done = results.filter((result) => result.name === TOOL && result.text.startsWith(SUCCESS)).length;
  const { steps } = scriptFor(request);
  const step = steps[Math.min(done, steps.length - 1)];
  // This model has no edit tools: where a script's text tells of edits, it says what it really did.
  return step.sayWithoutEdits !== undefined ? { ...step, say: step.sayWithoutEdits } : step;
}

function sleep(ms, token) {
  return new Promise((resolve, reject) => {
    if (token.isCancellationRequested) return reject(new vscode.CancellationError());
    const timer = setTimeout(() => {
      listener.dispose();
      resolve();
    }, ms);
    const listener = token.onCancellationRequested(() => {
      clearTimeout(timer);
      listener.dispose();
      reject(new vscode.CancellationError());
    });
  });
}

function stepDelayMs() {
  const value = vscode.workspace.getConfiguration('agentPlanDemo').get('stepDelayMs', 1600);
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 1600;
}

let callCounter = 0;

function register() {
  return vscode.lm.registerLanguageModelChatProvider(VENDOR, {
    provideLanguageModelChatInformation: () => [MODEL],

    async provideLanguageModelChatResponse(_model, messages, options, progress, token) {
      const turn = nextTurn(messages, options.tools || []);
      // Stream the text a few words at a time over the step's "thinking" time.
      const total = stepDelayMs() * (turn.weight ?? 1);
      const words = turn.say.split(/(?<=\s)/);
      const chunkCount = Math.max(1, Math.min(12, Math.ceil(words.length / 3)));
      const perChunk = Math.ceil(words.length / chunkCount);
      const pause = total / (chunkCount + 1);
      for (let i = 0; i < words.length; i += perChunk) {
        await sleep(pause, token);
        progress.report(new vscode.LanguageModelTextPart(words.slice(i, i + perChunk).join('')));
      }
      await sleep(pause, token);
      if (turn.todos) {
        const input = { todos: turn.todos.map((todo) => ({ content: todo.content, status: todo.status })) };
        progress.report(new vscode.LanguageModelToolCallPart(`demo_call_${++callCounter}`, TOOL, input));
      }
    },

    async provideTokenCount(_model, text) {
      const value = typeof text === 'string' ? text : textOf(text && text.content);
      return Math.max(1, Math.ceil(value.length / 4));
    },
  });
}

module.exports = { VENDOR, TOOL, register, nextTurn, readConversation };

// Agent Plan demo (not shipped in the .vsix). Registers the scripted offline
// model (model.js) and the @demo chat participant, whose handler is an ordinary
// agent loop: send the conversation to the model with the todo_write tool,
// stream its text, invoke each tool call it makes through the real chat tool
// path (with the request's toolInvocationToken), append the call and its
// result to the conversation, and ask again, until the model answers without
// a tool call.
'use strict';
const vscode = require('vscode');
const { VENDOR, TOOL, register } = require('./model');

const MAX_TURNS = 40;

/** Every todo_write call the participant made, in order: `{ request, input, resultText, error }`. */
const calls = [];
/** Every request the participant handled: `{ prompt, calls, done, error }`. */
const requests = [];

function resultText(result) {
  return (result && Array.isArray(result.content) ? result.content : [])
    .map((part) => (part instanceof vscode.LanguageModelTextPart || typeof part.value === 'string' ? part.value : ''))
    .join('');
}

function message(error) {
  return String(error && error.message ? error.message : error);
}

function isCancellation(error, token) {
  return token.isCancellationRequested || error instanceof vscode.CancellationError || /cancel/i.test(message(error));
}

async function demoModel(request) {
  if (request.model && request.model.vendor === VENDOR) return request.model;
  const [model] = await vscode.lm.selectChatModels({ vendor: VENDOR });
  return model;
}

function inProgressText(input) {
  const active = (input && Array.isArray(input.todos) ? input.todos : []).filter((todo) => todo.status === 'in_progress');
  return active.length ? `Working on: ${active.map((todo) => todo.content).join(' · ')}` : 'Thinking…';
}

async function handle(request, _chatContext, stream, token) {
  const record = { prompt: request.prompt, calls: [], done: false, error: undefined };
  requests.push(record);
  const requestIndex = requests.length - 1;
  try {
    const model = await demoModel(request);
    if (!model) {
      record.error = 'the demo model is not available';
      stream.markdown('The scripted demo model is not available.');
      return {};
    }
    const tool = vscode.lm.tools.find((candidate) => candidate.name === TOOL);
    // The conversation: the user's request, then each turn's tool calls and results.
    const messages = [vscode.LanguageModelChatMessage.User(request.prompt)];
    stream.progress('Thinking…');
    for (let turn = 0; turn < MAX_TURNS && !token.isCancellationRequested; turn++) {
      const response = await model.sendRequest(messages, { tools: tool ? [tool] : [], justification: 'The Agent Plan demo agent plans with todo_write.' }, token);
      const toolCalls = [];
      let text = '';
      for await (const part of response.stream) {
        if (part instanceof vscode.LanguageModelTextPart) {
          text += part.value;
          stream.markdown(part.value);
        } else if (part instanceof vscode.LanguageModelToolCallPart) {
          toolCalls.push(part);
        }
      }
      if (text) stream.markdown('\n\n');
      if (toolCalls.length === 0) break;

      messages.push(vscode.LanguageModelChatMessage.Assistant([...(text ? [new vscode.LanguageModelTextPart(text)] : []), ...toolCalls]));
      const results = [];
      for (const call of toolCalls) {
        const entry = { request: requestIndex, input: JSON.parse(JSON.stringify(call.input)), resultText: undefined, error: undefined };
        calls.push(entry);
        record.calls.push(entry);
        let content;
        try {
          const result = await vscode.lm.invokeTool(call.name, { input: call.input, toolInvocationToken: request.toolInvocationToken }, token);
          entry.resultText = resultText(result);
          content = result.content;
        } catch (error) {
          if (isCancellation(error, token)) throw error;
          // A failed call goes back to the model as the tool's answer, as for any agent.
          entry.error = message(error);
          content = [new vscode.LanguageModelTextPart(`Error: ${entry.error}`)];
        }
        results.push(new vscode.LanguageModelToolResultPart(call.callId, content));
      }
      messages.push(vscode.LanguageModelChatMessage.User(results));
      stream.progress(inProgressText(toolCalls[toolCalls.length - 1].input));
    }
    record.done = !token.isCancellationRequested;
    return {};
  } catch (error) {
    if (isCancellation(error, token)) {
      record.error = 'canceled';
      return {};
    }
    record.error = message(error);
    return { errorDetails: { message: `The demo agent failed: ${record.error}` } };
  }
}

const SUGGESTED_REQUEST = '@demo add a dark mode toggle';

/** Opens the chat with a @demo request typed in (not sent) and the demo model selected. */
async function openChat(query) {
  await vscode.commands.executeCommand('workbench.action.chat.open', {
    query,
    modelSelector: { vendor: VENDOR },
    isPartialQuery: true,
  });
}

// In `npm start` the launcher serves a scripted model to the real Copilot agent and says so here.
const AGENT_MODEL = { vendor: 'customendpoint', id: 'scripted-agent' };
const COPILOT_ID = 'GitHub.copilot-chat';
const COPILOT_SETUP = 'workbench.action.chat.triggerSetupAnonymousWithoutDialog';
const AGENT_REQUEST = 'Add a dark mode toggle to Brewlog';

async function waitUntil(probe, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Switches on the built-in Copilot Chat without sign-in (VS Code's own anonymous
 * setup), then opens its chat in agent mode with the scripted local model and a
 * request typed in, not sent. Returns false when that is not possible here.
 */
async function prepareCopilotAgent() {
  const commands = await vscode.commands.getCommands(true);
  if (!commands.includes(COPILOT_SETUP)) {
    console.error(`[agent-plan-demo] this VS Code has no ${COPILOT_SETUP}; falling back to @demo`);
    return false;
  }
  if (!vscode.extensions.getExtension(COPILOT_ID)) await vscode.commands.executeCommand(COPILOT_SETUP);
  const copilot = await waitUntil(() => vscode.extensions.getExtension(COPILOT_ID), 30_000);
  if (!copilot) return false;
  await copilot.activate();
  const models = await waitUntil(async () => (await vscode.lm.selectChatModels(AGENT_MODEL)).length > 0, 30_000);
  if (!models) return false;
  await vscode.commands.executeCommand('workbench.view.extension.agentPlan');
  await vscode.commands.executeCommand('workbench.action.chat.open', {
    query: AGENT_REQUEST,
    mode: 'agent',
    modelSelector: AGENT_MODEL,
    isPartialQuery: true,
  });
  return true;
}

async function prepareWindow() {
  if (process.env.AGENT_PLAN_DEMO_AGENT === 'copilot' && (await prepareCopilotAgent())) return;
  // Resolving the demo model now makes the chat's model picker offer (and pick) it
  // before the first request; otherwise that request fails with "Language model unavailable".
  await vscode.lm.selectChatModels({ vendor: VENDOR });
  if (vscode.workspace.getConfiguration('agentPlanDemo').get('openChatOnStartup', false)) {
    await vscode.commands.executeCommand('workbench.view.extension.agentPlan');
    await openChat(SUGGESTED_REQUEST);
  }
}

function activate(context) {
  context.subscriptions.push(register());
  const participant = vscode.chat.createChatParticipant('agentPlanDemo.demo', handle);
  participant.iconPath = new vscode.ThemeIcon('checklist');
  context.subscriptions.push(participant);
  context.subscriptions.push(
    vscode.commands.registerCommand('agentPlanDemo.try', async () => {
      await vscode.commands.executeCommand('workbench.action.chat.newChat');
      await openChat(SUGGESTED_REQUEST);
    }),
  );
  prepareWindow().catch((error) => console.error(`[agent-plan-demo] ${message(error)}`));
  return { calls, requests };
}

module.exports = { activate, deactivate() {} };

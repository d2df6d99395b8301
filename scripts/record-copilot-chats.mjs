// Re-records the Copilot chat session files the unit tests of the Copilot source read
// (test/agents/copilotChat/recordings/). It runs the REAL Copilot agent (the Copilot Chat
// extension built into the pinned host) against a scripted model on loopback, in agent
// mode, with Agent Plan loaded, then copies the files VS Code itself wrote under
// workspaceStorage/<id>/chatSessions/. Nothing in them is edited except local paths,
// which are replaced by placeholders so the fixtures do not depend on this machine.
//
// Usage: node scripts/build.mjs && node scripts/record-copilot-chats.mjs [<chat name> …]
// Writes test/agents/copilotChat/recordings/<name>.jsonl (one file per chat, named by what it
// holds; only the chats named, when some are) and manifest.json (which chat is which, the chat uuid, and the session key
// Agent Plan derived from todo_write's real token, with the identity string that gives it).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cleanupStack, log, repoRoot } from './lib/host.mjs';
import { openWorkbench } from './lib/workbench.mjs';
import { scriptedAgentService } from '../test/scripted-model/service.mjs';
import { MODEL_ID, VENDOR } from '../test/scripted-model/modelServer.mjs';

const OUT_DIR = path.join(repoRoot, 'test', 'agents', 'copilotChat', 'recordings');
const RUN_TIMEOUT_MS = Number(process.env.AGENT_PLAN_RECORD_TIMEOUT_MS ?? 8 * 60_000);

const todo = (id, title, status) => ({ id, title, status });

/**
 * The chats to record. Each request's text carries a marker the scripted model matches,
 * so every request plays its own turn. `name` becomes the fixture file name.
 */
const CHATS = [
  {
    name: 'manage-todo-list',
    what: 'three manage_todo_list calls with statuses flipping, a duplicate title, an empty title and a padded one; then a second request that writes no plan',
    requests: [
      {
        query: 'mirror-a1: plan the parser work with your todo list',
        steps: [
          {
            say: 'Planning first.',
            tool: 'manage_todo_list',
            arguments: {
              todoList: [
                todo(1, 'Read the chat session format', 'not-started'),
                todo(2, 'Write the parser', 'not-started'),
                todo(3, 'Write the parser', 'not-started'),
                todo(4, '', 'not-started'),
                todo(5, '  Padded title  ', 'not-started'),
              ],
            },
          },
          {
            say: 'Starting the first item.',
            tool: 'manage_todo_list',
            arguments: {
              todoList: [
                todo(1, 'Read the chat session format', 'in-progress'),
                todo(2, 'Write the parser', 'not-started'),
                todo(3, 'Write the parser', 'not-started'),
                todo(4, '', 'not-started'),
                todo(5, '  Padded title  ', 'not-started'),
              ],
            },
          },
          {
            say: 'First item done, second under way.',
            tool: 'manage_todo_list',
            arguments: {
              todoList: [
                todo(1, 'Read the chat session format', 'completed'),
                todo(2, 'Write the parser', 'in-progress'),
                todo(3, 'Write the parser', 'not-started'),
                todo(4, '', 'not-started'),
                todo(5, '  Padded title  ', 'completed'),
              ],
            },
          },
          { say: 'mirror-a1 finished: the plan is under way.' },
        ],
      },
      {
        query: 'mirror-a2: what time zone do the logs use?',
        steps: [{ say: 'mirror-a2 finished: the logs use UTC.' }],
      },
    ],
  },
  {
    name: 'both-tools',
    what: 'todo_write, then manage_todo_list, then todo_write again in one request; then a second request that calls manage_todo_list once',
    requests: [
      {
        query: 'mirror-b1: plan with both todo tools',
        steps: [
          {
            say: 'Writing the plan with todo_write.',
            tool: 'todo_write',
            arguments: {
              todos: [
                { content: 'Survey both tools', status: 'in_progress' },
                { content: 'Compare their lists', status: 'pending' },
              ],
            },
          },
          {
            say: 'Now with manage_todo_list.',
            tool: 'manage_todo_list',
            arguments: {
              todoList: [todo(1, 'Survey both tools', 'completed'), todo(2, 'Compare their lists', 'in-progress')],
            },
          },
          {
            say: 'Back to todo_write.',
            tool: 'todo_write',
            arguments: {
              todos: [
                { content: 'Survey both tools', status: 'completed' },
                { content: 'Compare their lists', status: 'completed' },
              ],
            },
          },
          { say: 'mirror-b1 finished: both lists written.' },
        ],
      },
      {
        query: 'mirror-b2: add a follow-up item',
        steps: [
          {
            say: 'Adding it.',
            tool: 'manage_todo_list',
            arguments: {
              todoList: [
                todo(1, 'Survey both tools', 'completed'),
                todo(2, 'Compare their lists', 'completed'),
                todo(3, 'Write the follow-up', 'in-progress'),
              ],
            },
          },
          { say: 'mirror-b2 finished: follow-up added.' },
        ],
      },
    ],
  },
  {
    name: 'titled',
    what: 'one request with one manage_todo_list call; Copilot asks the model for a title (side request) and the chat gets one',
    requests: [
      {
        query: 'mirror-c1: a short task that earns a title',
        steps: [
          {
            say: 'One list.',
            tool: 'manage_todo_list',
            arguments: { todoList: [todo(1, 'Name the chat', 'in-progress')] },
          },
          { say: 'mirror-c1 finished.' },
        ],
      },
    ],
  },
];

const list = (...items) => ({ todoList: items.map(([title, status], i) => todo(i + 1, title, status)) });
const search = (from) => ({ say: 'Still looking.', calls: Array.from({ length: 10 }, (_, i) => ({ tool: 'file_search', arguments: { query: `**/*${from + i}*` } })) });

// Plan health: a list worked through to the end (no warning at any point), one that drops
// an item and reopens one, and a request of 30 tool calls without a plan update.
CHATS.push(
  {
    name: 'health-done',
    what: 'plan health, a normal run: one request, a 3-item manage_todo_list list updated as the work goes, ending completed',
    requests: [
      {
        query: 'health-a1: work through a short plan',
        steps: [
          { say: 'Planning.', tool: 'manage_todo_list', arguments: list(['Read the code', 'in-progress'], ['Make the change', 'not-started'], ['Run the tests', 'not-started']) },
          { say: 'Read.', tool: 'manage_todo_list', arguments: list(['Read the code', 'completed'], ['Make the change', 'in-progress'], ['Run the tests', 'not-started']) },
          { say: 'Changed.', tool: 'manage_todo_list', arguments: list(['Read the code', 'completed'], ['Make the change', 'completed'], ['Run the tests', 'in-progress']) },
          { say: 'Tested.', tool: 'manage_todo_list', arguments: list(['Read the code', 'completed'], ['Make the change', 'completed'], ['Run the tests', 'completed']) },
          { say: 'health-a1 finished: all done.' },
        ],
      },
    ],
  },
  {
    name: 'health-drop-reopen',
    what: 'plan health: a 3-item manage_todo_list list; the next leaves out a pending item (dropped); the next has a completed item in progress again (reopened); all completed',
    requests: [
      {
        query: 'health-b1: a plan that changes its mind',
        steps: [
          { say: 'Planning.', tool: 'manage_todo_list', arguments: list(['Read the code', 'in-progress'], ['Make the change', 'not-started'], ['Write a regression test', 'not-started']) },
          { say: 'Dropping the test.', tool: 'manage_todo_list', arguments: list(['Read the code', 'completed'], ['Make the change', 'in-progress']) },
          { say: 'Reading again.', tool: 'manage_todo_list', arguments: list(['Read the code', 'in-progress'], ['Make the change', 'completed']) },
          { say: 'Done.', tool: 'manage_todo_list', arguments: list(['Read the code', 'completed'], ['Make the change', 'completed']) },
          { say: 'health-b1 finished.' },
        ],
      },
    ],
  },
  {
    name: 'health-stall',
    what: 'plan health: a 2-item manage_todo_list list, then 30 file_search calls (three steps of 10) without a plan update, then the list completed',
    requests: [
      {
        query: 'health-c1: look around a lot before finishing',
        steps: [
          { say: 'Planning.', tool: 'manage_todo_list', arguments: list(['Find the files', 'in-progress'], ['Report', 'not-started']) },
          search(0),
          search(10),
          search(20),
          { say: 'Found them.', tool: 'manage_todo_list', arguments: list(['Find the files', 'completed'], ['Report', 'completed']) },
          { say: 'health-c1 finished.' },
        ],
      },
    ],
  },
);

// Edits: Copilot's own edit tools between plan calls of both todo tools, so the file shows
// which edit came while which item was in progress (and the edit parts VS Code sends again).
CHATS.push({
  name: 'edits',
  what: 'files edited between plan calls: todo_write (item 1 in progress), create_file notes.md, replace_string_in_file README.md, manage_todo_list (item 2 in progress), replace_string_in_file README.md again, create_file docs/CHANGES.md, todo_write (all completed); then a second request that edits README.md before any plan call of its own',
  requests: [
    {
      query: 'edits-a1: write the notes and update the readme',
      steps: [
        { say: 'Planning.', tool: 'todo_write', arguments: { todos: [{ content: 'Write the notes', status: 'in_progress' }, { content: 'Update the readme', status: 'pending' }] } },
        { say: 'Writing the notes.', tool: 'create_file', arguments: { filePath: '${workspaceFolder}/notes.md', content: '# Notes\n\nThe parser reads edits.\n' } },
        {
          say: 'Pointing the readme at them.',
          tool: 'replace_string_in_file',
          arguments: { filePath: '${workspaceFolder}/README.md', oldString: '# Agent Plan test workspace', newString: '# Agent Plan test workspace\n\nSee notes.md.' },
        },
        { say: 'Notes written; the readme next.', tool: 'manage_todo_list', arguments: list(['Write the notes', 'completed'], ['Update the readme', 'in-progress']) },
        {
          say: 'Updating the readme again.',
          tool: 'replace_string_in_file',
          arguments: { filePath: '${workspaceFolder}/README.md', oldString: 'See notes.md.', newString: 'See notes.md for what the parser reads.' },
        },
        { say: 'And a changelog beside it.', tool: 'create_file', arguments: { filePath: '${workspaceFolder}/docs/CHANGES.md', content: '- notes.md added\n' } },
        { say: 'Both done.', tool: 'todo_write', arguments: { todos: [{ content: 'Write the notes', status: 'completed' }, { content: 'Update the readme', status: 'completed' }] } },
        { say: 'edits-a1 finished: notes.md, docs/CHANGES.md and README.md written.' },
      ],
    },
    {
      query: 'edits-a2: one more line in the readme',
      steps: [
        {
          say: 'Adding it.',
          tool: 'replace_string_in_file',
          arguments: { filePath: '${workspaceFolder}/README.md', oldString: 'See notes.md for what the parser reads.', newString: 'See notes.md and docs/CHANGES.md.' },
        },
        { say: 'edits-a2 finished: README.md updated.' },
      ],
    },
  ],
});

// Waiting on the user: a terminal command with auto-approve off (the run's settings switch
// `chat.tools.terminal.enableAutoApprove` off), so VS Code asks before it runs. `confirm` on
// a request says what the runner does at the prompt: 'accept' presses Allow
// (`workbench.action.chat.acceptTool`), 'leave' leaves it asking, 'next' sends the chat's next
// request without answering. A chat left asking is copied as VS Code wrote it while it asked,
// before the window closes.
const terminal = (command, goal) => ({ tool: 'run_in_terminal', arguments: { command, explanation: goal, goal, mode: 'sync' } });
CHATS.push(
  {
    name: 'wait-confirmed',
    what: 'a terminal command that asks for approval (auto-approve off) and runs for 5 s once allowed: manage_todo_list, run_in_terminal `sleep 5 && echo wait-confirmed`, allowed at the prompt, then the list completed',
    requests: [
      {
        query: 'wait-a1: run the slow check once I allow it',
        confirm: 'accept',
        steps: [
          { say: 'Planning.', tool: 'manage_todo_list', arguments: list(['Run the check', 'in-progress']) },
          { say: 'Running the check.', ...terminal('sleep 5 && echo wait-confirmed', 'Run the slow check') },
          { say: 'Checked.', tool: 'manage_todo_list', arguments: list(['Run the check', 'completed']) },
          { say: 'wait-a1 finished: the check ran.' },
        ],
      },
    ],
  },
  {
    name: 'wait-left',
    what: 'a terminal command that asks for approval (auto-approve off), left asking: manage_todo_list, then run_in_terminal `echo wait-left`; the file as VS Code wrote it while the prompt was open',
    requests: [
      {
        query: 'wait-b1: run the check, I will approve it later',
        confirm: 'leave',
        steps: [
          { say: 'Planning.', tool: 'manage_todo_list', arguments: list(['Run the check', 'in-progress']) },
          { say: 'Running the check.', ...terminal('echo wait-left', 'Run the check') },
          { say: 'wait-b1 finished: the check ran.' },
        ],
      },
    ],
  },
  {
    name: 'wait-moved-on',
    what: 'a terminal command that asks for approval (auto-approve off), not answered: manage_todo_list, run_in_terminal `echo wait-moved-on`; the user sends a new request instead, which answers without tools',
    requests: [
      {
        query: 'wait-c1: run the check, or not',
        confirm: 'next',
        steps: [
          { say: 'Planning.', tool: 'manage_todo_list', arguments: list(['Run the check', 'in-progress']) },
          { say: 'Running the check.', ...terminal('echo wait-moved-on', 'Run the check') },
          { say: 'wait-c1 finished: the check ran.' },
        ],
      },
      {
        query: 'wait-c2: never mind the check',
        steps: [{ say: 'wait-c2 finished: no check.' }],
      },
    ],
  },
);

// Each step after the first answers a little later, so VS Code writes the session file
// while the request runs and the recordings hold the incremental lines (parts pushed
// again as a call moves on), not only one line per finished request.
const STEP_DELAY_MS = 2500;
for (const chat of CHATS) {
  if (chat.name === 'titled') continue;
  for (const request of chat.requests) request.steps.forEach((step, index) => index > 0 && (step.delayMs = STEP_DELAY_MS));
}

/** The runner executed in the extension host (CommonJS, written into the run folder). */
const RUNNER = String.raw`
const vscode = require('vscode');
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

exports.run = async function run() {
  const runDir = path.dirname(vscode.workspace.workspaceFolders[0].uri.fsPath);
  const plan = JSON.parse(fs.readFileSync(path.join(runDir, 'record-plan.json'), 'utf8'));
  const logFile = path.join(runDir, 'logs', 'runner.log');
  const note = (m) => fs.appendFileSync(logFile, new Date().toISOString() + ' ' + m + '\n');
  const result = { chats: [], errors: [] };
  const save = () => fs.writeFileSync(path.join(runDir, 'record-result.json'), JSON.stringify(result, null, 2));
  try {
    await vscode.commands.executeCommand('workbench.action.chat.triggerSetupAnonymousWithoutDialog');
    let copilot;
    for (let i = 0; i < 120 && !copilot; i++) {
      copilot = vscode.extensions.getExtension('GitHub.copilot-chat');
      if (!copilot) await sleep(500);
    }
    if (!copilot) throw new Error('Copilot Chat did not appear after chat setup');
    await copilot.activate();
    note('copilot ' + copilot.packageJSON.version + ' active');
    let models = [];
    for (let i = 0; i < 120 && models.length === 0; i++) {
      models = await vscode.lm.selectChatModels({ vendor: plan.vendor, id: plan.modelId });
      if (models.length === 0) await sleep(500);
    }
    if (models.length === 0) throw new Error('the scripted model is not listed');
    note('model listed: ' + models.map((m) => m.id).join(','));
    const agentPlan = vscode.extensions.getExtension('agent-plan.agent-plan');
    const api = await agentPlan.activate();
    result.hostVersion = vscode.version;
    result.copilotVersion = copilot.packageJSON.version;

    const sessionsRoot = path.join(runDir, 'user-data', 'User', 'workspaceStorage');
    const chatFiles = () => {
      const found = [];
      if (!fs.existsSync(sessionsRoot)) return found;
      for (const id of fs.readdirSync(sessionsRoot)) {
        const dir = path.join(sessionsRoot, id, 'chatSessions');
        if (!fs.existsSync(dir)) continue;
        for (const name of fs.readdirSync(dir)) if (name.endsWith('.jsonl')) found.push(path.join(dir, name));
      }
      return found;
    };
    /** Chats left waiting: the copy of their file taken while they waited. */
    const snapshotOf = {};
    const fileWith = (text) => chatFiles().find((f) => fs.readFileSync(f, 'utf8').includes(text));

    for (const chat of plan.chats) {
      const keysBefore = new Set(api.listSessions().map((s) => s.session));
      await vscode.commands.executeCommand('workbench.action.chat.newChat');
      await sleep(500);
      for (const request of chat.requests) {
        note('sending ' + request.query);
        const sent = vscode.commands.executeCommand('workbench.action.chat.open', {
          query: request.query,
          mode: 'agent',
          modelSelector: { vendor: plan.vendor, id: plan.modelId },
          isPartialQuery: false,
          blockOnResponse: true,
        });
        if (request.confirm) {
          // The request blocks on the prompt: wait until the file says it waits for the user
          // (the request's modelState 4 after its tool call).
          sent.then(undefined, (error) => note('  request ended with ' + error));
          const asking = (text) => text.includes('"toolId":"run_in_terminal"') && /"modelState"\],"v":\{"value":4\b|"modelState":\{"value":4\b/.test(text);
          let file;
          for (let i = 0; i < 120 && !file; i++) {
            file = chatFiles().find((f) => { const text = fs.readFileSync(f, 'utf8'); return text.includes(request.query) && asking(text); });
            if (!file) await sleep(500);
          }
          if (!file) throw new Error(chat.name + ': the file never showed the request waiting for the user');
          note('  asking for approval; file ' + path.basename(file));
          await sleep(3000);
          if (request.confirm === 'next') {
            note('  not answered; the next request');
            continue;
          }
          if (request.confirm === 'leave') {
            const snapshots = path.join(runDir, 'snapshots');
            fs.mkdirSync(snapshots, { recursive: true });
            snapshotOf[chat.name] = path.join(snapshots, chat.name + '.jsonl');
            fs.copyFileSync(file, snapshotOf[chat.name]);
            note('  left asking; copied ' + fs.statSync(file).size + ' bytes');
            continue;
          }
          await vscode.commands.executeCommand('workbench.action.chat.acceptTool');
          note('  allowed');
        } else {
          await sent;
        }
        // VS Code writes the session file on its own schedule: wait for the request's
        // last words to be in it.
        const last = request.steps[request.steps.length - 1].say;
        let file;
        for (let i = 0; i < 60 && !file; i++) {
          file = fileWith(last);
          if (!file) await sleep(500);
        }
        note('  answered; file ' + (file ? path.basename(file) : 'NOT FOUND'));
      }
      await sleep(1500);
      const file = fileWith(chat.requests[0].query);
      const uuid = file ? path.basename(file, '.jsonl') : undefined;
      const newKeys = api.listSessions().map((s) => s.session).filter((k) => !keysBefore.has(k));
      const entry = { name: chat.name, uuid, file, agentPlanKeys: newKeys, ...(snapshotOf[chat.name] ? { snapshot: snapshotOf[chat.name] } : {}) };
      if (uuid) {
        const b64url = Buffer.from(uuid, 'utf8').toString('base64url');
        const identity = 'resource:vscode-chat-session://local/' + b64url + '?#';
        entry.identity = identity;
        entry.identityKey = crypto.createHash('sha256').update(identity, 'utf8').digest('hex').slice(0, 32);
        // Only a chat that called todo_write has a key to compare.
        entry.keyMatches = newKeys.length > 0 ? newKeys.includes(entry.identityKey) : null;
      }
      result.chats.push(entry);
      note('chat ' + chat.name + ': ' + JSON.stringify(entry));
      save();
    }
    // Let the last writes land before the window closes.
    await sleep(2000);
  } catch (error) {
    result.errors.push(String(error && error.stack || error));
    note('error: ' + (error && error.stack || error));
  }
  save();
};
`;


/** Local paths in a recorded line, replaced by stable placeholders. */
function sanitize(text, replacements) {
  let out = text;
  for (const [from, to] of replacements) {
    if (!from) continue;
    out = out.split(from).join(to);
    // The same path inside JSON strings (escaped slashes never occur in VS Code's JSON,
    // but URI-encoded forms do).
    out = out.split(encodeURI(from)).join(to);
  }
  return out;
}

/** The chats named on the command line (all when none is). */
const ONLY = process.argv.slice(2);
for (const name of ONLY) if (!CHATS.some((chat) => chat.name === name)) throw new Error(`no chat ${name}; known: ${CHATS.map((c) => c.name).join(', ')}`);
const RECORDED = ONLY.length > 0 ? CHATS.filter((chat) => ONLY.includes(chat.name)) : CHATS;

async function main() {
  const cleanups = cleanupStack();
  try {
    if (!fs.existsSync(path.join(repoRoot, 'dist', 'extension.js'))) throw new Error('build first: node scripts/build.mjs');
    const script = { turns: RECORDED.flatMap((chat) => chat.requests.map((r) => ({ match: r.query.split(':')[0], steps: r.steps }))), sideText: 'Mirror fixture chat' };
    const workbench = await openWorkbench({
      kind: 'copilot-record',
      keep: 2,
      cleanups,
      workspace: { from: path.join(repoRoot, 'test', 'fixtures', 'workspace') },
      extensions: { 'agent-plan': repoRoot },
      // Terminal commands ask before they run (the wait-* chats).
      userFiles: { 'User/settings.json': { 'workbench.startupEditor': 'none', 'chat.tools.terminal.enableAutoApprove': false } },
      services: [scriptedAgentService({ script, maxRequests: 300, lifetimeMs: RUN_TIMEOUT_MS + 60_000 })],
    });
    const { runDir, userDataDir, workspace } = workbench;
    log(`run folder ${runDir}`);
    fs.writeFileSync(path.join(runDir, 'record-plan.json'), JSON.stringify({ vendor: VENDOR, modelId: MODEL_ID, chats: RECORDED }));
    const runner = path.join(runDir, 'record-runner.js');
    fs.writeFileSync(runner, RUNNER);
    const { outcome } = await workbench.runTests({ phase: 'record', testsPath: runner, timeoutMs: RUN_TIMEOUT_MS });
    log(`workbench finished: ${outcome}`);
    await cleanups.run(); // stops the host first, so every chat file is final

    const resultFile = path.join(runDir, 'record-result.json');
    if (!fs.existsSync(resultFile)) throw new Error(`no result from the runner; logs in ${runDir}/logs`);
    const result = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
    if (result.errors.length > 0) throw new Error(`the runner failed: ${result.errors.join('\n')}`);

    const replacements = [
      [userDataDir, '/USER_DATA'],
      [workspace, '/WORKSPACE'],
      [runDir, '/RUN'],
      [repoRoot, '/REPO'],
    ];
    fs.mkdirSync(OUT_DIR, { recursive: true });
    const manifestFile = path.join(OUT_DIR, 'manifest.json');
    // Chats not recorded this time keep their files and their manifest entries.
    const kept = ONLY.length > 0 && fs.existsSync(manifestFile) ? JSON.parse(fs.readFileSync(manifestFile, 'utf8')).chats.filter((c) => !ONLY.includes(c.file.replace(/\.jsonl$/, ''))) : [];
    for (const name of fs.readdirSync(OUT_DIR)) if (name.endsWith('.jsonl') && !kept.some((c) => c.file === name)) fs.rmSync(path.join(OUT_DIR, name));
    const manifest = { recordedWith: { host: result.hostVersion, copilotChat: result.copilotVersion, script: 'scripts/record-copilot-chats.mjs' }, chats: [...kept] };
    for (const chat of result.chats) {
      if (!chat.file || !fs.existsSync(chat.file)) throw new Error(`chat ${chat.name}: no session file found`);
      if (chat.snapshot) {
        // What VS Code wrote after the copy: while the runner went on to the next chats, and as the window closed.
        const before = fs.readFileSync(chat.snapshot, 'utf8').split('\n').filter((l) => l !== '').length;
        const after = fs.readFileSync(chat.file, 'utf8').split('\n').filter((l) => l !== '').slice(before);
        const brief = (line) => `${/^\{"kind":(\d)(?:,"k":(\[[^\]]*\]))?/.exec(line)?.slice(1).join(' ') ?? '?'} ${(line.match(/"(?:isConfirmed|modelState)":\{[^}]*\}|"modelState"\],"v":\{[^}]*\}/g) ?? []).join(' ')}`;
        const later = RECORDED.slice(RECORDED.findIndex((c) => c.name === chat.name) + 1).map((c) => c.name);
        log(`${chat.name}: left waiting; then (${later.length > 0 ? `chats ${later.join(', ')}, ` : ''}the window closed) VS Code wrote ${after.length} more lines to it: ${after.map(brief).join(' | ')}`);
      }
      const text = sanitize(fs.readFileSync(chat.snapshot ?? chat.file, 'utf8'), replacements);
      fs.writeFileSync(path.join(OUT_DIR, `${chat.name}.jsonl`), text);
      const spec = CHATS.find((c) => c.name === chat.name);
      manifest.chats.push({
        file: `${chat.name}.jsonl`,
        what: spec.what,
        uuid: chat.uuid,
        bytes: Buffer.byteLength(text),
        lines: text.split('\n').filter((l) => l !== '').length,
        agentPlanKeys: chat.agentPlanKeys,
        identity: chat.identity,
        identityKey: chat.identityKey,
        keyMatches: chat.keyMatches,
      });
      log(`${chat.name}: ${chat.uuid} -> ${chat.name}.jsonl (${Buffer.byteLength(text)} bytes); todo_write key ${chat.agentPlanKeys.join(',') || 'none'}, identity key ${chat.identityKey} ${chat.keyMatches === null ? '(no todo_write call)' : chat.keyMatches ? 'MATCHES' : 'DOES NOT MATCH'}`);
    }
    manifest.chats.sort((a, b) => CHATS.findIndex((c) => `${c.name}.jsonl` === a.file) - CHATS.findIndex((c) => `${c.name}.jsonl` === b.file));
    fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2) + '\n');
    log(`wrote ${manifest.chats.length} chats to ${path.relative(repoRoot, OUT_DIR)}`);
    // The profile is the bulk of the run folder; the logs stay for a look.
    fs.rmSync(userDataDir, { recursive: true, force: true });
    return 0;
  } finally {
    await cleanups.run();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    log(error?.stack ?? String(error));
    process.exit(1);
  },
);

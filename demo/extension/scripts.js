// The demo agent's scripts: for a request, the sequence of plans it writes with
// todo_write and what it says before each. Pure data and functions, no vscode.
//
// A script is a list of steps. Every step but the last has `todos` (the WHOLE
// list the agent sends next); the last has only `say` (the closing summary).
// `weight` scales the step's pause (agentPlanDemo.stepDelayMs) so some steps
// "take longer" than others.
//
// A step may have `edits`: `{ say, calls: [{ tool, arguments }] }`, the work the
// agent does while that step's plan is current (its items in progress), made
// through Copilot's own tools (create_file, replace_string_in_file, read_file;
// `${workspaceFolder}` is the demo workspace). The scripted model Copilot talks to
// (`npm start`) makes these calls after the step's todo_write, so the files
// really change, each while its item is in progress. The offline @demo
// participant has no edit tools: it plays the plans only, and says
// `sayWithoutEdits` (when a step has one) instead of `say`.
'use strict';

const P = 'pending';
const W = 'in_progress';
const D = 'completed';

/** Builds the steps from a list of item names and one status string per step. */
function steps(items, frames) {
  return frames.map(({ say, weight = 1, plan, edits, sayWithoutEdits }) => {
    const step = { say, weight };
    if (sayWithoutEdits !== undefined) step.sayWithoutEdits = sayWithoutEdits;
    if (plan === undefined) return step;
    step.todos = plan.map(([key, status]) => ({ content: items[key], status }));
    if (edits !== undefined) step.edits = edits;
    return step;
  });
}

const file = (name) => `\${workspaceFolder}/${name}`;
const replace = (name, oldString, newString) => ({ tool: 'replace_string_in_file', arguments: { filePath: file(name), oldString, newString } });
const create = (name, content) => ({ tool: 'create_file', arguments: { filePath: file(name), content } });
const read = (name, startLine, endLine) => ({ tool: 'read_file', arguments: { filePath: file(name), startLine, endLine } });

/**
 * The dark mode edits, against demo/workspace as it is in the repository: each
 * `oldString` is text the file holds at that point of the run.
 */
const DARK_MODE_EDITS = {
  audit: { say: 'Reading `src/styles.css`.', calls: [read('src/styles.css', 1, 100)] },
  vars: {
    say: 'Moving the page, header and card colors into custom properties.',
    calls: [
      replace(
        'src/styles.css',
        'body {\n  margin: 0;\n  font-family: system-ui, sans-serif;\n  background: #faf7f2;\n  color: #2b2118;\n}',
        ':root {\n  --bg: #faf7f2;\n  --text: #2b2118;\n  --header-bg: #6f4e37;\n  --header-text: #fffaf3;\n  --surface: #ffffff;\n  --border: #e7dccd;\n}\n\nbody {\n  margin: 0;\n  font-family: system-ui, sans-serif;\n  background: var(--bg);\n  color: var(--text);\n}',
      ),
      replace('src/styles.css', '  background: #6f4e37;\n  color: #fffaf3;\n}', '  background: var(--header-bg);\n  color: var(--header-text);\n}'),
      replace('src/styles.css', '  background: #ffffff;\n  border: 1px solid #e7dccd;', '  background: var(--surface);\n  border: 1px solid var(--border);'),
    ],
  },
  dark: {
    say: 'Adding the dark palette.',
    calls: [
      replace(
        'src/styles.css',
        '  --border: #e7dccd;\n}\n',
        '  --border: #e7dccd;\n}\n\n[data-theme="dark"] {\n  --bg: #1c1612;\n  --text: #f3e9dc;\n  --header-bg: #2a1f18;\n  --header-text: #f3e9dc;\n  --surface: #261d17;\n  --border: #3d3028;\n}\n',
      ),
    ],
  },
  toggle: {
    say: 'Adding the toggle to the header and wiring it up in `src/app.js`.',
    calls: [
      replace(
        'index.html',
        '        <button type="button" class="icon-button" id="export" title="Export">⇩</button>\n',
        '        <button type="button" class="icon-button" id="export" title="Export">⇩</button>\n        <button type="button" class="icon-button" id="theme-toggle" aria-pressed="false" aria-label="Dark mode" title="Dark mode">◐</button>\n',
      ),
      replace(
        'src/app.js',
        '  form.reset();\n  render();\n});\n\nrender();\n',
        "  form.reset();\n  render();\n});\n\nconst toggle = document.querySelector('#theme-toggle');\n\nfunction applyTheme(theme) {\n  document.documentElement.dataset.theme = theme;\n  toggle.setAttribute('aria-pressed', String(theme === 'dark'));\n}\n\ntoggle.addEventListener('click', () => {\n  applyTheme(document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark');\n});\n\nrender();\n",
      ),
    ],
  },
  persist: {
    say: 'Saving the choice with `src/storage.js`.',
    calls: [
      replace(
        'src/app.js',
        "toggle.addEventListener('click', () => {\n  applyTheme(document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark');\n});\n",
        "toggle.addEventListener('click', () => {\n  const theme = document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark';\n  save('theme', theme);\n  applyTheme(theme);\n});\n\nconst prefersDark = globalThis.matchMedia?.('(prefers-color-scheme: dark)').matches;\napplyTheme(load('theme', prefersDark ? 'dark' : 'light'));\n",
      ),
    ],
  },
  flash: {
    say: 'Setting the theme in `<head>`, before the stylesheet loads.',
    calls: [
      replace(
        'index.html',
        '    <link rel="stylesheet" href="src/styles.css" />\n',
        "    <script>\n      try {\n        const theme = JSON.parse(localStorage.getItem('brewlog:theme'));\n        if (theme) document.documentElement.dataset.theme = theme;\n      } catch {}\n    </script>\n    <link rel=\"stylesheet\" href=\"src/styles.css\" />\n",
      ),
    ],
  },
  test: {
    say: 'Writing `test/theme.test.js`.',
    calls: [
      create(
        'test/theme.test.js',
        "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\n\nconst store = new Map();\nglobalThis.localStorage = {\n  getItem: (key) => (store.has(key) ? store.get(key) : null),\n  setItem: (key, value) => store.set(key, String(value)),\n};\nconst { load, save } = await import('../src/storage.js');\n\ntest('the saved theme is read back', () => {\n  assert.equal(load('theme', 'light'), 'light');\n  save('theme', 'dark');\n  assert.equal(load('theme', 'light'), 'dark');\n});\n",
      ),
    ],
  },
};

function darkModeScript() {
  const items = {
    audit: 'Audit the hard-coded colors in src/styles.css',
    vars: 'Move the palette into CSS custom properties',
    dark: 'Add a dark palette for [data-theme="dark"]',
    toggle: 'Add a theme toggle button to the header',
    toggleA11y: 'Add an accessible theme toggle (aria-pressed) to the header',
    persist: 'Remember the choice with src/storage.js',
    flash: 'Apply the saved theme before first paint (no white flash)',
    test: 'Add a test for the saved theme',
  };
  const e = DARK_MODE_EDITS;
  return {
    name: 'dark-mode',
    steps: steps(items, [
      {
        weight: 1.2,
        say: "I'll add a light/dark theme switch to Brewlog. Every color is hard-coded in `src/styles.css`, and the header in `index.html` already has an icon button the toggle can sit next to. Here's the plan.",
        plan: [['audit', P], ['vars', P], ['dark', P], ['toggle', P], ['persist', P], ['test', P]],
      },
      {
        weight: 0.8,
        say: 'Starting with the stylesheet: where the colors are used.',
        plan: [['audit', W], ['vars', P], ['dark', P], ['toggle', P], ['persist', P], ['test', P]],
        edits: e.audit,
      },
      {
        say: 'The page, the header and the cards each hard-code their colors. Moving those into custom properties on `:root` (`--bg`, `--text`, `--header-bg`, `--header-text`, `--surface`, `--border`).',
        plan: [['audit', D], ['vars', W], ['dark', P], ['toggle', P], ['persist', P], ['test', P]],
        edits: e.vars,
      },
      {
        weight: 1.2,
        say: "The page, header and cards now read their colors from variables, with the same values as before. The dark palette (CSS) and the toggle button (HTML + JS) don't touch the same files, so I'll work on both at once.",
        plan: [['audit', D], ['vars', D], ['dark', W], ['toggle', W], ['persist', P], ['test', P]],
        edits: e.dark,
      },
      {
        say: 'The header buttons are plain icons, so a screen reader would not know which theme is on. The toggle should expose its state with `aria-pressed` and a label: rewording that task.',
        plan: [['audit', D], ['vars', D], ['dark', W], ['toggleA11y', W], ['persist', P], ['test', P]],
      },
      {
        say: 'Dark palette done: `[data-theme="dark"]` sets an espresso background `#1c1612` and crema text `#f3e9dc`. Now the toggle.',
        plan: [['audit', D], ['vars', D], ['dark', D], ['toggleA11y', W], ['persist', P], ['test', P]],
        edits: e.toggle,
      },
      {
        say: 'Toggle added: `<button id="theme-toggle" aria-pressed="false" aria-label="Dark mode">` in the header; `src/app.js` flips `data-theme` on `<html>` and keeps `aria-pressed` in step. Next, remembering the choice.',
        plan: [['audit', D], ['vars', D], ['dark', D], ['toggleA11y', D], ['persist', W], ['test', P]],
        edits: e.persist,
      },
      {
        weight: 1.2,
        say: '`src/app.js` applies the saved theme only after the page has painted, so a reload in dark mode would flash white first. Adding a task to set the theme from a tiny inline script in `<head>`.',
        plan: [['audit', D], ['vars', D], ['dark', D], ['toggleA11y', D], ['persist', W], ['flash', P], ['test', P]],
      },
      {
        say: "`save('theme', …)` and `load('theme', …)` from `src/storage.js` now keep the choice; with nothing saved the app follows `prefers-color-scheme`. Now the flash.",
        plan: [['audit', D], ['vars', D], ['dark', D], ['toggleA11y', D], ['persist', D], ['flash', W], ['test', P]],
        edits: e.flash,
      },
      {
        say: 'An inline script in `<head>` reads the saved theme and sets `data-theme` before the stylesheet loads. Last step: a test for the saved theme.',
        plan: [['audit', D], ['vars', D], ['dark', D], ['toggleA11y', D], ['persist', D], ['flash', D], ['test', W]],
        edits: e.test,
      },
      {
        weight: 1.2,
        say: '`test/theme.test.js` saves a theme and reads it back through `src/storage.js`.',
        plan: [['audit', D], ['vars', D], ['dark', D], ['toggleA11y', D], ['persist', D], ['flash', D], ['test', D]],
      },
      {
        weight: 0.6,
        say: '**Done.** I changed `src/styles.css` (the page, header and card colors in custom properties, and a dark palette), `index.html` (a toggle in the header with `aria-pressed`, and an inline script that sets the saved theme before the stylesheet loads) and `src/app.js` (the toggle, its choice saved with `src/storage.js`, the system setting when nothing is saved), and added `test/theme.test.js`. I did not run the tests or open the page. Every step is in the Agent Plan sidebar; the Plan Timeline shows which files each item changed.',
        sayWithoutEdits: '**Done.** That was the whole plan. (The offline `@demo` agent only plays the plan: it changed no files. With Copilot and the Scripted Agent, `npm start` makes these edits for real.) Every step is in the Agent Plan sidebar, and its history shows how the plan changed along the way.',
      },
    ]),
  };
}

/** The request as a short task name: one line, no leading @mention, no trailing punctuation, at most 80 characters. */
function taskName(request) {
  let text = String(request)
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^(@[\w-]+ ?)+/, '') // a participant mention typed twice is not part of the task
    .trim()
    .replace(/[.!?…]+$/u, '');
  if (text.length > 80) text = `${text.slice(0, 79).trimEnd()}…`;
  return text;
}

function genericScript(request) {
  const task = taskName(request);
  const items = {
    understand: `Understand the request: ${task}`,
    find: 'Find the code that needs to change',
    change: 'Make the changes',
    changeSmall: 'Make the changes in small, reviewable steps',
    tests: 'Write tests for the new behaviour',
    edges: 'Handle the edge cases found while testing',
    review: 'Run the test suite and review the diff',
  };
  return {
    name: 'generic',
    steps: steps(items, [
      { say: `I'll work on **${task}**. Here's my plan.`, plan: [['understand', P], ['find', P], ['change', P], ['tests', P], ['review', P]] },
      { say: 'Reading the request and the README to pin down what "done" means.', plan: [['understand', W], ['find', P], ['change', P], ['tests', P], ['review', P]] },
      { say: 'Clear enough. Now looking for the files involved.', plan: [['understand', D], ['find', W], ['change', P], ['tests', P], ['review', P]] },
      { say: "Found them. The change and its tests can go side by side, so I'm starting both.", plan: [['understand', D], ['find', D], ['change', W], ['tests', W], ['review', P]] },
      { say: 'This touches more than one module; splitting the work into small steps so each is easy to review.', plan: [['understand', D], ['find', D], ['changeSmall', W], ['tests', W], ['review', P]] },
      { say: 'The tests turned up two edge cases (empty input, a very long value). Adding a task for them.', plan: [['understand', D], ['find', D], ['changeSmall', W], ['tests', D], ['edges', P], ['review', P]] },
      { say: 'Main change done; handling the edge cases.', plan: [['understand', D], ['find', D], ['changeSmall', D], ['tests', D], ['edges', W], ['review', P]] },
      { say: 'Edge cases covered. Running everything and reading the diff once more.', plan: [['understand', D], ['find', D], ['changeSmall', D], ['tests', D], ['edges', D], ['review', W]] },
      { say: 'All green.', plan: [['understand', D], ['find', D], ['changeSmall', D], ['tests', D], ['edges', D], ['review', D]] },
      { weight: 0.6, say: `**Done:** ${task}. (A scripted demo: it played the plan and changed no files.)` },
    ]),
  };
}

/** Picks the script for a user request. */
function scriptFor(request) {
  if (/\bdark[\s-]*(mode|theme)\b|\bnight mode\b|\btheme (toggle|switch)/i.test(String(request))) return darkModeScript();
  return genericScript(request);
}

module.exports = { scriptFor, taskName, DARK_MODE_EDITS };

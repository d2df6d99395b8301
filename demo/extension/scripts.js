// The demo agent's scripts: for a request, the sequence of plans it writes with
// todo_write and what it says before each. Pure data and functions, no vscode.
//
// A script is a list of steps. Every step but the last has `todos` (the WHOLE
// list the agent sends next); the last has only `say` (the closing summary).
// `weight` scales the step's pause (agentPlanDemo.stepDelayMs) so some steps
// "take longer" than others.
'use strict';

const P = 'pending';
const W = 'in_progress';
const D = 'completed';

/** Builds the steps from a list of item names and one status string per step. */
function steps(items, frames) {
  return frames.map(({ say, weight = 1, plan }) => {
    if (plan === undefined) return { say, weight };
    const todos = [];
    for (const [key, status] of plan) todos.push({ content: items[key], status });
    return { say, weight, todos };
  });
}

function darkModeScript() {
  const items = {
    audit: 'Audit the hard-coded colors in src/styles.css',
    vars: 'Move the palette into CSS custom properties',
    dark: 'Add a dark palette for [data-theme="dark"]',
    toggle: 'Add a theme toggle button to the header',
    toggleA11y: 'Add an accessible theme toggle (aria-pressed) to the header',
    persist: 'Remember the choice with src/storage.js',
    flash: 'Apply the saved theme before first paint (no white flash)',
    test: 'Check both themes and run npm test',
  };
  return {
    name: 'dark-mode',
    steps: steps(items, [
      {
        weight: 1.2,
        say: "I'll add a light/dark theme switch to Brewlog. First a quick look at how the app is styled: every color is hard-coded in `src/styles.css`, and the header in `index.html` already has an icon button I can sit next to. Here's the plan.",
        plan: [['audit', P], ['vars', P], ['dark', P], ['toggle', P], ['persist', P], ['test', P]],
      },
      {
        weight: 0.8,
        say: 'Starting with the stylesheet: listing every color and where it is used.',
        plan: [['audit', W], ['vars', P], ['dark', P], ['toggle', P], ['persist', P], ['test', P]],
      },
      {
        say: 'Found 14 hard-coded colors: background, text, header, borders, the accent and the muted meta text. Moving them into custom properties on `:root` (`--bg`, `--surface`, `--text`, `--accent`, …).',
        plan: [['audit', D], ['vars', W], ['dark', P], ['toggle', P], ['persist', P], ['test', P]],
      },
      {
        weight: 1.2,
        say: "The light theme now reads everything from variables and looks the same as before. The dark palette (CSS) and the toggle button (HTML + JS) don't touch the same files, so I'll work on both at once.",
        plan: [['audit', D], ['vars', D], ['dark', W], ['toggle', W], ['persist', P], ['test', P]],
      },
      {
        say: 'The header buttons are plain icons, so a screen reader would not know which theme is on. The toggle should expose its state with `aria-pressed` and a label: rewording that task.',
        plan: [['audit', D], ['vars', D], ['dark', W], ['toggleA11y', W], ['persist', P], ['test', P]],
      },
      {
        say: 'Dark palette done: espresso background `#1c1612`, crema text `#f3e9dc`, the accent lifted to `#e09a5a` so it keeps 4.5:1 contrast on dark surfaces.',
        plan: [['audit', D], ['vars', D], ['dark', D], ['toggleA11y', W], ['persist', P], ['test', P]],
      },
      {
        say: 'Toggle added: `<button id="theme-toggle" aria-pressed="false" aria-label="Dark mode">` in the header; `app.js` flips `data-theme` on `<html>`. Next, remembering the choice.',
        plan: [['audit', D], ['vars', D], ['dark', D], ['toggleA11y', D], ['persist', W], ['test', P]],
      },
      {
        weight: 1.2,
        say: 'While testing the saved choice I noticed a white flash on reload in dark mode: `app.js` runs after the first paint. Adding a task to set the theme from a tiny inline script in `<head>`.',
        plan: [['audit', D], ['vars', D], ['dark', D], ['toggleA11y', D], ['persist', W], ['flash', P], ['test', P]],
      },
      {
        say: "`save('theme', …)` and `load('theme', …)` from `src/storage.js` now keep the choice; with nothing saved the app follows `prefers-color-scheme`. Now the flash.",
        plan: [['audit', D], ['vars', D], ['dark', D], ['toggleA11y', D], ['persist', D], ['flash', W], ['test', P]],
      },
      {
        say: 'An inline script in `<head>` reads the saved theme and sets `data-theme` before the stylesheet paints: no more flash. Last step: checking both themes and running the tests.',
        plan: [['audit', D], ['vars', D], ['dark', D], ['toggleA11y', D], ['persist', D], ['flash', D], ['test', W]],
      },
      {
        weight: 1.2,
        say: 'Both themes look right (header, cards, form fields, the cup list) and `npm test` passes, including a new test for the saved theme.',
        plan: [['audit', D], ['vars', D], ['dark', D], ['toggleA11y', D], ['persist', D], ['flash', D], ['test', D]],
      },
      {
        weight: 0.6,
        say: '**Done.** Brewlog has a dark mode: a toggle in the header (`aria-pressed`), a dark palette built on CSS custom properties, the choice saved with `src/storage.js` (defaulting to the system setting), and no flash on reload. Every step is in the Agent Plan sidebar, and its history shows how the plan changed along the way.',
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
      { weight: 0.6, say: `**Done:** ${task}. (This is the scripted demo agent: no files were changed. Try \`@demo add a dark mode toggle\` for the full scenario.)` },
    ]),
  };
}

/** Picks the script for a user request. */
function scriptFor(request) {
  if (/\bdark[\s-]*(mode|theme)\b|\bnight mode\b|\btheme (toggle|switch)/i.test(String(request))) return darkModeScript();
  return genericScript(request);
}

module.exports = { scriptFor, taskName };

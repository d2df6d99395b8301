// Several agents at once, each in its own git worktree: the workspace becomes a real git
// repository with two linked worktrees beside it (one added while the window is open), Codex
// runs in one and Claude Code in the other (offline, as the terminal-agent tests run them),
// and the Sessions view lists each session under its worktree. Removing a worktree keeps
// its session. Discovery reads git's own files; git itself only builds the layout here.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentPlanApi, PlanHealth } from '../../src/extension';
import { activityBadge, allSessionRows, api, badgeCount, bridge, planLine, SESSIONS_VIEW_ROWS, type SessionsViewRow } from './helpers';
import { agentsStatus as status, sessionsOf, versionsText, type AgentRun } from './terminalAgents';
import { waitFor } from '../lib/wait';

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=Agent Plan tests', '-c', 'user.email=tests@agent-plan.invalid', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
    stdio: 'ignore',
  });
}

async function runAgentIn(scenario: string, workspace: string): Promise<void> {
  const run = await bridge<AgentRun>({ op: 'runAgent', scenario, delayMs: 0, workspace }, 180_000);
  assert.equal(run.timedOut, false, `${scenario} timed out`);
  assert.equal(run.code, 0, `${scenario} exited ${run.code}`);
}

/** The Sessions view's rows, every one of them (the view draws only those on screen), as their accessible labels and tree levels. */
const sessionRows = allSessionRows;

/**
 * The Sessions view with only the named worktree rows open: every row folded (the view's
 * list is virtual, and the workspace's own row, first, holds every session of the earlier
 * tests), then each named row opened by a click, as a user would.
 */
async function openOnly(groups: readonly string[]): Promise<void> {
  await vscode.commands.executeCommand('agentPlan.sessions.focus');
  await vscode.commands.executeCommand('list.collapseAll');
  for (const group of groups) {
    const selector = `${SESSIONS_VIEW_ROWS}[aria-label^="${group},"]`;
    const found = await bridge<Array<string | null>>({ op: 'attributes', selector, name: 'aria-expanded' });
    if (found[0] === 'false') await bridge({ op: 'click', selector });
  }
}

const NEEDS_YOU = /^Needs You \((\d+)\)$/;
/** Rows the section draws (NEEDS_YOU_ROWS_SHOWN in src/vscode/sessions/needsYouRows.ts); its title counts them all. */
const NEEDS_YOU_ROWS_SHOWN = 5;
/** The health kinds that put a session in the queue, most urgent first (NEEDS_YOU_KINDS in src/core/derived/needsYou.ts). */
const NEEDS_YOU_KINDS = ['waiting', 'stopped-open', 'stalled', 'request-open'];

type Signal = PlanHealth['signals'][number];
interface QueueEntry {
  session: string;
  signal: Signal;
}

/** A signal's place: by kind, and among waiting calls, an approval before a running tool. */
const rank = (signal: Signal): number => NEEDS_YOU_KINDS.indexOf(signal.kind) * 2 + (signal.kind === 'waiting' && signal.wait?.approval !== true ? 1 : 0);

/** The queue as the API's health signals make it (the README's order): most urgent first, then the one waiting longest. */
function apiQueue(plan: AgentPlanApi): QueueEntry[] {
  const queue: QueueEntry[] = [];
  for (const { session } of plan.listSessions()) {
    const signal = plan
      .getHealth(session)
      .signals.filter((s) => NEEDS_YOU_KINDS.includes(s.kind))
      .sort((a, b) => rank(a) - rank(b))[0];
    if (signal) queue.push({ session, signal });
  }
  return queue.sort((a, b) => rank(a.signal) - rank(b.signal) || (a.signal.since < b.signal.since ? -1 : a.signal.since > b.signal.since ? 1 : 0) || (a.session < b.session ? -1 : a.session > b.session ? 1 : 0));
}

/** A row of the section says its entry's reason; a row of this file's runs names its agent too. */
function rowSays(row: string, entry: QueueEntry, ours: readonly string[]): boolean {
  const { signal } = entry;
  const count = signal.items?.length ?? 0;
  const reason =
    signal.kind === 'stopped-open'
      ? new RegExp(`, ${signal.how === 'cancelled' ? 'cancelled' : signal.how === 'failed' ? 'failed' : 'stopped'} with ${count} items? open$`)
      : signal.kind === 'stalled'
        ? /, stalled$/
        : signal.kind === 'request-open'
          ? /, (a request of yours is|\d+ requests of yours are) open$/
          : /, waiting\b/;
  return reason.test(row) && (!ours.includes(entry.session) || /, (Codex|Claude Code), /.test(row));
}

/** The Sessions view folded, with only its "Needs You" section open; its rows then, and the count its title says (0: no section). */
async function needsYouSection(): Promise<{ count: number; first: boolean; rows: string[] }> {
  await openOnly([]);
  const section = `${SESSIONS_VIEW_ROWS}[aria-label^="Needs You ("]`;
  const expanded = await bridge<Array<string | null>>({ op: 'attributes', selector: section, name: 'aria-expanded' });
  if (expanded[0] === 'false') await bridge({ op: 'click', selector: section });
  const rows = await sessionRows();
  const at = rows.findIndex((row) => NEEDS_YOU.test(row.label));
  if (at < 0) return { count: 0, first: false, rows: [] };
  return { count: Number(NEEDS_YOU.exec(rows[at]!.label)![1]), first: at === 0, rows: rowsUnder(rows, 'Needs You (') };
}

/** The rows right under the worktree row whose label starts with `group`. */
function rowsUnder(rows: readonly SessionsViewRow[], group: string): string[] {
  const start = rows.findIndex((row) => row.label.startsWith(group));
  if (start < 0) return [];
  const under: string[] = [];
  for (const row of rows.slice(start + 1)) {
    if (row.level <= (rows[start]?.level ?? 0)) break;
    under.push(row.label);
  }
  return under;
}

if (status.skipped !== undefined) {
  console.log(`SKIPPED: agents in git worktrees: ${status.skipped}`);
} else {
  describe(`agents in git worktrees (${versionsText()})`, function () {
    this.timeout(300_000);
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    const beside = (name: string) => path.join(path.dirname(workspace), name);

    /** The Codex and Claude Code sessions this file's runs made. */
    let ran: string[] = [];
    /** Those of them that stopped with items open. */
    let stopped: string[] = [];

    before(async () => {
      assert.ok(!fs.existsSync(path.join(workspace, '.git')), 'the fixture workspace starts outside git');
      git(workspace, 'init', '-q');
      git(workspace, 'add', '-A');
      git(workspace, 'commit', '-q', '-m', 'fixture');
      git(workspace, 'worktree', 'add', '-q', beside('wt-codex'), '-b', 'codex-branch');
      // A repository made under an open window: turning worktrees off and on reads it (a new
      // `.git` in a workspace folder is not watched; a new worktree of a known one is).
      const config = vscode.workspace.getConfiguration('agentPlan');
      await config.update('worktrees.enabled', false, vscode.ConfigurationTarget.Workspace);
      await config.update('worktrees.enabled', undefined, vscode.ConfigurationTarget.Workspace);
      await vscode.commands.executeCommand('workbench.view.extension.agentPlan');
      await vscode.commands.executeCommand('agentPlan.followLatest');
    });

    after(async () => {
      for (const name of ['wt-codex', 'wt-claude']) {
        if (fs.existsSync(beside(name))) git(workspace, 'worktree', 'remove', '--force', beside(name));
      }
      fs.rmSync(path.join(workspace, '.git'), { recursive: true, force: true });
      await vscode.workspace.getConfiguration('agentPlan').update('worktrees.enabled', false, vscode.ConfigurationTarget.Workspace);
      await vscode.workspace.getConfiguration('agentPlan').update('worktrees.enabled', undefined, vscode.ConfigurationTarget.Workspace);
    });

    it('Codex in one worktree and Claude Code in one added while the window is open: each session under its worktree', async () => {
      const knownCodex = (await sessionsOf('codex')).map((s) => s.session);
      await runAgentIn('codex/update-plan', beside('wt-codex'));
      const codex = await waitFor(async () => (await sessionsOf('codex')).find((s) => !knownCodex.includes(s.session)), 'a Codex session that ran in a worktree beside the workspace', 60_000);

      // The second worktree comes while the window is open: the folder watch sees it.
      git(workspace, 'worktree', 'add', '-q', beside('wt-claude'), '-b', 'claude-branch');
      const knownClaude = (await sessionsOf('claude-code')).map((s) => s.session);
      // Run at once: a session written before its folder is followed is found when it is.
      await runAgentIn('claude-code/todowrite', beside('wt-claude'));
      const claude = await waitFor(async () => (await sessionsOf('claude-code')).find((s) => !knownClaude.includes(s.session)), 'a Claude Code session from the worktree added while open', 60_000);
      ran = [codex.session, claude.session];

      const rows = await waitFor(async () => {
        await openOnly(['Worktree codex-branch', 'Worktree claude-branch']);
        const now = await sessionRows();
        return rowsUnder(now, 'Worktree codex-branch').some((label) => label.includes('Codex')) &&
          rowsUnder(now, 'Worktree claude-branch').some((label) => label.includes('Claude Code'))
          ? now
          : undefined;
      }, 'the Sessions view to list the Codex session under codex-branch and the Claude Code session under claude-branch', 30_000);
      assert.ok(rows.findIndex((row) => row.label.startsWith('Worktree main')) < rows.findIndex((row) => row.label.startsWith('Worktree codex-branch')) || !rows.some((row) => row.label.startsWith('Worktree main')), "the workspace's own worktree comes first");
    });


    it('the Needs You section at the top of the Sessions view lists the sessions that stopped with items open, and the badge counts them', async () => {
      // Both runs end their turn with an item still open: stopped with items open.
      const plan = await api();
      stopped = ran.filter((session) => plan.getPlan(session)?.todos.some((todo) => todo.status !== 'completed'));
      assert.ok(stopped.length >= 2, 'the Codex and Claude Code runs left items open');
      await waitFor(() => stopped.every((session) => apiQueue(plan).some((entry) => entry.session === session)), 'the stopped Codex and Claude Code sessions in the queue', 30_000);
      // Sessions of other files may be in the queue too (whatever ran before): the section must
      // agree with the API's queue at one moment, row by row, and hold this file's sessions.
      let seen: { count: number; rows: string[] } = { count: 0, rows: [] };
      let queue: QueueEntry[] = [];
      const section = await waitFor(
        async () => {
          const now = await needsYouSection();
          queue = apiQueue(plan);
          seen = now;
          const agree = now.count === queue.length && now.rows.length === Math.min(NEEDS_YOU_ROWS_SHOWN, queue.length) && now.rows.every((row, i) => rowSays(row, queue[i]!, ran));
          return agree && stopped.every((session) => queue.some((entry) => entry.session === session)) ? now : undefined;
        },
        () => `the Needs You section to agree with the API's queue (section: ${JSON.stringify(seen)}; queue: ${JSON.stringify(queue.map(({ session, signal }) => [session, signal.kind, signal.how, signal.items?.length]))})`,
        30_000,
      );
      assert.ok(section.first, 'the section is the first row of the Sessions view');
      assert.ok(section.count >= stopped.length);
      // The activity bar's badge adds the queue to the plan's open items, and names it.
      await waitFor(async () => {
        const badge = await activityBadge();
        const open = (await api()).getViewState().badge ?? 0;
        const count = apiQueue(plan).length;
        return badgeCount(badge.parts, 'needs you') === count && badge.value === open + count;
      }, 'the badge to count the sessions that need the user, as the API has them', 30_000);
    });

    it('Go to Next Session That Needs You shows each session of the queue in turn, and goes round', async () => {
      // Sessions of earlier tests may join the queue while it goes round (a call that starts
      // waiting, a plan that stalls): it goes on until it meets a session again, which is the first.
      const { count } = await needsYouSection();
      const visited: string[] = [];
      for (;;) {
        const next = await vscode.commands.executeCommand<string | undefined>('agentPlan.goToNextSessionNeedingYou');
        assert.ok(next !== undefined, 'a session that needs the user');
        assert.equal((await api()).getViewState().session, next, 'its plan is on screen');
        if (visited.includes(next)) {
          assert.equal(next, visited[0], `round again to the first (went to ${JSON.stringify(visited)}, then ${next})`);
          break;
        }
        visited.push(next);
        assert.ok(visited.length <= count + 20, `the round ends (went to ${visited.length} sessions, the section counted ${count})`);
      }
      assert.ok(visited.length >= count, `every session of the queue once: ${visited.length} of ${count}`);
      for (const session of stopped) assert.ok(visited.includes(session), 'the stopped Codex and Claude Code sessions are in the queue');
    });

    it('a session that completes its plan leaves the section (which goes when the queue is empty)', async () => {
      const plan = await api();
      const before = (await needsYouSection()).count;
      // Each plan completed, as a program appends a line to the log folder.
      for (const session of stopped) {
        const items = (plan.getPlan(session)?.todos ?? []).map((todo): [string, 'completed'] => [todo.content, 'completed']);
        fs.appendFileSync(plan.logFile(session), planLine(session, Date.now(), items) + '\n');
      }
      // Other sessions of earlier tests may join the queue meanwhile (a call that starts waiting,
      // a plan that stalls), so the count alone proves nothing: a round of Go to Next visits as
      // many sessions as the section counts, and none of them is a completed one.
      let seen = await needsYouSection();
      let round: string[] = [];
      const after = await waitFor(async () => {
        seen = await needsYouSection();
        round = [];
        for (let i = 0; i < seen.count; i++) round.push((await vscode.commands.executeCommand<string | undefined>('agentPlan.goToNextSessionNeedingYou')) ?? '');
        const counted = new Set(round).size === seen.count && (await needsYouSection()).count === seen.count;
        return counted && !round.some((session) => stopped.includes(session)) ? seen : undefined;
      }, () => `the section to count no completed session (it counts ${seen.count} of ${before} before: ${JSON.stringify(seen.rows)}; a round went to ${JSON.stringify(round)})`, 30_000);
      // Counted 0 only when no row of the view is the section: it is gone with the last session it held.
      await waitFor(async () => badgeCount((await activityBadge()).parts, 'needs you') === after.count, 'the badge to drop the completed sessions', 30_000);
      assert.ok(!round.some((session) => stopped.includes(session)), 'the command no longer goes to a completed session');
    });

    it('a worktree removed keeps its session', async () => {
      const before = (await api()).listSessions().map((s) => s.session);
      git(workspace, 'worktree', 'remove', '--force', beside('wt-codex'));
      // Its session stays, under its folder's name now that no worktree holds it.
      await waitFor(async () => {
        await openOnly(['Worktree wt-codex']);
        const rows = await sessionRows();
        return !rows.some((row) => row.label.startsWith('Worktree codex-branch')) && rowsUnder(rows, 'Worktree wt-codex').some((label) => label.includes('Codex'));
      }, 'the Codex session listed under its removed worktree\'s folder', 30_000);
      const after = (await api()).listSessions().map((s) => s.session);
      assert.deepEqual(after.filter((s) => before.includes(s)).sort(), [...before].sort(), 'every session is still listed');
    });
  });
}

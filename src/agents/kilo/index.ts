// Kilo CLI (`@kilocode/cli`, a fork of opencode): the same database schema and plan tool as
// opencode, in its own file, read by opencode's modules (src/agents/opencode/opencodeAgent.ts).
import type { AgentDescriptor } from '../agent';
import { startOpencodeStyle, xdgDataFolder } from '../opencode/opencodeAgent';
import { kiloConnect } from './connect';

export const kilo: AgentDescriptor = {
  id: 'kilo',
  name: 'Kilo CLI',
  icon: 'rocket',
  settingKey: 'kilo',
  parserVersion: 'kilo/4',
  defaultFolder: (env, home) => xdgDataFolder('kilo', env, home),
  about: {
    tested: '7.7.7',
    planTools: '`todowrite`',
    switchOn: 'As opencode.',
    reads: {
      agent: 'Kilo CLI (`todowrite`)',
      files: 'the same schema in `~/.local/share/kilo/kilo.db` (`KILO_DB`)',
      sessions: 'as opencode',
      session: 'one session',
    },
    readme: { agent: 'Kilo CLI (7.7.7)', reads: '`todowrite` and its edits, from `~/.local/share/kilo/kilo.db`', switchOn: 'nothing' },
    rows: {
      naming: { cells: ["the `session` row's `title`; a default `New session - <time>` (`Child session - …`) is none", "the `text` parts (not `synthetic`) of the session's first `message` whose `role` is `user`, read once (Kilo CLI 7.7.7 records a `run` prompt in quotes)"] },
      mapping: [
        { label: '`todowrite`', cells: ['`content`', "`priority` (high, medium, low: kept in the line's `source.priorities`, in item order, never in the item)", "pending, in_progress, completed, and **cancelled**, kept as it is; a call counts once its part's `state.status` is `completed`"] },
      ],
      waiting: { cells: ["a tool part (`part` row) whose `state.status` is `pending` (the model still writing the call) or `running`, with no `completed` or `error` yet, in the session's newest turn while it runs (until a new prompt, or the turn ends)", '**no**: while the permission prompt is on screen the part is `running` with its input and start time, as any running tool\'s is, and no row holds the question (the `permission` table keeps only "Allow always" answers, and stayed empty). Recorded: interactive runs of both, bash set to `"ask"`, one left at the prompt (ended with SIGKILL: the part stays `running`), one answered. Only after the answer does the part change: bash adds its output so far (`state.metadata.output`), and Kilo CLI first `metadata.approval: {source: "manual"}`. So it reads "waiting on bash"'] },
      ledger: [
        { cells: ['completed assistant message', '`tokens.input`', '`output` + `reasoning`', '`cache.read` + `cache.write`', '`cost` (0 with an unpriced provider)', 'its tool parts'] },
      ],
    },
    settings: {
      enabled: { planTools: ['todowrite'], fromDatabase: true },
      folder: {
        data: true,
        note: { en: 'its database `kilo.db` is in it; `KILO_DB` names another', zhCn: '其中有数据库 `kilo.db`；`KILO_DB` 可指定另一个' },
        empty: ['`$XDG_DATA_HOME/kilo`', '`~/.local/share/kilo`'],
      },
      meaning: "Kilo CLI's plans, and its data folder (`kilo.db`, or `KILO_DB`).",
    },
  },
  connect: kiloConnect,
  start: (options) => startOpencodeStyle('kilo', 'kilo', 'KILO_DB', kilo.parserVersion, options),
};

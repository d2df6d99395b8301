// opencode (`opencode-ai`): its plans from its SQLite database, read-only.
import type { AgentDescriptor } from '../agent';
import { startOpencodeStyle, xdgDataFolder } from './opencodeAgent';
import { opencodeConnect } from './connect';

export const opencode: AgentDescriptor = {
  id: 'opencode',
  name: 'opencode',
  icon: 'code',
  settingKey: 'opencode',
  parserVersion: 'opencode/4',
  defaultFolder: (env, home) => xdgDataFolder('opencode', env, home),
  about: {
    tested: '1.18.33',
    planTools: '`todowrite`',
    switchOn: 'Nothing found needed (the tests run it with every permission allowed, `permission: {"*": "allow"}`).',
    reads: {
      agent: 'opencode (`todowrite`)',
      files: 'the SQLite database `~/.local/share/opencode/opencode.db` (`$XDG_DATA_HOME/opencode`; `OPENCODE_DB` names another file), with its `-wal`: tables `session`, `part` (the calls) and `todo` (the latest list, as a check)',
      sessions: 'sessions whose `directory` is a workspace folder or inside one',
      session: 'one session (`ses_…` id)',
    },
    readme: { agent: 'opencode (1.18.33)', reads: '`todowrite` and its edits, from `~/.local/share/opencode/opencode.db`', switchOn: 'nothing' },
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
        note: { en: 'its database `opencode.db` is in it; `OPENCODE_DB` names another', zhCn: '其中有数据库 `opencode.db`；`OPENCODE_DB` 可指定另一个' },
        empty: ['`$XDG_DATA_HOME/opencode`', '`~/.local/share/opencode`'],
      },
      meaning: "opencode's plans, and its data folder (`opencode.db` in it, or the file `OPENCODE_DB` names).",
    },
  },
  connect: opencodeConnect,
  start: (options) => startOpencodeStyle('opencode', 'opencode', 'OPENCODE_DB', opencode.parserVersion, options),
};

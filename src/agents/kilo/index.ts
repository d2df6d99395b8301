// Kilo CLI (`@kilocode/cli`, built on opencode): the same database schema and plan tool as
// opencode, in its own file; the opencode folder's parser reads it.
import { startOpencodeStyle, xdgDataFolder } from '../opencode';
import type { AgentDescriptor } from '../agent';

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
      source: 'Kilo CLI (`todowrite`)',
      files: 'the same schema in `~/.local/share/kilo/kilo.db` (`KILO_DB`)',
      sessions: 'as opencode',
      session: 'one session',
    },
    readme: { agent: 'Kilo CLI (7.7.7)', reads: '`todowrite` and its edits, from `~/.local/share/kilo/kilo.db`', switchOn: 'nothing' },
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
  start: (options) => startOpencodeStyle('kilo', 'kilo', 'KILO_DB', kilo.parserVersion, options),
};

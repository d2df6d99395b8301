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
  start: (options) => startOpencodeStyle('kilo', 'kilo', 'KILO_DB', kilo.parserVersion, options),
};

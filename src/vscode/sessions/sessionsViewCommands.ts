// The Sessions view's own commands: the next page of older sessions, and the attention toggle.
import { ContextKey, CommandId } from '../ids';
import { bindTable, type CommandTable } from '../commands/commandTable';
import type { SessionsTreeProvider } from './sessionsTree';

/** What the Sessions view's own commands act on. */
interface SessionsViewControl {
  showMore(): void;
  setAttentionOnly(only: boolean): void;
}

/** The Sessions view's own commands: the next page of older sessions, and the attention toggle. */
export const SESSIONS_VIEW_COMMANDS = {
  [CommandId.ShowMoreSessions]: (view) => view.showMore(),
  [CommandId.ShowSessionsNeedingAttention]: (view) => view.setAttentionOnly(true),
  [CommandId.ShowAllSessions]: (view) => view.setAttentionOnly(false),
} satisfies CommandTable<SessionsViewControl>;

export function sessionsViewCommands(provider: SessionsTreeProvider, setContext: (key: string, value: boolean) => void) {
  return bindTable(SESSIONS_VIEW_COMMANDS, {
    showMore: () => provider.showMore(),
    setAttentionOnly: (only) => {
      provider.attentionOnly = only;
      setContext(ContextKey.AttentionOnly, only);
      provider.refresh();
    },
  });
}

// Commands registered from typed tables, the one way to register a command: each feature keeps
// a table of its handlers by command id (declared in commandManifest.ts), each given the
// feature's context first, and hands it to the composition root bound to that context.
// `registerCommands` registers them all at once, after checking each command of the manifest
// has exactly one handler. One registration, one report of a failure: the log gets the error,
// the user a localized message.
import * as vscode from 'vscode';
import { notificationText } from '../../core/text/escape';
import { handlerProblems } from './commandManifest';
import type { CommandId } from '../ids';
import { logError, type Logger } from '../log';

/** A command's behaviour: the feature's context, then the command's own arguments. */
export type CommandHandler<C> = (context: C, ...args: unknown[]) => unknown;

/** A feature's commands, by id. Declare one with `satisfies CommandTable<C>` so its ids stay known. */
export type CommandTable<C> = { readonly [id in CommandId]?: CommandHandler<C> };

/** What a command gives back when it failed: a value for the caller, after the user was told. */
export type FailureHandler = (id: CommandId, error: unknown) => unknown;

/** A table bound to its feature's context (and its own failure handler, if any): ready to register. */
export interface BoundTable<K extends CommandId = CommandId> {
  readonly handlers: ReadonlyArray<readonly [K, (...args: unknown[]) => unknown]>;
  readonly fail?: FailureHandler;
}

/** Logs a command's failure and tells the user; the caller gets undefined. */
export function reportFailure(logger: Logger, id: CommandId, error: unknown): undefined {
  logError(logger, `command ${id} failed`, error);
  void vscode.window.showErrorMessage(vscode.l10n.t('Agent Plan: {0}', notificationText(error instanceof Error ? error.message : String(error))));
  return undefined;
}

/** A table's handlers given `context`; a failure goes to `fail`, else to `reportFailure`. */
export function bindTable<C, K extends CommandId>(table: { readonly [id in K]: CommandHandler<C> }, context: C, fail?: FailureHandler): BoundTable<K> {
  const handlers = (Object.entries(table) as Array<[K, CommandHandler<C>]>).map(([id, handler]) => [id, (...args: unknown[]) => handler(context, ...args)] as const);
  return fail === undefined ? { handlers } : { handlers, fail };
}

/** The ids of the manifest that none of `T`'s tables handles. */
type Unhandled<T extends readonly BoundTable[]> = Exclude<CommandId, T[number] extends BoundTable<infer K> ? K : never>;

/**
 * Registers every command from its table. The compiler rejects a call that leaves a command of
 * the manifest without a handler (the error names it: "commands without a handler"); a command handled
 * twice, or a handler of no command, throws here (a bug, found by the first activation).
 */
export function registerCommands<const T extends readonly BoundTable[]>(
  logger: Logger,
  tables: T & ([Unhandled<T>] extends [never] ? unknown : { readonly 'commands without a handler': Unhandled<T> }),
): vscode.Disposable[] {
  const problems = handlerProblems(tables.map((table) => table.handlers.map(([id]) => id)));
  if (problems.length > 0) throw new Error(`Agent Plan's command tables: ${problems.join('; ')}`);
  return tables.flatMap(({ handlers, fail = (id, error) => reportFailure(logger, id, error) }) =>
    handlers.map(([id, handler]) =>
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        try {
          return await handler(...args);
        } catch (error) {
          return fail(id, error);
        }
      }),
    ),
  );
}

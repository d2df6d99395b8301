// Commands registered from typed tables: each feature keeps a table of its command ids and
// the handler of each, given the feature's context first. One registration, one report of
// a failure: the log gets the error, the user a localized message.
import * as vscode from 'vscode';
import { notificationText } from '../core/text/escape';
import type { CommandId } from './ids';
import { logError, type Logger } from './log';

/** A command's behaviour: the feature's context, then the command's own arguments. */
export type CommandHandler<C> = (context: C, ...args: unknown[]) => unknown;

/** A feature's commands, by id. */
export type CommandTable<C> = { readonly [id in CommandId]?: CommandHandler<C> };

/** What a command gives back when it failed: a value for the caller, after the user was told. */
export type FailureHandler = (id: CommandId, error: unknown) => unknown;

/** Logs a command's failure and tells the user; the caller gets undefined. */
export function reportFailure(logger: Logger, id: CommandId, error: unknown): undefined {
  logError(logger, `command ${id} failed`, error);
  void vscode.window.showErrorMessage(vscode.l10n.t('Agent Plan: {0}', notificationText(error instanceof Error ? error.message : String(error))));
  return undefined;
}

/** Registers every command of a table; a handler's failure goes to `fail`. */
export function registerTable<C>(table: CommandTable<C>, context: C, fail: FailureHandler): vscode.Disposable[] {
  return (Object.entries(table) as Array<[CommandId, CommandHandler<C>]>).map(([id, handler]) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await handler(context, ...args);
      } catch (error) {
        return fail(id, error);
      }
    }),
  );
}

// The extension's one output channel, and small helpers so no module logs ad hoc.
import * as vscode from 'vscode';
import { OUTPUT_CHANNEL } from './ids';

export type Logger = vscode.LogOutputChannel;

export function createLogger(): Logger {
  return vscode.window.createOutputChannel(OUTPUT_CHANNEL, { log: true });
}

/** Logs a bug with its stack; people get their own localized message elsewhere. */
export function logError(logger: Logger, context: string, error: unknown): void {
  logger.error(`${context}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
}

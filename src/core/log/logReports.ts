// Damage and read failures of the log, each reported once: a skipped line once per
// (file, byte offset), a read failure once per (file, reason). Missing files are normal.
import { describeFsError, errorCode } from './fileSystem';

export class LogReports {
  private readonly corrupt = new Map<string, Set<number>>();
  private readonly readErrors = new Set<string>();

  constructor(
    private readonly onCorrupt: ((file: string, detail: string, offset: number) => void) | undefined,
    private readonly onReadError: ((file: string, reason: string) => void) | undefined,
  ) {}

  skippedLine(file: string, offset: number, problem: string): void {
    let seen = this.corrupt.get(file);
    if (!seen) this.corrupt.set(file, (seen = new Set()));
    if (seen.has(offset)) return;
    seen.add(offset);
    this.onCorrupt?.(file, `skipped the line at byte ${offset}: ${problem}`, offset);
  }

  readFailed(file: string, error: unknown): void {
    if (errorCode(error) === 'ENOENT') return;
    const reason = describeFsError(error, file);
    const key = `${file}\n${reason}`;
    if (this.readErrors.has(key)) return;
    this.readErrors.add(key);
    this.onReadError?.(file, reason);
  }

  /** The file was replaced or cut: its offsets mean other lines now. */
  forgetFile(file: string): void {
    this.corrupt.delete(file);
  }
}

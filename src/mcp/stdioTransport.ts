// The SDK's Transport over this process's stdin and stdout, one JSON-RPC message per line, as
// the SDK's StdioServerTransport — but bounded: a line over MAX_MESSAGE_BYTES is dropped as it
// streams in and answered with an error (the SDK's buffer would hold 10 MiB and then stop
// serving), and a line that is not a valid message gets a JSON-RPC error instead of silence.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { errorReply, guardLine } from './jsonRpcGuard';
import { BoundedLineReader } from './lineReader';

/** The largest message read: a whole plan is far smaller (100 items of 1,000 characters). */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private readonly reader = new BoundedLineReader(MAX_MESSAGE_BYTES);
  private closed = false;

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
  ) {}

  start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onStreamError);
    this.output.on('error', this.onStreamError);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      if (this.output.write(JSON.stringify(message) + '\n')) resolve();
      else this.output.once('drain', resolve);
    });
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.pause();
    this.onclose?.();
    return Promise.resolve();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    for (const event of this.reader.push(bytes)) {
      if (this.closed) return;
      if (event.kind === 'oversized') {
        this.report(`a message of ${event.bytes} bytes, over ${MAX_MESSAGE_BYTES}, was dropped`);
        void this.send(errorReply(ErrorCode.InvalidRequest, `Invalid Request: message over ${MAX_MESSAGE_BYTES} bytes`));
        continue;
      }
      const guarded = guardLine(event.text);
      if (guarded.kind !== 'forward' && guarded.problem !== undefined) this.report(`${guarded.problem} was refused`);
      if (guarded.kind === 'reply') void this.send(guarded.message);
      else if (guarded.kind === 'forward') this.onmessage?.(guarded.message);
    }
  };

  private readonly onEnd = (): void => {
    void this.close();
  };

  private readonly onStreamError = (error: Error): void => {
    this.onerror?.(error);
    // A broken pipe on either side ends the conversation.
    void this.close();
  };

  private report(problem: string): void {
    this.onerror?.(new Error(problem));
  }
}

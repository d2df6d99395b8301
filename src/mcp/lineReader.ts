// Splits a byte stream into lines of at most `maxLineBytes`, holding no more than that in
// memory: a longer line is dropped as it streams by and reported once, when it ends.
// Pure (Buffers only).

export type LineEvent = { kind: 'line'; text: string } | { kind: 'oversized'; bytes: number };

export class BoundedLineReader {
  private chunks: Buffer[] = [];
  private held = 0;
  /** Bytes of the line being dropped, or undefined when the current line is kept. */
  private dropping: number | undefined;

  constructor(private readonly maxLineBytes: number) {}

  push(chunk: Buffer): LineEvent[] {
    const events: LineEvent[] = [];
    let start = 0;
    while (start < chunk.length) {
      const end = chunk.indexOf(0x0a, start);
      const piece = chunk.subarray(start, end === -1 ? chunk.length : end);
      this.take(piece);
      if (end === -1) break;
      events.push(this.endLine());
      start = end + 1;
    }
    return events;
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.dropping !== undefined) {
      this.dropping += piece.length;
    } else if (this.held + piece.length > this.maxLineBytes) {
      this.dropping = this.held + piece.length;
      this.chunks = [];
      this.held = 0;
    } else {
      // A copy: the stream may reuse its chunk's memory, and a slice would pin all of it.
      this.chunks.push(Buffer.from(piece));
      this.held += piece.length;
    }
  }

  private endLine(): LineEvent {
    if (this.dropping !== undefined) {
      const bytes = this.dropping;
      this.dropping = undefined;
      return { kind: 'oversized', bytes };
    }
    const text = Buffer.concat(this.chunks, this.held).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.held = 0;
    return { kind: 'line', text };
  }
}

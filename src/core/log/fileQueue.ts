// Runs the operations on one file one at a time, in call order; a failed one does not
// block the next. Different files run independently.
export class FileQueue {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(file: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(file) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(file, tail);
    void tail.then(() => {
      if (this.tails.get(file) === tail) this.tails.delete(file);
    });
    return result;
  }

  /** Resolves once every operation queued on the file so far has finished. */
  async settled(file: string): Promise<void> {
    await this.tails.get(file);
  }
}

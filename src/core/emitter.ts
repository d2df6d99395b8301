// A minimal event emitter with the shape of VS Code's `Event<T>`, so the core can
// publish events without importing `vscode` and the API can hand them out as is.

export interface Disposable {
  dispose(): void;
}

export type Event<T> = (listener: (value: T) => void) => Disposable;

export class Emitter<T> implements Disposable {
  private listeners = new Set<(value: T) => void>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  /** Calls every listener; one that throws is reported and does not stop the others. */
  fire(value: T, onError?: (error: unknown) => void): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (error) {
        onError?.(error);
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}

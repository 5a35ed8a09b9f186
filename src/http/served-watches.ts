// The watch streams one cluster is serving: close() ends them all (as the apiserver ends its
// watches on shutdown), and tests can check that a client's abort leaves nothing behind.

export class ServedWatches {
  private readonly ends = new Set<() => void>();
  private closed = false;

  /** How many watch streams are open now. */
  get size(): number {
    return this.ends.size;
  }

  /** Registers a stream by the function that ends it; returns the function that forgets it. */
  add(end: () => void): () => void {
    if (this.closed) {
      // The cluster is closing: a watch that starts now ends at once.
      queueMicrotask(end);
      return () => undefined;
    }
    this.ends.add(end);
    return () => this.ends.delete(end);
  }

  /** Ends every open stream (as a dropped connection does); answers how many were open. */
  endAll(): number {
    const ends = [...this.ends];
    ends.forEach((end) => end());
    return ends.length;
  }

  /** Ends every open stream, and streams opened from now on at once: the server is shutting down. */
  close(): void {
    this.closed = true;
    this.endAll();
  }
}

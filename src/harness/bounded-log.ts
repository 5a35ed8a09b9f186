// A log that keeps the newest `limit` entries: the request log and the change history are
// always on, so they must not grow without end in a long test.
export class BoundedLog<T> {
  private items: T[] = [];
  private start = 0;
  readonly limit: number;

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 0) throw new TypeError(`kubefake: a log limit must be a non-negative integer, got ${String(limit)}`);
    this.limit = limit;
  }

  push(item: T): void {
    if (this.limit === 0) return;
    this.items.push(item);
    if (this.items.length - this.start > this.limit) this.start++;
    // Reclaim the dropped head once it is as large as the live part (amortised O(1)).
    if (this.start >= this.limit) {
      this.items = this.items.slice(this.start);
      this.start = 0;
    }
  }

  get length(): number {
    return this.items.length - this.start;
  }

  /** Oldest first. */
  toArray(): T[] {
    return this.items.slice(this.start);
  }

  clear(): void {
    this.items = [];
    this.start = 0;
  }
}

/** What `cluster.requests` and `cluster.history` offer: a bounded (oldest dropped first), clearable record. */
export interface RecordLog<T, Filter> extends Iterable<T> {
  /** How many entries are recorded now. */
  readonly length: number;
  /** How many entries the log keeps at most (its `limit` option). */
  readonly limit: number;
  /** Recorded entries, oldest first, optionally filtered. */
  all(filter?: Filter): T[];
  /** The newest entry the filter selects. */
  last(filter?: Filter): T | undefined;
  /** Forgets every recorded entry. */
  clear(): void;
}

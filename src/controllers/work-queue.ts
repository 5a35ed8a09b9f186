// A keyed work queue like client-go's: a key waiting in the queue is held once however often it
// is added, work runs one item at a time on a macrotask (so a client's write is answered before
// the controllers react, as with a real control plane; `prompt` queues use a microtask), and
// callers can wait for it to drain.

export interface WorkQueueOptions {
  /** How many times an item whose worker threw is retried before the error is reported. */
  maxRetries?: number;
  /** Called with an error that survived every retry. */
  onError(error: unknown, key: string): void;
  /**
   * Start work on a microtask instead of a macrotask: the controller reacts while the write that
   * woke it is still being answered, so what it creates is there when the client's next request
   * comes (a real control plane reacts within milliseconds; in one process a macrotask can wait
   * behind many requests answered in-process).
   */
  prompt?: boolean;
}

export class WorkQueue {
  private readonly pending = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly worker: (key: string) => Promise<void> | void;
  private readonly options: WorkQueueOptions;
  private scheduled = false;
  /** The macrotask a scheduled drain waits on, cancelled by stop(): it holds the queue and its worker's cluster. */
  private immediate: ReturnType<typeof setImmediate> | undefined;
  private running = false;
  private stopped = false;
  private waiters: Array<() => void> = [];

  constructor(worker: (key: string) => Promise<void> | void, options: WorkQueueOptions) {
    this.worker = worker;
    this.options = options;
  }

  add(key: string): void {
    if (this.stopped) return;
    this.pending.add(key);
    this.schedule();
  }

  get idle(): boolean {
    return !this.scheduled && !this.running && this.pending.size === 0;
  }

  /** Resolves once nothing is queued or running. */
  whenIdle(): Promise<void> {
    if (this.idle) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  stop(): void {
    this.stopped = true;
    this.pending.clear();
    // A closed cluster is not kept until the event loop next turns (a test file's clusters may all
    // open and close within microtasks of one turn).
    if (this.immediate !== undefined) {
      clearImmediate(this.immediate);
      this.immediate = undefined;
      this.scheduled = false;
    }
    if (!this.running) this.notifyIdle();
  }

  private schedule(): void {
    if (this.scheduled || this.running) return;
    this.scheduled = true;
    if (this.options.prompt) queueMicrotask(() => void this.drain());
    else
      this.immediate = setImmediate(() => {
        this.immediate = undefined;
        void this.drain();
      });
  }

  private async drain(): Promise<void> {
    this.scheduled = false;
    this.running = true;
    try {
      while (this.pending.size > 0 && !this.stopped) {
        const key = this.pending.values().next().value as string;
        this.pending.delete(key);
        try {
          await this.worker(key);
          this.failures.delete(key);
        } catch (err) {
          const count = (this.failures.get(key) ?? 0) + 1;
          if (count > (this.options.maxRetries ?? 5)) {
            this.failures.delete(key);
            this.options.onError(err, key);
          } else {
            this.failures.set(key, count);
            this.pending.add(key);
          }
        }
      }
    } finally {
      this.running = false;
      if (this.pending.size > 0 && !this.stopped) this.schedule();
      else this.notifyIdle();
    }
  }

  private notifyIdle(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}

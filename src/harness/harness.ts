// The test-facing parts of one cluster, assembled: request log, change history, faults, open
// watches, snapshots and waiters; and the interceptor that puts the first three in front of the handler.
import { ChangeRecorder } from './change-history.ts';
import type { HarnessContext } from './context.ts';
import { FaultInjector } from './faults.ts';
import { intercept } from './interceptor.ts';
import { RequestRecorder } from './request-log.ts';
import { Snapshots } from './snapshot.ts';
import { Waiters } from './wait-for.ts';

/** How many requests and changes are kept when no limit is given. */
export const DEFAULT_LOG_LIMIT = 1_000;

export interface HarnessOptions {
  requestLimit?: number;
  /** Copy request and response bodies for the request log. Default true. */
  requestBodies?: boolean;
  /** Copy watch streams' chunks too (for cassettes). Default false. */
  watchBodies?: boolean;
  historyLimit?: number;
  /** Normalise snapshots unless told otherwise (the cluster is not deterministic). */
  normalizeSnapshots: boolean;
  /** Ends every open watch stream (the handler's served-watch registry); answers how many. */
  endWatches: () => number;
}

export class Harness {
  readonly requests: RequestRecorder;
  readonly faults: FaultInjector;
  readonly snapshots: Snapshots;
  readonly waiters: Waiters;
  readonly history: ChangeRecorder;
  private readonly watchBodies: boolean;

  constructor(ctx: HarnessContext, options: HarnessOptions) {
    this.requests = new RequestRecorder(options.requestLimit ?? DEFAULT_LOG_LIMIT, options.requestBodies ?? true);
    this.history = new ChangeRecorder(ctx, options.historyLimit ?? DEFAULT_LOG_LIMIT);
    this.faults = new FaultInjector(options.endWatches);
    this.snapshots = new Snapshots(ctx, options.normalizeSnapshots);
    this.waiters = new Waiters(ctx);
    this.watchBodies = options.watchBodies ?? false;
  }

  /** The cluster finished booting: what exists now is its bootstrap state, and history starts here. */
  ready(): void {
    this.snapshots.markBootstrap();
    this.history.start();
  }

  wrap(handle: (request: Request) => Promise<Response>): (request: Request) => Promise<Response> {
    return intercept(handle, { faults: this.faults, requests: this.requests, watchBodies: this.watchBodies });
  }

  close(): void {
    this.history.stop();
    this.waiters.abortAll('the cluster was closed');
  }
}

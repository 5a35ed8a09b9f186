// cluster.waitFor(): wait on the store instead of sleeping — re-checks a predicate on every change
// of one object and fails with the last state it saw.
import { dump } from 'js-yaml';
import type { KubeObject } from '../apis/object.ts';
import type { HarnessContext } from './context.ts';
import { describeRef, presentCopy, resolveRef, type ObjectTarget } from './object-ref.ts';

/** Options of `cluster.waitFor()`. */
export interface WaitForOptions {
  /** How long to wait (real time) before rejecting. Default 5,000 ms. */
  timeout?: number;
}

/** Answers truthy once the object (undefined while it does not exist) is as wanted; a throw counts as "not yet". */
export type ObjectPredicate = (object: KubeObject | undefined) => unknown;

export const DEFAULT_WAIT_TIMEOUT_MS = 5_000;

export class Waiters {
  private readonly ctx: HarnessContext;
  private readonly pending = new Set<(err: Error) => void>();

  constructor(ctx: HarnessContext) {
    this.ctx = ctx;
  }

  waitFor(target: ObjectTarget, predicate: ObjectPredicate = (o) => o !== undefined, options: WaitForOptions = {}): Promise<KubeObject | undefined> {
    if (this.closedReason) return Promise.reject(new Error(`kubefake: ${this.closedReason}`));
    const ref = resolveRef(this.ctx.catalog, target);
    const registry = this.ctx.registryFor(ref.type);
    const key = registry.keyOf(ref.namespace, ref.name);
    const timeoutMs = options.timeout ?? DEFAULT_WAIT_TIMEOUT_MS;
    let lastSeen: KubeObject | undefined;
    let lastError: unknown;
    const check = (): { done: boolean; object: KubeObject | undefined } => {
      const stored = registry.peek(ref.namespace, ref.name);
      lastSeen = stored && presentCopy(ref.type, stored);
      try {
        lastError = undefined;
        return { done: !!predicate(lastSeen && structuredClone(lastSeen)), object: lastSeen };
      } catch (err) {
        lastError = err;
        return { done: false, object: lastSeen };
      }
    };
    const first = check();
    if (first.done) return Promise.resolve(first.object);
    return new Promise((resolve, reject) => {
      const finish = (err: Error | undefined, object?: KubeObject) => {
        unsubscribe();
        clearTimeout(timer);
        this.pending.delete(abort);
        if (err) reject(err);
        else resolve(object);
      };
      const abort = (err: Error) => finish(err);
      const unsubscribe = this.ctx.store.subscribe((event) => {
        if (event.bucket !== registry.bucket || event.key !== key) return;
        const result = check();
        if (result.done) finish(undefined, result.object);
      });
      const timer = setTimeout(() => {
        const state = lastSeen ? `last seen:\n${dump(lastSeen, { noRefs: true, lineWidth: -1 })}` : 'it does not exist';
        const why = lastError instanceof Error ? `\nthe predicate last threw: ${lastError.message}` : '';
        finish(new Error(`kubefake: waitFor timed out after ${timeoutMs} ms on ${describeRef(ref)}; ${state}${why}`));
      }, timeoutMs);
      this.pending.add(abort);
    });
  }

  /** Rejects every pending wait (the cluster is closing). */
  abortAll(reason: string): void {
    this.closedReason = reason;
    for (const abort of [...this.pending]) abort(new Error(`kubefake: ${reason}`));
  }

  /** Set once the cluster closes: later waits reject at once instead of sitting until their timeout. */
  private closedReason: string | undefined;
}

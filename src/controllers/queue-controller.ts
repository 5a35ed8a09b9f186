// The shape most controllers share: observe store events, queue keys, reconcile one key at a time.
import type { ResourceType } from '../apis/resource-type.ts';
import type { StoreEvent } from '../storage/versioned-store.ts';
import type { Controller, ControllerContext } from './context.ts';
import { WorkQueue } from './work-queue.ts';

export abstract class QueueController implements Controller {
  abstract readonly name: string;
  protected readonly ctx: ControllerContext;
  protected readonly queue: WorkQueue;
  private unsubscribe: (() => void) | undefined;

  constructor(ctx: ControllerContext, onError: (err: unknown, key: string) => void, options: { prompt?: boolean } = {}) {
    this.ctx = ctx;
    this.queue = new WorkQueue((key) => this.sync(key), { onError, prompt: options.prompt });
  }

  /** The served type of a group's v1 resource: the controllers' writes go through its registry. */
  protected resourceType(group: string, resource: string): ResourceType {
    return this.ctx.catalog.find(group, 'v1', resource)!;
  }

  /** Called synchronously for every store event, in revision order; queues what needs work. */
  protected abstract observe(event: StoreEvent): void;
  /** Reconciles one queued key. */
  protected abstract sync(key: string): Promise<void> | void;

  start(): void {
    this.unsubscribe = this.ctx.store.subscribe((event) => this.observe(event));
  }

  stop(): void {
    this.unsubscribe?.();
    this.queue.stop();
  }

  get idle(): boolean {
    return this.queue.idle;
  }

  whenIdle(): Promise<void> {
    return this.queue.whenIdle();
  }
}

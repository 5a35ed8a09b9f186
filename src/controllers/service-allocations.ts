// Releases a deleted Service's ClusterIPs and NodePorts (the Service REST's AfterDelete,
// releaseAllocatedResources in pkg/registry/core/service/storage): on the store's DELETED event,
// which the store delivers synchronously with the commit that removed the Service.
import { releaseServiceAllocations } from '../apis/builtin/service.ts';
import type { BuiltinContext } from '../apis/builtin/context.ts';
import type { Controller, ControllerContext } from './context.ts';

const SERVICES_BUCKET = '/services';

export class ServiceAllocationRelease implements Controller {
  readonly name = 'service-allocation-release';
  readonly idle = true;
  private readonly ctx: ControllerContext;
  private readonly allocators: BuiltinContext;
  private unsubscribe: (() => void) | undefined;

  constructor(ctx: ControllerContext, allocators: BuiltinContext) {
    this.ctx = ctx;
    this.allocators = allocators;
  }

  start(): void {
    this.unsubscribe = this.ctx.store.subscribe((event) => {
      if (event.type === 'DELETED' && event.bucket === SERVICES_BUCKET) releaseServiceAllocations(event.object, this.allocators);
    });
  }

  stop(): void {
    this.unsubscribe?.();
  }

  whenIdle(): Promise<void> {
    return Promise.resolve();
  }
}

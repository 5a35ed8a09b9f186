// Stands in for the kubelet's side of graceful pod deletion: a pod bound to a node and deleted
// with a grace period is confirmed (deleted with grace 0) as soon as the apiserver has marked it,
// as a kubelet whose containers stop at once would. Without this, such pods stay Terminating
// forever, since no kubelet runs in a fake cluster.
import type { StoreEvent } from '../storage/versioned-store.ts';
import { StatusError } from '../errors/status-error.ts';
import { splitKey } from './context.ts';
import { QueueController } from './queue-controller.ts';

const PODS_BUCKET = '/pods';

export class PodTermination extends QueueController {
  readonly name = 'pod-termination';

  protected observe(event: StoreEvent): void {
    if (event.bucket !== PODS_BUCKET || event.type === 'DELETED') return;
    if (event.object.metadata.deletionTimestamp && (event.object.metadata.deletionGracePeriodSeconds ?? 0) > 0) this.queue.add(event.key);
  }

  protected async sync(key: string): Promise<void> {
    const pod = this.ctx.store.get(PODS_BUCKET, key);
    if (!pod?.metadata.deletionTimestamp || !pod.metadata.deletionGracePeriodSeconds) return;
    const type = this.ctx.catalog.find('', 'v1', 'pods')!;
    const { namespace, name } = splitKey(type, key);
    try {
      await this.ctx.registryFor(type).delete(namespace, name, { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid! } });
    } catch (err) {
      if (!(err instanceof StatusError && (err.code === 404 || err.code === 409))) throw err;
    }
  }
}

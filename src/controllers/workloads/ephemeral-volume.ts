// The ephemeral volume controller (pkg/controller/volume/ephemeral/controller.go): for each
// generic ephemeral volume of a pod, the claim `<pod>-<volume>` from its volumeClaimTemplate,
// controlled by the pod (so the garbage collector deletes it with the pod). A claim of that name
// the pod does not own is left alone; the scheduler refuses the pod (volume-binding.ts).
import type { KubeObject } from '../../apis/object.ts';
import { StatusError } from '../../errors/status-error.ts';
import type { StoreEvent } from '../../storage/versioned-store.ts';
import { QueueController } from '../queue-controller.ts';
import { CONTROLLER_MANAGER } from './controller-support.ts';
import { newControllerRef, specOf, type Json } from './objects.ts';

const PODS = '/pods';

/** ephemeral.VolumeClaimName. */
export const ephemeralClaimName = (pod: KubeObject, volume: Json): string => `${pod.metadata?.name}-${String(volume.name)}`;

/** The pod's generic ephemeral volumes. */
export const ephemeralVolumesOf = (pod: KubeObject): Json[] => ((specOf(pod).volumes as Json[] | undefined) ?? []).filter((v) => v.ephemeral);

export class EphemeralVolumeController extends QueueController {
  readonly name = 'ephemeral-volume';

  protected observe(event: StoreEvent): void {
    if (event.bucket === PODS && event.type !== 'DELETED' && ephemeralVolumesOf(event.object).length > 0) this.queue.add(event.key);
  }

  protected async sync(key: string): Promise<void> {
    const pod = this.ctx.store.get(PODS, key);
    if (!pod || pod.metadata.deletionTimestamp) return;
    const claims = this.ctx.registryFor(this.resourceType('', 'persistentvolumeclaims'));
    for (const volume of ephemeralVolumesOf(pod)) {
      const name = ephemeralClaimName(pod, volume);
      // Already there: the pod's own, or another's the scheduler will refuse.
      if (claims.peek(pod.metadata.namespace, name)) continue;
      const template = ((volume.ephemeral as Json).volumeClaimTemplate ?? {}) as Json;
      const meta = (template.metadata ?? {}) as Json;
      try {
        await claims.create(
          pod.metadata.namespace,
          {
            apiVersion: 'v1',
            kind: 'PersistentVolumeClaim',
            metadata: {
              name,
              namespace: pod.metadata.namespace,
              ownerReferences: [newControllerRef(pod, 'v1', 'Pod')],
              ...(meta.annotations ? { annotations: structuredClone(meta.annotations) as Record<string, string> } : {}),
              ...(meta.labels ? { labels: structuredClone(meta.labels) as Record<string, string> } : {}),
            },
            spec: structuredClone(template.spec ?? {}) as Json,
          },
          { fieldManager: CONTROLLER_MANAGER },
        );
      } catch (err) {
        // Refused (quota, admission) or raced: the pod waits for its claim, as the scheduler says.
        if (!(err instanceof StatusError)) throw err;
      }
    }
  }
}

// The pvc-protection and pv-protection controllers of kube-controller-manager v1.36
// (pkg/controller/volume/pvcprotection/pvc_protection_controller.go, pvprotection/
// pv_protection_controller.go), which every cluster runs: they keep the protection finalizer the
// StorageObjectInUseProtection admission plugin adds (adding it to a claim or volume that lost it
// while not being deleted), and remove it from a deleted claim no scheduled pod uses, or a
// deleted volume that is not Bound, so that the deletion completes. Without them a deleted claim
// would hang in Terminating.
import type { StoredObject } from '../apis/object.ts';
import { PV_PROTECTION_FINALIZER, PVC_PROTECTION_FINALIZER } from '../apis/builtin/volume-finalizers.ts';
import type { StoreEvent } from '../storage/versioned-store.ts';
import { splitKey } from './context.ts';
import { CONTROLLER_MANAGER } from './namespace-objects.ts';
import { QueueController } from './queue-controller.ts';

const PVCS_BUCKET = '/persistentvolumeclaims';
const PVS_BUCKET = '/persistentvolumes';
const PODS_BUCKET = '/pods';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});

const hasFinalizer = (o: StoredObject, finalizer: string) => (o.metadata.finalizers ?? []).includes(finalizer);
/** protectionutil.IsDeletionCandidate. */
const isDeletionCandidate = (o: StoredObject, finalizer: string) => !!o.metadata.deletionTimestamp && hasFinalizer(o, finalizer);
/** protectionutil.NeedToAddFinalizer. */
const needToAddFinalizer = (o: StoredObject, finalizer: string) => !o.metadata.deletionTimestamp && !hasFinalizer(o, finalizer);

interface PodVolume {
  name?: string;
  persistentVolumeClaim?: { claimName?: string };
  ephemeral?: unknown;
}
const volumesOf = (pod: StoredObject): PodVolume[] => {
  const volumes = obj(pod.spec).volumes;
  return Array.isArray(volumes) ? volumes.map((v) => obj(v) as PodVolume) : [];
};
const nodeNameOf = (pod: StoredObject): string => {
  const name = obj(pod.spec).nodeName;
  return typeof name === 'string' ? name : '';
};
/** ephemeral.VolumeClaimName: `<pod name>-<volume name>`. */
const ephemeralClaimName = (pod: StoredObject, volume: PodVolume) => `${pod.metadata.name}-${volume.name ?? ''}`;

/** volumeutil.IsPodTerminated: Failed or Succeeded, or deleted with no container still running. */
function isPodTerminated(pod: StoredObject): boolean {
  const status = obj(pod.status);
  if (status.phase === 'Failed' || status.phase === 'Succeeded') return true;
  if (!pod.metadata.deletionTimestamp) return false;
  const statuses = Array.isArray(status.containerStatuses) ? status.containerStatuses.map(obj) : [];
  return statuses.every((s) => obj(s.state).terminated !== undefined || obj(s.state).waiting !== undefined);
}

/** podIsShutDown: deleted with a zero grace period (done with by the kubelet, or force-deleted). */
const podIsShutDown = (pod: StoredObject) => !!pod.metadata.deletionTimestamp && pod.metadata.deletionGracePeriodSeconds === 0;

/** ephemeral.VolumeIsForPod: the claim is controlled by the pod. */
const claimIsForPod = (pod: StoredObject, pvc: StoredObject) => (pvc.metadata.ownerReferences ?? []).some((r) => r.controller === true && r.uid === pod.metadata.uid);

/**
 * podUsesPVC: only a scheduled pod counts (the kubelet will not start one whose claim is being
 * deleted); it uses a claim it names, or the ephemeral claim made for it while not shut down.
 */
function podUsesPVC(pod: StoredObject, pvc: StoredObject): boolean {
  if (nodeNameOf(pod) === '') return false;
  return volumesOf(pod).some(
    (v) =>
      (v.persistentVolumeClaim !== undefined && v.persistentVolumeClaim.claimName === pvc.metadata.name) ||
      (!podIsShutDown(pod) && v.ephemeral !== undefined && ephemeralClaimName(pod, v) === pvc.metadata.name && claimIsForPod(pod, pvc)),
  );
}

/** The pvc-protection controller; keys are `<namespace>/<name>` of claims. */
export class PvcProtectionController extends QueueController {
  readonly name = 'pvc-protection';

  protected observe(event: StoreEvent): void {
    if (event.bucket === PVCS_BUCKET) {
      // pvcAddedUpdated.
      if (event.type !== 'DELETED' && (needToAddFinalizer(event.object, PVC_PROTECTION_FINALIZER) || isDeletionCandidate(event.object, PVC_PROTECTION_FINALIZER))) this.queue.add(event.key);
    } else if (event.bucket === PODS_BUCKET) {
      // podAddedDeletedUpdated / enqueuePVCs: only a pod that can no longer hold a claim helps.
      const pod = event.object;
      if (event.type !== 'DELETED' && !isPodTerminated(pod) && nodeNameOf(pod) !== '') return;
      for (const v of volumesOf(pod)) {
        if (v.persistentVolumeClaim) this.queue.add(`${pod.metadata.namespace}/${v.persistentVolumeClaim.claimName ?? ''}`);
        else if (v.ephemeral !== undefined) this.queue.add(`${pod.metadata.namespace}/${ephemeralClaimName(pod, v)}`);
      }
    }
  }

  /** processPVC. */
  protected async sync(key: string): Promise<void> {
    const pvc = this.ctx.store.get(PVCS_BUCKET, key);
    if (!pvc) return;
    if (isDeletionCandidate(pvc, PVC_PROTECTION_FINALIZER)) {
      const pods = this.ctx.store.list(PODS_BUCKET, pvc.metadata.namespace ?? '').map((e) => e.object);
      if (!pods.some((pod) => podUsesPVC(pod, pvc))) await this.setFinalizer(key, pvc, false);
      return;
    }
    if (needToAddFinalizer(pvc, PVC_PROTECTION_FINALIZER)) await this.setFinalizer(key, pvc, true);
  }

  /** addFinalizer / removeFinalizer: an update from the stored claim (a conflict retries on the new state). */
  private async setFinalizer(key: string, pvc: StoredObject, present: boolean): Promise<void> {
    const type = this.resourceType('', 'persistentvolumeclaims');
    const { namespace, name } = splitKey(type, key);
    const body = structuredClone(pvc);
    body.metadata.finalizers = present ? [...(body.metadata.finalizers ?? []), PVC_PROTECTION_FINALIZER] : (body.metadata.finalizers ?? []).filter((f) => f !== PVC_PROTECTION_FINALIZER);
    // Not a cluster write (recordClusterWrite): the claim stays the user's, in snapshots too.
    await this.ctx.registryFor(type).update(namespace, name, body, { fieldManager: CONTROLLER_MANAGER });
  }
}

/** The pv-protection controller; keys are volume names. */
export class PvProtectionController extends QueueController {
  readonly name = 'pv-protection';

  protected observe(event: StoreEvent): void {
    // pvAddedUpdated.
    if (event.bucket !== PVS_BUCKET || event.type === 'DELETED') return;
    if (needToAddFinalizer(event.object, PV_PROTECTION_FINALIZER) || isDeletionCandidate(event.object, PV_PROTECTION_FINALIZER)) this.queue.add(event.key);
  }

  /** processPV: a volume is in use while its status.phase is Bound. */
  protected async sync(name: string): Promise<void> {
    const pv = this.ctx.store.get(PVS_BUCKET, name);
    if (!pv) return;
    if (isDeletionCandidate(pv, PV_PROTECTION_FINALIZER)) {
      if (obj(pv.status).phase !== 'Bound') await this.setFinalizer(pv, false);
      return;
    }
    if (needToAddFinalizer(pv, PV_PROTECTION_FINALIZER)) await this.setFinalizer(pv, true);
  }

  private async setFinalizer(pv: StoredObject, present: boolean): Promise<void> {
    const type = this.resourceType('', 'persistentvolumes');
    const body = structuredClone(pv);
    body.metadata.finalizers = present ? [...(body.metadata.finalizers ?? []), PV_PROTECTION_FINALIZER] : (body.metadata.finalizers ?? []).filter((f) => f !== PV_PROTECTION_FINALIZER);
    await this.ctx.registryFor(type).update(undefined, pv.metadata.name!, body, { fieldManager: CONTROLLER_MANAGER });
  }
}

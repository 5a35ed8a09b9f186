// The PersistentVolume controller (pkg/controller/volume/persistentvolume/pv_controller.go),
// reduced, with the one external provisioner a workloads cluster runs. Claims bind to the
// smallest matching Available volume (or the one they or it name), with the controller's
// annotations (pv.kubernetes.io/bind-completed, bound-by-controller) and phases (claims Pending,
// Bound, Lost; volumes Pending, Available, Bound, Released, Failed); a volume whose claim goes is
// Released and reclaimed by its policy. A claim no volume matches is provisioned when its class
// allows: at once for an Immediate class, after the scheduler picked a node
// (volume.kubernetes.io/selected-node) for a WaitForFirstConsumer one. Only classes of the
// `rancher.io/local-path` provisioner are served (kind's `standard` class, which a workloads
// cluster registers); any other provisioner is an external one that never answers, as on a
// cluster without it. Its events (ExternalProvisioning, ProvisioningSucceeded, ...) are not recorded yet, though
// the other controllers record theirs through events/event-broadcaster.ts.
import type { KubeObject, StoredObject } from '../../apis/object.ts';
import { StatusError } from '../../errors/status-error.ts';
import type { StoreEvent } from '../../storage/versioned-store.ts';
import type { ControllerContext } from '../context.ts';
import { QueueController } from '../queue-controller.ts';
import { updateObject, updateStatus } from './controller-support.ts';
import { specOf, statusOf, type Json } from './objects.ts';
import {
  allVolumes,
  ANN_BETA_STORAGE_PROVISIONER,
  ANN_BIND_COMPLETED,
  ANN_BOUND_BY_CONTROLLER,
  ANN_PROVISIONED_BY,
  ANN_SELECTED_NODE,
  ANN_STORAGE_PROVISIONER,
  CLAIMS,
  claimClassOf,
  claimRefOf,
  CLASSES,
  classNamed,
  findBestMatchForClaim,
  isDelayBinding,
  isVolumeBoundToClaim,
  NO_PROVISIONER,
  requestedStorage,
  storageOf,
  volumeClassOf,
  volumeModeOf,
  VOLUMES,
} from './volumes.ts';

/** The provisioner kubefake stands in for (rancher/local-path-provisioner, kind's). */
export const LOCAL_PATH_PROVISIONER = 'rancher.io/local-path';
const LOCAL_PATH_SELECTED_NODE = 'local.path.provisioner/selected-node';
const LOCAL_PATH_ROOT = '/var/local-path-provisioner';

/** kind's default StorageClass (its default-storage.yaml), which a workloads cluster registers as kind does at creation. */
export const STANDARD_STORAGE_CLASS: KubeObject = {
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
  provisioner: LOCAL_PATH_PROVISIONER,
  reclaimPolicy: 'Delete',
  volumeBindingMode: 'WaitForFirstConsumer',
} as KubeObject;

export async function registerStandardStorageClass(ctx: ControllerContext): Promise<void> {
  await ctx.registryFor(ctx.catalog.find('storage.k8s.io', 'v1', 'storageclasses')!).create(undefined, structuredClone(STANDARD_STORAGE_CLASS), { fieldManager: 'kubectl-client-side-apply' });
}

const claimKey = (key: string) => `claim:${key}`;
const volumeKey = (name: string) => `volume:${name}`;
const annotationsOf = (obj: KubeObject): Record<string, string> => obj.metadata?.annotations ?? {};

export class PersistentVolumeController extends QueueController {
  readonly name = 'persistentvolume-binder';

  protected observe(event: StoreEvent): void {
    if (event.bucket === CLAIMS) {
      if (event.type !== 'DELETED') {
        this.queue.add(claimKey(event.key));
        return;
      }
      // A claim that goes releases its volume.
      for (const volume of allVolumes(this.ctx.store)) {
        const ref = claimRefOf(volume);
        if (ref?.name === event.object.metadata.name && ref?.namespace === event.object.metadata.namespace) this.queue.add(volumeKey(volume.metadata.name!));
      }
    } else if (event.bucket === VOLUMES) {
      if (event.type !== 'DELETED') this.queue.add(volumeKey(event.key));
      // A volume that goes loses its claim.
      const ref = claimRefOf(event.object);
      if (event.type === 'DELETED' && ref?.name) this.queue.add(claimKey(`${ref.namespace}/${ref.name}`));
      // The periodic resync of the pending claims, here on the change that may let them bind.
      this.queuePendingClaims();
    } else if (event.bucket === CLASSES) this.queuePendingClaims();
  }

  private queuePendingClaims(): void {
    for (const { key, object } of this.ctx.store.list(CLAIMS, '')) if (!annotationsOf(object)[ANN_BIND_COMPLETED]) this.queue.add(claimKey(key));
  }

  protected async sync(key: string): Promise<void> {
    if (key.startsWith('claim:')) {
      const claim = this.ctx.store.get(CLAIMS, key.slice('claim:'.length));
      if (!claim || claim.metadata.deletionTimestamp) return;
      if (annotationsOf(claim)[ANN_BIND_COMPLETED]) await this.syncBoundClaim(claim);
      else await this.syncUnboundClaim(claim);
      return;
    }
    const volume = this.ctx.store.get(VOLUMES, key.slice('volume:'.length));
    if (volume) await this.syncVolume(volume);
  }

  private volume(name: string): StoredObject | undefined {
    return name ? this.ctx.store.get(VOLUMES, name) : undefined;
  }

  /** syncUnboundClaim. */
  private async syncUnboundClaim(claim: StoredObject): Promise<void> {
    const volumeName = (specOf(claim).volumeName as string | undefined) ?? '';
    if (!volumeName) {
      const delayBinding = isDelayBinding(this.ctx.store, claim);
      const volume = findBestMatchForClaim(claim, allVolumes(this.ctx.store), delayBinding);
      if (volume) return this.bind(volume, claim);
      // Without a node chosen a delayed claim waits for its first consumer; with a class it is provisioned.
      if (!(delayBinding && !annotationsOf(claim)[ANN_SELECTED_NODE]) && claimClassOf(claim) !== '') return this.provisionClaim(claim);
      await this.updateClaimStatus(claim, 'Pending', undefined);
      return;
    }
    // The user asked for a volume by name.
    const volume = this.volume(volumeName);
    if (volume && (!claimRefOf(volume) ? satisfies(volume, claim) : isVolumeBoundToClaim(volume, claim))) return this.bind(volume, claim);
    // Missing, not good enough for the claim, or bound to another claim: Pending, retried later.
    await this.updateClaimStatus(claim, 'Pending', undefined);
  }

  /** syncBoundClaim: a claim bound before whose volume went or went elsewhere is Lost. */
  private async syncBoundClaim(claim: StoredObject): Promise<void> {
    const volume = this.volume((specOf(claim).volumeName as string | undefined) ?? '');
    if (!volume || (claimRefOf(volume) && claimRefOf(volume)!.uid !== claim.metadata.uid)) {
      await this.updateClaimStatus(claim, 'Lost', undefined);
      return;
    }
    await this.bind(volume, claim);
  }

  /** syncVolume. */
  private async syncVolume(volume: StoredObject): Promise<void> {
    const ref = claimRefOf(volume);
    // Unused, or reserved for a claim that has not bound yet.
    if (!ref || !ref.uid) {
      await this.updateVolumePhase(volume, 'Available', '');
      return;
    }
    let claim: StoredObject | undefined = this.ctx.store.get(CLAIMS, `${ref.namespace}/${ref.name}`);
    if (claim && claim.metadata.uid !== ref.uid) claim = undefined;
    if (!claim) {
      await this.releaseAndReclaim(volume);
      return;
    }
    const claimVolume = (specOf(claim).volumeName as string | undefined) ?? '';
    if (!claimVolume) {
      this.queue.add(claimKey(`${claim.metadata.namespace}/${claim.metadata.name}`));
      return;
    }
    if (claimVolume === volume.metadata.name) {
      await this.updateVolumePhase(volume, 'Bound', '');
      return;
    }
    // The claim is bound to another volume.
    if (annotationsOf(volume)[ANN_PROVISIONED_BY] && specOf(volume).persistentVolumeReclaimPolicy === 'Delete') await this.releaseAndReclaim(volume);
    else await this.unbindVolume(volume);
  }

  /** A volume whose claim is gone is Released (a Failed one stays Failed, for the user to see), then reclaimed. */
  private async releaseAndReclaim(volume: StoredObject): Promise<void> {
    const phase = statusOf(volume).phase;
    const released = phase === 'Released' || phase === 'Failed' ? volume : await this.updateVolumePhase(volume, 'Released', '');
    if (released) await this.reclaimVolume(released);
  }

  /**
   * bind: the volume's claimRef (bound-by-controller when the controller chose it), the volume
   * Bound, the claim's volumeName with bind-completed (and bound-by-controller when the claim
   * named no volume), the claim Bound with the volume's access modes and capacity.
   */
  private async bind(volume: StoredObject, claim: StoredObject): Promise<void> {
    const volumes = this.ctx.catalog.find('', 'v1', 'persistentvolumes')!;
    const claims = this.ctx.catalog.find('', 'v1', 'persistentvolumeclaims')!;
    const boundVolume = await updateObject(this.ctx, volumes, undefined, volume.metadata.name!, volume.metadata.uid!, (obj) => {
      const spec = specOf(obj);
      let dirty = false;
      const setByController = !isVolumeBoundToClaim(obj, claim);
      const ref = claimRefOf(obj);
      if (!ref || ref.name !== claim.metadata.name || ref.namespace !== claim.metadata.namespace || ref.uid !== claim.metadata.uid) {
        // reference.GetReference(claim).
        spec.claimRef = { kind: 'PersistentVolumeClaim', namespace: claim.metadata.namespace, name: claim.metadata.name, uid: claim.metadata.uid, apiVersion: 'v1', resourceVersion: claim.metadata.resourceVersion };
        dirty = true;
      }
      if (setByController && !annotationsOf(obj)[ANN_BOUND_BY_CONTROLLER]) {
        obj.metadata!.annotations = { ...annotationsOf(obj), [ANN_BOUND_BY_CONTROLLER]: 'yes' };
        dirty = true;
      }
      return dirty;
    });
    if (!boundVolume) return;
    const bound = await this.updateVolumePhase(boundVolume, 'Bound', '');
    if (!bound) return;
    const boundClaim = await updateObject(this.ctx, claims, claim.metadata.namespace, claim.metadata.name!, claim.metadata.uid!, (obj) => {
      const spec = specOf(obj);
      const annotations = { ...annotationsOf(obj) };
      let dirty = false;
      if (spec.volumeName !== bound.metadata.name) {
        spec.volumeName = bound.metadata.name;
        obj.spec = spec;
        if (!annotations[ANN_BOUND_BY_CONTROLLER]) annotations[ANN_BOUND_BY_CONTROLLER] = 'yes';
        dirty = true;
      }
      if (!annotations[ANN_BIND_COMPLETED]) {
        annotations[ANN_BIND_COMPLETED] = 'yes';
        dirty = true;
      }
      if (dirty) obj.metadata!.annotations = annotations;
      return dirty;
    });
    if (boundClaim) await this.updateClaimStatus(boundClaim, 'Bound', bound);
  }

  /** unbindVolume: a volume the controller bound goes back to the pool; one the user pre-bound keeps its claim's name. */
  private async unbindVolume(volume: StoredObject): Promise<void> {
    const type = this.ctx.catalog.find('', 'v1', 'persistentvolumes')!;
    const unbound = await updateObject(this.ctx, type, undefined, volume.metadata.name!, volume.metadata.uid!, (obj) => {
      const spec = specOf(obj);
      if (annotationsOf(obj)[ANN_BOUND_BY_CONTROLLER]) {
        delete spec.claimRef;
        const { [ANN_BOUND_BY_CONTROLLER]: _, ...rest } = annotationsOf(obj);
        if (Object.keys(rest).length) obj.metadata!.annotations = rest;
        else delete obj.metadata!.annotations;
      } else delete (spec.claimRef as Json).uid;
      return true;
    });
    if (unbound) await this.updateVolumePhase(unbound, 'Available', '');
  }

  /**
   * reclaimVolume for a Released volume: Retain keeps it; Delete removes what kubefake's
   * provisioner made (as local-path does), leaves other external provisioners' volumes to them,
   * and for the rest finds no deleter but hostPath's, which removes only /tmp/.+ (the volume goes
   * Failed with the deleter's error otherwise). Recycle (deprecated) is not done.
   */
  private async reclaimVolume(volume: StoredObject): Promise<void> {
    if (specOf(volume).persistentVolumeReclaimPolicy !== 'Delete') return;
    const provisionedBy = annotationsOf(volume)[ANN_PROVISIONED_BY];
    if (provisionedBy && provisionedBy !== LOCAL_PATH_PROVISIONER && !provisionedBy.startsWith('kubernetes.io/')) return;
    let failure: string | undefined;
    if (provisionedBy !== LOCAL_PATH_PROVISIONER) {
      const hostPath = (specOf(volume).hostPath as Json | undefined)?.path;
      if (typeof hostPath !== 'string') failure = `error getting deleter volume plugin for volume "${volume.metadata.name}": no deletable volume plugin matched`;
      else if (!/\/tmp\/.+/.test(hostPath)) failure = `host_path deleter only supports /tmp/.+ but received provided ${hostPath}`;
    }
    if (failure) {
      await this.updateVolumePhase(volume, 'Failed', failure);
      return;
    }
    try {
      await this.ctx.registryFor(this.resourceType('', 'persistentvolumes')).delete(undefined, volume.metadata.name!, { preconditions: { uid: volume.metadata.uid! } });
    } catch (err) {
      if (!(err instanceof StatusError && (err.code === 404 || err.code === 409))) throw err;
    }
  }

  /**
   * provisionClaim for an external provisioner: the claim is annotated with its class's
   * provisioner (both keys), then, for kubefake's own provisioner, the volume is made:
   * `pvc-<claim uid>`, the claim's size, modes and volumeMode, pre-bound to the claim, pinned to
   * the selected node when there is one.
   */
  private async provisionClaim(claim: StoredObject): Promise<void> {
    const className = claimClassOf(claim);
    const storageClass = classNamed(this.ctx.store, className) as (StoredObject & Json) | undefined;
    const provisioner = storageClass?.provisioner as string | undefined;
    if (!storageClass || !provisioner || provisioner === NO_PROVISIONER) {
      await this.updateClaimStatus(claim, 'Pending', undefined);
      return;
    }
    const claims = this.ctx.catalog.find('', 'v1', 'persistentvolumeclaims')!;
    const annotated = await updateObject(this.ctx, claims, claim.metadata.namespace, claim.metadata.name!, claim.metadata.uid!, (obj) => {
      const annotations = annotationsOf(obj);
      if (annotations[ANN_STORAGE_PROVISIONER] === provisioner && annotations[ANN_BETA_STORAGE_PROVISIONER] === provisioner) return false;
      obj.metadata!.annotations = { ...annotations, [ANN_BETA_STORAGE_PROVISIONER]: provisioner, [ANN_STORAGE_PROVISIONER]: provisioner };
      return true;
    });
    if (!annotated) return;
    await this.updateClaimStatus(annotated, 'Pending', undefined);
    if (provisioner !== LOCAL_PATH_PROVISIONER) return;
    const name = `pvc-${claim.metadata.uid}`;
    if (this.volume(name)) return;
    const node = annotationsOf(annotated)[ANN_SELECTED_NODE];
    const spec = specOf(annotated);
    const volume: KubeObject = {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name, annotations: { ...(node ? { [LOCAL_PATH_SELECTED_NODE]: node } : {}), [ANN_PROVISIONED_BY]: provisioner } },
      spec: {
        accessModes: structuredClone(spec.accessModes ?? []),
        capacity: { storage: (((spec.resources as Json | undefined)?.requests as Json | undefined)?.storage as string | undefined) ?? '0' },
        claimRef: { kind: 'PersistentVolumeClaim', namespace: annotated.metadata.namespace, name: annotated.metadata.name, uid: annotated.metadata.uid, apiVersion: 'v1', resourceVersion: annotated.metadata.resourceVersion },
        hostPath: { path: `${LOCAL_PATH_ROOT}/${name}_${annotated.metadata.namespace}_${annotated.metadata.name}`, type: 'DirectoryOrCreate' },
        ...(node ? { nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] }] } } } : {}),
        persistentVolumeReclaimPolicy: (storageClass.reclaimPolicy as string | undefined) ?? 'Delete',
        storageClassName: className,
        ...(storageClass.mountOptions ? { mountOptions: structuredClone(storageClass.mountOptions) } : {}),
        volumeMode: (spec.volumeMode as string | undefined) ?? 'Filesystem',
      },
    };
    try {
      await this.ctx.registryFor(this.resourceType('', 'persistentvolumes')).create(undefined, volume, { fieldManager: 'local-path-provisioner' });
    } catch (err) {
      if (!(err instanceof StatusError && err.status.reason === 'AlreadyExists')) throw err;
    }
  }

  /** updateClaimStatus: the phase; with a volume its access modes, and its capacity when the phase changes. */
  private async updateClaimStatus(claim: StoredObject, phase: string, volume: StoredObject | undefined): Promise<void> {
    const type = this.ctx.catalog.find('', 'v1', 'persistentvolumeclaims')!;
    await updateStatus(this.ctx, type, claim.metadata.namespace, claim.metadata.name!, claim.metadata.uid!, (obj) => {
      const status = (obj.status ?? {}) as Json;
      const becoming = status.phase !== phase;
      status.phase = phase;
      if (!volume) {
        delete status.accessModes;
        delete status.capacity;
      } else {
        status.accessModes = structuredClone(specOf(volume).accessModes ?? []);
        // The capacity only when the claim becomes Bound: a later difference may be a resize in progress.
        if (becoming) status.capacity = structuredClone(specOf(volume).capacity ?? {});
      }
      obj.status = status;
    });
  }

  /** updateVolumePhase: a new phase (and its message) through the status subresource. Answers the volume after. */
  private async updateVolumePhase(volume: StoredObject, phase: string, message: string): Promise<StoredObject | undefined> {
    if (statusOf(volume).phase === phase) return volume;
    const type = this.ctx.catalog.find('', 'v1', 'persistentvolumes')!;
    return updateStatus(this.ctx, type, undefined, volume.metadata.name!, volume.metadata.uid!, (obj) => {
      const status = (obj.status ?? {}) as Json;
      status.phase = phase;
      if (message) status.message = message;
      else delete status.message;
      obj.status = status;
    });
  }
}

/** checkVolumeSatisfyClaim: enough capacity, the same class and volumeMode. */
function satisfies(volume: KubeObject, claim: KubeObject): boolean {
  return storageOf(specOf(volume).capacity) >= requestedStorage(claim) && volumeClassOf(volume) === claimClassOf(claim) && volumeModeOf(volume) === volumeModeOf(claim);
}

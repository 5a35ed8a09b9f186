// What the PersistentVolume controller and the scheduler's VolumeBinding plugin both know about
// claims, volumes and classes (k8s.io/component-helpers/storage/volume, pkg/controller/volume/
// persistentvolume/util): the binding annotations, a claim's and a volume's class, whether a
// class delays binding to the first consumer, and FindMatchingVolume, the choice of a volume for
// a claim (with a node: the scheduler's, honouring the volume's node affinity).
import type { KubeObject, StoredObject } from '../../apis/object.ts';
import type { VersionedStore } from '../../storage/versioned-store.ts';
import { anyTermMatches } from './node-selector.ts';
import { selectorOf, specOf, type Json } from './objects.ts';
import { quantityValue } from './resources.ts';

export const CLAIMS = '/persistentvolumeclaims';
export const VOLUMES = '/persistentvolumes';
export const CLASSES = 'storage.k8s.io/storageclasses';

export const ANN_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
export const ANN_BOUND_BY_CONTROLLER = 'pv.kubernetes.io/bound-by-controller';
export const ANN_SELECTED_NODE = 'volume.kubernetes.io/selected-node';
export const ANN_STORAGE_PROVISIONER = 'volume.kubernetes.io/storage-provisioner';
export const ANN_BETA_STORAGE_PROVISIONER = 'volume.beta.kubernetes.io/storage-provisioner';
export const ANN_PROVISIONED_BY = 'pv.kubernetes.io/provisioned-by';
const ANN_BETA_CLASS = 'volume.beta.kubernetes.io/storage-class';
/** The provisioner of classes whose volumes are made by hand (local volumes). */
export const NO_PROVISIONER = 'kubernetes.io/no-provisioner';

type StoreReader = Pick<VersionedStore, 'get' | 'list'>;

/** GetPersistentVolumeClaimClass: the beta annotation, else spec.storageClassName, else "". */
export function claimClassOf(claim: KubeObject): string {
  const beta = claim.metadata?.annotations?.[ANN_BETA_CLASS];
  if (beta !== undefined) return beta;
  return (specOf(claim).storageClassName as string | undefined) ?? '';
}

/** GetPersistentVolumeClass. */
export function volumeClassOf(volume: KubeObject): string {
  const beta = volume.metadata?.annotations?.[ANN_BETA_CLASS];
  if (beta !== undefined) return beta;
  return (specOf(volume).storageClassName as string | undefined) ?? '';
}

export const classNamed = (store: StoreReader, name: string): StoredObject | undefined => (name ? store.get(CLASSES, name) : undefined);

/** IsDelayBindingMode: the claim's class exists and binds at the first consumer. */
export function isDelayBinding(store: StoreReader, claim: KubeObject): boolean {
  return (classNamed(store, claimClassOf(claim)) as Json | undefined)?.volumeBindingMode === 'WaitForFirstConsumer';
}

/** The scheduler's view of a bound claim: a volume named and the controller's bind-completed annotation. */
export const isClaimBound = (claim: KubeObject): boolean => !!specOf(claim).volumeName && claim.metadata?.annotations?.[ANN_BIND_COMPLETED] !== undefined;

interface ClaimRef {
  name?: string;
  namespace?: string;
  uid?: string;
}
export const claimRefOf = (volume: KubeObject): ClaimRef | undefined => (specOf(volume).claimRef ?? undefined) as ClaimRef | undefined;

/** IsVolumeBoundToClaim: the volume's claimRef names the claim (its uid too, once set). */
export function isVolumeBoundToClaim(volume: KubeObject, claim: KubeObject): boolean {
  const ref = claimRefOf(volume);
  if (!ref || ref.name !== claim.metadata?.name || ref.namespace !== claim.metadata?.namespace) return false;
  return !ref.uid || ref.uid === claim.metadata?.uid;
}

export const storageOf = (capacity: unknown): number => quantityValue((capacity as Json | undefined)?.storage);
export const requestedStorage = (claim: KubeObject): number => storageOf(((specOf(claim).resources as Json | undefined) ?? {}).requests);
export const volumeModeOf = (obj: KubeObject): string => (specOf(obj).volumeMode as string | undefined) ?? 'Filesystem';
const accessModesOf = (obj: KubeObject): string[] => (specOf(obj).accessModes as string[] | undefined) ?? [];

/** CheckNodeAffinity: the volume's required node affinity admits the node (none: every node). */
export function volumeFitsNode(volume: KubeObject, node: KubeObject): boolean {
  const terms = (((specOf(volume).nodeAffinity as Json | undefined)?.required as Json | undefined)?.nodeSelectorTerms ?? undefined) as Json[] | undefined;
  return !terms || anyTermMatches(terms, node);
}

/** CheckAccessModes: the volume offers every mode the claim asks for. */
const offersAccessModes = (claim: KubeObject, volume: KubeObject): boolean => accessModesOf(claim).every((m) => accessModesOf(volume).includes(m));

/**
 * FindMatchingVolume (component-helpers/storage/volume/pv_helpers.go): a volume pre-bound to the
 * claim wins (unless its node affinity rules out the node); otherwise the smallest Available
 * volume big enough, of the claim's class, volumeMode and selector (and, with a node, its access
 * modes and node affinity). Without a node a delayed-binding claim matches pre-bound volumes only.
 */
export function findMatchingVolume(claim: KubeObject, volumes: readonly StoredObject[], node: KubeObject | undefined, delayBinding: boolean): StoredObject | undefined {
  const requested = requestedStorage(claim);
  const requestedClass = claimClassOf(claim);
  const selector = specOf(claim).selector ? selectorOf(specOf(claim).selector) : undefined;
  let smallest: { volume: StoredObject; size: number } | undefined;
  for (const volume of volumes) {
    const ref = claimRefOf(volume);
    if (ref && !isVolumeBoundToClaim(volume, claim)) continue;
    const size = storageOf(specOf(volume).capacity);
    if (size < requested) continue;
    if (volumeModeOf(volume) !== volumeModeOf(claim)) continue;
    if (volume.metadata.deletionTimestamp) continue;
    const fitsNode = !node || volumeFitsNode(volume, node);
    if (isVolumeBoundToClaim(volume, claim)) return fitsNode ? volume : undefined;
    if (!node && delayBinding) continue;
    if ((volume.status as Json | undefined)?.phase !== 'Available') continue;
    if (specOf(claim).selector && (!selector || !selector.matches(volume.metadata.labels))) continue;
    if (volumeClassOf(volume) !== requestedClass) continue;
    if (!fitsNode) continue;
    if (node && !offersAccessModes(claim, volume)) continue;
    if (!smallest || smallest.size > size) smallest = { volume, size };
  }
  return smallest?.volume;
}

/**
 * The PV controller's findBestMatchForClaim (persistentvolume/index.go findByClaim): the volumes
 * grouped by their access modes, the groups that offer every mode the claim asks for tried from
 * the fewest modes up, the first match wins.
 */
export function findBestMatchForClaim(claim: KubeObject, volumes: readonly StoredObject[], delayBinding: boolean): StoredObject | undefined {
  const groups = new Map<string, StoredObject[]>();
  for (const volume of volumes) {
    const key = [...accessModesOf(volume)].sort().join(',');
    groups.set(key, [...(groups.get(key) ?? []), volume]);
  }
  const wanted = accessModesOf(claim);
  const candidates = [...groups.entries()]
    .map(([key, members]) => ({ modes: key ? key.split(',') : [], members }))
    .filter(({ modes }) => wanted.every((m) => modes.includes(m)))
    .sort((a, b) => a.modes.length - b.modes.length || (a.modes.join(',') < b.modes.join(',') ? -1 : 1));
  for (const { members } of candidates) {
    const found = findMatchingVolume(claim, members, undefined, delayBinding);
    if (found) return found;
  }
  return undefined;
}

/** Every stored volume, by name. */
export const allVolumes = (store: StoreReader): StoredObject[] => store.list(VOLUMES, '').map((e) => e.object);

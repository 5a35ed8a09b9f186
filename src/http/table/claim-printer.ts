// printPersistentVolumeClaim (kubernetes pkg/printers/internalversion/printers.go).
import type { KubeObject } from '../../apis/object.ts';
import type { BuiltinPrinter } from './printer-parts.ts';
import { arr, obj, str } from './format.ts';
import { AGE, ageOf, NAME, nameOf, row } from './printer-parts.ts';
import { column } from './table-types.ts';

const PVC_DOC = {
  phase: 'phase represents the current phase of PersistentVolumeClaim.',
  volumeName: 'volumeName is the binding reference to the PersistentVolume backing this claim.',
  capacity: 'capacity represents the actual resources of the underlying volume.',
  accessModes:
    'accessModes contains the actual access modes the volume backing the PVC has. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1',
  volumeMode: 'volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.',
};

const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

/** helper.GetAccessModesAsString: de-duplicated, always in the order RWO, ROX, RWX, RWOP. */
export function accessModesString(modes: unknown): string {
  const present = new Set(arr(modes).map(str));
  const short: [string, string][] = [
    ['ReadWriteOnce', 'RWO'],
    ['ReadOnlyMany', 'ROX'],
    ['ReadWriteMany', 'RWX'],
    ['ReadWriteOncePod', 'RWOP'],
  ];
  return short
    .filter(([mode]) => present.has(mode))
    .map(([, s]) => s)
    .join(',');
}

/** helper.GetPersistentVolumeClaimClass: the beta annotation first, then spec.storageClassName. */
function claimClass(o: KubeObject): string {
  const annotations = o.metadata?.annotations ?? {};
  if (Object.hasOwn(annotations, BETA_STORAGE_CLASS_ANNOTATION)) return annotations[BETA_STORAGE_CLASS_ANNOTATION]!;
  return str(obj(o.spec).storageClassName);
}

export const persistentVolumeClaims: BuiltinPrinter = {
  columns: [
    NAME,
    column('Status', 'string', PVC_DOC.phase),
    column('Volume', 'string', PVC_DOC.volumeName),
    column('Capacity', 'string', PVC_DOC.capacity),
    column('Access Modes', 'string', PVC_DOC.accessModes),
    column('StorageClass', 'string', 'StorageClass of the pvc'),
    column('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pvc'),
    AGE,
    column('VolumeMode', 'string', PVC_DOC.volumeMode, { priority: 1 }),
  ],
  print(o, now) {
    const spec = obj(o.spec);
    const status = obj(o.status);
    const phase = o.metadata?.deletionTimestamp ? 'Terminating' : str(status.phase);
    const volumeName = str(spec.volumeName);
    // Capacity and access modes are those of the bound volume, so only shown once bound.
    // (Quantities are printed as stored; the real server prints their canonical form.)
    const capacity = volumeName ? str(obj(status.capacity).storage) || '0' : '';
    const accessModes = volumeName ? accessModesString(status.accessModes) : '';
    const attributesClass = typeof spec.volumeAttributesClassName === 'string' ? spec.volumeAttributesClassName : '<unset>';
    const volumeMode = typeof spec.volumeMode === 'string' ? spec.volumeMode : '<unset>';
    return row(nameOf(o), phase, volumeName, capacity, accessModes, claimClass(o), attributesClass, ageOf(o, now), volumeMode);
  },
};

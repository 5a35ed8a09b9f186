// printPersistentVolume, printStorageClass and printPriorityClass (pkg/printers/internalversion/
// printers.go, v1.36), their swagger-doc column descriptions generated (printer-docs.generated.ts).
import type { KubeObject } from '../../apis/object.ts';
import { PRINTER_DOCS } from '../../generated/printer-docs.generated.ts';
import { accessModesString } from './claim-printer.ts';
import { num, obj, str } from './format.ts';
import { AGE, ageOf, NAME, nameOf, row, type BuiltinPrinter } from './printer-parts.ts';
import { column } from './table-types.ts';

const doc = (key: string): string => PRINTER_DOCS[key] ?? '';
const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

/** helper.GetPersistentVolumeClass: the beta annotation first, then spec.storageClassName. */
function volumeClass(o: KubeObject): string {
  const annotations = o.metadata?.annotations ?? {};
  if (Object.hasOwn(annotations, BETA_STORAGE_CLASS_ANNOTATION)) return annotations[BETA_STORAGE_CLASS_ANNOTATION]!;
  return str(obj(o.spec).storageClassName);
}

export const persistentVolumes: BuiltinPrinter = {
  columns: [
    NAME,
    column('Capacity', 'string', doc('persistentVolumeSpec.capacity')),
    column('Access Modes', 'string', doc('persistentVolumeSpec.accessModes')),
    column('Reclaim Policy', 'string', doc('persistentVolumeSpec.persistentVolumeReclaimPolicy')),
    column('Status', 'string', doc('persistentVolumeStatus.phase')),
    column('Claim', 'string', doc('persistentVolumeSpec.claimRef')),
    column('StorageClass', 'string', 'StorageClass of the pv'),
    column('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pv'),
    column('Reason', 'string', doc('persistentVolumeStatus.reason')),
    AGE,
    column('VolumeMode', 'string', doc('persistentVolumeSpec.volumeMode'), { priority: 1 }),
  ],
  print(o, now) {
    const spec = obj(o.spec);
    const status = obj(o.status);
    const claimRef = spec.claimRef === undefined || spec.claimRef === null ? '' : `${str(obj(spec.claimRef).namespace)}/${str(obj(spec.claimRef).name)}`;
    // Quantity.String() of a missing storage capacity is "0"; stored quantities are canonical.
    const size = str(obj(spec.capacity).storage) || '0';
    const phase = o.metadata?.deletionTimestamp ? 'Terminating' : str(status.phase);
    return row(
      nameOf(o),
      size,
      accessModesString(spec.accessModes),
      str(spec.persistentVolumeReclaimPolicy),
      phase,
      claimRef,
      volumeClass(o),
      typeof spec.volumeAttributesClassName === 'string' ? spec.volumeAttributesClassName : '<unset>',
      str(status.reason),
      ageOf(o, now),
      typeof spec.volumeMode === 'string' ? spec.volumeMode : '<unset>',
    );
  },
};

const DEFAULT_CLASS_ANNOTATIONS = ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'];

export const storageClasses: BuiltinPrinter = {
  columns: [
    NAME,
    column('Provisioner', 'string', doc('storageClass.provisioner')),
    column('ReclaimPolicy', 'string', doc('storageClass.reclaimPolicy')),
    column('VolumeBindingMode', 'string', doc('storageClass.volumeBindingMode')),
    column('AllowVolumeExpansion', 'string', doc('storageClass.allowVolumeExpansion')),
    AGE,
  ],
  print(o, now) {
    // storageutil.IsDefaultAnnotation: either annotation set to "true".
    const annotations = o.metadata?.annotations ?? {};
    const isDefault = DEFAULT_CLASS_ANNOTATIONS.some((a) => annotations[a] === 'true');
    return row(
      isDefault ? `${nameOf(o)} (default)` : nameOf(o),
      str(o.provisioner),
      typeof o.reclaimPolicy === 'string' ? o.reclaimPolicy : 'Delete',
      typeof o.volumeBindingMode === 'string' ? o.volumeBindingMode : 'Immediate',
      o.allowVolumeExpansion === true,
      ageOf(o, now),
    );
  },
};

export const priorityClasses: BuiltinPrinter = {
  columns: [
    NAME,
    column('Value', 'integer', doc('priorityClass.value')),
    column('Global-Default', 'boolean', doc('priorityClass.globalDefault')),
    AGE,
    column('PreemptionPolicy', 'string', doc('priorityClass.preemptionPolicy')),
  ],
  print: (o, now) => row(nameOf(o), num(o.value), o.globalDefault === true, ageOf(o, now), str(o.preemptionPolicy)),
};

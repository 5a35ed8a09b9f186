// ValidateStorageClass / ValidateStorageClassUpdate (pkg/apis/storage/validation/validation.go)
// and the spec part of ValidatePersistentVolumeClaim (pkg/apis/core/validation/validation.go),
// v1.36. A StorageClass names a qualified provisioner, a supported reclaim policy and binding
// mode, and may not change them or its parameters; a claim needs access modes (supported,
// ReadWriteOncePod alone) and a positive storage request.
// On update (ValidatePersistentVolumeClaimUpdate, ValidatePersistentVolumeUpdate) a claim's spec is
// frozen but for resources.requests and volumeAttributesClassName once bound, and a volume's
// source, volume mode and node affinity are; the Forbidden texts end with a go-cmp-style diff.
// Not ported: dataSource/dataSourceRef checks; allowedTopologies.
import { posix } from 'node:path';
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import { FIELD_IMMUTABLE_ERROR_MSG, invalidStruct, validateQualifiedName } from '../../validation/meta-fields.ts';
import { isDNS1123Subdomain } from '../../validation/names.ts';
import { deepEqual } from '../../util/deep-equal.ts';
import { isPlainObject, type KubeObject } from '../object.ts';
import { Quantity } from './quantity.ts';
import { validateLabelSelector } from './label-selector-validation.ts';
import { goStructDiff, internalJsonText } from './go-struct-diff.ts';
import { semanticEqual } from './shared.ts';

type Json = Record<string, unknown>;
const RECLAIM_POLICIES = ['Delete', 'Retain'];
const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'];
const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const VOLUME_MODES = ['Block', 'Filesystem'];
const MAX_PARAMETERS = 512;
const MAX_PARAMETERS_SIZE = 256 * (1 << 10);

/** SetDefaults_StorageClass. */
export function defaultStorageClass(sc: KubeObject): void {
  const o = sc as Json;
  if (o.reclaimPolicy === undefined || o.reclaimPolicy === null) o.reclaimPolicy = 'Delete';
  if (o.volumeBindingMode === undefined || o.volumeBindingMode === null) o.volumeBindingMode = 'Immediate';
}

export function validateStorageClass(sc: KubeObject): FieldError[] {
  const o = sc as Json;
  const errs: FieldError[] = [];
  const provisioner = typeof o.provisioner === 'string' ? o.provisioner : '';
  if (provisioner === '') errs.push(fieldError.required('provisioner', provisioner));
  else errs.push(...validateQualifiedName(provisioner.toLowerCase(), 'provisioner'));
  const params = isPlainObject(o.parameters) ? (o.parameters as Record<string, string>) : {};
  if (Object.keys(params).length > MAX_PARAMETERS) errs.push(fieldError.tooLong('parameters', MAX_PARAMETERS));
  else {
    let size = 0;
    for (const [k, v] of Object.entries(params)) size += Buffer.byteLength(k) + Buffer.byteLength(String(v));
    if (size > MAX_PARAMETERS_SIZE) errs.push(fieldError.tooLong('parameters', MAX_PARAMETERS_SIZE));
  }
  const reclaim = typeof o.reclaimPolicy === 'string' ? o.reclaimPolicy : '';
  if (reclaim !== '' && !RECLAIM_POLICIES.includes(reclaim)) errs.push(fieldError.notSupported('reclaimPolicy', reclaim, RECLAIM_POLICIES));
  if (typeof o.volumeBindingMode !== 'string') errs.push(fieldError.required('volumeBindingMode'));
  else if (!BINDING_MODES.includes(o.volumeBindingMode)) errs.push(fieldError.notSupported('volumeBindingMode', o.volumeBindingMode, BINDING_MODES));
  return errs;
}

export function validateStorageClassUpdate(sc: KubeObject, old: KubeObject): FieldError[] {
  const o = sc as Json;
  const p = old as Json;
  const errs: FieldError[] = [];
  if (!deepEqual(o.parameters ?? null, p.parameters ?? null)) errs.push(fieldError.forbidden('parameters', 'updates to parameters are forbidden.'));
  if (o.provisioner !== p.provisioner) errs.push(fieldError.forbidden('provisioner', 'updates to provisioner are forbidden.'));
  if (o.reclaimPolicy !== p.reclaimPolicy) errs.push(fieldError.forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
  if (o.volumeBindingMode !== p.volumeBindingMode) errs.push(fieldError.invalid('volumeBindingMode', o.volumeBindingMode ?? null, FIELD_IMMUTABLE_ERROR_MSG));
  return errs;
}

/**
 * The access-mode loop ValidatePersistentVolumeClaimSpec and ValidatePersistentVolumeSpec share:
 * each unsupported mode, then ReadWriteOncePod beside another supported mode (unsupported ones do not count).
 */
function accessModeErrors(modes: readonly string[]): FieldError[] {
  const errs = modes.filter((m) => !ACCESS_MODES.includes(m)).map((m) => fieldError.notSupported('spec.accessModes', m, ACCESS_MODES));
  if (modes.includes('ReadWriteOncePod') && modes.some((m) => m !== 'ReadWriteOncePod' && ACCESS_MODES.includes(m))) {
    errs.push(fieldError.forbidden('spec.accessModes', 'may not use ReadWriteOncePod with other access modes'));
  }
  return errs;
}

/** ValidatePersistentVolumeClaimSpec's common checks, on create and update. */
export function validatePersistentVolumeClaim(pvc: KubeObject): FieldError[] {
  const spec = (isPlainObject(pvc.spec) ? pvc.spec : {}) as Json;
  const errs: FieldError[] = [];
  const modes = Array.isArray(spec.accessModes) ? (spec.accessModes as unknown[]).map(String) : [];
  if (modes.length === 0) errs.push(fieldError.required('spec.accessModes', 'at least 1 access mode is required'));
  if (isPlainObject(spec.selector)) errs.push(...validateLabelSelector(spec.selector, 'spec.selector'));
  errs.push(...accessModeErrors(modes));
  const requests = isPlainObject(spec.resources) && isPlainObject((spec.resources as Json).requests) ? ((spec.resources as Json).requests as Json) : {};
  const storagePath = 'spec.resources[storage]';
  if (!('storage' in requests)) errs.push(fieldError.required(storagePath));
  else {
    const q = Quantity.parse(String(requests.storage));
    if (q instanceof Quantity && q.sign() <= 0) errs.push(fieldError.invalid(storagePath, q.toString(), 'must be greater than zero'));
  }
  if (typeof spec.storageClassName === 'string' && spec.storageClassName !== '') {
    errs.push(...isDNS1123Subdomain(spec.storageClassName).map((m) => fieldError.invalid('spec.storageClassName', spec.storageClassName, m)));
  }
  if (typeof spec.volumeMode === 'string' && !VOLUME_MODES.includes(spec.volumeMode)) errs.push(fieldError.notSupported('spec.volumeMode', spec.volumeMode, VOLUME_MODES));
  return errs;
}

// ---- PersistentVolume (ValidatePersistentVolumeSpec, not inline) ----

const PV_RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain'];
// The volume sources in the order Go checks them; flexVolume never counts as a second one.
const PV_SOURCES = [
  'hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'glusterfs', 'flocker', 'nfs', 'rbd', 'quobyte', 'cephfs', 'iscsi', 'cinder', 'fc',
  'flexVolume', 'azureFile', 'vsphereVolume', 'photonPersistentDisk', 'portworxVolume', 'azureDisk', 'scaleIO', 'local', 'storageos', 'csi',
];
// Go reports a second cephfs source under the Go-cased name.
const FORBIDDEN_PATH: Record<string, string> = { cephfs: 'cephFS' };

/**
 * ValidatePersistentVolume's spec checks: access modes, a positive storage capacity (and nothing
 * else), the reclaim policy, exactly one volume source (hostPath needs a path, local a node
 * affinity), class name and volume mode. Not ported: the per-source checks beyond hostPath and
 * node affinity terms.
 */
export function validatePersistentVolume(pv: KubeObject): FieldError[] {
  const spec = (isPlainObject(pv.spec) ? pv.spec : {}) as Json;
  const errs: FieldError[] = [];
  const modes = Array.isArray(spec.accessModes) ? (spec.accessModes as unknown[]).map(String) : [];
  if (modes.length === 0) errs.push(fieldError.required('spec.accessModes'));
  errs.push(...accessModeErrors(modes));
  const capacity = isPlainObject(spec.capacity) ? (spec.capacity as Json) : {};
  const keys = Object.keys(capacity).sort();
  if (keys.length === 0) errs.push(fieldError.required('spec.capacity'));
  if (!keys.includes('storage') || keys.length > 1) {
    const canonical = Object.fromEntries(keys.map((k) => [k, canonicalQuantity(capacity[k])]));
    errs.push(fieldError.notSupported('spec.capacity', canonical, ['storage']));
  }
  for (const k of keys) {
    const q = Quantity.parse(String(capacity[k]));
    if (q instanceof Quantity && q.sign() <= 0) errs.push(fieldError.invalid(`spec.capacity[${k}]`, q.toString(), 'must be greater than zero'));
  }
  const reclaim = typeof spec.persistentVolumeReclaimPolicy === 'string' ? spec.persistentVolumeReclaimPolicy : '';
  if (reclaim !== '' && !PV_RECLAIM_POLICIES.includes(reclaim)) errs.push(fieldError.notSupported('spec.persistentVolumeReclaimPolicy', reclaim, PV_RECLAIM_POLICIES));
  const nodeAffinitySpecified = isPlainObject(spec.nodeAffinity) && isPlainObject((spec.nodeAffinity as Json).required);
  let sources = 0;
  for (const key of PV_SOURCES) {
    const source = spec[key];
    if (!isPlainObject(source)) continue;
    if (sources > 0 && key !== 'flexVolume') {
      errs.push(fieldError.forbidden(`spec.${FORBIDDEN_PATH[key] ?? key}`, 'may not specify more than 1 volume type'));
      continue;
    }
    sources++;
    if (key === 'hostPath' && !(typeof (source as Json).path === 'string' && (source as Json).path !== '')) errs.push(fieldError.required('spec.hostPath.path'));
    if (key === 'local' && !nodeAffinitySpecified) errs.push(fieldError.required('spec.nodeAffinity', 'Local volume requires node affinity'));
  }
  if (sources === 0) errs.push(fieldError.required('spec', 'must specify a volume type'));
  const hostPath = isPlainObject(spec.hostPath) ? String((spec.hostPath as Json).path ?? '') : undefined;
  if (hostPath !== undefined && hostPath !== '' && posix.normalize(hostPath).replace(/(.)\/$/, '$1') === '/' && reclaim === 'Recycle') {
    errs.push(fieldError.forbidden('spec.persistentVolumeReclaimPolicy', "may not be 'recycle' for a hostPath mount of '/'"));
  }
  if (typeof spec.storageClassName === 'string' && spec.storageClassName !== '') {
    errs.push(...isDNS1123Subdomain(spec.storageClassName).map((m) => fieldError.invalid('spec.storageClassName', spec.storageClassName, m)));
  }
  if (typeof spec.volumeMode === 'string' && !VOLUME_MODES.includes(spec.volumeMode)) errs.push(fieldError.notSupported('spec.volumeMode', spec.volumeMode, VOLUME_MODES));
  return errs;
}

function canonicalQuantity(v: unknown): unknown {
  const q = Quantity.parse(String(v));
  return q instanceof Quantity ? q.toString() : v;
}

const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

const specOf = (o: KubeObject): Json => (isPlainObject(o.spec) ? (o.spec as Json) : {});
const annotationsOf = (o: KubeObject): Record<string, string> => (o.metadata?.annotations ?? {}) as Record<string, string>;
const storageRequest = (spec: Json): unknown => {
  const resources = isPlainObject(spec.resources) ? (spec.resources as Json) : {};
  return isPlainObject(resources.requests) ? (resources.requests as Json).storage : undefined;
};
const quantityOf = (v: unknown): Quantity => {
  const q = v === undefined ? undefined : Quantity.parse(String(v));
  return q instanceof Quantity ? q : (Quantity.parse('0') as Quantity);
};

/**
 * ValidatePersistentVolumeClaimUpdate (v1.36; RecoverVolumeExpansionFailure and
 * VolumeAttributesClass on): the claim is validated again; volumeName may be set once; the storage
 * class may move from the beta annotation (or from nil) to the field; a bound claim may change its
 * storage request and volume attributes class; anything else of the spec is one Forbidden. The
 * request may shrink, but not to status.capacity or below.
 */
export function validatePersistentVolumeClaimUpdate(pvc: KubeObject, old: KubeObject): FieldError[] {
  const errs = validatePersistentVolumeClaim(pvc);
  const spec = specOf(pvc);
  const oldSpec = specOf(old);
  const newClone: Json = structuredClone(spec);
  const oldClone: Json = structuredClone(oldSpec);
  if (typeof oldSpec.volumeName !== 'string' || oldSpec.volumeName === '') {
    if (spec.volumeName === undefined) delete oldClone.volumeName;
    else oldClone.volumeName = spec.volumeName;
  }
  const oldAnnotations = annotationsOf(old);
  const newAnnotations = annotationsOf(pvc);
  const oldScName = typeof oldSpec.storageClassName === 'string' ? oldSpec.storageClassName : undefined;
  const newScName = typeof spec.storageClassName === 'string' ? spec.storageClassName : undefined;
  const oldAnnotationSc = oldAnnotations[BETA_STORAGE_CLASS_ANNOTATION];
  const newAnnotationSc = newAnnotations[BETA_STORAGE_CLASS_ANNOTATION];
  const upgradeFromAnnotation =
    oldAnnotationSc !== undefined && oldScName === undefined && newScName !== undefined && newScName === oldAnnotationSc && (newAnnotationSc === undefined || newAnnotationSc === oldAnnotationSc);
  if (upgradeFromAnnotation) delete newClone.storageClassName;
  else {
    // ValidateImmutableAnnotation: the beta annotation may not change after creation.
    if ((newAnnotationSc ?? '') !== (oldAnnotationSc ?? '')) {
      errs.push(fieldError.invalid(`metadata.annotations.${BETA_STORAGE_CLASS_ANNOTATION}`, newAnnotationSc ?? '', FIELD_IMMUTABLE_ERROR_MSG));
    }
    // validateStorageClassUpgradeFromNil: a nil class may be set once, to the annotation's if there is one.
    if (newScName !== undefined && oldScName === undefined && (oldAnnotationSc === undefined || newScName === oldAnnotationSc)) delete newClone.storageClassName;
  }
  const bound = (isPlainObject(pvc.status) ? (pvc.status as Json).phase : undefined) === 'Bound';
  const cloneRequests = isPlainObject(newClone.resources) && isPlainObject((newClone.resources as Json).requests) ? ((newClone.resources as Json).requests as Json) : undefined;
  if (bound && cloneRequests) {
    const oldStorage = storageRequest(oldSpec);
    if (oldStorage === undefined) delete cloneRequests.storage;
    else cloneRequests.storage = oldStorage;
  }
  if (bound && newClone.volumeAttributesClassName !== undefined) {
    if (oldClone.volumeAttributesClassName === undefined) delete newClone.volumeAttributesClassName;
    else newClone.volumeAttributesClassName = oldClone.volumeAttributesClassName;
  }
  if (!semanticEqual(newClone, oldClone)) {
    const diff = goStructDiff('core.PersistentVolumeClaimSpec', 'core.v1.PersistentVolumeClaimSpec', oldClone, newClone);
    errs.push(fieldError.forbidden('spec', `spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n${diff}`));
  }
  const newSize = quantityOf(storageRequest(spec));
  const oldSize = quantityOf(storageRequest(oldSpec));
  const capacity = isPlainObject(old.status) && isPlainObject((old.status as Json).capacity) ? ((old.status as Json).capacity as Json).storage : undefined;
  if (newSize.cmp(oldSize) < 0 && newSize.cmp(quantityOf(capacity)) <= 0) {
    errs.push(fieldError.forbidden('spec.resources.requests.storage', 'field can not be less than status.capacity'));
  }
  // Go's path for this one has no `spec.` prefix.
  if ((spec.volumeMode ?? null) !== (oldSpec.volumeMode ?? null)) errs.push(fieldError.invalid('volumeMode', spec.volumeMode ?? null, FIELD_IMMUTABLE_ERROR_MSG));
  if (oldSpec.volumeAttributesClassName !== undefined && spec.volumeAttributesClassName !== oldSpec.volumeAttributesClassName) {
    if (spec.volumeAttributesClassName === undefined) errs.push(fieldError.forbidden('spec.volumeAttributesClassName', 'update from non-nil value to nil is forbidden'));
    else if (spec.volumeAttributesClassName === '') errs.push(fieldError.forbidden('spec.volumeAttributesClassName', 'update from non-nil value to an empty string is forbidden'));
  }
  return errs;
}

/**
 * ValidatePersistentVolumeUpdate (v1.36, MutablePVNodeAffinity off): the volume is validated
 * again; its source may not change (but a CSI controllerExpandSecretRef may be added), nor its
 * volume mode, nor a node affinity once set; a volume attributes class may not be removed.
 */
export function validatePersistentVolumeUpdate(pv: KubeObject, old: KubeObject): FieldError[] {
  const errs = validatePersistentVolume(pv);
  const spec = specOf(pv);
  const oldSpec = specOf(old);
  let compared = spec;
  const csi = isPlainObject(spec.csi) ? (spec.csi as Json) : undefined;
  const oldCsi = isPlainObject(oldSpec.csi) ? (oldSpec.csi as Json) : undefined;
  if (csi && oldCsi && oldCsi.controllerExpandSecretRef === undefined && csi.controllerExpandSecretRef !== undefined) {
    const { controllerExpandSecretRef: _added, ...rest } = csi;
    compared = { ...spec, csi: rest };
  }
  const sources = (s: Json) => Object.fromEntries(PV_SOURCES.filter((k) => s[k] !== undefined).map((k) => [k, s[k]]));
  if (!semanticEqual(sources(compared), sources(oldSpec))) {
    const diff = goStructDiff('core.PersistentVolumeSource', 'core.v1.PersistentVolumeSpec', oldSpec, compared, PV_SOURCES);
    errs.push(fieldError.forbidden('spec.persistentvolumesource', `spec.persistentvolumesource is immutable after creation\n${diff}`));
  }
  if ((spec.volumeMode ?? null) !== (oldSpec.volumeMode ?? null)) errs.push(fieldError.invalid('volumeMode', spec.volumeMode ?? null, FIELD_IMMUTABLE_ERROR_MSG));
  if (oldSpec.nodeAffinity !== undefined && !semanticEqual(spec.nodeAffinity, oldSpec.nodeAffinity)) {
    const shown = spec.nodeAffinity ?? null;
    errs.push(invalidStruct('nodeAffinity', internalJsonText(shown), FIELD_IMMUTABLE_ERROR_MSG));
  }
  if (oldSpec.volumeAttributesClassName !== undefined && spec.volumeAttributesClassName === undefined) {
    errs.push(fieldError.forbidden('spec.volumeAttributesClassName', 'update from non-nil value to nil is forbidden'));
  }
  return errs;
}

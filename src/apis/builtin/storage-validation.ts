// ValidateStorageClass / ValidateStorageClassUpdate (pkg/apis/storage/validation/validation.go)
// and the spec part of ValidatePersistentVolumeClaim (pkg/apis/core/validation/validation.go),
// v1.36. A StorageClass names a qualified provisioner, a supported reclaim policy and binding
// mode, and may not change them or its parameters; a claim needs access modes (supported,
// ReadWriteOncePod alone) and a positive storage request.
// Not ported: the PVC update rule (spec immutable but for resources.requests and
// volumeAttributesClassName once bound), whose message carries a go-cmp diff of the two specs;
// dataSource/dataSourceRef checks; allowedTopologies.
import { posix } from 'node:path';
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../validation/meta-fields.ts';
import { isDNS1123Subdomain, isQualifiedName } from '../../validation/names.ts';
import { deepEqual } from '../../util/deep-equal.ts';
import { isPlainObject, type KubeObject } from '../object.ts';
import { Quantity } from './quantity.ts';
import { validateLabelSelector } from './workload-validation.ts';

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
  else errs.push(...isQualifiedName(provisioner.toLowerCase()).map((m) => fieldError.invalid('provisioner', provisioner.toLowerCase(), m)));
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
 * affinity), class name and volume mode. Not ported: the per-source checks beyond hostPath, node
 * affinity terms, and the update rule (the source immutable, with a go-cmp diff in its message).
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

// PersistentVolumeClaimResize (plugin/pkg/admission/storage/persistentvolume/resize/admission.go,
// v1.36), validating, on updates of a claim itself: a claim whose storage request grows must have
// been Bound, and its storage class (the same before and after, as GetPersistentVolumeClaimClass
// reads it: beta annotation first) must exist and set allowVolumeExpansion: true.
// (The unbound case rarely shows: ValidatePersistentVolumeClaimUpdate already forbids changing the
// spec of a claim that is not bound.)
import type { KubeObject } from '../apis/object.ts';
import { isPlainObject } from '../apis/object.ts';
import { storageKeyOf } from '../apis/resource-type.ts';
import { Quantity } from '../apis/builtin/quantity.ts';
import { claimClass } from '../apis/quota/evaluators.ts';
import type { AdmissionPlugin } from '../registry/admission.ts';
import { admissionForbidden, isResource } from './forbidden.ts';
import type { AdmissionServices } from './services.ts';

const STORAGE_CLASSES = storageKeyOf({ group: 'storage.k8s.io', plural: 'storageclasses' });

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (isPlainObject(v) ? v : {});

/** spec.resources.requests.storage as a Quantity (missing or unparseable: zero, as the typed map reads it). */
function storageRequest(pvc: KubeObject | undefined): Quantity {
  const value = obj(obj(obj(pvc?.spec).resources).requests).storage;
  const q = value === undefined ? undefined : Quantity.parse(String(value));
  return q instanceof Quantity ? q : Quantity.fromInt64(0n);
}

export function persistentVolumeClaimResize(services: AdmissionServices): AdmissionPlugin {
  /** allowResize: both classes named and equal, the class stored, allowVolumeExpansion true. */
  const allowResize = (pvc: KubeObject, old: KubeObject): boolean => {
    const name = claimClass(pvc);
    if (name === '' || name !== claimClass(old)) return false;
    const sc = services.store.get(STORAGE_CLASSES, name) as Json | undefined;
    return sc?.allowVolumeExpansion === true;
  };
  return {
    name: 'PersistentVolumeClaimResize',
    handles: (op) => op === 'UPDATE',
    validate(a) {
      if (!isResource(a, '', 'persistentvolumeclaims') || a.subresource !== '' || !a.object || !a.oldObject) return;
      if (storageRequest(a.object).cmp(storageRequest(a.oldObject)) <= 0) return;
      if (obj(a.oldObject.status).phase !== 'Bound') throw admissionForbidden(a, 'Only bound persistent volume claims can be expanded');
      if (!allowResize(a.object, a.oldObject)) {
        throw admissionForbidden(a, 'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
      }
    },
  };
}
